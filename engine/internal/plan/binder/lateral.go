package binder

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// correlateJoin binds "left JOIN right" where right is UNNEST(...),
// LATERAL TABLE(...) or a LATERAL subquery.
func (b *binder) correlateJoin(j *sql.Join, l plan.Node, ls *scope) (plan.Node, *scope, bool) {
	left := false
	switch j.Type {
	case sql.JoinInner, sql.JoinCross, sql.JoinComma, sql.JoinCrossApply:
	case sql.JoinLeft, sql.JoinOuterApply:
		left = true
	default:
		if isLateral(j.Right) {
			b.failAt(j, "%s JOIN with a lateral table is not supported", j.Type)
		}
		return nil, nil, false
	}
	var call *expr.TableCall
	var alias string
	var colNames []*sql.Ident
	switch x := j.Right.(type) {
	case *sql.Unnest:
		call = b.unnestCall(x, ls)
		if x.Alias != nil {
			alias = x.Alias.Name
		}
		colNames = x.Columns
	case *sql.TableFunc:
		if !x.Lateral {
			return nil, nil, false
		}
		call = b.tableCall(x.Call, ls)
		if x.Alias != nil {
			alias = x.Alias.Name
		}
		colNames = x.Columns
	case *sql.DerivedTable:
		if !x.Lateral {
			return nil, nil, false
		}
		n, sc := b.lateralSubquery(j, x, l, ls, left)
		return n, sc, true
	default:
		return nil, nil, false
	}
	fields := call.T.Fields
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	if len(colNames) > 0 {
		if len(colNames) != len(fields) {
			b.failAt(j.Right, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(fields), len(colNames))
		}
		names = identNames(colNames)
	}
	rcols := make([]plan.Column, len(fields))
	for i, f := range fields {
		t := f.Type
		if left {
			t = t.WithNullable(true)
		}
		rcols[i] = plan.Column{Name: names[i], Type: t}
	}
	rs := scopeOf(rcols, alias, nil)
	sc := ls.join(rs)
	cols := sc.columns()
	c := &plan.Correlate{Input: l, Call: call, Left: left, Cols: cols}
	if j.On != nil {
		cond := b.boolExpr(j.On, sc, "JOIN ON")
		if l, ok := cond.(*expr.Literal); !ok || l.Value != true {
			c.Cond = cond
		}
	}
	if len(j.Using) > 0 {
		b.failAt(j, "USING is not supported with a lateral table")
	}
	return c, sc, true
}

func isLateral(t sql.TableExpr) bool {
	switch x := t.(type) {
	case *sql.Unnest:
		return true
	case *sql.TableFunc:
		return x.Lateral
	case *sql.DerivedTable:
		return x.Lateral
	}
	return false
}

// unnestCall binds UNNEST(arg) [WITH ORDINALITY] over scope sc.
func (b *binder) unnestCall(u *sql.Unnest, sc *scope) *expr.TableCall {
	if len(u.Args) != 1 {
		b.failAt(u, "UNNEST with %d arguments is not supported; UNNEST takes one ARRAY, MAP or MULTISET", len(u.Args))
	}
	args := []expr.Expr{b.expr(u.Args[0], sc)}
	if u.WithOrdinality {
		args = append(args, &expr.Literal{Value: true, T: types.BooleanType().NotNull()})
	}
	f, _ := expr.Builtins.Lookup("UNNEST")
	call, err := expr.ResolveTableCall(f, "UNNEST", args)
	if err != nil {
		b.failAt(u, "%v", err)
	}
	return call
}

// tableCall binds a table function call f(args) over scope sc.
func (b *binder) tableCall(fc *sql.FuncCall, sc *scope) *expr.TableCall {
	f := b.lookupFunctionIn(fc, sc)
	name := strings.ToUpper(fc.Name.Parts[len(fc.Name.Parts)-1].Name)
	if f.Kind != expr.TableKind {
		b.failAt(fc, "Function '%s' is not a table function", name)
	}
	var args []expr.Expr
	for _, a := range fc.Args {
		args = append(args, b.expr(a, sc))
	}
	call, err := expr.ResolveTableCall(f, name, args)
	if err != nil {
		b.failAt(fc, "%v", err)
	}
	return call
}

