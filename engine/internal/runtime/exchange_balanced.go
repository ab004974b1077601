package runtime

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// DefaultKeyGroups is the number of key groups a balanced hash exchange
// (Edge.KeyGroups) hashes its rows into: Flink's default maximum
// parallelism, the number of subpartitions its hash exchanges write.
const DefaultKeyGroups = 128

// keyGroupPool is the shared input of a balanced hash exchange: a batch
// job's hash edge into an operator that reads its whole input before it
// emits anything (the batch OVER). Instead of routing each row to one
// consumer instance by hash modulo the parallelism, the producers hash
// each row into one of groups key groups and leave their batches in the
// pool, with each row's key group; once a consumer instance has received
// the end of every producer (so the pool is complete), the key groups are
// assigned to the instances largest first, each to the instance with the
// fewest rows so far (longest processing time first), and every instance
// takes its groups' rows. Rows of one key stay in one key group and so in
// one instance, as a hash exchange guarantees; only which instance changes.
//
// Flink's adaptive batch scheduler balances the same way at its blocking
// exchanges (AllToAllVertexInputInfoComputer: a hash exchange writes
// max-parallelism subpartitions and each consumer subtask reads a range of
// them of about the same bytes); here the groups need not be contiguous,
// and rows are counted instead of bytes.
//
// The pool holds the batches as the producers emitted them (the consumer
// would hold the same rows); it bypasses the channels' byte budgets, which
// is fine only because the consumer buffers all of its input anyway.
type keyGroupPool struct {
	groups    int
	consumers int

	mu        sync.Mutex
	batches   []*keyGroupBatch
	groupRows []int64 // rows per key group

	assign sync.Once
	owner  []int // consumer instance of each key group

	hashes sync.Pool // *[]uint64: add's buffers of row hashes

	// dict numbers the values of a one-string-column key (nil for other
	// keys): made by the first add
	dict     *keyDict
	dictOnce sync.Once
}

// keyGroupBatch is one producer batch in a pool: each row's key group
// and the rows per key group, made by the producer, so that a consumer
// selects its groups' rows in one pass in the batch's order (reading the
// batch's columns forward, as they lie in memory).
type keyGroupBatch struct {
	batch  *types.Batch
	groups []uint8      // key group of each row
	counts []int32      // rows per key group
	ids    []uint16     // each row's number in the pool's keyDict, nil without
	left   atomic.Int32 // consumer instances yet to take their rows
}

// newKeyGroupPool returns the pool of a balanced exchange into consumers
// instances; groups is at most 256 (a key group is one byte per row).
func newKeyGroupPool(groups, consumers int) *keyGroupPool {
	groups = min(max(groups, 1), 256)
	return &keyGroupPool{groups: groups, consumers: consumers, groupRows: make([]int64, groups)}
}

// add puts a producer's batch into the pool, hashing its key columns.
func (p *keyGroupPool) add(b *types.Batch, keys []int) {
	if b == nil || b.Len == 0 {
		return
	}
	groups := make([]uint8, b.Len)
	counts := make([]int32, p.groups)
	var ids []uint16
	if n := uint64(p.groups); len(keys) == 1 && n&(n-1) == 0 && isStringColumn(b.Cols[keys[0]]) {
		// one string key (the OVER's PARTITION BY a code or name): one
		// pass without a hash buffer, which also numbers the values in
		// the pool's dictionary while it lasts
		p.dictOnce.Do(func() { p.dict = &keyDict{col: keys[0]} })
		if p.dict.col == keys[0] {
			ids = p.dict.numberBatch(b.Cols[keys[0]], n, groups, counts)
		}
		if ids == nil {
			stringKeyGroups(b.Cols[keys[0]], n, groups, counts)
		}
	} else {
		p.hashedKeyGroups(b, keys, groups, counts)
	}
	// Arrow counts a column's NULLs lazily and caches the count in the
	// array: count them here, before the consumer instances read the
	// batch side by side (gatherValidity), so that none writes it
	for _, c := range b.Cols {
		c.NullN()
	}
	kb := &keyGroupBatch{batch: b, groups: groups, counts: counts, ids: ids}
	kb.left.Store(int32(p.consumers))
	p.mu.Lock()
	p.batches = append(p.batches, kb)
	for g, c := range counts {
		p.groupRows[g] += int64(c)
	}
	p.mu.Unlock()
}

// isStringColumn reports a STRING or BINARY column.
func isStringColumn(c arrow.Array) bool {
	id := c.DataType().ID()
	return id == arrow.STRING || id == arrow.BINARY
}

