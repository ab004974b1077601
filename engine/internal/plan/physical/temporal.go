package physical

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// temporalKeys splits a temporal join condition into key pairs (a left
// expression equal to a right column) and residual conjuncts.
func temporalKeys(cond expr.Expr, nl int) (left []expr.Expr, right []int, residual []expr.Expr) {
	for _, c := range plan.Conjuncts(cond) {
		call, ok := c.(*expr.Call)
		if ok && call.Name == "=" && len(call.Args) == 2 {
			a, b := call.Args[0], call.Args[1]
			if r, ok := a.(*expr.InputRef); ok && r.Index >= nl && plan.RefsWithin(b, 0, nl) && len(expr.InputRefs(b)) > 0 {
				a, b = b, a
			}
			if r, ok := b.(*expr.InputRef); ok && r.Index >= nl && plan.RefsWithin(a, 0, nl) && len(expr.InputRefs(a)) > 0 {
				left = append(left, a)
				right = append(right, r.Index-nl)
				continue
			}
		}
		residual = append(residual, c)
	}
	return
}

// withKeys projects the left input's columns followed by the key
// expressions cast to the right key types; a key that is a left column of
// the right type is used where it is (no $key column, as in Flink's plans).
func withKeys(left plan.Node, keys []expr.Expr, rightCols []plan.Column, rk []int) (plan.Node, []int) {
	cols := left.Columns()
	exprs := make([]expr.Expr, len(cols))
	out := append([]plan.Column(nil), cols...)
	for i, c := range cols {
		exprs[i] = &expr.InputRef{Index: i, Name: c.Name, T: c.Type}
	}
	var idx []int
	for k, e := range keys {
		t := rightCols[rk[k]].Type.WithNullable(true).WithTimeAttr(types.NoTimeAttr)
		if r, ok := e.(*expr.InputRef); ok && r.Index < len(cols) && r.T.TimeAttr == types.NoTimeAttr && r.T.EqualsIgnoreNull(t) {
			idx = append(idx, r.Index)
			continue
		}
		if !e.Type().EqualsIgnoreNull(t) {
			e = expr.ImplicitCast(e, t)
		}
		idx = append(idx, len(exprs))
		exprs = append(exprs, e)
		out = append(out, plan.Column{Name: fmt.Sprintf("$key%d", k), Type: e.Type()})
	}
	if len(exprs) == len(cols) {
		return left, idx
	}
	return &plan.Project{Input: left, Exprs: exprs, Cols: out}, idx
}

// temporalJoin plans a TemporalJoin: a lookup join into a lookup source
// or an event-time temporal join.
func (pl *planner) temporalJoin(t *plan.TemporalJoin) *Node {
	if !pl.env.Streaming && !(t.Proctime && pl.rightIsLookupSource(t)) {
		pl.fail("Temporal table joins (FOR SYSTEM_TIME AS OF) are only supported in streaming mode")
	}
	nl := len(t.Left.Columns())
	rightCols := t.Right.Columns()
	lk, rk, residual := temporalKeys(t.Cond, nl)
	if len(lk) == 0 {
		pl.fail("Temporal table join requires an equality condition on fields of table [%s].", t.RightID.Summary())
	}
	leftIn, keyCols := withKeys(t.Left, lk, rightCols, rk)
	left := pl.translate(leftIn)
	pl.requireInsertOnly("StreamPhysicalTemporalJoin", left)
	names := append(plan.Names(t.Left.Columns()), plan.Names(rightCols)...)
	var res expr.Expr
	if len(residual) > 0 {
		res = plan.AndOf(residual)
	}
	rightTypes := plan.Types(rightCols)
	var lookup []string
	for k, r := range rk {
		lookup = append(lookup, fmt.Sprintf("%s=%s", rightCols[r].Name, named(lk[k], names[:nl])))
	}
	if t.Proctime {
		if p := pl.sourceLookupJoin(t, left, keyCols, rk, res, lookup, names); p != nil {
			return p // lookup_join.go
		}
		return pl.lookupJoin(t, left, keyCols, rk, rightTypes, res, lookup, names)
	}
	// event time: a versioned table with a primary key and a rowtime
	if t.RightTable == nil || t.RightTable.TableSchema.PrimaryKey == nil {
		pl.fail("Temporal Table Join requires primary key in versioned table, but no primary key can be found. The physical plan is:\n%s", t.Describe())
	}
	for _, pk := range t.RightTable.TableSchema.PrimaryKey.Columns {
		found := false
		for _, r := range rk {
			if rightCols[r].Name == pk {
				found = true
			}
		}
		if !found {
			pl.fail("Join key [%s] must contain the primary key [%s] of the versioned table %s.",
				strings.Join(lookup, ", "), strings.Join(t.RightTable.TableSchema.PrimaryKey.Columns, ", "), t.RightID.Summary())
		}
	}
	rt := -1
	for i, c := range rightCols {
		if c.Type.IsRowtime() {
			rt = i
		}
	}
	if rt < 0 {
		pl.fail("Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found.")
	}
	right := pl.translate(t.Right)
	if canDropUpdateBefore(right) {
		// the versioned table is read as upserts where it can be, as
		// Flink's temporal join asks it first (changelog_normalize.go)
		dropUpdateBefore(right)
	}
	par := pl.env.parallelism()
	le := pl.exchange(left, opspec.Hash, keyCols, par)
	re := pl.exchange(right, opspec.Hash, rk, par)
	spec := opspec.JoinSpec{Kind: t.Kind, LeftKeys: keyCols, RightKeys: rk, LeftTypes: plan.Types(left.Cols), RightTypes: plan.Types(right.Cols), Residual: res}
	op := &TemporalJoin{Spec: spec, LeftTime: t.TimeCol, RightTime: rt, NumLeft: nl, Cond: t.Cond, CondNames: names}
	return &Node{Op: op, Inputs: []*Node{le, re}, Cols: t.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: left.rows}
}

// lookupJoin plans a processing-time temporal join as a lookup join: the
// right side is planned as a bounded batch query that each operator
// instance runs when it starts.
func (pl *planner) lookupJoin(t *plan.TemporalJoin, left *Node, keyCols, rk []int, rightTypes []*types.DataType, res expr.Expr, lookup, names []string) *Node {
	benv := *pl.env
	benv.Streaming = false
	bp := &planner{env: &benv, pushdowns: pl.pushdowns} // reuses the source sourceLookupJoin made
	right := bp.translate(t.Right)
	if !isBounded(right) {
		pl.fail("Processing-time temporal join is only supported against a bounded (lookup) table; %s is unbounded.", t.RightID.Summary())
	}
	op := &LookupJoin{Kind: t.Kind, NumLeft: len(t.Left.Columns()), KeyCols: keyCols, RightKeys: rk, RightTypes: rightTypes, Residual: res,
		Right: right}
	lookupJoinExplain(op, t, lookup, names)
	return &Node{Op: op, Inputs: []*Node{left}, Cols: t.Cols, Mode: left.Mode, Parallelism: left.Parallelism, rows: left.rows}
}