// tableFuncFrom binds TABLE(f(...)) in FROM without a correlation: the
// function runs once over a one-row input.
func (b *binder) tableFuncFrom(t *sql.TableFunc) (plan.Node, *scope) {
	empty := &scope{}
	if len(t.Call.Name.Parts) == 1 {
		switch n := strings.ToUpper(t.Call.Name.Parts[0].Name); n {
		case "TUMBLE", "HOP", "CUMULATE", "SESSION":
			if f, ok := expr.Builtins.Lookup(n); !ok || f.Table == nil {
				b.failAt(t, "Window table function %s is not supported yet", n)
			}
		}
	}
	call := b.tableCall(t.Call, empty)
	for _, a := range call.Args {
		if len(expr.InputRefs(a)) > 0 {
			b.failAt(t, "The arguments of TABLE(%s) must be constants", call.Name)
		}
	}
	fields := call.T.Fields
	cols := make([]plan.Column, len(fields))
	for i, f := range fields {
		cols[i] = plan.Column{Name: f.Name, Type: f.Type}
	}
	if len(t.Columns) > 0 {
		if len(t.Columns) != len(cols) {
			b.failAt(t, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(cols), len(t.Columns))
		}
		for i, n := range identNames(t.Columns) {
			cols[i].Name = n
		}
	}
	in := &plan.Values{Rows: [][]expr.Expr{{}}}
	alias := ""
	if t.Alias != nil {
		alias = t.Alias.Name
	}
	return &plan.Correlate{Input: in, Call: call, Cols: cols}, scopeOf(cols, alias, nil)
}

// unnestFrom binds UNNEST(constant) alone in FROM.
func (b *binder) unnestFrom(u *sql.Unnest) (plan.Node, *scope) {
	call := b.unnestCall(u, &scope{})
	for _, a := range call.Args {
		if len(expr.InputRefs(a)) > 0 {
			b.failAt(u, "UNNEST outside of a join must have constant arguments")
		}
	}
	fields := call.T.Fields
	cols := make([]plan.Column, len(fields))
	for i, f := range fields {
		cols[i] = plan.Column{Name: f.Name, Type: f.Type}
	}
	if len(u.Columns) > 0 {
		if len(u.Columns) != len(cols) {
			b.failAt(u, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(cols), len(u.Columns))
		}
		for i, n := range identNames(u.Columns) {
			cols[i].Name = n
		}
	}
	alias := ""
	if u.Alias != nil {
		alias = u.Alias.Name
	}
	return &plan.Correlate{Input: &plan.Values{Rows: [][]expr.Expr{{}}}, Call: call, Cols: cols}, scopeOf(cols, alias, nil)
}

