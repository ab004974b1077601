package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	SemiJoin
	AntiJoin
)

func (k JoinKind) String() string {
	return [...]string{"InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin", "LeftSemiJoin", "LeftAntiJoin"}[k]
}

// JoinSpec describes an equi-join with an optional residual condition
// over the joined row (left columns then right columns).
type JoinSpec struct {
	Kind       JoinKind
	LeftKeys   []int
	RightKeys  []int
	LeftTypes  []*types.DataType
	RightTypes []*types.DataType
	// Residual is a condition over the concatenated row, or nil.
	Residual expr.Expr
	// NullSafe[i] makes key i match NULL with NULL (IS NOT DISTINCT FROM).
	NullSafe []bool
}

func (s *JoinSpec) outputsLeftOnly() bool { return s.Kind == SemiJoin || s.Kind == AntiJoin }

// keyHasNull reports whether a key column is NULL at row i where NULL must
// not match (SQL equality).
func keyHasNull(b *types.Batch, keys []int, nullSafe []bool, i int) bool {
	for k, c := range keys {
		if b.Cols[c].IsNull(i) && (nullSafe == nil || !nullSafe[k]) {
			return true
		}
	}
	return false
}

// HashJoin is the batch-mode join: it reads its build side (input 1, the
// right side) completely into a hash table, then streams the probe side
// (input 0). Output is insert-only.
type HashJoin struct {
	BaseOperator
	Spec     JoinSpec
	residual expr.Evaluator

	buildBatches []*types.Batch
	built        bool
	build        *types.Batch
	table        map[string][]int32
	matched      []bool
	keyBuf       []byte
	buildDone    bool
}

// NextInput implements InputSelector: the build side first.
func (j *HashJoin) NextInput() int {
	if !j.buildDone {
		return 1
	}
	return 0
}

// Open implements Operator.
func (j *HashJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return nil
}

// ProcessBatch implements Operator.
func (j *HashJoin) ProcessBatch(in int, b *types.Batch) error {
	if in == 1 {
		j.buildBatches = append(j.buildBatches, b)
		return nil
	}
	j.finishBuild()
	return j.probe(b)
}

// ProcessWatermark implements Operator (batch: nothing to do until the end).
func (j *HashJoin) ProcessWatermark(int, int64) error { return nil }

func (j *HashJoin) finishBuild() {
	if j.built {
		return
	}
	j.built = true
	if len(j.buildBatches) == 0 {
		j.build = emptyBatch(j.Spec.RightTypes)
	} else {
		j.build = ConcatBatches(j.buildBatches, len(j.Spec.RightTypes))
	}
	j.buildBatches = nil
	j.table = make(map[string][]int32, j.build.Len)
	for i := 0; i < j.build.Len; i++ {
		if keyHasNull(j.build, j.Spec.RightKeys, j.Spec.NullSafe, i) {
			continue
		}
		j.keyBuf = AppendRowKey(j.keyBuf[:0], j.build, j.Spec.RightKeys, i)
		k := string(j.keyBuf)
		j.table[k] = append(j.table[k], int32(i))
	}
	j.matched = make([]bool, j.build.Len)
	if j.Ctx != nil {
		j.Ctx.ReportState(int64(len(j.table)), int64(j.build.Len)*48)
	}
}

func emptyBatch(ts []*types.DataType) *types.Batch {
	return types.NewBatchBuilder(ts).Build()
}

func (j *HashJoin) probe(b *types.Batch) error {
	var li, ri []int32
	for i := 0; i < b.Len; i++ {
		if keyHasNull(b, j.Spec.LeftKeys, j.Spec.NullSafe, i) {
			continue
		}
		j.keyBuf = AppendRowKey(j.keyBuf[:0], b, j.Spec.LeftKeys, i)
		for _, r := range j.table[vector.UnsafeString(j.keyBuf)] {
			li = append(li, int32(i))
			ri = append(ri, r)
		}
	}
	// residual condition on candidate pairs
	if j.residual != nil && len(li) > 0 {
		cand := joinRows(b, j.build, li, ri, false)
		v, err := j.residual(j.Ctx.Eval, cand)
		if err != nil {
			return err
		}
		sel, all := vector.SelectionFromBools(v.Materialize(cand.Len))
		if !all {
			nl, nr := make([]int32, len(sel)), make([]int32, len(sel))
			for k, s := range sel {
				nl[k], nr[k] = li[s], ri[s]
			}
			li, ri = nl, nr
		}
	}
	probeMatched := make([]bool, b.Len)
	for k := range li {
		probeMatched[li[k]] = true
		j.matched[ri[k]] = true
	}
	switch j.Spec.Kind {
	case SemiJoin, AntiJoin:
		var sel []int32
		for i, m := range probeMatched {
			if m == (j.Spec.Kind == SemiJoin) {
				sel = append(sel, int32(i))
			}
		}
		return j.Emit(TakeRows(b, sel))
	case LeftJoin, FullJoin:
		for i, m := range probeMatched {
			if !m {
				li = append(li, int32(i))
				ri = append(ri, -1)
			}
		}
	}
	if len(li) == 0 {
		return nil
	}
	return j.Emit(joinRows(b, j.build, li, ri, true))
}

