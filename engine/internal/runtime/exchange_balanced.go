package runtime

import (
	"context"
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

	mu      sync.Mutex
	batches []*keyGroupBatch
	rows    []int64 // rows per key group

	assign sync.Once
	owner  []int // consumer instance of each key group
}

// keyGroupBatch is one producer batch in a pool and its rows' key groups.
type keyGroupBatch struct {
	batch  *types.Batch
	groups []uint8
	left   atomic.Int32 // consumer instances yet to take their rows
}

// newKeyGroupPool returns the pool of a balanced exchange into consumers
// instances; groups is at most 256 (a key group is one byte per row).
func newKeyGroupPool(groups, consumers int) *keyGroupPool {
	groups = min(max(groups, 1), 256)
	return &keyGroupPool{groups: groups, consumers: consumers, rows: make([]int64, groups)}
}

// add puts a producer's batch into the pool, hashing its key columns.
func (p *keyGroupPool) add(b *types.Batch, keys []int) {
	if b == nil || b.Len == 0 {
		return
	}
	hashes := make([]uint64, b.Len)
	for _, k := range keys {
		HashColumn(b.Cols[k], hashes)
	}
	groups := make([]uint8, b.Len)
	var rows [256]int64
	n := uint64(p.groups)
	for i, h := range hashes {
		g := h % n
		groups[i] = uint8(g)
		rows[g]++
	}
	kb := &keyGroupBatch{batch: b, groups: groups}
	kb.left.Store(int32(p.consumers))
	p.mu.Lock()
	p.batches = append(p.batches, kb)
	for g := range p.rows {
		p.rows[g] += rows[g]
	}
	p.mu.Unlock()
}

// owners returns each key group's consumer instance, computed once the
// pool is complete.
func (p *keyGroupPool) owners() []int {
	p.assign.Do(func() {
		p.mu.Lock()
		rows := append([]int64(nil), p.rows...)
		p.mu.Unlock()
		p.owner = balanceKeyGroups(rows, p.consumers)
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

// drain hands consumer instance inst its rows, batch by batch in the
// order the producers added them, to process; a batch's rows keep their
// order. The pool must be complete (inst has seen every producer's end).
// A batch is dropped from the pool once every instance has taken its rows.
func (p *keyGroupPool) drain(ctx context.Context, inst int, process func(*types.Batch) error) error {
	owner := p.owners()
	mine := make([]bool, p.groups)
	for g, o := range owner {
		mine[g] = o == inst
	}
	p.mu.Lock()
	batches := p.batches
	p.mu.Unlock()
	var sel []int32
	for _, kb := range batches {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := kb.batch
		sel = sel[:0]
		for i, g := range kb.groups {
			if mine[g] {
				sel = append(sel, int32(i))
			}
		}
		var out *types.Batch
		switch len(sel) {
		case 0:
		case b.Len:
			out = b
		default:
			out = takeBatchRows(b, sel)
		}
		if kb.left.Add(-1) == 0 {
			// every instance has its rows: let the batch go
			kb.batch, kb.groups = nil, nil
		}
		if out != nil {
			if err := process(out); err != nil {
				return err
			}
		}
	}
	return nil
}

// takeBatchRows copies the rows sel of b (columns and RowKinds).
func takeBatchRows(b *types.Batch, sel []int32) *types.Batch {
	cols := make([]arrow.Array, len(b.Cols))
	for c, col := range b.Cols {
		if col != nil {
			cols[c] = vector.Take(col, sel)
		}
	}
	var kinds []types.RowKind
	if b.Kinds != nil {
		kinds = make([]types.RowKind, len(sel))
		for i, s := range sel {
			kinds[i] = b.Kinds[s]
		}
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: len(sel)}
}

// drainKeyGroups feeds a task's head operator its share of a balanced
// input once every producer of that input has ended.
func drainKeyGroups(ctx context.Context, pool *keyGroupPool, inst, in int, op Operator, m *OperatorMetrics) error {
	return pool.drain(ctx, inst, func(b *types.Batch) error {
		m.RecordsIn.Add(int64(b.Len))
		m.BatchesIn.Add(1)
		t0 := time.Now()
		err := op.ProcessBatch(in, b)
		m.BusyNanos.Add(int64(time.Since(t0)))
		return err
	})
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