// stringKeyGroups sets groups[i] to the key group of row i of the string
// column col, of n key groups (a power of two, at most 256), and counts
// the rows per group. A value's group is the top bits of its word times
// an odd constant (Fibonacci hashing): the word is shortKey's for a value
// of up to 7 bytes (read in the loop, without a call per row), the
// value's maphash for a longer one, a constant for NULL. Equal values
// get equal groups, which is all a key group needs.
func stringKeyGroups(col arrow.Array, n uint64, groups []uint8, counts []int32) {
	const nullWord = 0x51ed270b
	shift := uint(64 - bits.Len64(n-1)) // 64 for one group: every row in group 0
	offs, data := vector.StringData(col)
	offs = offs[:len(groups)+1]
	nulls := col.NullN() > 0
	var count [256]int32 // a group is a byte: no bounds check per row
	for i := range groups {
		from, to := int(offs[i]), int(offs[i+1])
		l := to - from
		var w uint64
		switch {
		case nulls && col.IsNull(i):
			w = nullWord
		case l <= 7 && from+8 <= len(data):
			w = binary.LittleEndian.Uint64(data[from:from+8])&(1<<(8*l)-1) | uint64(l)<<56
		default:
			if k, short := shortKey(offs, data, i); short {
				w = k
			} else {
				w = maphash.Bytes(hashSeed, data[from:to])
			}
		}
		g := uint8((w * 0x9E3779B97F4A7C15) >> shift)
		groups[i] = g
		count[g]++
	}
	copy(counts, count[:n])
}

// hashedKeyGroups sets groups[i] to the key group of row i of b by the
// hash of its key columns (HashColumn), and counts the rows per group.
func (p *keyGroupPool) hashedKeyGroups(b *types.Batch, keys []int, groups []uint8, counts []int32) {
	// the rows' hashes are needed only here: a buffer of the pool's,
	// reused (zeroed) from batch to batch
	hp, _ := p.hashes.Get().(*[]uint64)
	if hp == nil {
		hp = new([]uint64)
	}
	if cap(*hp) < b.Len {
		*hp = make([]uint64, b.Len)
	}
	hashes := (*hp)[:b.Len]
	clear(hashes)
	defer p.hashes.Put(hp)
	for _, k := range keys {
		HashColumn(b.Cols[k], hashes)
	}
	if n := uint64(p.groups); n&(n-1) == 0 {
		// a power of two (DefaultKeyGroups): the same groups as h % n,
		// without a division per row
		for i, h := range hashes {
			g := h & (n - 1)
			groups[i] = uint8(g)
			counts[g]++
		}
	} else {
		for i, h := range hashes {
			g := h % n
			groups[i] = uint8(g)
			counts[g]++
		}
	}
}

// owners returns each key group's consumer instance, computed once the
// pool is complete.
func (p *keyGroupPool) owners() []int {
	p.assign.Do(func() {
		p.mu.Lock()
		rows := append([]int64(nil), p.groupRows...)
		p.mu.Unlock()
		p.owner = balanceKeyGroups(rows, p.consumers)
		if p.dict != nil {
			p.dict.finish()
		}
	})
	return p.owner
}

// balanceKeyGroups assigns key groups of the given row counts to n
// instances: largest group first, each to the instance with the fewest
// rows so far (the lowest index among equals), so the result depends on
// the counts only. owner[g] is group g's instance.
func balanceKeyGroups(rows []int64, n int) []int {
	order := make([]int, len(rows))
	for g := range order {
		order[g] = g
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]] > rows[order[b]] })
	load := make([]int64, max(n, 1))
	owner := make([]int, len(rows))
	for _, g := range order {
		least := 0
		for i := 1; i < len(load); i++ {
			if load[i] < load[least] {
				least = i
			}
		}
		owner[g] = least
		load[least] += rows[g]
	}
	return owner
}

// drain hands consumer instance inst its rows as one batch (nil when it
// has none): the rows drainParts returns, gathered once, straight into the
// batch the consumer reads (no copy per producer batch, then a
// concatenation).
func (p *keyGroupPool) drain(ctx context.Context, inst int) (*types.Batch, error) {
	parts, total, err := p.drainParts(ctx, inst)
	if err != nil || total == 0 {
		return nil, err
	}
	return gatherRows(parts, total), nil
}

