package binder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// binder binds one statement.
type binder struct {
	ctx  *plan.Context
	text string
	base sql.Pos
	ctes []map[string]*cteDef
	// viewDepth guards against recursive views.
	viewDepth int
	// defaultCat/defaultDB override the session's current catalog and
	// database while a view is expanded.
	defaultCat, defaultDB string
	// over maps the OVER calls of the SELECT being bound to their columns.
	over overScope
	// subquery binding state (subquery.go)
	sq subqState
}

// qualify completes a 1- to 3-part object name.
func (b *binder) qualify(parts []string) (catalog.ObjectIdentifier, error) {
	if b.defaultCat != "" && len(parts) < 3 {
		switch len(parts) {
		case 1:
			return catalog.ObjectIdentifier{Catalog: b.defaultCat, Database: b.defaultDB, Object: parts[0]}, nil
		case 2:
			return catalog.ObjectIdentifier{Catalog: b.defaultCat, Database: parts[0], Object: parts[1]}, nil
		}
	}
	return b.ctx.Catalogs.Qualify(parts)
}

type cteDef struct {
	node plan.Node
	cols []plan.Column
	// visible is the number of columns a reference sees; the others are
	// correlation keys of a WITH query inside a subquery whose WHERE
	// clause correlates (pending, lifted at each reference)
	visible int
	pending *pendingCorr
}

func newBinder(ctx *plan.Context, text string, base sql.Pos) *binder {
	return &binder{ctx: ctx, text: text, base: base}
}

// BindQuery binds a query AST to a logical plan. text is the statement's
// source (for error end positions) starting at base.
func BindQuery(ctx *plan.Context, q *sql.Query, text string, base sql.Pos) (n plan.Node, err error) {
	b := newBinder(ctx, text, base)
	defer b.recoverErr(&err)
	n, _ = b.query(q, nil)
	return n, nil
}

// bindPanic carries a binding error through recursion.
type bindPanic struct{ err error }

func (b *binder) fail(err error) { panic(bindPanic{err}) }

func (b *binder) failAt(n sql.Node, format string, args ...any) {
	b.fail(b.errAt(n, format, args...))
}

func (b *binder) recoverErr(err *error) {
	if r := recover(); r != nil {
		if bp, ok := r.(bindPanic); ok {
			*err = bp.err
			return
		}
		panic(r)
	}
}

// ---------------------------------------------------------------- scopes

type relation struct {
	alias string
	id    *catalog.ObjectIdentifier
}

type field struct {
	name string
	rel  int // index into scope.rels, -1 when anonymous
	typ  *types.DataType
	// hidden fields (subquery results joined in) are not visible by name
	// or through *.
	hidden bool
	// qualifiedOnly fields (the inputs of a USING / NATURAL join's
	// merged columns) are reached only through their table's qualifier.
	qualifiedOnly bool
}

type scope struct {
	rels   []relation
	fields []field
	agg    *aggScope
	// sub lets expressions bound in this scope join subqueries onto the
	// scope's input node (subquery.go); nil where subqueries are not
	// allowed.
	sub *subqCtx
	// match binds the DEFINE and MEASURES expressions of a
	// MATCH_RECOGNIZE (match.go); nil elsewhere.
	match *matchScope
}

func (s *scope) columns() []plan.Column {
	out := make([]plan.Column, len(s.fields))
	for i, f := range s.fields {
		out[i] = plan.Column{Name: f.name, Type: f.typ}
	}
	return out
}

func scopeOf(cols []plan.Column, alias string, id *catalog.ObjectIdentifier) *scope {
	s := &scope{rels: []relation{{alias: alias, id: id}}}
	for _, c := range cols {
		s.fields = append(s.fields, field{name: c.Name, rel: 0, typ: c.Type})
	}
	return s
}

// join concatenates two scopes.
func (s *scope) join(o *scope) *scope {
	out := &scope{rels: append(append([]relation(nil), s.rels...), o.rels...)}
	out.fields = append(out.fields, s.fields...)
	for _, f := range o.fields {
		if f.rel >= 0 {
			f.rel += len(s.rels)
		}
		out.fields = append(out.fields, f)
	}
	return out
}

