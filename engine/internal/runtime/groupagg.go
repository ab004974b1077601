package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// groupIndex maps the key columns of a row to a dense group id.
type groupIndex interface {
	// lookup returns the group of row i, creating it (next id) if new.
	lookup(b *types.Batch, i int, next int32) (g int32, isNew bool)
	// find returns the group of row i without creating it.
	find(b *types.Batch, i int) (int32, bool)
	// remove forgets the group of row i.
	remove(b *types.Batch, i int)
	size() int64
	// evict forgets every group for which dead returns true.
	evict(dead func(g int32) bool)
	// count is the number of groups.
	count() int64
}

func newGroupIndex(keys []int, keyTypes []*types.DataType) groupIndex {
	switch {
	case len(keys) == 0:
		return &globalIndex{}
	case len(keys) == 1 && (keyTypes[0].IsIntegral() || keyTypes[0].IsDatetime() || keyTypes[0].IsInterval()):
		return newIntIndex(keys[0])
	case len(keys) == 1 && keyTypes[0].IsString():
		return newStrIndex(keys[0])
	}
	return &bytesIndex{cols: keys, m: map[string]int32{}}
}

type globalIndex struct{ exists bool }

func (x *globalIndex) lookup(_ *types.Batch, _ int, _ int32) (int32, bool) {
	if x.exists {
		return 0, false
	}
	x.exists = true
	return 0, true
}
func (x *globalIndex) find(*types.Batch, int) (int32, bool) { return 0, x.exists }
func (x *globalIndex) remove(*types.Batch, int)             { x.exists = false }
func (x *globalIndex) size() int64                          { return 0 }
func (x *globalIndex) count() int64 {
	if x.exists {
		return 1
	}
	return 0
}
func (x *globalIndex) evict(dead func(int32) bool) {
	if x.exists && dead(0) {
		x.exists = false
	}
}

// intIndex numbers the values of one integral, date/time or interval key
// column: the value's bits key an open-addressing table, except -1, whose
// bits are the table's empty mark and which has its own field.
//
// small remembers the groups of the keys 0 to smallKeys-1 the table holds
// (group + 1; 0 when not remembered): a key of few small values (an hour,
// a month, a status code) is then numbered by one array read per row in
// lookupBatch's loop for BIGINT and INT columns. The table stays the
// keys' only record: removing a key forgets it here too.
type intIndex struct {
	col   int
	t     u64Table
	minus int32 // the group of key -1, -1 if none
	null  int32
	small [smallKeys]int32
	// lookupBatch's buffers
	keys []uint64
	ids  []int32
}

// smallKeys bounds the keys intIndex.small remembers: 0 to smallKeys-1.
const smallKeys = 256

func newIntIndex(col int) *intIndex { return &intIndex{col: col, minus: -1, null: -1} }

func (x *intIndex) lookup(b *types.Batch, i int, next int32) (int32, bool) {
	c := b.Cols[x.col]
	if c.IsNull(i) {
		if x.null >= 0 {
			return x.null, false
		}
		x.null = next
		return next, true
	}
	return x.numberKey(int64Of(c, i), next)
}

// numberKey returns the group of the non-NULL key k, numbering it next
// when it is new (isNew): -1 in its own field, any other key in the
// table.
func (x *intIndex) numberKey(k int64, next int32) (g int32, isNew bool) {
	if uint64(k) == emptyPair {
		if x.minus >= 0 {
			return x.minus, false
		}
		x.minus = next
		return next, true
	}
	p, isNew := x.t.slot(uint64(k))
	if isNew {
		*p = int64(next)
	}
	return int32(*p), isNew
}

func (x *intIndex) findKey(k int64) (int32, bool) {
	if uint64(k) == emptyPair {
		return x.minus, x.minus >= 0
	}
	if p := x.t.find(uint64(k)); p != nil {
		return int32(*p), true
	}
	return 0, false
}

func (x *intIndex) find(b *types.Batch, i int) (int32, bool) {
	c := b.Cols[x.col]
	if c.IsNull(i) {
		return x.null, x.null >= 0
	}
	return x.findKey(int64Of(c, i))
}

func (x *intIndex) remove(b *types.Batch, i int) {
	c := b.Cols[x.col]
	if c.IsNull(i) {
		x.null = -1
		return
	}
	x.removeKey(int64Of(c, i))
}

func (x *intIndex) removeKey(k int64) {
	if uint64(k) == emptyPair {
		x.minus = -1
		return
	}
	if uint64(k) < smallKeys {
		x.small[k] = 0
	}
	x.t.remove(uint64(k))
}

