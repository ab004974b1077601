package physical

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// equiKeys splits a join condition into equality key pairs (plain column
// references of the same type on each side) and a residual condition.
func equiKeys(cond expr.Expr, nl int, lcols, rcols []plan.Column) (lk, rk []int, nullSafe []bool, residual []expr.Expr) {
	if cond == nil {
		return
	}
	for _, c := range plan.Conjuncts(cond) {
		call, ok := c.(*expr.Call)
		if ok && (call.Name == "=" || call.Name == "IS NOT DISTINCT FROM") && len(call.Args) == 2 {
			a, aok := call.Args[0].(*expr.InputRef)
			b, bok := call.Args[1].(*expr.InputRef)
			if aok && bok {
				if a.Index >= nl && b.Index < nl {
					a, b = b, a
				}
				if a.Index < nl && b.Index >= nl && lcols[a.Index].Type.EqualsIgnoreNull(rcols[b.Index-nl].Type) {
					lk = append(lk, a.Index)
					rk = append(rk, b.Index-nl)
					nullSafe = append(nullSafe, call.Name == "IS NOT DISTINCT FROM")
					continue
				}
			}
		}
		residual = append(residual, c)
	}
	return
}

// normalizeJoin makes every cross-side equality a key: sides that are
// expressions (or differently typed columns) are computed into extra key
// columns by projections below the join, removed again above it.
func normalizeJoin(j *plan.Join) (plan.Node, bool) {
	if j.Cond == nil {
		return j, false
	}
	nl := len(j.Left.Columns())
	nr := len(j.Right.Columns())
	lcols, rcols := j.Left.Columns(), j.Right.Columns()
	var extraL, extraR []expr.Expr
	var rest []expr.Expr
	changed := false
	for _, c := range plan.Conjuncts(j.Cond) {
		call, ok := c.(*expr.Call)
		if ok && call.Name == "=" && len(call.Args) == 2 {
			x, y := call.Args[0], call.Args[1]
			xl, xr := plan.RefsWithin(x, 0, nl), plan.RefsWithin(x, nl, nl+nr)
			yl, yr := plan.RefsWithin(y, 0, nl), plan.RefsWithin(y, nl, nl+nr)
			if len(expr.InputRefs(x)) > 0 && len(expr.InputRefs(y)) > 0 {
				var le, re expr.Expr
				switch {
				case xl && yr:
					le, re = x, y
				case yl && xr:
					le, re = y, x
				}
				if le != nil {
					_, lIsRef := le.(*expr.InputRef)
					_, rIsRef := re.(*expr.InputRef)
					if lIsRef && rIsRef && le.Type().EqualsIgnoreNull(re.Type()) {
						rest = append(rest, c)
						continue
					}
					extraL = append(extraL, le)
					extraR = append(extraR, plan.Shift(re, -nl))
					changed = true
					continue
				}
			}
		}
		rest = append(rest, c)
	}
	if !changed {
		return j, false
	}
	addCols := func(in plan.Node, cols []plan.Column, extra []expr.Expr) plan.Node {
		var exprs []expr.Expr
		out := append([]plan.Column(nil), cols...)
		for i, c := range cols {
			exprs = append(exprs, &expr.InputRef{Index: i, Name: c.Name, T: c.Type})
		}
		for k, e := range extra {
			exprs = append(exprs, e)
			out = append(out, plan.Column{Name: fmt.Sprintf("$k%d", k), Type: e.Type()})
		}
		return &plan.Project{Input: in, Exprs: exprs, Cols: out}
	}
	left := addCols(j.Left, lcols, extraL)
	right := addCols(j.Right, rcols, extraR)
	nl2 := nl + len(extraL)
	// shift right references in the residual
	var conds []expr.Expr
	for _, c := range rest {
		conds = append(conds, expr.ShiftInputs(c, func(i int) int {
			if i >= nl {
				return i + len(extraL)
			}
			return i
		}))
	}
	for k := range extraL {
		lr := &expr.InputRef{Index: nl + k, Name: fmt.Sprintf("$k%d", k), T: extraL[k].Type()}
		rr := &expr.InputRef{Index: nl2 + nr + k, Name: fmt.Sprintf("$k%d", k), T: extraR[k].Type()}
		var eq expr.Expr
		if lr.T.EqualsIgnoreNull(rr.T) {
			f, _ := expr.Builtins.Lookup("=")
			call, err := expr.ResolveCall(f, "=", []expr.Expr{lr, rr})
			if err != nil {
				return j, false
			}
			eq = call
		} else {
			return j, false
		}
		conds = append(conds, eq)
	}
	var cols []plan.Column
	cols = append(cols, j.Cols[:nl]...)
	for k := range extraL {
		cols = append(cols, plan.Column{Name: fmt.Sprintf("$k%d", k), Type: extraL[k].Type()})
	}
	cols = append(cols, j.Cols[nl:]...)
	for k := range extraR {
		cols = append(cols, plan.Column{Name: fmt.Sprintf("$k%d", k), Type: extraR[k].Type()})
	}
	nj := &plan.Join{Left: left, Right: right, Kind: j.Kind, Cond: plan.AndOf(conds), Cols: cols}
	// drop the key columns again
	var exprs []expr.Expr
	var out []plan.Column
	for i := 0; i < nl; i++ {
		exprs = append(exprs, &expr.InputRef{Index: i, Name: cols[i].Name, T: cols[i].Type})
		out = append(out, j.Cols[i])
	}
	if j.Kind != 4 && j.Kind != 5 {
		for i := 0; i < nr; i++ {
			idx := nl2 + i
			exprs = append(exprs, &expr.InputRef{Index: idx, Name: cols[idx].Name, T: cols[idx].Type})
			out = append(out, j.Cols[nl+i])
		}
	}
	return &plan.Project{Input: nj, Exprs: exprs, Cols: out}, true
}