func (r relation) matches(q []string) bool {
	if r.alias != "" {
		return len(q) == 1 && q[0] == r.alias
	}
	if r.id == nil {
		return false
	}
	switch len(q) {
	case 1:
		return q[0] == r.id.Object
	case 2:
		return q[0] == r.id.Database && q[1] == r.id.Object
	case 3:
		return q[0] == r.id.Catalog && q[1] == r.id.Database && q[2] == r.id.Object
	}
	return false
}

// resolve finds the column named by parts; it returns the column index and
// the remaining parts (nested field accesses), or -1.
func (s *scope) resolve(parts []string) (idx int, rest []string, ambiguous bool) {
	// qualified: longest qualifier first
	for k := min(3, len(parts)-1); k >= 1; k-- {
		q := parts[:k]
		found := -1
		for i, f := range s.fields {
			if !f.hidden && f.rel >= 0 && s.rels[f.rel].matches(q) && f.name == parts[k] {
				if found >= 0 {
					return -1, nil, true
				}
				found = i
			}
		}
		if found >= 0 {
			return found, parts[k+1:], false
		}
	}
	found := -1
	for i, f := range s.fields {
		if !f.hidden && !f.qualifiedOnly && f.name == parts[0] {
			if found >= 0 {
				return -1, nil, true
			}
			found = i
		}
	}
	if found >= 0 {
		return found, parts[1:], false
	}
	return -1, nil, false
}

func (s *scope) names() []string {
	out := make([]string, len(s.fields))
	for i, f := range s.fields {
		out[i] = f.name
	}
	return out
}

// ---------------------------------------------------------------- queries

// query binds a full query (WITH, body, ORDER BY, LIMIT).
func (b *binder) query(q *sql.Query, outer *scope) (plan.Node, []plan.Column) {
	if q.With != nil {
		defs := map[string]*cteDef{}
		b.ctes = append(b.ctes, defs)
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
		for _, c := range q.With.CTEs {
			n, cols, visible, pending := b.derivedTable(&sql.DerivedTable{Span: c.Span, Query: c.Query}, outer)
			if len(c.Columns) > 0 {
				if len(c.Columns) != visible {
					b.failAt(c, "Number of columns must match number of query columns")
				}
				n, cols = renameColumns(n, append(identNames(c.Columns), plan.Names(cols[visible:])...))
			}
			defs[c.Name.Name] = &cteDef{node: n, cols: cols, visible: visible, pending: pending}
		}
	}
	// ORDER BY / LIMIT bind against the body's select list
	if sel, ok := q.Body.(*sql.Select); ok && (len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil) {
		n := b.selectBlock(sel, outer, q)
		return n, n.Columns()
	}
	n := b.queryExpr(q.Body, outer)
	if len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil {
		sc := scopeOf(n.Columns(), "", nil)
		var keys []opspec.SortKey
		for _, o := range q.OrderBy {
			idx := b.orderTarget(o, sc, n.Columns(), nil)
			b.checkOrderable(o, n.Columns()[idx].Type)
			keys = append(keys, b.sortKey(o, idx))
		}
		off, fetch := b.limits(q)
		n = &plan.Sort{Input: n, Keys: keys, Offset: off, Fetch: fetch}
	}
	return n, n.Columns()
}

func identNames(ids []*sql.Ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return out
}

// renameColumns wraps n in a projection renaming its columns.
func renameColumns(n plan.Node, names []string) (plan.Node, []plan.Column) {
	cols := n.Columns()
	exprs := make([]expr.Expr, len(cols))
	out := make([]plan.Column, len(cols))
	for i, c := range cols {
		exprs[i] = &expr.InputRef{Index: i, Name: names[i], T: c.Type}
		out[i] = plan.Column{Name: names[i], Type: c.Type}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: out}, out
}

func (b *binder) limits(q *sql.Query) (int64, int64) {
	off, fetch := int64(0), int64(-1)
	if q.Offset != nil {
		off = b.constInt(q.Offset, "OFFSET")
	}
	if q.Limit != nil {
		fetch = b.constInt(q.Limit, "LIMIT")
	}
	return off, fetch
}

func (b *binder) constInt(e sql.Expr, what string) int64 {
	n, ok := e.(*sql.NumberLit)
	if !ok || n.Kind != sql.NumInteger {
		b.failAt(e, "%s must be a non-negative integer literal", what)
	}
	v, err := strconv.ParseInt(n.Text, 10, 64)
	if err != nil || v < 0 {
		b.failAt(e, "%s must be a non-negative integer literal", what)
	}
	return v
}

