package runtime

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// WindowJoin joins the rows of two windowed inputs that belong to the
// same window (Flink's WindowJoinOperator): both inputs carry window_start
// and window_end of the same windowing, rows are buffered per window, and
// when the watermark passes a window's end its rows are joined on the
// equi-keys and the residual condition and emitted (insert-only; outer
// joins NULL-pad unmatched rows). Rows of a window that already fired are
// late: dropped and counted. Semi and anti joins emit left rows only.
type WindowJoin struct {
	BaseOperator
	Spec opspec.JoinSpec
	// LeftEnd and RightEnd are the window_end columns of each side.
	LeftEnd, RightEnd int

	residual expr.Evaluator
	windows  map[int64]*[2][]*types.Batch
	wms      *WatermarkTracker
	wm       int64
	rows     int64
}

// Open implements Operator.
func (j *WindowJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	j.windows = map[int64]*[2][]*types.Batch{}
	j.wms = NewWatermarkTracker(2)
	j.wm = MinWatermark
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return nil
}

// ProcessBatch buffers rows by window.
func (j *WindowJoin) ProcessBatch(side int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("WindowJoin doesn't support consuming update and delete changes")
	}
	endCol := j.LeftEnd
	if side == 1 {
		endCol = j.RightEnd
	}
	groups, order, late := groupByWindowEnd(b.Cols[endCol], j.wm)
	if late > 0 {
		j.Ctx.Metrics.LateDropped.Add(late)
	}
	for _, e := range order {
		w := j.windows[e]
		if w == nil {
			w = &[2][]*types.Batch{}
			j.windows[e] = w
		}
		sel := groups[e]
		sub := b
		if len(sel) != b.Len {
			sub = TakeRows(b, sel)
		}
		w[side] = append(w[side], sub)
		j.rows += int64(sub.Len)
	}
	j.Ctx.ReportState(int64(len(j.windows)), j.rows*64)
	return nil
}

// ProcessWatermark fires the windows the combined watermark completes.
func (j *WindowJoin) ProcessWatermark(in int, wm int64) error {
	m, ok := j.wms.Update(in, wm)
	if !ok {
		return nil
	}
	return j.advance(m)
}

// SetInputIdle implements InputIdler.
func (j *WindowJoin) SetInputIdle(in int, idle bool) error {
	if m, ok := j.wms.SetIdle(in, idle); ok {
		return j.advance(m)
	}
	return nil
}

func (j *WindowJoin) advance(wm int64) error {
	j.wm = wm
	var ends []int64
	for e := range j.windows {
		if wm == MaxWatermark || e-1 <= wm {
			ends = append(ends, e)
		}
	}
	sort.Slice(ends, func(a, b int) bool { return ends[a] < ends[b] })
	for _, e := range ends {
		w := j.windows[e]
		delete(j.windows, e)
		if err := j.joinWindow(w); err != nil {
			return err
		}
		j.rows -= int64(batchRows(w[0]) + batchRows(w[1]))
	}
	j.Ctx.ReportState(int64(len(j.windows)), j.rows*64)
	return j.Out.EmitWatermark(wm)
}

func batchRows(bs []*types.Batch) int {
	n := 0
	for _, b := range bs {
		n += b.Len
	}
	return n
}

func (j *WindowJoin) concat(bs []*types.Batch, ts []*types.DataType) *types.Batch {
	if len(bs) == 0 {
		return emptyBatch(ts)
	}
	return ConcatBatches(bs, len(ts))
}

// joinWindow hash-joins the two sides of one window.
func (j *WindowJoin) joinWindow(w *[2][]*types.Batch) error {
	left := j.concat(w[0], j.Spec.LeftTypes)
	right := j.concat(w[1], j.Spec.RightTypes)
	if left.Len == 0 && right.Len == 0 {
		return nil
	}
	keys := newJoinKeyIndex(j.Spec)
	rk := keys.ids(right, j.Spec.RightKeys, j.Spec.NullSafe, true)
	byKey := map[int32][]int32{}
	for i, k := range rk {
		if k >= 0 {
			byKey[k] = append(byKey[k], int32(i))
		}
	}
	lk := keys.ids(left, j.Spec.LeftKeys, j.Spec.NullSafe, false)
	// the window's pairs, kept by the residual condition and emitted (not
	// by a semi or anti join, which emits left rows) maxJoinBatchRows at a
	// time, at a left row's boundary: a window where many rows meet on one
	// key never holds all its joined rows at once
	lMatched := make([]bool, left.Len)
	rMatched := make([]bool, right.Len)
	pairsOut := j.Spec.Kind != opspec.SemiJoin && j.Spec.Kind != opspec.AntiJoin
	var li, ri []int32
	flush := func() error {
		kl, kr := li, ri
		if j.residual != nil && len(kl) > 0 {
			cand := joinRows(left, right, kl, kr, nil)
			v, err := j.residual(j.Ctx.Eval, cand)
			if err != nil {
				return err
			}
			sel, all := vector.SelectionFromBools(v.Materialize(cand.Len))
			if !all {
				nl, nr := make([]int32, len(sel)), make([]int32, len(sel))
				for k, s := range sel {
					nl[k], nr[k] = kl[s], kr[s]
				}
				kl, kr = nl, nr
			}
		}
		for k := range kl {
			lMatched[kl[k]] = true
			rMatched[kr[k]] = true
		}
		li, ri = li[:0], ri[:0]
		if !pairsOut || len(kl) == 0 {
			return nil
		}
		return j.Emit(joinRows(left, right, kl, kr, nil))
	}
	for i, k := range lk {
		if k < 0 {
			continue
		}
		for _, r := range byKey[k] {
			li = append(li, int32(i))
			ri = append(ri, r)
		}
		if len(li) >= maxJoinBatchRows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	// the rows left unmatched: semi and anti joins' output, outer joins'
	// NULL-padded rows
	li, ri = nil, nil
	switch j.Spec.Kind {
	case opspec.SemiJoin, opspec.AntiJoin:
		var sel []int32
		for i, m := range lMatched {
			if m == (j.Spec.Kind == opspec.SemiJoin) {
				sel = append(sel, int32(i))
			}
		}
		return j.Emit(TakeRows(left, sel))
	case opspec.LeftJoin, opspec.FullJoin:
		for i, m := range lMatched {
			if !m {
				li = append(li, int32(i))
				ri = append(ri, -1)
			}
		}
	}
	if j.Spec.Kind == opspec.RightJoin || j.Spec.Kind == opspec.FullJoin {
		for r, m := range rMatched {
			if !m {
				li = append(li, -1)
				ri = append(ri, int32(r))
			}
		}
	}
	if len(li) == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, len(left.Cols)+len(right.Cols))
	for _, c := range left.Cols {
		cols = append(cols, vector.Take(c, li))
	}
	for _, c := range right.Cols {
		cols = append(cols, vector.Take(c, ri))
	}
	return j.Emit(&types.Batch{Cols: cols, Len: len(li)})
}

// StateSize implements StateReporter.
func (j *WindowJoin) StateSize() (int64, int64) { return int64(len(j.windows)), j.rows * 64 }