// lateralSubquery binds left JOIN LATERAL (subquery): the subquery may
// refer to the left side's columns in its WHERE clause; it is decorrelated
// into a join on those conditions.
func (b *binder) lateralSubquery(j *sql.Join, d *sql.DerivedTable, l plan.Node, ls *scope, left bool) (plan.Node, *scope) {
	saved := ls.sub
	ls.sub = &subqCtx{node: l, sc: ls}
	b.sq.lateral = true
	bs := b.bindSubquery(d.Query, ls)
	ls.sub = saved
	nl := len(l.Columns())
	kind := opspec.InnerJoin
	if left {
		kind = opspec.LeftJoin
	}
	// a global aggregate (no GROUP BY) yields one row for every outer row,
	// also when no inner row correlates: join its groups with a marker and
	// give missing groups the aggregates' values over no rows
	globalAgg := false
	if sel, ok := d.Query.Body.(*sql.Select); ok && bs.corr != nil && bs.corr.aggregated && len(sel.GroupBy) == 0 {
		globalAgg = true
	}
	right := bs.node
	if globalAgg || bs.post != nil && left {
		right = withMarker(right)
	}
	if globalAgg {
		kind = opspec.LeftJoin
	}
	rcols := right.Columns()
	cond := bs.joinCond(b, nl, nil)
	all := append([]plan.Column(nil), l.Columns()...)
	for _, c := range rcols {
		t := c.Type
		if kind == opspec.LeftJoin {
			t = t.WithNullable(true)
		}
		all = append(all, plan.Column{Name: c.Name, Type: t})
	}
	var n plan.Node = &plan.Join{Left: l, Right: right, Kind: kind, Cond: cond, Cols: all}
	if globalAgg {
		// left columns, then each visible column (or its empty-group value)
		marker := &expr.InputRef{Index: len(all) - 1, Name: "$m", T: all[len(all)-1].Type}
		var exprs []expr.Expr
		var cols []plan.Column
		for i := 0; i < nl; i++ {
			exprs = append(exprs, &expr.InputRef{Index: i, Name: all[i].Name, T: all[i].Type})
			cols = append(cols, all[i])
		}
		for i := 0; i < bs.visible; i++ {
			c := all[nl+i]
			var e expr.Expr = &expr.InputRef{Index: nl + i, Name: c.Name, T: c.Type}
			if empty := emptyGroupValueAt(bs, i); empty != nil {
				e = b.call(d, "CASE", b.call(d, "IS NULL", marker), empty, e)
			}
			exprs = append(exprs, e)
			cols = append(cols, plan.Column{Name: c.Name, Type: e.Type()})
		}
		n = &plan.Project{Input: n, Exprs: exprs, Cols: cols}
	} else if bs.post != nil {
		// left columns, then each visible column, or its select-list
		// expression over the joined row (NULL when a LEFT JOIN found no
		// inner row)
		var exprs []expr.Expr
		var cols []plan.Column
		for i := 0; i < nl; i++ {
			exprs = append(exprs, &expr.InputRef{Index: i, Name: all[i].Name, T: all[i].Type})
			cols = append(cols, all[i])
		}
		for i := 0; i < bs.visible; i++ {
			c := all[nl+i]
			var e expr.Expr = &expr.InputRef{Index: nl + i, Name: c.Name, T: c.Type}
			if p := bs.post[i]; p != nil {
				e = expr.Rewrite(p, func(x expr.Expr) expr.Expr {
					switch r := x.(type) {
					case *CorrelRef:
						return &expr.InputRef{Index: r.Index, Name: r.Name, T: r.T}
					case *subqOutRef:
						return &expr.InputRef{Index: nl + r.Index, Name: r.Name, T: all[nl+r.Index].Type}
					}
					return x
				})
				if left {
					marker := &expr.InputRef{Index: len(all) - 1, Name: "$m", T: all[len(all)-1].Type}
					e = b.call(d, "CASE", b.call(d, "IS NULL", marker), &expr.Literal{T: e.Type().WithNullable(true)}, e)
				}
			}
			exprs = append(exprs, e)
			cols = append(cols, plan.Column{Name: c.Name, Type: e.Type()})
		}
		n = &plan.Project{Input: n, Exprs: exprs, Cols: cols}
	} else if bs.visible < len(rcols) {
		// keep the left columns and the subquery's visible columns
		keep := make([]int, 0, nl+bs.visible)
		for i := 0; i < nl+bs.visible; i++ {
			keep = append(keep, i)
		}
		n = projectCols(n, keep)
	}
	vis := n.Columns()[nl:]
	if len(d.Columns) > 0 {
		if len(d.Columns) != len(vis) {
			b.failAt(d, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(vis), len(d.Columns))
		}
		names := identNames(d.Columns)
		cols := append([]plan.Column(nil), n.Columns()...)
		for i := range vis {
			cols[nl+i].Name = names[i]
		}
		n, _ = renameColumns(n, plan.Names(cols))
		vis = n.Columns()[nl:]
	}
	alias := ""
	if d.Alias != nil {
		alias = d.Alias.Name
	}
	sc := ls.join(scopeOf(vis, alias, nil))
	if j.On != nil {
		cond := b.boolExpr(j.On, sc, "JOIN ON")
		if lit, ok := cond.(*expr.Literal); !ok || lit.Value != true {
			if left {
				b.failAt(j.On, "LEFT JOIN LATERAL supports only ON TRUE")
			}
			n = &plan.Filter{Input: n, Cond: cond}
		}
	}
	return n, sc
}