// checkOrderable refuses an ORDER BY key of type VARIANT, as Flink does.
func (b *binder) checkOrderable(o *sql.OrderItem, t *types.DataType) {
	if t.Root == types.VariantRoot {
		b.failAt(o, "Type(%s) is not an orderable data type, it is not supported as a ORDER_BY/GROUP_BY/JOIN_EQUAL field.", t)
	}
}

func (b *binder) sortKey(o *sql.OrderItem, idx int) opspec.SortKey {
	k := opspec.SortKey{Col: idx, Desc: o.Desc}
	switch o.Nulls {
	case "FIRST":
		k.NullsFirst = true
	case "LAST":
		k.NullsFirst = false
	default:
		k.NullsFirst = !o.Desc
	}
	return k
}

// queryExpr binds a query body.
func (b *binder) queryExpr(qe sql.QueryExpr, outer *scope) plan.Node {
	switch x := qe.(type) {
	case *sql.Select:
		return b.selectBlock(x, outer, nil)
	case *sql.Query:
		n, _ := b.query(x, outer)
		return n
	case *sql.Values:
		return b.values(x)
	case *sql.SetOp:
		return b.setOp(x, outer)
	}
	b.failAt(qe, "unsupported query form")
	return nil
}

func (b *binder) setOp(s *sql.SetOp, outer *scope) plan.Node {
	l := b.queryExpr(s.Left, outer)
	r := b.queryExpr(s.Right, outer)
	lc, rc := l.Columns(), r.Columns()
	if len(lc) != len(rc) {
		b.failAt(s, "Column count mismatch in %s", s.Op)
	}
	cols := make([]plan.Column, len(lc))
	for i := range lc {
		t := types.CommonType(lc[i].Type, rc[i].Type)
		if t == nil {
			b.failAt(s, "Type mismatch in column %d of %s: %s and %s", i+1, s.Op, lc[i].Type, rc[i].Type)
		}
		// UNION ALL of two time attributes of the same kind stays one
		// (windows over a union of streams, as in Flink); else it is a
		// plain timestamp
		attr := types.NoTimeAttr
		if s.Op == "UNION" && s.Quantifier == "ALL" && lc[i].Type.TimeAttr == rc[i].Type.TimeAttr {
			attr = lc[i].Type.TimeAttr
		}
		cols[i] = plan.Column{Name: lc[i].Name, Type: t.WithTimeAttr(attr)}
	}
	l = castTo(l, cols)
	r = castTo(r, cols)
	all := s.Quantifier == "ALL"
	var kind plan.SetOpKind
	switch s.Op {
	case "UNION":
		kind = plan.UnionOp
	case "INTERSECT":
		kind = plan.IntersectOp
	case "EXCEPT":
		kind = plan.ExceptOp
	}
	if kind != plan.UnionOp {
		return b.intersectExcept(kind, all, l, r, cols)
	}
	var n plan.Node = &plan.SetOp{Kind: kind, All: all, In: []plan.Node{l, r}, Cols: cols}
	if !all {
		n = distinct(n)
	}
	return n
}

// castTo projects n so its columns have the given types (names kept).
func castTo(n plan.Node, cols []plan.Column) plan.Node {
	in := n.Columns()
	same := true
	for i := range in {
		if !in[i].Type.Equals(cols[i].Type) {
			same = false
		}
	}
	if same {
		return n
	}
	exprs := make([]expr.Expr, len(in))
	out := make([]plan.Column, len(in))
	for i, c := range in {
		var e expr.Expr = &expr.InputRef{Index: i, Name: c.Name, T: c.Type}
		if !c.Type.EqualsIgnoreNull(cols[i].Type) {
			e = expr.ImplicitCast(e, cols[i].Type)
		}
		exprs[i] = e
		out[i] = plan.Column{Name: c.Name, Type: cols[i].Type.WithNullable(c.Type.Nullable || cols[i].Type.Nullable)}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: out}
}

// distinct groups by every column.
func distinct(n plan.Node) plan.Node {
	cols := n.Columns()
	keys := make([]int, len(cols))
	for i := range keys {
		keys[i] = i
	}
	return &plan.Aggregate{Input: n, GroupKeys: keys, Cols: cols}
}

