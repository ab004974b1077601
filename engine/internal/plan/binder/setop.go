package binder

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// INTERSECT and EXCEPT, with and without ALL, rewritten as Flink's planner
// does (ReplaceIntersectWithSemiJoinRule / ReplaceMinusWithAntiJoinRule for
// the distinct forms in batch are equivalent): both inputs are tagged and
// unioned, grouped by every column (so NULLs compare equal, as set
// operations require) counting the rows of each side, filtered, and for
// ALL replicated by the internal REPLICATE_ROWS table function:
//
//	INTERSECT      rows with cl > 0 AND cr > 0, once
//	INTERSECT ALL  rows with cl > 0 AND cr > 0, LEAST(cl, cr) times
//	EXCEPT         rows with cl > 0 AND cr = 0, once
//	EXCEPT ALL     rows with cl > cr, cl - cr times
func (b *binder) intersectExcept(kind plan.SetOpKind, all bool, l, r plan.Node, cols []plan.Column) plan.Node {
	bigint := types.BigIntType().NotNull()
	one := &expr.Literal{Value: int64(1), T: bigint}
	zero := &expr.Literal{Value: int64(0), T: bigint}
	tag := func(n plan.Node, lv, rv *expr.Literal) plan.Node {
		nc := n.Columns()
		exprs := make([]expr.Expr, 0, len(nc)+2)
		out := make([]plan.Column, 0, len(nc)+2)
		for i, c := range nc {
			exprs = append(exprs, &expr.InputRef{Index: i, Name: c.Name, T: c.Type})
			out = append(out, plan.Column{Name: cols[i].Name, Type: c.Type})
		}
		exprs = append(exprs, lv, rv)
		out = append(out, plan.Column{Name: "$l", Type: bigint}, plan.Column{Name: "$r", Type: bigint})
		return &plan.Project{Input: n, Exprs: exprs, Cols: out}
	}
	ucols := append(append([]plan.Column(nil), cols...), plan.Column{Name: "$l", Type: bigint}, plan.Column{Name: "$r", Type: bigint})
	u := &plan.SetOp{Kind: plan.UnionOp, All: true, In: []plan.Node{tag(l, one, zero), tag(r, zero, one)}, Cols: ucols}
	nc := len(cols)
	keys := make([]int, nc)
	for i := range keys {
		keys[i] = i
	}
	acols := append(append([]plan.Column(nil), cols...), plan.Column{Name: "$cl", Type: bigint}, plan.Column{Name: "$cr", Type: bigint})
	agg := &plan.Aggregate{Input: u, GroupKeys: keys, Cols: acols, Aggs: []opspec.AggSpec{
		{Func: "SUM0", Args: []int{nc}, ArgTypes: []*types.DataType{bigint}, Filter: -1, Type: bigint, Name: "$cl"},
		{Func: "SUM0", Args: []int{nc + 1}, ArgTypes: []*types.DataType{bigint}, Filter: -1, Type: bigint, Name: "$cr"},
	}}
	cl := &expr.InputRef{Index: nc, Name: "$cl", T: bigint}
	cr := &expr.InputRef{Index: nc + 1, Name: "$cr", T: bigint}
	var cond, times expr.Expr
	if kind == plan.IntersectOp {
		cond = b.call(nil, "AND", b.call(nil, ">", cl, zero), b.call(nil, ">", cr, zero))
		times = b.call(nil, "LEAST", cl, cr)
	} else {
		if all {
			cond = b.call(nil, ">", cl, cr)
		} else {
			cond = b.call(nil, "AND", b.call(nil, ">", cl, zero), b.call(nil, "=", cr, zero))
		}
		times = b.call(nil, "-", cl, cr)
	}
	var n plan.Node = &plan.Filter{Input: agg, Cond: cond}
	if !all {
		keep := make([]int, nc)
		for i := range keep {
			keep[i] = i
		}
		return projectCols(n, keep)
	}
	args := []expr.Expr{times}
	for i, c := range cols {
		args = append(args, &expr.InputRef{Index: i, Name: c.Name, T: c.Type})
	}
	f, _ := expr.Builtins.Lookup("REPLICATE_ROWS")
	call, err := expr.ResolveTableCall(f, "REPLICATE_ROWS", args)
	if err != nil {
		b.fail(err)
	}
	ccols := append([]plan.Column(nil), acols...)
	ccols = append(ccols, cols...)
	n = &plan.Correlate{Input: n, Call: call, Cols: ccols}
	keep := make([]int, nc)
	for i := range keep {
		keep[i] = nc + 2 + i
	}
	return projectCols(n, keep)
}