func (x *intIndex) size() int64 { return int64(len(x.t.keys)) * 16 }

func (x *intIndex) count() int64 {
	return int64(x.t.n) + int64(min(x.minus+1, 1)) + int64(min(x.null+1, 1))
}

// each calls f with every non-NULL key and its group.
func (x *intIndex) each(f func(k int64, g int32)) {
	for j, k := range x.t.keys {
		if k != emptyPair {
			f(int64(k), int32(x.t.vals[j]))
		}
	}
	if x.minus >= 0 {
		f(-1, x.minus)
	}
}

func (x *intIndex) evict(dead func(int32) bool) {
	var drop []uint64
	for j, k := range x.t.keys {
		if k != emptyPair && dead(int32(x.t.vals[j])) {
			drop = append(drop, k)
		}
	}
	for _, k := range drop {
		x.removeKey(int64(k))
	}
	if x.minus >= 0 && dead(x.minus) {
		x.minus = -1
	}
	if x.null >= 0 && dead(x.null) {
		x.null = -1
	}
}

// strIndex numbers the values of one string key column; values of up to
// 7 bytes are keyed by shortKey, longer ones by the string.
type strIndex struct {
	col   int
	short u64Table
	m     map[string]int32
	null  int32
	keys  []uint64 // lookupBatch's packed keys
}

func newStrIndex(col int) *strIndex {
	return &strIndex{col: col, m: map[string]int32{}, null: -1}
}

func (x *strIndex) lookup(b *types.Batch, i int, next int32) (int32, bool) {
	c := b.Cols[x.col]
	if c.IsNull(i) {
		if x.null >= 0 {
			return x.null, false
		}
		x.null = next
		return next, true
	}
	offs, data := vector.StringData(c)
	if k, ok := shortKey(offs, data, i); ok {
		p, isNew := x.short.slot(k)
		if isNew {
			*p = int64(next)
		}
		return int32(*p), isNew
	}
	k := vector.UnsafeString(data[offs[i]:offs[i+1]])
	if g, ok := x.m[k]; ok {
		return g, false
	}
	x.m[strings.Clone(k)] = next
	return next, true
}

func (x *strIndex) find(b *types.Batch, i int) (int32, bool) {
	return x.findIn(b.Cols[x.col], i)
}

// findIn looks up row i of c, a string column of another batch than the
// one the index numbers (a join's probe side).
func (x *strIndex) findIn(c arrow.Array, i int) (int32, bool) {
	if c.IsNull(i) {
		return x.null, x.null >= 0
	}
	offs, data := vector.StringData(c)
	if k, ok := shortKey(offs, data, i); ok {
		if p := x.short.find(k); p != nil {
			return int32(*p), true
		}
		return 0, false
	}
	g, ok := x.m[vector.UnsafeString(data[offs[i]:offs[i+1]])]
	return g, ok
}

func (x *strIndex) remove(b *types.Batch, i int) {
	c := b.Cols[x.col]
	if c.IsNull(i) {
		x.null = -1
		return
	}
	offs, data := vector.StringData(c)
	if k, ok := shortKey(offs, data, i); ok {
		x.short.remove(k)
		return
	}
	delete(x.m, vector.UnsafeString(data[offs[i]:offs[i+1]]))
}

func (x *strIndex) size() int64 {
	return int64(len(x.m))*40 + int64(len(x.short.keys))*16
}

func (x *strIndex) count() int64 {
	return int64(len(x.m)) + int64(x.short.n) + int64(min(x.null+1, 1))
}

func (x *strIndex) evict(dead func(int32) bool) {
	var drop []uint64
	for j, k := range x.short.keys {
		if k != emptyPair && dead(int32(x.short.vals[j])) {
			drop = append(drop, k)
		}
	}
	for _, k := range drop {
		x.short.remove(k)
	}
	for k, g := range x.m {
		if dead(g) {
			delete(x.m, k)
		}
	}
	if x.null >= 0 && dead(x.null) {
		x.null = -1
	}
}

type bytesIndex struct {
	cols []int
	m    map[string]int32
	buf  []byte
}

func (x *bytesIndex) lookup(b *types.Batch, i int, next int32) (int32, bool) {
	x.buf = AppendRowKey(x.buf[:0], b, x.cols, i)
	if g, ok := x.m[vector.UnsafeString(x.buf)]; ok {
		return g, false
	}
	x.m[string(x.buf)] = next
	return next, true
}

