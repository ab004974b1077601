package physical

import (
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowJoin plans a WindowJoin.
func (pl *planner) windowJoin(w *plan.WindowJoin) *Node {
	left := pl.translate(w.Left)
	right := pl.translate(w.Right)
	pl.requireInsertOnly("StreamPhysicalWindowJoin", left)
	pl.requireInsertOnly("StreamPhysicalWindowJoin", right)
	nl := len(left.Cols)
	lk, rk, nullSafe, residual := equiKeys(w.Cond, nl, left.Cols, right.Cols)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(lk) == 0 {
		par, dist = 1, opspec.Single
	}
	le := pl.exchange(left, dist, lk, par)
	re := pl.exchange(right, dist, rk, par)
	spec := opspec.JoinSpec{Kind: w.Kind, LeftKeys: lk, RightKeys: rk, LeftTypes: plan.Types(left.Cols), RightTypes: plan.Types(right.Cols), NullSafe: nullSafe}
	if len(residual) > 0 {
		spec.Residual = plan.AndOf(residual)
	}
	op := &WindowJoin{Spec: spec, Window: w.Window, LeftStart: w.LeftStart, LeftEnd: w.LeftEnd, RightStart: w.RightStart, RightEnd: w.RightEnd, Cond: w.Cond}
	return &Node{Op: op, Inputs: []*Node{le, re}, Cols: w.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: max(left.rows, right.rows)}
}

// windowRank plans a WindowRank (window Top-N or deduplication).
func (pl *planner) windowRank(w *plan.WindowRank) *Node {
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowRank", in)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(w.PartitionKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, w.PartitionKeys, par)
	rt := w.RankType
	if rt == "" {
		rt = "ROW_NUMBER"
	}
	op := &WindowRank{PartitionKeys: append([]int(nil), w.PartitionKeys...), Keys: append([]opspec.SortKey(nil), w.Keys...), Window: w.Window,
		StartCol: w.StartCol, EndCol: w.EndCol, TimeCol: w.TimeCol, RankType: rt, RankStart: w.RankStart, RankEnd: w.RankEnd, WithRankNum: w.WithRankNum}
	return &Node{Op: op, Inputs: []*Node{ex}, Cols: w.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: in.rows}
}