func (pl *planner) join(j *plan.Join) *Node {
	if n, ok := normalizeJoin(j); ok {
		return pl.translate(n)
	}
	left := pl.translate(j.Left)
	right := pl.translate(j.Right)
	nl := len(left.Cols)
	lk, rk, nullSafe, residual := equiKeys(j.Cond, nl, left.Cols, right.Cols)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(lk) == 0 {
		par, dist = 1, opspec.Single
	}
	// a small right input is broadcast to every instance and the left
	// input read where it is (Flink's BroadcastHashJoin)
	broadcast := !pl.env.Streaming && len(lk) > 0 && pl.broadcastRight(j.Kind, left, right)
	var le, re *Node
	if broadcast {
		le, re = left, pl.exchange(right, opspec.Broadcast, nil, par)
	} else {
		le, re = pl.exchange(left, dist, lk, par), pl.exchange(right, dist, rk, par)
	}
	// Calcite's join row type makes the field names unique (word, word0)
	allNames := plan.Uniquify(append(plan.Names(left.Cols), plan.Names(right.Cols)...))
	outCols := make([]plan.Column, len(j.Cols))
	for i, c := range j.Cols {
		outCols[i] = plan.Column{Name: allNames[i], Type: c.Type}
	}
	spec := opspec.JoinSpec{Kind: j.Kind, LeftKeys: lk, RightKeys: rk, LeftTypes: plan.Types(left.Cols), RightTypes: plan.Types(right.Cols), NullSafe: nullSafe}
	if len(residual) > 0 {
		spec.Residual = plan.AndOf(residual)
	}
	p := &Node{Inputs: []*Node{le, re}, Cols: outCols, Parallelism: par, rows: max(left.rows, right.rows)}
	if pl.env.Streaming {
		if ip := pl.intervalJoin(p, spec, left, right, residual); ip != nil {
			return ip
		}
		p.Op = &Join{Spec: spec, Cond: j.Cond, Streaming: true, LeftInputSpec: joinInputSpec(left, lk), RightInputSpec: joinInputSpec(right, rk)}
		p.upsertKeys = joinUpsertKeys(j.Kind, nl, left, right, lk, rk)
		// inner and semi joins forward their inputs' kinds; the others may
		// produce any change (FlinkChangelogModeInferenceProgram)
		p.Mode = types.InsertOnlyMode
		forward := j.Kind == opspec.InnerJoin || j.Kind == opspec.SemiJoin
		if !forward || !left.Mode.IsInsertOnly() || !right.Mode.IsInsertOnly() {
			p.Mode = types.RetractMode
		}
		return p
	}
	p.Op = &Join{Spec: spec, Cond: j.Cond, Broadcast: broadcast}
	p.Mode = types.InsertOnlyMode
	return p
}