func (b *binder) values(v *sql.Values) plan.Node {
	var rows [][]expr.Expr
	emptyScope := &scope{}
	for _, r := range v.Rows {
		var items []sql.Expr
		if re, ok := r.(*sql.RowExpr); ok {
			items = re.Items
		} else {
			items = []sql.Expr{r}
		}
		row := make([]expr.Expr, len(items))
		for i, it := range items {
			row[i] = b.expr(it, emptyScope)
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			b.failAt(r, "Values passed to VALUES operator must have compatible types")
		}
		rows = append(rows, row)
	}
	n := len(rows[0])
	cols := make([]plan.Column, n)
	for c := 0; c < n; c++ {
		ts := make([]*types.DataType, len(rows))
		for i, r := range rows {
			ts[i] = r[c].Type()
		}
		t := types.CommonType(ts...)
		if t == nil {
			b.failAt(v, "Values passed to VALUES operator must have compatible types")
		}
		if t.Root == types.Null {
			t = types.NullType()
		}
		cols[c] = plan.Column{Name: fmt.Sprintf("EXPR$%d", c), Type: t}
		for _, r := range rows {
			if !r[c].Type().EqualsIgnoreNull(t) {
				r[c] = expr.ImplicitCast(r[c], t)
			}
		}
	}
	return &plan.Values{Rows: rows, Cols: cols}
}

// ---------------------------------------------------------------- FROM