func (x *bytesIndex) find(b *types.Batch, i int) (int32, bool) {
	x.buf = AppendRowKey(x.buf[:0], b, x.cols, i)
	g, ok := x.m[vector.UnsafeString(x.buf)]
	return g, ok
}

func (x *bytesIndex) remove(b *types.Batch, i int) {
	x.buf = AppendRowKey(x.buf[:0], b, x.cols, i)
	delete(x.m, string(x.buf))
}

func (x *bytesIndex) size() int64 { return int64(len(x.m)) * 48 }

func (x *bytesIndex) count() int64 { return int64(len(x.m)) }

func (x *bytesIndex) evict(dead func(int32) bool) {
	for k, g := range x.m {
		if dead(g) {
			delete(x.m, k)
		}
	}
}

// GroupAgg is a GROUP BY aggregation over keyed groups.
//
// In batch mode (or with Final set) it accumulates its whole input and
// emits one insert-only row per group at the end (Flink's HashAggregate);
// a global aggregate (no keys) then emits exactly one row even for empty
// input. In streaming mode it emits, per input row, the change of its
// group's result as Flink's GroupAggFunction does: +I for a new group,
// -U old / +U new when the result changes, nothing when it does not, and
// -D when the group's row count drops to zero. Retractions (-U/-D) in the
// input are applied to the accumulators.
type GroupAgg struct {
	BaseOperator
	Keys     []int
	KeyTypes []*types.DataType
	Aggs     []opspec.AggSpec
	OutTypes []*types.DataType
	// Final makes the operator emit only at the end of input.
	Final bool
	// Retractable input: MIN/MAX keep multisets, COUNT(*) tracks rows.
	Retractable bool
	// NoUpdateBefore leaves out -U rows: an update is +U alone (Flink's
	// generateUpdateBefore = false, when the consumer takes upserts).
	NoUpdateBefore bool
	// Phase is the operator's phase in a two-phase batch aggregation
	// (groupagg_phase.go); MergeCols are, in MergePhase, the input columns
	// holding each call's partial state.
	Phase     AggPhase
	MergeCols [][]int

	accs    []accumulator
	index   groupIndex
	nGroups int32
	// batch mode: key values of groups, one chunk per input batch
	keyChunks [][]arrow.Array
	// streaming mode
	rowCount []int64
	prev     [][]any
	gidsBuf  []int32
	// mini-batch: the batch in which a group was last touched
	touchedAt []uint32
	stamp     uint32
	// state TTL (groupagg_ttl.go)
	ttl ttlState
	// free holds the ids of removed groups (expired or emptied) for reuse
	// by new groups; reuse is off in batch mode and when an accumulator
	// cannot reset a group (groupagg_ttl.go)
	free    []int32
	reuse   bool
	noReuse bool // tests: never reuse ids (the behaviour before reuse)
	// disk keeps the groups in the disk state backend, the ones above
	// being a cache of them (groupagg_disk.go); nil: all in memory
	disk *aggDisk
}

// Open implements Operator.
func (a *GroupAgg) Open(ctx *OpContext, out Output) error {
	a.BaseOperator.Open(ctx, out)
	a.index = newGroupIndex(a.Keys, a.KeyTypes)
	if ctx.Batch && len(a.Keys) == 2 && pairKeyable(a.KeyTypes[0]) && pairKeyable(a.KeyTypes[1]) {
		// batch only: no snapshot saves a pairIndex
		a.index = newPairIndex(a.Keys, a.KeyTypes)
	}
	for _, s := range a.Aggs {
		acc, err := newAccumulator(s, a.Retractable)
		if err != nil {
			return err
		}
		a.accs = append(a.accs, acc)
	}
	if err := openAccumulators(a.accs, ctx); err != nil {
		return err
	}
	if ctx.Batch {
		a.Final = true
	}
	a.ttl.open(ctx)
	a.reuse = !a.Final && !a.noReuse && canReset(a.accs)
	return a.openDisk(ctx)
}

// Close implements Operator: it closes user-defined aggregate functions
// and the group store.
func (a *GroupAgg) Close() error { return errors.Join(closeAccumulators(a.accs), a.closeDisk()) }

func (a *GroupAgg) argCols(b *types.Batch, s opspec.AggSpec) []arrow.Array {
	if len(s.Args) == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(s.Args))
	for i, c := range s.Args {
		cols[i] = b.Cols[c]
	}
	return cols
}

