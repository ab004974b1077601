package binder

import (
	"fmt"
	"strconv"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Subqueries in expressions: scalar subqueries, IN / NOT IN (subquery),
// EXISTS / NOT EXISTS, correlated or not.
//
// Like Calcite's SubQueryRemoveRule and decorrelator in Flink, the binder
// turns them into joins while binding:
//
//   - A positive IN or EXISTS that is a conjunct of WHERE becomes a semi
//     join, NOT EXISTS an anti join (in streaming mode Flink's
//     StreamingSemiAntiJoinOperator, runtime/join_semi.go).
//   - Otherwise the subquery is left-joined onto the query's input and the
//     expression becomes a reference to the joined result. IN and EXISTS
//     join the subquery's distinct rows with a marker column; IN also joins
//     the row counts COUNT(*) and COUNT(y) of the subquery so that its
//     three-valued result follows SQL: x IN (…) is TRUE when a row matches,
//     NULL when x is NULL or the subquery has a NULL value and nothing
//     matched, FALSE when the subquery is empty or no row matches.
//   - A scalar subquery yields its single value (SINGLE_VALUE fails the job
//     when it returns more than one row; no row gives NULL).
//
// A correlated subquery may refer to columns of the enclosing query in its
// WHERE clause. Conjuncts that do so are pulled out of the subquery into
// the join condition; the subquery's columns they use become extra output
// columns (and grouping keys when the subquery aggregates, in which case
// an empty group gives the value the aggregate has over no rows, e.g.
// COUNT(*) = 0). The select list of a non-aggregating LATERAL or scalar
// subquery, and of x IN (subquery) bound as a semi join, may use the outer
// row too: those expressions are evaluated over the joined row
// (corrSink.post); EXISTS ignores its select list. Correlation elsewhere
// (other select lists, GROUP BY, HAVING, a nested subquery two levels
// down) is rejected with an error.

// subqCtx is the node that subqueries of a scope's expressions are joined
// onto; it grows as they are bound.
type subqCtx struct {
	node plan.Node
	sc   *scope
}

// CorrelRef refers to column Index of the enclosing query's row from inside
// a subquery (a correlation variable). Decorrelation replaces every
// CorrelRef before planning; it cannot be evaluated.
type CorrelRef struct {
	Index int
	Name  string
	T     *types.DataType
}

// Type implements expr.Expr.
func (c *CorrelRef) Type() *types.DataType { return c.T }

// String implements expr.Expr: "$cor0.name".
func (c *CorrelRef) String() string { return "$cor0." + c.Name }

// subqState is the binder's subquery state.
type subqState struct {
	// outer is the stack of enclosing scopes of the subqueries being bound.
	outer []*scope
	// sinks collect the correlated conditions of the SELECT blocks of
	// subqueries being bound.
	sinks []*corrSink
	count int
	// lateral is set by a LATERAL subquery for the next bindSubquery: its
	// select list may refer to the outer row.
	lateral bool
	// exists is set by EXISTS for the next bindSubquery: its select list
	// does not matter, outer references there are dropped.
	exists bool
	// scalar is set by a scalar subquery for the next bindSubquery: its
	// select list may refer to the outer row.
	scalar bool
	// pending are the correlated conditions of derived tables in the FROM
	// clause of a subquery block, waiting to join that block's sink
	// (liftDerived).
	pending []pendingCorr
	// inSemi is set by an IN conjunct bound as a semi or anti join for the
	// next bindSubquery: its select list may refer to the outer row (the
	// join condition compares with the expressions over the joined row).
	inSemi bool
}

// subqOutRef refers to an output column of a subquery while its join is
// built.
type subqOutRef struct {
	Index int
	Name  string
	T     *types.DataType
}

func (r *subqOutRef) Type() *types.DataType { return r.T }
func (r *subqOutRef) String() string        { return fmt.Sprintf("$sq.%s", r.Name) }

// checkNoCorrelation rejects correlation variables outside WHERE.
func (b *binder) checkNoCorrelation(at sql.Node, exprs []expr.Expr) {
	for _, e := range exprs {
		if hasCorrel(e) {
			b.failAt(at, "Correlated references are only supported in the WHERE clause of a subquery")
		}
	}
}

// boundSubquery is a subquery bound with its correlation.
type boundSubquery struct {
	node    plan.Node
	visible int
	corr    *corrSink // nil when not correlated
	// post: see corrSink.post (LATERAL subqueries only)
	post []expr.Expr
	// sink is the block's correlation sink (nil for set operations and
	// WITH queries)
	sink *corrSink
}

// bindSubquery binds q as a subquery of scope sc.
func (b *binder) bindSubquery(q *sql.Query, sc *scope) boundSubquery {
	lateral, exists, inSemi, scalar := b.sq.lateral, b.sq.exists, b.sq.inSemi, b.sq.scalar
	b.sq.lateral, b.sq.exists, b.sq.inSemi, b.sq.scalar = false, false, false, false
	b.sq.outer = append(b.sq.outer, sc)
	var sink *corrSink
	if sel, ok := q.Body.(*sql.Select); ok {
		sink = &corrSink{sel: sel, depth: len(b.sq.outer)}
		b.sq.sinks = append(b.sq.sinks, sink)
	}
	n, cols := b.query(q, nil)
	b.sq.outer = b.sq.outer[:len(b.sq.outer)-1]
	if sink != nil {
		b.sq.sinks = b.sq.sinks[:len(b.sq.sinks)-1]
	}
	bs := boundSubquery{node: n, visible: len(cols), sink: sink}
	if sink != nil && sink.post != nil {
		switch {
		case exists:
			// the select list of EXISTS is not used
		case lateral || inSemi || scalar:
			bs.post = sink.post
		default:
			b.failAt(q, "Correlated references in the select list of a subquery are supported in LATERAL, scalar and EXISTS subqueries and in x IN (subquery) or (x, y) NOT IN (subquery) as a WHERE conjunct")
		}
		bs.visible = sink.outStart
	}
	if sink != nil && len(sink.conds) > 0 {
		bs.corr = sink
		bs.visible = sink.outStart
		sink.agg = findAggregate(n)
	} else {
		// correlation anywhere else remains unresolved
		checkNodeNoCorrel(b, q, n)
	}
	return bs
}

func findAggregate(n plan.Node) *plan.Aggregate {
	for n != nil {
		switch x := n.(type) {
		case *plan.Aggregate:
			return x
		case *plan.Project:
			n = x.Input
		case *plan.Filter:
			n = x.Input
		default:
			return nil
		}
	}
	return nil
}

func checkNodeNoCorrel(b *binder, at sql.Node, n plan.Node) {
	var exprs []expr.Expr
	switch x := n.(type) {
	case *plan.Project:
		exprs = x.Exprs
	case *plan.Filter:
		exprs = []expr.Expr{x.Cond}
	case *plan.Join:
		if x.Cond != nil {
			exprs = []expr.Expr{x.Cond}
		}
	}
	for _, e := range exprs {
		if hasCorrel(e) {
			b.failAt(at, "Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only")
		}
	}
	for _, in := range n.Inputs() {
		checkNodeNoCorrel(b, at, in)
	}
}

// joinCond builds the join condition of a subquery join over the
// concatenation of the outer input (nl columns) and the subquery.
func (bs boundSubquery) joinCond(b *binder, nl int, extra []expr.Expr) expr.Expr {
	var conds []expr.Expr
	conds = append(conds, extra...)
	if bs.corr != nil {
		for _, c := range bs.corr.conds {
			conds = append(conds, expr.Rewrite(c, func(x expr.Expr) expr.Expr {
				switch r := x.(type) {
				case *CorrelRef:
					return &expr.InputRef{Index: r.Index, Name: r.Name, T: r.T}
				case *subqOutRef:
					return &expr.InputRef{Index: nl + r.Index, Name: r.Name, T: r.T}
				}
				return x
			}))
		}
	}
	if len(conds) == 0 {
		return nil
	}
	return plan.AndOf(conds)
}

// semiAnti turns a WHERE conjunct x IN (subquery), EXISTS (subquery),
// NOT EXISTS (subquery) or (x1, ..., xn) NOT IN (subquery) into a semi or
// anti join on the scope's node.
func (b *binder) semiAnti(c sql.Expr, sc *scope) (plan.Node, bool) {
	var q *sql.Query
	kind := opspec.SemiJoin
	var in *sql.InExpr
	switch x := c.(type) {
	case *sql.ExistsExpr:
		q = x.Query
	case *sql.UnaryExpr:
		if x.Op != "NOT" {
			return nil, false
		}
		ex, ok := x.X.(*sql.ExistsExpr)
		if !ok {
			return nil, false
		}
		q, kind = ex.Query, opspec.AntiJoin
	case *sql.InExpr:
		_, isRow := x.X.(*sql.RowExpr)
		if x.Query == nil || x.Not && !isRow {
			return nil, false
		}
		q, in = x.Query, x
		if x.Not {
			kind = opspec.AntiJoin
		}
	default:
		return nil, false
	}
	// the values before IN are bound first: subqueries among them join
	// onto the scope's node, which the semi or anti join then takes as its
	// left input
	var lhs []sql.Expr
	var lhsExprs []expr.Expr
	if in != nil {
		lhs = []sql.Expr{in.X}
		if row, isRow := in.X.(*sql.RowExpr); isRow {
			lhs = row.Items
		}
		for _, l := range lhs {
			lhsExprs = append(lhsExprs, b.expr(l, sc))
		}
	}
	q = predicateQuery(q, in == nil)
	left := sc.sub.node
	nl := len(left.Columns())
	b.sq.exists, b.sq.inSemi = in == nil, in != nil
	bs := b.bindSubquery(q, sc)
	var extra []expr.Expr
	if in != nil {
		// (x1, ..., xn) IN (SELECT y1, ..., yn ...): a semi join on
		// x1 = y1 AND ... AND xn = yn
		if bs.visible != len(lhs) {
			b.failAt(in, "The subquery of IN must return %d column(s), it returns %d", len(lhs), bs.visible)
		}
		for i := range lhs {
			x := lhsExprs[i]
			rc := bs.node.Columns()[i]
			var y expr.Expr = &expr.InputRef{Index: nl + i, Name: rc.Name, T: rc.Type}
			if bs.post != nil && bs.post[i] != nil {
				// a select-list expression over the outer row
				y = expr.Rewrite(bs.post[i], func(e expr.Expr) expr.Expr {
					switch r := e.(type) {
					case *CorrelRef:
						return &expr.InputRef{Index: r.Index, Name: r.Name, T: r.T}
					case *subqOutRef:
						return &expr.InputRef{Index: nl + r.Index, Name: r.Name, T: r.T}
					}
					return e
				})
			}
			eq := b.call(in, "=", x, y)
			if in.Not {
				// (x1, ..., xn) NOT IN (...) keeps a row only when every
				// subquery row differs in some column: a null-aware anti
				// join on (xi = yi OR (xi = yi) IS NULL) for each i, as in
				// Flink's SubQueryAntiJoinTest
				eq = b.call(in, "OR", eq, b.call(in, "IS NULL", eq))
			}
			extra = append(extra, eq)
		}
	}
	if in == nil && b.oneRowQuery(q) {
		// EXISTS over a block that always returns one row is TRUE
		if kind == opspec.SemiJoin {
			return left, true
		}
		return &plan.Filter{Input: left, Cond: &expr.Literal{Value: false, T: types.BooleanType().NotNull()}}, true
	}
	cond := bs.joinCond(b, nl, extra)
	cols := append(append([]plan.Column(nil), left.Columns()...), bs.node.Columns()...)
	return &plan.Join{Left: left, Right: bs.node, Kind: kind, Cond: cond, Cols: cols[:nl]}, true
}

// addHidden appends a column to the scope as a hidden field and returns a
// reference to it.
func (s *subqCtx) ref(i int) *expr.InputRef {
	c := s.node.Columns()[i]
	return &expr.InputRef{Index: i, Name: c.Name, T: c.Type}
}

// leftJoin left-joins r onto the context's node and registers r's columns
// as hidden fields of the scope; it returns the index of r's first column.
func (b *binder) leftJoin(s *subqCtx, r plan.Node, cond expr.Expr, kind opspec.JoinKind) int {
	nl := len(s.node.Columns())
	cols := append([]plan.Column(nil), s.node.Columns()...)
	for _, c := range r.Columns() {
		t := c.Type
		if kind == opspec.LeftJoin {
			t = t.WithNullable(true)
		}
		b.sq.count++
		name := fmt.Sprintf("$sq%d", b.sq.count)
		cols = append(cols, plan.Column{Name: name, Type: t})
		s.sc.fields = append(s.sc.fields, field{name: name, rel: -1, typ: t, hidden: true})
	}
	s.node = &plan.Join{Left: s.node, Right: r, Kind: kind, Cond: cond, Cols: cols}
	return nl
}

// withMarker appends a TRUE NOT NULL column "$m" to n.
func withMarker(n plan.Node) plan.Node {
	cols := n.Columns()
	exprs := make([]expr.Expr, 0, len(cols)+1)
	out := append([]plan.Column(nil), cols...)
	for i, c := range cols {
		exprs = append(exprs, &expr.InputRef{Index: i, Name: c.Name, T: c.Type})
	}
	exprs = append(exprs, &expr.Literal{Value: true, T: types.BooleanType().NotNull()})
	out = append(out, plan.Column{Name: "$m", Type: types.BooleanType().NotNull()})
	return &plan.Project{Input: n, Exprs: exprs, Cols: out}
}

// project keeps columns idx of n.
func projectCols(n plan.Node, idx []int) plan.Node {
	cols := n.Columns()
	exprs := make([]expr.Expr, len(idx))
	out := make([]plan.Column, len(idx))
	for k, i := range idx {
		exprs[k] = &expr.InputRef{Index: i, Name: cols[i].Name, T: cols[i].Type}
		out[k] = cols[i]
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: out}
}

// keyCols lists the correlation key outputs of a bound subquery.
func (bs boundSubquery) keyCols() []int {
	var out []int
	if bs.corr != nil {
		for i := range bs.corr.keys {
			out = append(out, bs.corr.outStart+i)
		}
	}
	return out
}

func (b *binder) needSub(n sql.Node, sc *scope) *subqCtx {
	if sc == nil || sc.sub == nil {
		b.failAt(n, "Subqueries are not supported here")
	}
	return sc.sub
}

// existsExpr binds EXISTS (subquery) as a boolean column.
func (b *binder) existsExpr(x *sql.ExistsExpr, sc *scope) expr.Expr {
	s := b.needSub(x, sc)
	q := predicateQuery(x.Query, true)
	b.sq.exists = true
	bs := b.bindSubquery(q, sc)
	if b.oneRowQuery(q) {
		return &expr.Literal{Value: true, T: types.BooleanType().NotNull()}
	}
	keys := bs.keyCols()
	if len(keys) == 0 {
		// no correlation keys: one row with the row count, joined under
		// the correlated conditions that use outer columns only
		cnt := &plan.Aggregate{Input: bs.node, Aggs: []opspec.AggSpec{{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull(), Name: "$c"}},
			Cols: []plan.Column{{Name: "$c", Type: types.BigIntType().NotNull()}}}
		zero := &expr.Literal{Value: int64(0), T: types.BigIntType().NotNull()}
		if bs.corr == nil {
			// a LEFT join: a streaming aggregate over no rows emits no
			// row, and an inner join would then drop every outer row
			at := b.leftJoin(s, cnt, nil, opspec.LeftJoin)
			return b.call(x, ">", b.call(x, "COALESCE", s.ref(at), zero), zero)
		}
		bs2 := boundSubquery{node: cnt, corr: remapKeys(bs.corr, 0)}
		at := b.leftJoin(s, cnt, bs2.joinCond(b, len(s.node.Columns()), nil), opspec.LeftJoin)
		return b.call(x, ">", b.call(x, "COALESCE", s.ref(at), zero), zero)
	}
	d := withMarker(distinct(projectCols(bs.node, keys)))
	// the subquery output keys now are columns 0..len(keys)-1 of d
	remap := bs
	remap.corr = remapKeys(bs.corr, 0)
	nl := len(s.node.Columns())
	at := b.leftJoin(s, d, remap.joinCond(b, nl, nil), opspec.LeftJoin)
	return b.call(x, "IS NOT NULL", s.ref(at+len(keys)))
}

// predicateQuery drops from the subquery of EXISTS or IN what cannot change
// its result: ORDER BY without LIMIT or OFFSET (Calcite ignores it in a
// subquery) and, for EXISTS, ORDER BY with a positive LIMIT (the query has
// a row exactly when it has one without them). A correlated subquery with
// them can then be decorrelated.
func predicateQuery(q *sql.Query, exists bool) *sql.Query {
	if q.Offset != nil || len(q.OrderBy) == 0 && q.Limit == nil {
		return q
	}
	c := *q
	if q.Limit == nil {
		c.OrderBy = nil
		return &c
	}
	n, ok := q.Limit.(*sql.NumberLit)
	if !exists || !ok || n.Kind != sql.NumInteger {
		return q
	}
	if v, err := strconv.ParseInt(n.Text, 10, 64); err != nil || v <= 0 {
		return q
	}
	c.OrderBy, c.Limit, c.Fetch = nil, nil, false
	return &c
}

// oneRowQuery reports a query that returns exactly one row whatever its
// input rows: a SELECT block that aggregates without GROUP BY, HAVING,
// QUALIFY, LIMIT or OFFSET. EXISTS over it is TRUE even when it is
// correlated (Calcite's SubQueryRemoveRule rewrites EXISTS over a query
// whose minimum row count is 1 to TRUE).
func (b *binder) oneRowQuery(q *sql.Query) bool {
	sel, ok := q.Body.(*sql.Select)
	if !ok || q.Limit != nil || q.Offset != nil || len(sel.GroupBy) > 0 || sel.Having != nil || sel.Qualify != nil {
		return false
	}
	for _, it := range sel.Items {
		if it.Expr != nil && containsAgg(b, it.Expr) {
			return true
		}
	}
	return false
}

// remapKeys returns a copy of a sink whose key outputs start at start.
func remapKeys(k *corrSink, start int) *corrSink {
	c := *k
	c.conds = make([]expr.Expr, len(k.conds))
	for i, e := range k.conds {
		c.conds[i] = expr.Rewrite(e, func(x expr.Expr) expr.Expr {
			if r, ok := x.(*subqOutRef); ok {
				return &subqOutRef{Index: r.Index - k.outStart + start, Name: r.Name, T: r.T}
			}
			return x
		})
	}
	c.outStart = start
	return &c
}

// inExpr binds x [NOT] IN (subquery) as a three-valued boolean column.
func (b *binder) inSubquery(x *sql.InExpr, sc *scope) expr.Expr {
	s := b.needSub(x, sc)
	if _, isRow := x.X.(*sql.RowExpr); isRow {
		b.failAt(x, "IN and NOT IN with a row value and a subquery are supported only as a WHERE conjunct")
	}
	lhs := b.expr(x.X, sc)
	bs := b.bindSubquery(predicateQuery(x.Query, false), sc)
	if bs.visible != 1 {
		b.failAt(x, "The subquery of IN must return exactly one column, it returns %d", bs.visible)
	}
	keys := bs.keyCols()
	yc := bs.node.Columns()[0]
	// counts per correlation group: COUNT(*) c, COUNT(y) ck
	cntIdx := append([]int(nil), keys...)
	cntIdx = append(cntIdx, 0)
	cntIn := projectCols(bs.node, cntIdx)
	nk := len(keys)
	gk := make([]int, nk)
	for i := range gk {
		gk[i] = i
	}
	var cols []plan.Column
	for i := 0; i < nk; i++ {
		cols = append(cols, cntIn.Columns()[i])
	}
	cols = append(cols, plan.Column{Name: "$c", Type: types.BigIntType().NotNull()}, plan.Column{Name: "$ck", Type: types.BigIntType().NotNull()})
	counts := &plan.Aggregate{Input: cntIn, GroupKeys: gk, Cols: cols, Aggs: []opspec.AggSpec{
		{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull(), Name: "$c"},
		{Func: "COUNT", Args: []int{nk}, ArgTypes: []*types.DataType{yc.Type}, Filter: -1, Type: types.BigIntType().NotNull(), Name: "$ck"},
	}}
	nl := len(s.node.Columns())
	var cAt int
	if bs.corr == nil {
		// a LEFT join: over an empty subquery a streaming aggregate emits
		// no counts, which the CASE below reads as zero rows
		cAt = b.leftJoin(s, counts, nil, opspec.LeftJoin)
	} else {
		k2 := remapKeys(bs.corr, 0)
		bs2 := boundSubquery{node: counts, corr: k2}
		cAt = b.leftJoin(s, counts, bs2.joinCond(b, nl, nil), opspec.LeftJoin)
	}
	c, ck := s.ref(cAt+nk), s.ref(cAt+nk+1)
	// distinct values with a marker
	dIdx := append([]int{0}, keys...)
	d := withMarker(distinct(projectCols(bs.node, dIdx)))
	nl = len(s.node.Columns())
	y := &expr.InputRef{Index: nl, Name: yc.Name, T: yc.Type}
	var corr *corrSink
	if bs.corr != nil {
		corr = remapKeys(bs.corr, 1)
	}
	bs3 := boundSubquery{node: d, corr: corr}
	dAt := b.leftJoin(s, d, bs3.joinCond(b, nl, []expr.Expr{b.call(x, "=", lhs, y)}), opspec.LeftJoin)
	marker := s.ref(dAt + 1 + nk)
	zero := &expr.Literal{Value: int64(0), T: types.BigIntType().NotNull()}
	t := func(v any) expr.Expr { return &expr.Literal{Value: v, T: types.BooleanType().NotNull()} }
	null := &expr.Literal{T: types.BooleanType()}
	cs := b.call(x, "CASE",
		b.call(x, "OR", b.call(x, "IS NULL", c), b.call(x, "=", c, zero)), t(false),
		b.call(x, "IS NOT NULL", marker), t(true),
		b.call(x, "IS NULL", lhs), null,
		b.call(x, "<", ck, c), null,
		t(false))
	if x.Not {
		return b.call(x, "NOT", cs)
	}
	return cs
}

// quantified binds x op SOME|ANY|ALL (subquery) as Calcite's
// SubQueryRemoveRule does: = SOME is IN and <> ALL is NOT IN; x op ALL q
// is NOT (x op' SOME q) with the negated comparison op'; the other SOME
// forms compare x with the subquery's MIN or MAX, with SQL's three-valued
// result: FALSE over no rows, NULL when x is NULL or when the comparison
// is not true and the subquery has a NULL.
func (b *binder) quantified(x *sql.QuantifiedExpr, sc *scope) expr.Expr {
	op, all := x.Op, x.Quantifier == "ALL"
	if all {
		op = map[string]string{"=": "<>", "<>": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
	}
	var some expr.Expr
	if op == "=" {
		some = b.inSubquery(&sql.InExpr{Span: x.Span, X: x.X, Query: x.Query}, sc)
	} else {
		sel, ok := x.Query.Body.(*sql.Select)
		if ok && len(sel.Items) != 1 {
			b.failAt(x, "The subquery of %s must return exactly one column, it returns %d", x.Quantifier, len(sel.Items))
		}
		simple := ok && len(x.Query.OrderBy) == 0 && x.Query.Limit == nil && x.Query.Offset == nil && len(sel.GroupBy) == 0 &&
			sel.Having == nil && sel.Qualify == nil && sel.Quantifier != "DISTINCT" && len(sel.Items) == 1
		if simple {
			if _, star := sel.Items[0].Expr.(*sql.Star); star || containsAgg(b, sel.Items[0].Expr) {
				simple = false
			}
		}
		var item sql.Expr
		if simple {
			item = sel.Items[0].Expr
		} else {
			// over the subquery as a derived table
			item = &sql.Identifier{Span: x.Span, Parts: []*sql.Ident{{Span: x.Span, Name: "$q"}}}
		}
		agg := func(name string, arg sql.Expr) expr.Expr {
			call := &sql.FuncCall{Span: x.Span, Name: &sql.ObjectName{Span: x.Span, Parts: []*sql.Ident{{Span: x.Span, Name: name}}}, Args: []sql.Expr{arg}}
			var q *sql.Query
			if simple {
				s2 := *sel
				s2.Items = []*sql.SelectItem{{Span: x.Span, Expr: call}}
				q2 := *x.Query
				q2.Body = &s2
				q = &q2
			} else {
				q = &sql.Query{Span: x.Span, Body: &sql.Select{Span: x.Span, Items: []*sql.SelectItem{{Span: x.Span, Expr: call}},
					From: &sql.DerivedTable{Span: x.Span, Query: x.Query, Alias: &sql.Ident{Span: x.Span, Name: "$sq"},
						Columns: []*sql.Ident{{Span: x.Span, Name: "$q"}}}}}
			}
			return b.scalarSubquery(&sql.SubqueryExpr{Span: x.Span, Query: q}, sc)
		}
		lhs := b.expr(x.X, sc)
		var cond expr.Expr
		switch op {
		case "<", "<=":
			cond = b.call(x, op, lhs, agg("MAX", item))
		case ">", ">=":
			cond = b.call(x, op, lhs, agg("MIN", item))
		default: // <>: some non-NULL value differs from x
			cond = b.call(x, "OR", b.call(x, "<>", lhs, agg("MIN", item)), b.call(x, "<>", lhs, agg("MAX", item)))
		}
		c := agg("COUNT", &sql.Star{Span: x.Span})
		ck := agg("COUNT", item)
		zero := &expr.Literal{Value: int64(0), T: types.BigIntType().NotNull()}
		t := func(v bool) expr.Expr { return &expr.Literal{Value: v, T: types.BooleanType().NotNull()} }
		null := &expr.Literal{T: types.BooleanType()}
		some = b.call(x, "CASE",
			b.call(x, "OR", b.call(x, "IS NULL", c), b.call(x, "=", c, zero)), t(false),
			b.call(x, "IS NULL", lhs), null,
			cond, t(true),
			b.call(x, "<", ck, c), null,
			t(false))
	}
	if all {
		return b.call(x, "NOT", some)
	}
	return some
}

// scalarSubquery binds (subquery) used as a value.
func (b *binder) scalarSubquery(x *sql.SubqueryExpr, sc *scope) expr.Expr {
	s := b.needSub(x, sc)
	b.sq.scalar = true
	bs := b.bindSubquery(x.Query, sc)
	if bs.visible != 1 {
		b.failAt(x, "A scalar subquery must return exactly one column, it returns %d", bs.visible)
	}
	if bs.post != nil && bs.post[0] != nil {
		return b.correlatedScalar(x, s, bs)
	}
	vc := bs.node.Columns()[0]
	keys := bs.keyCols()
	nl := len(s.node.Columns())
	if bs.corr == nil {
		var one plan.Node = bs.node
		if !singleRow(bs.node) {
			one = &plan.Aggregate{Input: bs.node, Aggs: []opspec.AggSpec{{Func: "SINGLE_VALUE", Args: []int{0}, ArgTypes: []*types.DataType{vc.Type},
				Filter: -1, Type: vc.Type.WithNullable(true), Name: "$v"}}, Cols: []plan.Column{{Name: "$v", Type: vc.Type.WithNullable(true)}}}
		}
		// a LEFT join: an empty streaming input gives no row (NULL)
		at := b.leftJoin(s, one, nil, opspec.LeftJoin)
		return s.ref(at)
	}
	if bs.corr.aggregated {
		// grouped by the correlation keys: a missing group has the value
		// of the aggregate over no rows
		d := withMarker(projectCols(bs.node, append([]int{0}, keys...)))
		corr := remapKeys(bs.corr, 1)
		bs2 := boundSubquery{node: d, corr: corr}
		at := b.leftJoin(s, d, bs2.joinCond(b, nl, nil), opspec.LeftJoin)
		v := s.ref(at)
		if empty := emptyGroupValue(bs); empty != nil {
			return b.call(x, "CASE", b.call(x, "IS NULL", s.ref(at+1+len(keys))), empty, v)
		}
		return v
	}
	// not aggregated: at most one row per correlation group
	idx := append([]int{0}, keys...)
	in := projectCols(bs.node, idx)
	gk := make([]int, len(keys))
	var cols []plan.Column
	for i := range keys {
		gk[i] = i + 1
	}
	// group keys first, then the value
	in2 := projectCols(in, append(append([]int(nil), gk...), 0))
	for i := range keys {
		cols = append(cols, in2.Columns()[i])
	}
	cols = append(cols, plan.Column{Name: "$v", Type: vc.Type.WithNullable(true)})
	kk := make([]int, len(keys))
	for i := range kk {
		kk[i] = i
	}
	one := &plan.Aggregate{Input: in2, GroupKeys: kk, Cols: cols, Aggs: []opspec.AggSpec{{Func: "SINGLE_VALUE", Args: []int{len(keys)},
		ArgTypes: []*types.DataType{vc.Type}, Filter: -1, Type: vc.Type.WithNullable(true), Name: "$v"}}}
	corr := remapKeys(bs.corr, 0)
	bs2 := boundSubquery{node: one, corr: corr}
	at := b.leftJoin(s, one, bs2.joinCond(b, nl, nil), opspec.LeftJoin)
	return s.ref(at + len(keys))
}

// correlatedScalar binds a non-aggregating scalar subquery whose value uses
// the outer row, e.g. (SELECT c + l.a FROM r WHERE r.k = l.a), as
// Calcite's decorrelator does: per correlation group, SINGLE_VALUE of each
// inner column the value uses (more than one row fails the job) and the
// row count are joined onto the outer row, and the value is evaluated over
// the joined row, NULL when no inner row matched.
func (b *binder) correlatedScalar(x *sql.SubqueryExpr, s *subqCtx, bs boundSubquery) expr.Expr {
	k := bs.sink
	nk := len(k.keys)
	nc := k.condKeys
	idx := make([]int, nk)
	for i := range idx {
		idx[i] = k.outStart + i
	}
	in := projectCols(bs.node, idx)
	inCols := in.Columns()
	gk := make([]int, nc)
	var cols []plan.Column
	for i := range gk {
		gk[i] = i
		cols = append(cols, inCols[i])
	}
	var aggs []opspec.AggSpec
	for i := nc; i < nk; i++ {
		t := inCols[i].Type.WithNullable(true)
		aggs = append(aggs, opspec.AggSpec{Func: "SINGLE_VALUE", Args: []int{i}, ArgTypes: []*types.DataType{inCols[i].Type},
			Filter: -1, Type: t, Name: inCols[i].Name})
		cols = append(cols, plan.Column{Name: inCols[i].Name, Type: t})
	}
	cnt := types.BigIntType().NotNull()
	aggs = append(aggs, opspec.AggSpec{Func: "COUNT", Filter: -1, Type: cnt, Name: "$n"})
	cols = append(cols, plan.Column{Name: "$n", Type: cnt})
	one := &plan.Aggregate{Input: in, GroupKeys: gk, Cols: cols, Aggs: aggs}
	nl := len(s.node.Columns())
	var at int
	if bs.corr == nil {
		at = b.leftJoin(s, one, nil, opspec.LeftJoin)
	} else {
		bs2 := boundSubquery{node: one, corr: remapKeys(bs.corr, 0)}
		at = b.leftJoin(s, one, bs2.joinCond(b, nl, nil), opspec.LeftJoin)
	}
	// key i of the block is column at+i of the joined row
	v := expr.Rewrite(bs.post[0], func(e expr.Expr) expr.Expr {
		switch r := e.(type) {
		case *CorrelRef:
			return &expr.InputRef{Index: r.Index, Name: r.Name, T: r.T}
		case *subqOutRef:
			c := s.node.Columns()[at+r.Index-k.outStart]
			return &expr.InputRef{Index: at + r.Index - k.outStart, Name: c.Name, T: c.Type}
		}
		return e
	})
	n := s.ref(at + nk)
	zero := &expr.Literal{Value: int64(0), T: cnt}
	return b.call(x, "CASE", b.call(x, "OR", b.call(x, "IS NULL", n), b.call(x, "=", n, zero)),
		&expr.Literal{T: v.Type().WithNullable(true)}, v)
}

// singleRow reports a plan that returns exactly one row: a global
// aggregate (under projections).
func singleRow(n plan.Node) bool {
	for {
		switch x := n.(type) {
		case *plan.Project:
			n = x.Input
		case *plan.Aggregate:
			return len(x.GroupKeys) == 0
		case *plan.Values:
			return len(x.Rows) == 1
		default:
			return false
		}
	}
}

// emptyGroupValue evaluates a correlated aggregate subquery's value over an
// empty group (COUNT and SUM0 give 0, the others NULL); nil when it is NULL.
func emptyGroupValue(bs boundSubquery) expr.Expr { return emptyGroupValueAt(bs, 0) }

// emptyGroupValueAt is emptyGroupValue for output column col.
func emptyGroupValueAt(bs boundSubquery, col int) expr.Expr {
	p, ok := bs.node.(*plan.Project)
	if !ok || bs.corr.agg == nil {
		return nil
	}
	agg := bs.corr.agg
	nk := len(agg.GroupKeys)
	subst := make([]expr.Expr, len(agg.Cols))
	for i, c := range agg.Cols {
		subst[i] = &expr.Literal{T: c.Type.WithNullable(true)}
		if i >= nk {
			switch agg.Aggs[i-nk].Func {
			case "COUNT", "SUM0":
				v, err := expr.CastValue(int64(0), types.BigIntType(), c.Type, nil)
				if err == nil {
					subst[i] = &expr.Literal{Value: v, T: c.Type}
				}
			}
		}
	}
	// the Project may sit on a Filter (HAVING) over the aggregate: then an
	// empty group has no row
	if _, direct := p.Input.(*plan.Aggregate); !direct {
		return nil
	}
	e := plan.Substitute(p.Exprs[col], subst)
	v, err := expr.EvalConst(e, expr.DefaultCtx())
	if err != nil || v == nil {
		return nil
	}
	return &expr.Literal{Value: v, T: p.Exprs[col].Type()}
}

// valueGenerator prepares an aggregating subquery block whose correlated
// conditions are not all key equalities (e.g. WHERE inner.d < outer.b), as
// Calcite's decorrelator does with a value generator: the distinct values
// of the outer columns the conditions use are joined onto the block's
// input under those conditions, so the aggregate groups by them; the
// block then correlates by null-safe equality on those columns. An outer
// row whose values match no input row finds no group and gets the value
// of the aggregate over no rows.
func (b *binder) valueGenerator(k *corrSink, n plan.Node, sc *scope) plan.Node {
	osc := b.sq.outer[len(b.sq.outer)-1]
	if osc.sub == nil {
		b.fail(fmt.Errorf("Correlated subqueries are not supported here"))
	}
	var outerIdx []int
	pos := map[int]int{}
	for _, c := range k.conds {
		expr.Walk(c, func(x expr.Expr) bool {
			if r, ok := x.(*CorrelRef); ok {
				if _, seen := pos[r.Index]; !seen {
					pos[r.Index] = len(outerIdx)
					outerIdx = append(outerIdx, r.Index)
				}
			}
			return true
		})
	}
	d := distinct(projectCols(osc.sub.node, outerIdx))
	nf := len(n.Columns())
	var conds []expr.Expr
	for _, c := range k.conds {
		conds = append(conds, expr.Rewrite(c, func(x expr.Expr) expr.Expr {
			if r, ok := x.(*CorrelRef); ok {
				return &expr.InputRef{Index: nf + pos[r.Index], Name: r.Name, T: r.T}
			}
			return x
		}))
	}
	cols := append(append([]plan.Column(nil), n.Columns()...), d.Columns()...)
	out := &plan.Join{Left: n, Right: d, Kind: opspec.InnerJoin, Cond: plan.AndOf(conds), Cols: cols}
	k.conds, k.keys, k.equi = nil, nil, true
	for j, oi := range outerIdx {
		c := d.Columns()[j]
		b.sq.count++
		name := fmt.Sprintf("$vg%d", b.sq.count)
		sc.fields = append(sc.fields, field{name: name, rel: -1, typ: c.Type, hidden: true})
		key := &expr.InputRef{Index: nf + j, Name: name, T: c.Type}
		k.keys = append(k.keys, key)
		of := osc.fields[oi]
		k.conds = append(k.conds, b.call(k.sel, "IS NOT DISTINCT FROM", &CorrelRef{Index: oi, Name: of.name, T: of.typ}, key))
	}
	return out
}