// selectBlock binds one SELECT; q (may be nil) supplies ORDER BY and
// LIMIT, which may refer to select aliases and non-selected columns.
func (b *binder) selectBlock(s *sql.Select, outer *scope, q *sql.Query) plan.Node {
	var n plan.Node
	var sc *scope
	corr := b.sq.sinkFor(s)
	if s.From == nil {
		n = &plan.Values{Rows: [][]expr.Expr{{}}, Cols: nil}
		sc = &scope{}
	} else {
		pending := len(b.sq.pending)
		n, sc = b.from(s.From, outer)
		b.liftDerived(pending, corr, sc, s)
	}
	if s.Where != nil {
		if containsAgg(b, s.Where) {
			b.failAt(s.Where, "Aggregate functions are not allowed in WHERE")
		}
		n = b.bindWhere(s.Where, n, sc, corr)
	}
	sc.sub = &subqCtx{node: n, sc: sc}
	// expand the select list
	items := b.expandStars(s.Items, sc)
	var orderBy []*sql.OrderItem
	if q != nil {
		orderBy = q.OrderBy
	}
	aggregating := len(s.GroupBy) > 0 || s.Having != nil
	for _, it := range items {
		if it.ast != nil && containsAgg(b, it.ast) {
			aggregating = true
		}
	}
	for _, o := range orderBy {
		if containsAgg(b, o.Expr) {
			aggregating = true
		}
	}
	inScope := sc
	windowed := false
	if corr != nil && !corr.equi && len(corr.conds) > 0 && !aggregating {
		var calls []*sql.FuncCall
		for _, it := range items {
			if it.ast != nil {
				collectOverCalls(it.ast, &calls)
			}
		}
		for _, o := range orderBy {
			collectOverCalls(o.Expr, &calls)
		}
		windowed = len(calls) > 0
	}
	if (aggregating || windowed) && corr != nil && !corr.equi && len(corr.conds) > 0 {
		// the aggregates or windows span the rows that correlate with one
		// outer row: group or partition by the outer values
		n = b.valueGenerator(corr, n, sc)
	}
	if aggregating {
		var aggAsts []sql.Expr
		for _, it := range items {
			if it.ast != nil {
				aggAsts = append(aggAsts, it.ast)
			}
		}
		if s.Having != nil {
			aggAsts = append(aggAsts, s.Having)
		}
		for _, o := range orderBy {
			aggAsts = append(aggAsts, o.Expr)
		}
		sc.sub = nil // no subqueries in aggregate arguments
		n, inScope = b.aggregate(n, sc, s, aggAsts)
		inScope.sub = &subqCtx{node: n, sc: inScope}
		if s.Having != nil {
			cond := b.boolExpr(s.Having, inScope, "HAVING")
			n = &plan.Filter{Input: inScope.sub.node, Cond: cond}
			inScope.sub.node = n
		}
	}
	n, inScope = b.bindOver(n, inScope, items, orderBy, s, corr, aggregating)
	// select list
	exprs := make([]expr.Expr, len(items))
	names := make([]string, len(items))
	for i, it := range items {
		if it.bound != nil {
			exprs[i] = it.bound
			if aggregating {
				exprs[i] = b.expr(it.ident, inScope)
			}
		} else {
			exprs[i] = b.expr(it.ast, inScope)
		}
		names[i] = it.name
		if names[i] == "" {
			names[i] = fmt.Sprintf("EXPR$%d", i)
		}
	}
	names = plan.Uniquify(names)
	if inScope.sub != nil {
		n = inScope.sub.node
	}
	if corr != nil {
		if !aggregating && s.Quantifier != "DISTINCT" {
			// a LATERAL subquery's select list may use the outer row:
			// its expressions are evaluated after the join (corr.post)
			exprs = corr.deferCorrelated(exprs)
		}
		b.checkNoCorrelation(s, exprs)
	}
	visible := len(exprs)
	// ORDER BY items not in the select list become hidden columns
	var keys []opspec.SortKey
	if len(orderBy) > 0 {
		selCols := make([]plan.Column, len(exprs))
		for i := range exprs {
			selCols[i] = plan.Column{Name: names[i], Type: exprs[i].Type()}
		}
		for _, o := range orderBy {
			idx := b.orderTarget(o, inScope, selCols, exprs)
			if idx < 0 {
				if s.Quantifier == "DISTINCT" {
					b.failAt(o, "Expression '%s' is not in the select clause", o.Expr)
				}
				e := b.expr(o.Expr, inScope)
				exprs = append(exprs, e)
				names = append(names, fmt.Sprintf("EXPR$%d", len(names)))
				selCols = append(selCols, plan.Column{Name: names[len(names)-1], Type: e.Type()})
				idx = len(exprs) - 1
			}
			b.checkOrderable(o, selCols[idx].Type)
			keys = append(keys, b.sortKey(o, idx))
		}
	}
	if corr != nil && (len(corr.conds) > 0 || corr.post != nil) {
		// correlated subquery: carry the local columns of the correlation
		// conditions as trailing outputs (an uncorrelated one may sort
		// and limit)
		if len(keys) > 0 || q != nil && (q.Limit != nil || q.Offset != nil) {
			b.failAt(s, "ORDER BY, LIMIT and OFFSET are not supported in a correlated subquery")
		}
		exprs, names = corr.appendKeys(exprs, names, inScope, aggregating)
		visible = len(exprs)
	}
	cols := make([]plan.Column, len(exprs))
	for i, e := range exprs {
		cols[i] = plan.Column{Name: names[i], Type: e.Type()}
	}
	n = &plan.Project{Input: n, Exprs: exprs, Cols: cols}
	if s.Quantifier == "DISTINCT" {
		n = distinct(n)
	}
	if q != nil && (len(keys) > 0 || q.Limit != nil || q.Offset != nil) {
		off, fetch := b.limits(q)
		n = &plan.Sort{Input: n, Keys: keys, Offset: off, Fetch: fetch}
	}
	if len(exprs) > visible {
		n = projectFirst(n, visible)
	}
	return n
}

// projectFirst keeps the first k columns.
func projectFirst(n plan.Node, k int) plan.Node {
	cols := n.Columns()[:k]
	exprs := make([]expr.Expr, k)
	for i, c := range cols {
		exprs[i] = &expr.InputRef{Index: i, Name: c.Name, T: c.Type}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: append([]plan.Column(nil), cols...)}
}

// orderTarget resolves an ORDER BY item to a select-list column: an
// ordinal, a select alias, or an expression equal to a selected one; -1
// when it must be added as a hidden column.
func (b *binder) orderTarget(o *sql.OrderItem, sc *scope, selCols []plan.Column, selExprs []expr.Expr) int {
	if n, ok := o.Expr.(*sql.NumberLit); ok && n.Kind == sql.NumInteger {
		v, _ := strconv.Atoi(n.Text)
		if v < 1 || v > len(selCols) {
			b.failAt(o.Expr, "Ordinal out of range")
		}
		return v - 1
	}
	if id, ok := o.Expr.(*sql.Identifier); ok && len(id.Parts) == 1 {
		for i, c := range selCols {
			if c.Name == id.Parts[0].Name {
				// an alias wins over an input column of the same name
				return i
			}
		}
	}
	if selExprs == nil {
		// set operation / parenthesised query: only output columns exist
		e := b.expr(o.Expr, sc)
		if r, ok := e.(*expr.InputRef); ok {
			return r.Index
		}
		b.failAt(o.Expr, "ORDER BY expression must refer to an output column")
	}
	e := b.expr(o.Expr, sc)
	for i, s := range selExprs {
		if exprKey(s) == exprKey(e) {
			return i
		}
	}
	return -1
}