// ProcessBatch implements Operator.
func (a *GroupAgg) ProcessBatch(_ int, b *types.Batch) error {
	if a.Final {
		if err := finalInsertOnly(b); err != nil {
			return err
		}
		return a.accumulateBatch(b)
	}
	if a.disk != nil {
		if err := a.maybeEvict(); err != nil {
			return err
		}
	}
	if !a.Final && a.Ctx.Config.MiniBatch {
		return a.processMiniBatch(b)
	}
	return a.processRows(b)
}

// processMiniBatch applies a whole batch (a mini-batch bundle, Flink's
// MiniBatchGroupAggFunction with table.exec.mini-batch.enabled) and then
// emits one change per touched group, in the order the groups were first
// touched: +I for a new group, -U/+U when its result changed, -D when its
// row count dropped to zero. Insert-only input is accumulated column-wise.
func (a *GroupAgg) processMiniBatch(b *types.Batch) error {
	if cap(a.gidsBuf) < b.Len {
		a.gidsBuf = make([]int32, b.Len)
	}
	gids := a.gidsBuf[:b.Len]
	a.stamp++
	now := a.ttl.now()
	var touched []int32
	var firstRow []int32
	touch := func(g int32, i int) {
		for int(g) >= len(a.touchedAt) {
			a.touchedAt = append(a.touchedAt, 0)
		}
		if a.touchedAt[g] != a.stamp {
			a.touchedAt[g] = a.stamp
			touched = append(touched, g)
			firstRow = append(firstRow, int32(i))
		}
	}
	newGroup := a.newGroup
	if b.InsertOnly() {
		for i := 0; i < b.Len; i++ {
			g, found, err := a.findGroup(b, i)
			if err != nil {
				return err
			}
			if found && a.ttl.expired(g, now) {
				g, found = a.expire(b, i, g)
			}
			if !found {
				g = newGroup(b, i)
			}
			gids[i] = g
			a.rowCount[g]++
			touch(g, i)
			a.ttl.write(g, now)
		}
		accumulateAggs(a.accs, a.Aggs, b, gids)
	} else {
		args := make([][]arrow.Array, len(a.Aggs))
		for k, s := range a.Aggs {
			args[k] = a.argCols(b, s)
		}
		for i := 0; i < b.Len; i++ {
			retract := b.Kind(i).IsRetract()
			g, found, err := a.findGroup(b, i)
			if err != nil {
				return err
			}
			if found && a.ttl.expired(g, now) {
				g, found = a.expire(b, i, g)
			}
			if !found {
				if retract {
					continue
				}
				g = newGroup(b, i)
			}
			touch(g, i)
			a.ttl.write(g, now)
			if retract {
				a.rowCount[g]--
			} else {
				a.rowCount[g]++
			}
			for k, s := range a.Aggs {
				if s.Filter >= 0 {
					f := b.Cols[s.Filter].(*array.Boolean)
					if !f.IsValid(i) || !f.Value(i) {
						continue
					}
				}
				a.accs[k].update(g, args[k], i, retract)
			}
		}
	}
	ob := newRowEmitter(a.OutTypes, len(a.Keys))
	for t, g := range touched {
		if err := a.emitGroupChange(ob, b, int(firstRow[t]), g); err != nil {
			return err
		}
	}
	a.reportState()
	return a.Emit(ob.build(b))
}

func (a *GroupAgg) accumulateBatch(b *types.Batch) error {
	if cap(a.gidsBuf) < b.Len {
		a.gidsBuf = make([]int32, b.Len)
	}
	gids := a.gidsBuf[:b.Len]
	var newRows []int32
	if bx, ok := a.index.(batchIndex); ok {
		a.nGroups, newRows = bx.lookupBatch(b, a.nGroups, gids, nil)
	} else {
		for i := 0; i < b.Len; i++ {
			g, isNew := a.index.lookup(b, i, a.nGroups)
			if isNew {
				a.nGroups++
				newRows = append(newRows, int32(i))
			}
			gids[i] = g
		}
	}
	if len(newRows) > 0 {
		chunk := make([]arrow.Array, len(a.Keys))
		for k, c := range a.Keys {
			chunk[k] = vector.Take(b.Cols[c], newRows)
		}
		a.keyChunks = append(a.keyChunks, chunk)
		for _, acc := range a.accs {
			acc.resize(int(a.nGroups))
		}
	}
	for k, s := range a.Aggs {
		if a.Phase == MergePhase {
			a.mergePartial(k, gids, b)
			continue
		}
		args := a.argCols(b, s)
		if s.Filter >= 0 {
			filtered := make([]int32, len(gids))
			f := b.Cols[s.Filter].(*array.Boolean)
			for i, g := range gids {
				if f.IsValid(i) && f.Value(i) {
					filtered[i] = g
				} else {
					filtered[i] = -1
				}
			}
			a.accs[k].accumulateBatch(filtered, args)
			continue
		}
		a.accs[k].accumulateBatch(gids, args)
	}
	return nil
}