// drainParts returns consumer instance inst's rows, total of them, as the
// producers' batches in the order they were added, each with the rows of
// inst's key groups in the batch's order (so rows of one key keep their
// order). The pool must be complete (inst has seen every producer's end).
// A batch leaves the pool once every instance has taken its rows; the
// parts keep the batches they select from.
func (p *keyGroupPool) drainParts(ctx context.Context, inst int) ([]selectedRows, int, error) {
	var mine [256]uint8 // 1 for inst's key groups
	var groups []int
	for g, o := range p.owners() {
		if o == inst {
			mine[g] = 1
			groups = append(groups, g)
		}
	}
	p.mu.Lock()
	batches := p.batches
	p.mu.Unlock()
	var parts []selectedRows
	total := 0
	for _, kb := range batches {
		n := 0
		for _, g := range groups {
			n += int(kb.counts[g])
		}
		if n == 0 {
			continue
		}
		// every row's number is written, the count moves on for inst's
		// rows only (no branch per row); the last write may land past n
		sel := make([]int32, n+1)
		k := 0
		for i, g := range kb.groups {
			sel[k] = int32(i)
			k += int(mine[g])
		}
		part := selectedRows{b: kb.batch, sel: sel[:n:n]}
		if kb.ids != nil {
			part.ids, part.dict = kb.ids, p.dict
		}
		parts = append(parts, part)
		total += n
	}
	for _, kb := range batches {
		if kb.left.Add(-1) == 0 {
			// every instance has its rows: let the batch go
			kb.batch, kb.groups, kb.counts, kb.ids = nil, nil, nil, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return parts, total, nil
}

// selectedRows is rows sel of batch b; every row of b, in order, when sel
// is nil. ids, when not nil, numbers every row of b (not only the
// selected) in dict, the balanced exchange's dictionary of its string key.
type selectedRows struct {
	b    *types.Batch
	sel  []int32
	ids  []uint16
	dict *keyDict
}

// len returns the number of rows p selects.
func (p selectedRows) len() int {
	if p.sel == nil {
		return p.b.Len
	}
	return len(p.sel)
}

// wholeBatches returns batches as parts selecting all their rows, and the
// rows they hold.
func wholeBatches(batches []*types.Batch) ([]selectedRows, int) {
	parts := make([]selectedRows, 0, len(batches))
	total := 0
	for _, b := range batches {
		if b.Len > 0 {
			parts = append(parts, selectedRows{b: b})
			total += b.Len
		}
	}
	return parts, total
}

// gatherRows copies the selected rows of parts, in order, into one batch of
// total rows (columns and RowKinds).
func gatherRows(parts []selectedRows, total int) *types.Batch {
	if len(parts) == 1 {
		if parts[0].sel == nil {
			return parts[0].b
		}
		return TakeRows(parts[0].b, parts[0].sel)
	}
	first := parts[0].b
	cols := make([]arrow.Array, len(first.Cols))
	for c := range cols {
		if first.Cols[c] != nil {
			cols[c] = gatherColumn(parts, c, total)
		}
	}
	var kinds []types.RowKind
	for _, p := range parts {
		if p.b.Kinds != nil {
			kinds = make([]types.RowKind, 0, total)
			break
		}
	}
	if kinds != nil {
		for _, p := range parts {
			if p.sel == nil {
				for i := range p.b.Len {
					kinds = append(kinds, p.b.Kind(i))
				}
				continue
			}
			for _, s := range p.sel {
				kinds = append(kinds, p.b.Kind(int(s)))
			}
		}
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: total}
}

// gatherColumn gathers column c of parts: fixed-width and string columns
// in one pass into the result, others by a Take per part and a
// concatenation.
func gatherColumn(parts []selectedRows, c, total int) arrow.Array {
	dt := parts[0].b.Cols[c].DataType()
	valid := gatherValidity(parts, c, total)
	switch dt.ID() {
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return vector.FromValues(dt, gatherFixed[int32](parts, c, total), valid, -1)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION, arrow.DATE64:
		return vector.FromValues(dt, gatherFixed[int64](parts, c, total), valid, -1)
	case arrow.FLOAT64:
		return vector.FromValues(dt, gatherFixed[float64](parts, c, total), valid, -1)
	case arrow.STRING, arrow.BINARY:
		bytes := 0
		for _, p := range parts {
			offs, _ := vector.StringData(p.b.Cols[c])
			if p.sel == nil {
				bytes += int(offs[len(offs)-1] - offs[0])
				continue
			}
			for _, j := range p.sel {
				bytes += int(offs[j+1] - offs[j])
			}
		}
		outOffs := make([]int32, total+1)
		outData := make([]byte, 0, bytes)
		k := 0
		for _, p := range parts {
			offs, data := vector.StringData(p.b.Cols[c])
			if p.sel == nil {
				// the whole batch: one copy of its bytes, offsets shifted
				base := int32(len(outData)) - offs[0]
				outData = append(outData, data[offs[0]:offs[len(offs)-1]]...)
				for _, o := range offs[1:] {
					k++
					outOffs[k] = o + base
				}
				continue
			}
			for _, j := range p.sel {
				outData = append(outData, data[offs[j]:offs[j+1]]...)
				k++
				outOffs[k] = int32(len(outData))
			}
		}
		return vector.StringsFrom(outOffs, outData, valid, dt.ID() == arrow.BINARY)
	}
	arrs := make([]arrow.Array, len(parts))
	for i, p := range parts {
		if p.sel == nil {
			arrs[i] = p.b.Cols[c]
			continue
		}
		arrs[i] = vector.Take(p.b.Cols[c], p.sel)
	}
	return vector.Concat(arrs)
}

func gatherFixed[T vector.Fixed](parts []selectedRows, c, total int) []T {
	out := make([]T, total)
	k := 0
	for _, p := range parts {
		vals := vector.Values[T](p.b.Cols[c])
		if p.sel == nil {
			k += copy(out[k:], vals[:p.b.Len])
			continue
		}
		for _, j := range p.sel {
			out[k] = vals[j]
			k++
		}
	}
	return out
}

// gatherValidity is the validity bitmap of the gathered column c, nil when
// no selected row is NULL.
func gatherValidity(parts []selectedRows, c, total int) []byte {
	nulls := false
	for _, p := range parts {
		if p.b.Cols[c].NullN() > 0 {
			nulls = true
			break
		}
	}
	if !nulls {
		return nil
	}
	out := make([]byte, (total+7)/8)
	k := 0
	for _, p := range parts {
		col := p.b.Cols[c]
		if col.NullN() == 0 {
			// every selected row valid: set their bits
			n := p.len()
			for ; n > 0 && k&7 != 0; n-- {
				out[k>>3] |= 1 << (k & 7)
				k++
			}
			for ; n >= 8; n -= 8 {
				out[k>>3] = 0xff
				k += 8
			}
			for ; n > 0; n-- {
				out[k>>3] |= 1 << (k & 7)
				k++
			}
			continue
		}
		bits, off := col.NullBitmapBytes(), col.Data().Offset()
		if p.sel == nil {
			for j := range p.b.Len {
				out[k>>3] |= (bits[(off+j)>>3] >> ((off + j) & 7) & 1) << (k & 7)
				k++
			}
			continue
		}
		for _, j := range p.sel {
			i := off + int(j)
			out[k>>3] |= (bits[i>>3] >> (i & 7) & 1) << (k & 7)
			k++
		}
	}
	return out
}

// drainKeyGroups feeds a task's head operator its share of a balanced
// input once every producer of that input has ended.
func drainKeyGroups(ctx context.Context, pool *keyGroupPool, inst, in int, op Operator, m *OperatorMetrics) error {
	parts, total, err := pool.drainParts(ctx, inst)
	if err != nil || total == 0 {
		return err
	}
	m.RecordsIn.Add(int64(total))
	m.BatchesIn.Add(1)
	t0 := time.Now()
	if sc, ok := op.(selectedRowsConsumer); ok {
		err = sc.processSelected(in, parts, total)
	} else {
		err = op.ProcessBatch(in, gatherRows(parts, total))
	}
	m.BusyNanos.Add(int64(time.Since(t0)))
	return err
}

// selectedRowsConsumer is an operator that takes the rows of a balanced
// exchange as the producers' batches and the rows it selects of each,
// not gathered into one batch (the batch OVER, which reads what its sort
// needs straight from them).
type selectedRowsConsumer interface {
	// processSelected is ProcessBatch for the selected rows of parts,
	// total of them, as if gathered in order into one batch.
	processSelected(in int, parts []selectedRows, total int) error
}

// keyGroupPools returns, per input of node n, the pool of a balanced hash
// edge (nil for other edges): batch jobs only, into two or more instances.
func (e *executor) keyGroupPools(n *Node) []*keyGroupPool {
	pools := make([]*keyGroupPool, len(n.Inputs))
	for k, edge := range n.Inputs {
		if e.batch && edge.Part == opspec.Hash && edge.KeyGroups > 0 && n.Parallelism > 1 {
			pools[k] = newKeyGroupPool(edge.KeyGroups, n.Parallelism)
		}
	}
	return pools
}