// joinRows builds rows left[li[k]] ++ right[ri[k]]; index -1 gives NULLs.
func joinRows(left, right *types.Batch, li, ri []int32, _ bool) *types.Batch {
	cols := make([]arrow.Array, 0, len(left.Cols)+len(right.Cols))
	for _, c := range left.Cols {
		cols = append(cols, vector.Take(c, li))
	}
	for _, c := range right.Cols {
		cols = append(cols, vector.Take(c, ri))
	}
	return &types.Batch{Cols: cols, Len: len(li)}
}

// EndInput emits unmatched build rows for RIGHT and FULL joins.
func (j *HashJoin) EndInput(in int) error {
	if in == 1 {
		j.buildDone = true
		return nil
	}
	j.finishBuild()
	if j.Spec.Kind != RightJoin && j.Spec.Kind != FullJoin {
		return nil
	}
	var li, ri []int32
	for r, m := range j.matched {
		if !m {
			li = append(li, -1)
			ri = append(ri, int32(r))
		}
	}
	if len(ri) == 0 {
		return nil
	}
	left := emptyBatch(j.Spec.LeftTypes)
	return j.Emit(joinRows(left, j.build, li, ri, true))
}

// StreamingJoin is the streaming regular join (Flink's
// StreamingJoinOperator): both inputs are kept in keyed state; each input
// row is joined with the other side's state. Inner join output is +I for
// accumulating input and -D for retracting input. Outer joins emit a
// NULL-padded row while a row has no partner, retracting it (-D) when the
// first partner arrives and re-emitting it when the last partner leaves.
type StreamingJoin struct {
	BaseOperator
	Spec     JoinSpec
	residual expr.Evaluator
	state    [2]map[string]*joinBucket
	wms      *WatermarkTracker
	keyBuf   []byte
	rows     int64
}

type joinEntry struct {
	vals    []any
	count   int64 // multiplicity of this exact row
	matches int64 // number of partner rows (outer joins)
}

type joinBucket struct {
	entries []*joinEntry
}

// Open implements Operator.
func (j *StreamingJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	j.state = [2]map[string]*joinBucket{{}, {}}
	j.wms = NewWatermarkTracker(2)
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return nil
}

// ProcessWatermark implements Operator.
func (j *StreamingJoin) ProcessWatermark(in int, wm int64) error {
	if m, ok := j.wms.Update(in, wm); ok {
		return j.Out.EmitWatermark(m)
	}
	return nil
}

// SetInputIdle implements InputIdler.
func (j *StreamingJoin) SetInputIdle(in int, idle bool) error {
	if m, ok := j.wms.SetIdle(in, idle); ok {
		return j.Out.EmitWatermark(m)
	}
	return nil
}

// StateSize implements StateReporter.
func (j *StreamingJoin) StateSize() (int64, int64) {
	return int64(len(j.state[0]) + len(j.state[1])), j.rows * 64
}

func (j *StreamingJoin) types(side int) []*types.DataType {
	if side == 0 {
		return j.Spec.LeftTypes
	}
	return j.Spec.RightTypes
}

func (j *StreamingJoin) keys(side int) []int {
	if side == 0 {
		return j.Spec.LeftKeys
	}
	return j.Spec.RightKeys
}

// outer reports whether the given side is preserved (NULL-padded when
// unmatched).
func (j *StreamingJoin) outer(side int) bool {
	switch j.Spec.Kind {
	case LeftJoin:
		return side == 0
	case RightJoin:
		return side == 1
	case FullJoin:
		return true
	}
	return false
}

type joinOut struct {
	kinds []types.RowKind
	rows  [][]any
}

func (o *joinOut) add(k types.RowKind, left, right []any) {
	row := make([]any, 0, len(left)+len(right))
	row = append(row, left...)
	row = append(row, right...)
	o.kinds = append(o.kinds, k)
	o.rows = append(o.rows, row)
}

func nulls(n int) []any { return make([]any, n) }

// matches evaluates the residual condition on a candidate pair.
func (j *StreamingJoin) matches(left, right []any) (bool, error) {
	if j.residual == nil {
		return true, nil
	}
	ts := append(append([]*types.DataType(nil), j.Spec.LeftTypes...), j.Spec.RightTypes...)
	bb := types.NewBatchBuilder(ts)
	row := append(append([]any(nil), left...), right...)
	if err := bb.Append(types.Insert, row); err != nil {
		return false, err
	}
	v, err := j.residual(j.Ctx.Eval, bb.Build())
	if err != nil {
		return false, err
	}
	r := v.Value(0)
	return r == true, nil
}