// finalInsertOnly refuses a change (-U/+U/-D) in the input of a batch
// aggregation, which keeps no row counts and never retracts a result: the
// batch planner refuses every route that would bring one (an updating
// source, FROM_CHANGELOG, a PTF with updating output), so one here is a
// source breaking its insert-only contract, reported, not panicked on.
func finalInsertOnly(b *types.Batch) error {
	if b.InsertOnly() {
		return nil
	}
	for _, k := range b.Kinds {
		if k != types.Insert {
			return fmt.Errorf("A batch aggregation consumes only INSERT rows, but its input produced a row of kind %s (%s): in batch mode only insert-only inputs are supported", k, k.ShortString())
		}
	}
	return nil
}

// processRows handles one streaming batch row by row, emitting changelog
// output.
func (a *GroupAgg) processRows(b *types.Batch) error {
	ob := newRowEmitter(a.OutTypes, len(a.Keys))
	args := make([][]arrow.Array, len(a.Aggs))
	for k, s := range a.Aggs {
		args[k] = a.argCols(b, s)
	}
	now := a.ttl.now()
	for i := 0; i < b.Len; i++ {
		retract := b.Kind(i).IsRetract()
		g, found, err := a.findGroup(b, i)
		if err != nil {
			return err
		}
		if found && a.ttl.expired(g, now) {
			g, found = a.expire(b, i, g)
		}
		if !found {
			if retract {
				continue // retraction of a group we never saw: ignore, as Flink does
			}
			g = a.newGroup(b, i)
		}
		if retract {
			a.rowCount[g]--
		} else {
			a.rowCount[g]++
		}
		a.ttl.write(g, now)
		for k, s := range a.Aggs {
			if s.Filter >= 0 {
				f := b.Cols[s.Filter].(*array.Boolean)
				if !f.IsValid(i) || !f.Value(i) {
					continue
				}
			}
			a.accs[k].update(g, args[k], i, retract)
		}
		if err := a.emitGroupChange(ob, b, i, g); err != nil {
			return err
		}
	}
	a.reportState()
	return a.Emit(ob.build(b))
}

// emitGroupChange emits what group g's update by the rows of b (row is
// one of them, for the key columns) changed in its result, as Flink's
// GroupAggFunction: -D of the last result when the group emptied (which
// is then forgotten, so a returning key starts a fresh group), +I for a
// new group, and -U/+U (only +U with NoUpdateBefore) when the result
// changed, or always with state TTL on.
func (a *GroupAgg) emitGroupChange(ob *rowEmitter, b *types.Batch, row int, g int32) error {
	prev := a.prev[g]
	if a.rowCount[g] <= 0 {
		if prev != nil {
			ob.add(types.Delete, b, row, a.Keys, prev)
		}
		a.prev[g] = nil
		a.index.remove(b, row)
		if a.disk != nil {
			if err := a.diskDrop(g); err != nil {
				return err
			}
		}
		a.release(g)
		return nil
	}
	cur := make([]any, len(a.accs))
	for k, acc := range a.accs {
		cur[k] = acc.result(g)
	}
	if err := a.accErr(); err != nil {
		return err
	}
	switch {
	case prev == nil:
		ob.add(types.Insert, b, row, a.Keys, cur)
	case a.ttl.on() || !rowValuesEqual(prev, cur):
		if !a.NoUpdateBefore {
			ob.add(types.UpdateBefore, b, row, a.Keys, prev)
		}
		ob.add(types.UpdateAfter, b, row, a.Keys, cur)
	}
	a.prev[g] = cur
	return nil
}

func (a *GroupAgg) reportState() {
	if a.Ctx == nil || a.Ctx.Metrics == nil {
		return
	}
	count, bytes := a.StateSize()
	a.Ctx.ReportState(count, bytes)
}