type selItem struct {
	ast   sql.Expr
	ident sql.Expr // for star-expanded items: an identifier
	bound expr.Expr
	name  string
}

func (b *binder) expandStars(items []*sql.SelectItem, sc *scope) []selItem {
	var out []selItem
	for _, it := range items {
		star, ok := it.Expr.(*sql.Star)
		if !ok {
			name := ""
			if it.Alias != nil {
				name = it.Alias.Name
			} else {
				name = impliedName(it.Expr)
			}
			out = append(out, selItem{ast: it.Expr, name: name})
			continue
		}
		q := identNames(star.Qualifier)
		found := false
		for i, f := range sc.fields {
			if f.hidden || len(q) == 0 && f.qualifiedOnly || len(q) > 0 && (f.rel < 0 || !sc.rels[f.rel].matches(q)) {
				continue
			}
			found = true
			ident := &sql.Identifier{Span: star.Span, Parts: []*sql.Ident{{Span: star.Span, Name: f.name}}}
			if f.rel >= 0 {
				r := sc.rels[f.rel]
				switch {
				case r.alias != "":
					ident.Parts = append([]*sql.Ident{{Span: star.Span, Name: r.alias}}, ident.Parts...)
				case r.id != nil:
					ident.Parts = append([]*sql.Ident{{Span: star.Span, Name: r.id.Catalog}, {Span: star.Span, Name: r.id.Database}, {Span: star.Span, Name: r.id.Object}}, ident.Parts...)
				}
			}
			out = append(out, selItem{ident: ident, bound: &expr.InputRef{Index: i, Name: f.name, T: f.typ}, name: f.name})
		}
		if !found {
			if len(q) > 0 {
				b.failAt(star, "Unknown identifier '%s'", strings.Join(q, "."))
			}
			b.failAt(star, "SELECT * requires a FROM clause")
		}
	}
	return out
}

// impliedName is the column name Calcite derives for an unaliased item:
// the last part of a (dotted) identifier, or "" (then EXPR$n). Field access
// on any other expression, (r).b or ROW(1, 'x').EXPR$1, names no column,
// as on Flink.
func impliedName(e sql.Expr) string {
	if x, ok := e.(*sql.Identifier); ok {
		return x.Parts[len(x.Parts)-1].Name
	}
	return ""
}

// tableFunc binds TABLE(f(...)) in FROM (window TVFs, user table functions).
func (b *binder) tableFunc(t *sql.TableFunc, outer *scope) (plan.Node, *scope) {
	if n, sc, ok := b.windowTableFunc(t, outer); ok {
		return n, sc
	}
	if f := b.ptfFunction(t); f != nil {
		return b.processTableFunc(t, f, outer)
	}
	if t.Lateral {
		b.failAt(t, "LATERAL TABLE needs a table on its left (FROM t, LATERAL TABLE(f(t.x)))")
	}
	return b.tableFuncFrom(t)
}

// relName is the name a FROM item is referred to by: its alias, or the
// table's object name.
func (r relation) relName() string {
	if r.alias != "" {
		return r.alias
	}
	if r.id != nil {
		return r.id.Object
	}
	return ""
}

// checkDuplicateRelations rejects a FROM clause that names two relations
// alike, as Calcite does ("Duplicate relation name 'f' in FROM clause").
func (b *binder) checkDuplicateRelations(at sql.Node, ls, rs *scope) {
	names := map[string]bool{}
	for _, r := range ls.rels {
		if n := r.relName(); n != "" {
			names[n] = true
		}
	}
	for _, r := range rs.rels {
		if n := r.relName(); n != "" && names[n] {
			b.failAt(at, "Duplicate relation name '%s' in FROM clause", n)
		}
	}
}