// ProcessBatch implements Operator.
func (j *StreamingJoin) ProcessBatch(side int, b *types.Batch) error {
	other := 1 - side
	ts := j.types(side)
	nl, nr := len(j.Spec.LeftTypes), len(j.Spec.RightTypes)
	out := &joinOut{}
	pair := func(mine, theirs []any) ([]any, []any) {
		if side == 0 {
			return mine, theirs
		}
		return theirs, mine
	}
	padded := func(mine []any) ([]any, []any) {
		if side == 0 {
			return mine, nulls(nr)
		}
		return nulls(nl), mine
	}
	for i := 0; i < b.Len; i++ {
		vals := b.Row(i, ts).Values
		retract := b.Kind(i).IsRetract()
		var bucket, otherBucket *joinBucket
		nullKey := keyHasNull(b, j.keys(side), j.Spec.NullSafe, i)
		if !nullKey {
			j.keyBuf = AppendRowKey(j.keyBuf[:0], b, j.keys(side), i)
			key := string(j.keyBuf)
			bucket = j.state[side][key]
			if bucket == nil && !retract {
				bucket = &joinBucket{}
				j.state[side][key] = bucket
			}
			otherBucket = j.state[other][key]
		}
		// find partners
		var partners []*joinEntry
		if otherBucket != nil {
			for _, e := range otherBucket.entries {
				l, r := pair(vals, e.vals)
				ok, err := j.matches(l, r)
				if err != nil {
					return err
				}
				if ok {
					partners = append(partners, e)
				}
			}
		}
		if !retract {
			entry := &joinEntry{vals: vals, count: 1}
			if bucket != nil {
				found := false
				for _, e := range bucket.entries {
					if rowValuesEqual(e.vals, vals) {
						e.count++
						entry = e
						found = true
						break
					}
				}
				if !found {
					bucket.entries = append(bucket.entries, entry)
					j.rows++
				}
			}
			if len(partners) == 0 {
				if j.outer(side) {
					l, r := padded(vals)
					out.add(types.Insert, l, r)
				}
				continue
			}
			for _, p := range partners {
				if j.outer(other) {
					if p.matches == 0 {
						// the partner was emitted NULL-padded: retract that
						l, r := pair(nulls(len(vals)), p.vals)
						if side == 0 {
							l, r = nulls(nl), p.vals
						} else {
							l, r = p.vals, nulls(nr)
						}
						for c := int64(0); c < p.count; c++ {
							out.add(types.Delete, l, r)
						}
					}
					p.matches++
				}
				l, r := pair(vals, p.vals)
				for c := int64(0); c < p.count; c++ {
					out.add(types.Insert, l, r)
				}
				entry.matches++
			}
			continue
		}
		// retraction: remove one occurrence from state
		if bucket != nil {
			for k, e := range bucket.entries {
				if rowValuesEqual(e.vals, vals) {
					e.count--
					if e.count <= 0 {
						bucket.entries = append(bucket.entries[:k], bucket.entries[k+1:]...)
						j.rows--
					}
					break
				}
			}
		}
		if len(partners) == 0 {
			if j.outer(side) {
				l, r := padded(vals)
				out.add(types.Delete, l, r)
			}
			continue
		}
		for _, p := range partners {
			l, r := pair(vals, p.vals)
			for c := int64(0); c < p.count; c++ {
				out.add(types.Delete, l, r)
			}
			if j.outer(other) {
				p.matches--
				if p.matches == 0 {
					var pl, pr []any
					if side == 0 {
						pl, pr = nulls(nl), p.vals
					} else {
						pl, pr = p.vals, nulls(nr)
					}
					for c := int64(0); c < p.count; c++ {
						out.add(types.Insert, pl, pr)
					}
				}
			}
		}
	}
	if len(out.rows) == 0 {
		return nil
	}
	all := append(append([]*types.DataType(nil), j.Spec.LeftTypes...), j.Spec.RightTypes...)
	builders := make([]array.Builder, len(all))
	for c, t := range all {
		builders[c] = array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
	}
	for _, row := range out.rows {
		for c, v := range row {
			types.AppendValue(builders[c], v, all[c])
		}
	}
	cols := make([]arrow.Array, len(all))
	for c, bld := range builders {
		cols[c] = bld.NewArray()
	}
	j.Ctx.ReportState(j.StateSize())
	return j.Emit(&types.Batch{Cols: cols, Kinds: out.kinds, Len: len(out.rows)})
}