// StateSize implements StateReporter.
func (a *GroupAgg) StateSize() (int64, int64) {
	bytes := a.index.size()
	for _, acc := range a.accs {
		bytes += acc.size()
	}
	if a.disk != nil {
		// the memory is the cache's; the store's is bounded by its
		// block cache and write buffer
		return a.diskCount(), bytes
	}
	return a.index.count(), bytes
}

// EndInput emits the final result in batch mode.
func (a *GroupAgg) EndInput(int) error {
	if !a.Final {
		return nil
	}
	n := int(a.nGroups)
	if n == 0 && len(a.Keys) == 0 && a.Phase != LocalPhase {
		// global aggregate over empty input: one row
		for _, acc := range a.accs {
			acc.resize(1)
		}
		n = 1
	}
	if n == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(a.OutTypes))
	for k := range a.Keys {
		parts := make([]arrow.Array, len(a.keyChunks))
		for c, chunk := range a.keyChunks {
			parts[c] = chunk[k]
		}
		cols[k] = vector.Concat(parts)
	}
	if a.Phase == LocalPhase {
		a.partialArrays(cols, n)
	} else {
		for k, acc := range a.accs {
			cols[len(a.Keys)+k] = resultArray(acc, n, a.OutTypes[len(a.Keys)+k])
		}
	}
	if err := a.accErr(); err != nil {
		return err
	}
	a.reportState()
	out := &types.Batch{Cols: cols, Len: n}
	size := a.Ctx.Config.BatchSize
	if size <= 0 {
		size = 4096
	}
	for from := 0; from < n; from += size {
		if err := a.Emit(out.Slice(from, min(from+size, n))); err != nil {
			return err
		}
	}
	return nil
}

// accErr returns the first error an accumulator met computing a result.
func (a *GroupAgg) accErr() error {
	for _, acc := range a.accs {
		if d, ok := acc.(*distinctAcc); ok {
			acc = d.inner
		}
		if e, ok := acc.(accumulatorErr); ok {
			if err := e.resultErr(); err != nil {
				return err
			}
		}
	}
	return nil
}

func rowValuesEqual(a, b []any) bool {
	for i := range a {
		if !types.ValuesEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// rowEmitter collects output rows made of key columns taken from input
// rows plus computed values, and builds them into one batch.
type rowEmitter struct {
	types   []*types.DataType
	nKeys   int
	kinds   []types.RowKind
	srcRows []int32
	keyCols []int
	vals    []array.Builder
}

func newRowEmitter(ts []*types.DataType, nKeys int) *rowEmitter {
	e := &rowEmitter{types: ts, nKeys: nKeys}
	for _, t := range ts[nKeys:] {
		e.vals = append(e.vals, array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t)))
	}
	return e
}

func (e *rowEmitter) add(kind types.RowKind, b *types.Batch, row int, keyCols []int, vals []any) {
	e.kinds = append(e.kinds, kind)
	e.srcRows = append(e.srcRows, int32(row))
	e.keyCols = keyCols
	for k, v := range vals {
		types.AppendValue(e.vals[k], v, e.types[e.nKeys+k])
	}
}

func (e *rowEmitter) build(src *types.Batch) *types.Batch {
	n := len(e.kinds)
	if n == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(e.types))
	for k := 0; k < e.nKeys; k++ {
		cols[k] = vector.Take(src.Cols[e.keyCols[k]], e.srcRows)
	}
	for k, bld := range e.vals {
		cols[e.nKeys+k] = bld.NewArray()
	}
	return &types.Batch{Cols: cols, Kinds: e.kinds, Len: n}
}

// ReleasesInput implements inputReleaser: a batch aggregate kept in
// memory whose keys are integers and whose calls are built-in COUNT, SUM,
// SUM0, AVG, MIN or MAX over numbers (not DISTINCT) copies what it needs
// of each input batch (key numbers, sums, counts, extremes) and keeps no
// reference to it. Any other aggregate reports false.
func (a *GroupAgg) ReleasesInput() bool {
	if a.Ctx == nil || !a.Ctx.Batch || a.disk != nil {
		return false
	}
	for _, t := range a.KeyTypes {
		if !t.IsIntegral() {
			return false
		}
	}
	for _, s := range a.Aggs {
		if s.Fn != nil || s.Distinct {
			return false
		}
		switch s.Func {
		case "COUNT":
		case "SUM", "SUM0", "AVG", "MIN", "MAX":
			if len(s.ArgTypes) != 1 || !s.ArgTypes[0].IsNumeric() {
				return false
			}
		default:
			return false
		}
	}
	return true
}
