package binder

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
)

// ExpandViewQuery returns a view's query as Flink 2.3.0 keeps it for
// SHOW CREATE VIEW (CatalogView.getExpandedQuery): the query as Calcite
// unparses it after validation. Tables are named in full with an alias
// (`cat`.`db`.`t` AS `t`), * and t.* are replaced by the columns they
// stand for, every column reference is qualified by the alias of the
// relation it comes from (ORDER BY keeps the select list's aliases),
// built-in function names are upper case, LIMIT becomes FETCH NEXT,
// VALUES rows are written ROW(...), BETWEEN says ASYMMETRIC,
// SUBSTRING(s FROM a FOR b) is SUBSTRING(s, a, b) and TRIM(s) is
// TRIM(BOTH ' ' FROM s); the layout is sql.FormatExpanded's.
//
// q is rewritten in place: pass a tree of its own (parse the text again).
// ok is false when the query uses what this expansion does not cover
// (table functions and window TVFs, UNNEST, LATERAL, joins with USING or
// NATURAL, hints, user-defined functions, references it cannot resolve);
// the caller then keeps the query as written.
func ExpandViewQuery(ctx *plan.Context, q *sql.Query) (text string, ok bool) {
	e := &viewExpander{ctx: ctx}
	defer func() {
		if r := recover(); r != nil {
			if _, giveUp := r.(expandGiveUp); !giveUp {
				panic(r)
			}
			text, ok = "", false
		}
	}()
	e.query(q, nil)
	return sql.FormatExpanded(q), true
}

// expandGiveUp unwinds an expansion that met something it does not cover.
type expandGiveUp struct{ why string }

func giveUp(format string, args ...any) {
	panic(expandGiveUp{fmt.Sprintf(format, args...)})
}

type viewExpander struct {
	ctx *plan.Context
	// anonymous counts the derived tables and window TVFs given no
	// alias: Calcite names them EXPR$0, EXPR$1, ... in the order met.
	anonymous int
	// ctes are the WITH items in reach, innermost last: name -> columns.
	ctes []map[string][]string
}

// expandRel is one relation of a FROM clause: its alias and the columns *
// stands for.
type expandRel struct {
	alias string
	cols  []string
}

// expandScope is the relations of one SELECT's FROM, inside the scopes of
// the queries around it (correlated references).
type expandScope struct {
	rels []expandRel
	// using maps a column merged by JOIN ... USING to the aliases of its
	// two sides: Calcite writes the merged column COALESCE(l.c, r.c).
	using  map[string][2]string
	parent *expandScope
}

func quotedIdent(name string) *sql.Ident { return &sql.Ident{Name: name, Quoted: true} }

func columnRef(alias, col string) *sql.Identifier {
	return &sql.Identifier{Parts: []*sql.Ident{quotedIdent(alias), quotedIdent(col)}}
}

// query expands q in place and returns the names of its output columns.
func (e *viewExpander) query(q *sql.Query, parent *expandScope) []string {
	pushed := false
	if q.With != nil {
		if q.With.Recursive {
			giveUp("WITH RECURSIVE")
		}
		e.ctes = append(e.ctes, map[string][]string{})
		pushed = true
		for _, c := range q.With.CTEs {
			cols := e.query(c.Query, parent)
			if len(c.Columns) > 0 {
				cols = identNames(c.Columns)
			}
			e.ctes[len(e.ctes)-1][c.Name.Name] = cols
			c.Name.Quoted = true
			for _, id := range c.Columns {
				id.Quoted = true
			}
		}
	}
	cols, sel := e.queryExpr(q.Body, parent)
	if len(q.OrderBy) > 0 {
		for _, o := range q.OrderBy {
			// ORDER BY names the select list's aliases first; other
			// references qualify in the single SELECT's FROM
			if id, isID := o.Expr.(*sql.Identifier); isID && len(id.Parts) == 1 && containsName(cols, id.Parts[0].Name) {
				id.Parts[0].Quoted = true
				continue
			}
			if sel == nil {
				giveUp("ORDER BY an expression over a set operation")
			}
			o.Expr = e.expr(o.Expr, sel)
		}
	}
	if q.Limit != nil && !q.LimitAll {
		q.Fetch = true
	}
	if pushed {
		e.ctes = e.ctes[:len(e.ctes)-1]
	}
	return cols
}

// queryExpr expands a query body; sel is the scope of its FROM when it is
// a single SELECT.
func (e *viewExpander) queryExpr(b sql.QueryExpr, parent *expandScope) (cols []string, sel *expandScope) {
	switch b := b.(type) {
	case *sql.Query:
		return e.query(b, parent), nil
	case *sql.Select:
		return e.selectBlock(b, parent)
	case *sql.SetOp:
		cols, _ = e.queryExpr(b.Left, parent)
		e.queryExpr(b.Right, parent)
		return cols, nil
	case *sql.Values:
		for i, r := range b.Rows {
			row, isRow := r.(*sql.RowExpr)
			if !isRow {
				row = &sql.RowExpr{Items: []sql.Expr{r}}
			}
			row.Explicit = true
			for j, it := range row.Items {
				row.Items[j] = e.expr(it, parent)
			}
			b.Rows[i] = row
			if i == 0 {
				for j := range row.Items {
					cols = append(cols, fmt.Sprintf("EXPR$%d", j))
				}
			}
		}
		return cols, nil
	}
	giveUp("query body %T", b)
	return nil, nil
}

func (e *viewExpander) selectBlock(s *sql.Select, parent *expandScope) ([]string, *expandScope) {
	if len(s.Hints) > 0 || len(s.Windows) > 0 || s.Qualify != nil {
		giveUp("SELECT hints, WINDOW or QUALIFY")
	}
	sc := &expandScope{parent: parent}
	if s.From != nil {
		s.From = e.from(s.From, sc, parent)
	}
	var items []*sql.SelectItem
	var cols []string
	for i, it := range s.Items {
		if st, isStar := it.Expr.(*sql.Star); isStar {
			if len(sc.using) > 0 {
				giveUp("* over a USING join")
			}
			for _, r := range sc.rels {
				if len(st.Qualifier) > 0 && (len(st.Qualifier) != 1 || st.Qualifier[0].Name != r.alias) {
					continue
				}
				for _, c := range r.cols {
					items = append(items, &sql.SelectItem{Expr: columnRef(r.alias, c)})
					cols = append(cols, c)
				}
			}
			if len(st.Qualifier) > 0 && len(items) == 0 {
				giveUp("%v.* names no relation", st.Qualifier)
			}
			continue
		}
		name := fmt.Sprintf("EXPR$%d", i)
		if it.Alias != nil {
			name = it.Alias.Name
			it.Alias.Quoted = true
		} else if id, isID := it.Expr.(*sql.Identifier); isID {
			name = id.Parts[len(id.Parts)-1].Name
		}
		if id, isID := it.Expr.(*sql.Identifier); isID && it.Alias == nil && len(id.Parts) == 1 {
			if _, merged := sc.using[id.Parts[0].Name]; merged {
				it.Alias = quotedIdent(name)
			}
		}
		it.Expr = e.expr(it.Expr, sc)
		items = append(items, it)
		cols = append(cols, name)
	}
	s.Items = items
	if s.Where != nil {
		s.Where = e.expr(s.Where, sc)
	}
	for _, g := range s.GroupBy {
		e.grouping(g, sc)
	}
	if s.Having != nil {
		s.Having = e.expr(s.Having, sc)
	}
	return cols, sc
}

func (e *viewExpander) grouping(g *sql.GroupingElement, sc *expandScope) {
	for i, x := range g.Exprs {
		g.Exprs[i] = e.expr(x, sc)
	}
	for _, s := range g.Sets {
		e.grouping(s, sc)
	}
}

// from expands a FROM item, adding its relations to sc; outer is the scope
// correlated references in derived tables may reach (none: Flink has no
// LATERAL here that this covers).
func (e *viewExpander) from(t sql.TableExpr, sc, outer *expandScope) sql.TableExpr {
	switch t := t.(type) {
	case *sql.TableRef:
		if len(t.Hints) > 0 {
			giveUp("table hints")
		}
		alias := t.Name.Parts[len(t.Name.Parts)-1].Name
		if t.Alias != nil {
			alias = t.Alias.Name
		}
		var cols []string
		if c, isCTE := e.cte(t.Name); isCTE {
			cols = c
			t.Name.Parts[0].Quoted = true
		} else {
			id, c := e.table(t.Name)
			cols = c
			t.Name = &sql.ObjectName{Parts: []*sql.Ident{quotedIdent(id.Catalog), quotedIdent(id.Database), quotedIdent(id.Object)}}
		}
		if len(t.Columns) > 0 {
			cols = identNames(t.Columns)
			for _, c := range t.Columns {
				c.Quoted = true
			}
		}
		if t.SystemTime != nil {
			// FOR SYSTEM_TIME AS OF names a column of the relations on
			// its left
			t.SystemTime = e.expr(t.SystemTime, sc)
		}
		t.Alias = quotedIdent(alias)
		sc.rels = append(sc.rels, expandRel{alias: alias, cols: cols})
		return t
	case *sql.DerivedTable:
		if t.Lateral {
			giveUp("LATERAL derived table")
		}
		cols := e.query(t.Query, outer)
		if t.Alias == nil {
			t.Alias = e.generatedAlias()
		}
		if len(t.Columns) > 0 {
			cols = identNames(t.Columns)
			for _, c := range t.Columns {
				c.Quoted = true
			}
		}
		t.Alias.Quoted = true
		sc.rels = append(sc.rels, expandRel{alias: t.Alias.Name, cols: cols})
		return t
	case *sql.TableFunc:
		return e.windowTVF(t, sc)
	case *sql.Join:
		if t.Natural {
			giveUp("NATURAL join")
		}
		switch t.Type {
		case sql.JoinInner, sql.JoinLeft, sql.JoinRight, sql.JoinFull, sql.JoinCross, sql.JoinComma:
		default:
			giveUp("join type %v", t.Type)
		}
		t.Left = e.from(t.Left, sc, outer)
		nLeft := len(sc.rels)
		t.Right = e.from(t.Right, sc, outer)
		for _, u := range t.Using {
			left := (&expandScope{rels: sc.rels[:nLeft]}).mustResolve(u.Name)
			right := (&expandScope{rels: sc.rels[nLeft:]}).mustResolve(u.Name)
			if sc.using == nil {
				sc.using = map[string][2]string{}
			}
			sc.using[u.Name] = [2]string{left, right}
			u.Quoted = true
		}
		if t.On != nil {
			t.On = e.expr(t.On, sc)
		}
		return t
	}
	giveUp("FROM item %T", t)
	return nil
}

// cte finds a one-part name among the WITH items in reach.
func (e *viewExpander) cte(n *sql.ObjectName) ([]string, bool) {
	if len(n.Parts) != 1 {
		return nil, false
	}
	for i := len(e.ctes) - 1; i >= 0; i-- {
		if c, ok := e.ctes[i][n.Parts[0].Name]; ok {
			return c, true
		}
	}
	return nil, false
}

// table resolves a catalog table or view as the binder does and returns
// its identifier and the columns * stands for.
func (e *viewExpander) table(n *sql.ObjectName) (id catalog.ObjectIdentifier, cols []string) {
	b := newBinder(e.ctx, "", sql.Pos{})
	var err error
	func() {
		defer b.recoverErr(&err)
		qid, qerr := b.qualify(identNames(n.Parts))
		if qerr != nil {
			b.fail(qerr)
		}
		id = qid
		_, sc := b.tableRef(&sql.TableRef{Name: &sql.ObjectName{Parts: n.Parts}})
		for _, f := range sc.fields {
			if !f.hidden {
				cols = append(cols, f.name)
			}
		}
	}()
	if err != nil {
		giveUp("table %v: %v", identNames(n.Parts), err)
	}
	return id, cols
}

// resolve finds the alias of the relation whose column name is, in the
// innermost scope that has one; a name two relations of that scope have
// is ambiguous.
func (sc *expandScope) resolve(name string) (string, bool) {
	for s := sc; s != nil; s = s.parent {
		found := ""
		n := 0
		for _, r := range s.rels {
			if containsName(r.cols, name) {
				found = r.alias
				n++
			}
		}
		if n == 1 {
			return found, true
		}
		if n > 1 {
			return "", false
		}
	}
	return "", false
}

// generatedAlias names a relation written without alias as Calcite's
// validator does.
func (e *viewExpander) generatedAlias() *sql.Ident {
	id := quotedIdent(fmt.Sprintf("EXPR$%d", e.anonymous))
	e.anonymous++
	return id
}

func (sc *expandScope) mustResolve(name string) string {
	alias, ok := sc.resolve(name)
	if !ok {
		giveUp("column %q", name)
	}
	return alias
}

// windowTVF expands FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), ...)) and
// its HOP, CUMULATE and SESSION peers as Calcite writes them: the table
// argument becomes the subquery selecting its columns, and the call's
// relation is named EXPR$0 unless aliased.
func (e *viewExpander) windowTVF(t *sql.TableFunc, sc *expandScope) sql.TableExpr {
	f := t.Call
	if t.Lateral || f == nil || f.Name == nil || len(f.Name.Parts) != 1 || len(t.Columns) > 0 || len(f.Args) == 0 {
		giveUp("table function")
	}
	name := strings.ToUpper(f.Name.Parts[0].Name)
	switch name {
	case "TUMBLE", "HOP", "CUMULATE", "SESSION":
	default:
		giveUp("table function %s", name)
	}
	ta, ok := f.Args[0].(*sql.TableArg)
	if !ok || ta.Name == nil || len(ta.PartitionBy) > 0 || len(ta.OrderBy) > 0 {
		giveUp("window TVF argument")
	}
	inner := &sql.Select{From: &sql.TableRef{Name: ta.Name}, Items: []*sql.SelectItem{{Expr: &sql.Star{}}}}
	sub := &sql.Query{Body: inner}
	cols := e.query(sub, nil)
	f.Name.Parts[0].Name = name
	f.Args[0] = &sql.TableArg{Query: sub}
	for _, a := range f.Args[1:] {
		switch a := a.(type) {
		case *sql.Descriptor:
			for _, c := range a.Columns {
				c.Quoted = true
			}
		case *sql.IntervalLit:
		default:
			giveUp("window TVF argument %T", a)
		}
	}
	if t.Alias == nil {
		t.Alias = e.generatedAlias()
	}
	alias := t.Alias.Name
	t.Alias.Quoted = true
	sc.rels = append(sc.rels, expandRel{alias: alias, cols: append(cols, "window_start", "window_end", "window_time")})
	return t
}

func (sc *expandScope) hasAlias(name string) bool {
	for s := sc; s != nil; s = s.parent {
		for _, r := range s.rels {
			if r.alias == name {
				return true
			}
		}
	}
	return false
}

// expr qualifies the column references of x and rewrites the forms
// Calcite's validator rewrites; it returns the (possibly new) expression.
func (e *viewExpander) expr(x sql.Expr, sc *expandScope) sql.Expr {
	switch x := x.(type) {
	case nil:
		return nil
	case *sql.Identifier:
		for _, p := range x.Parts {
			p.Quoted = true
		}
		if len(x.Parts) > 1 && sc.hasAlias(x.Parts[0].Name) {
			return x
		}
		if len(x.Parts) == 1 {
			for s := sc; s != nil; s = s.parent {
				if sides, merged := s.using[x.Parts[0].Name]; merged {
					return &sql.FuncCall{Name: &sql.ObjectName{Parts: []*sql.Ident{{Name: "COALESCE"}}},
						Args: []sql.Expr{columnRef(sides[0], x.Parts[0].Name), columnRef(sides[1], x.Parts[0].Name)}}
				}
			}
		}
		alias, ok := sc.resolve(x.Parts[0].Name)
		if !ok {
			giveUp("column %q", x.Parts[0].Name)
		}
		x.Parts = append([]*sql.Ident{quotedIdent(alias)}, x.Parts...)
		return x
	case *sql.Star:
		if len(x.Qualifier) > 0 {
			giveUp("qualified * in an expression")
		}
		return x
	case *sql.NumberLit:
		x.Text = strings.ReplaceAll(x.Text, "e", "E")
		return x
	case *sql.StringLit, *sql.BinaryLit, *sql.BoolLit, *sql.NullLit, *sql.UnknownLit,
		*sql.DateTimeLit, *sql.IntervalLit, *sql.Symbol:
		return x
	case *sql.UnaryExpr:
		x.X = e.expr(x.X, sc)
		return x
	case *sql.BinaryExpr:
		x.X = e.expr(x.X, sc)
		x.Y = e.expr(x.Y, sc)
		return x
	case *sql.IsExpr:
		x.X = e.expr(x.X, sc)
		return x
	case *sql.IsDistinctFromExpr:
		x.X = e.expr(x.X, sc)
		x.Y = e.expr(x.Y, sc)
		return x
	case *sql.LikeExpr:
		x.X = e.expr(x.X, sc)
		x.Pattern = e.expr(x.Pattern, sc)
		x.Escape = e.expr(x.Escape, sc)
		return x
	case *sql.InExpr:
		x.X = e.expr(x.X, sc)
		for i, it := range x.List {
			x.List[i] = e.expr(it, sc)
		}
		if x.Query != nil {
			e.query(x.Query, sc)
		}
		return x
	case *sql.BetweenExpr:
		x.X = e.expr(x.X, sc)
		x.Low = e.expr(x.Low, sc)
		x.High = e.expr(x.High, sc)
		if x.Symmetric == "" {
			x.Symmetric = "ASYMMETRIC"
		}
		return x
	case *sql.QuantifiedExpr:
		x.X = e.expr(x.X, sc)
		e.query(x.Query, sc)
		return x
	case *sql.ExistsExpr:
		e.query(x.Query, sc)
		return x
	case *sql.SubqueryExpr:
		e.query(x.Query, sc)
		return x
	case *sql.CastExpr:
		x.X = e.expr(x.X, sc)
		calciteTypeNames(x.Type)
		return x
	case *sql.CaseExpr:
		// CASE x WHEN v THEN ... is validated into CASE WHEN x = v THEN
		// ..., and a missing ELSE is ELSE NULL
		op := e.expr(x.Operand, sc)
		for _, w := range x.Whens {
			w.Cond = e.expr(w.Cond, sc)
			if op != nil {
				if len(w.More) > 0 {
					giveUp("CASE x WHEN a, b")
				}
				w.Cond = &sql.BinaryExpr{Op: "=", X: op, Y: w.Cond}
			}
			w.Result = e.expr(w.Result, sc)
		}
		x.Operand = nil
		x.Else = e.expr(x.Else, sc)
		if x.Else == nil {
			x.Else = &sql.NullLit{}
		}
		return x
	case *sql.FuncCall:
		return e.funcCall(x, sc)
	case *sql.RowExpr:
		e.constructor(nil, x.Items, sc)
		return x
	case *sql.ArrayExpr:
		e.constructor(x.Query, x.Items, sc)
		return x
	case *sql.MapExpr:
		e.constructor(x.Query, x.Items, sc)
		return x
	case *sql.IndexExpr:
		x.X = e.expr(x.X, sc)
		x.Index = e.expr(x.Index, sc)
		return x
	case *sql.FieldExpr:
		x.X = e.expr(x.X, sc)
		x.Field.Quoted = true
		return x
	}
	giveUp("expression %T", x)
	return nil
}

// constructor expands the items (or the query) of ROW, ARRAY and MAP.
func (e *viewExpander) constructor(q *sql.Query, items []sql.Expr, sc *expandScope) {
	if q != nil {
		e.query(q, sc)
	}
	for i, it := range items {
		items[i] = e.expr(it, sc)
	}
}

func (e *viewExpander) funcCall(f *sql.FuncCall, sc *expandScope) sql.Expr {
	if f.Name == nil || len(f.Name.Parts) != 1 || f.Name.Parts[0].Quoted {
		giveUp("qualified or quoted function name")
	}
	name := f.Name.Parts[0].Name
	if _, ranking := plan.RankingFunctions[strings.ToUpper(name)]; !ranking || f.Over == nil {
		fn, err := e.ctx.LookupFunction([]string{name})
		if b, builtin := expr.Builtins.Lookup(name); err != nil || !builtin || fn != b {
			giveUp("function %s is not a built-in one", name)
		}
	}
	f.Name.Parts[0].Name = strings.ToUpper(name)
	for i, a := range f.Args {
		f.Args[i] = e.expr(a, sc)
	}
	switch {
	case f.Syntax == sql.SyntaxSubstring:
		f.Syntax = sql.SyntaxFunction
	case f.Syntax == sql.SyntaxFunction && strings.EqualFold(name, "TRIM") && len(f.Args) == 1:
		f.Syntax = sql.SyntaxTrim
		f.Args = []sql.Expr{&sql.Symbol{Name: "BOTH"}, &sql.StringLit{Value: " "}, f.Args[0]}
	}
	for _, o := range f.OrderBy {
		o.Expr = e.expr(o.Expr, sc)
	}
	for _, o := range f.WithinGroup {
		o.Expr = e.expr(o.Expr, sc)
	}
	f.Filter = e.expr(f.Filter, sc)
	if w := f.Over; w != nil {
		if w.Ref || w.Name != nil {
			giveUp("named window")
		}
		for i, p := range w.PartitionBy {
			w.PartitionBy[i] = e.expr(p, sc)
		}
		for _, o := range w.OrderBy {
			o.Expr = e.expr(o.Expr, sc)
		}
	}
	return f
}

// calciteTypeNames writes a type as Calcite's unparser does where it
// differs from how it was written: INT as INTEGER, DOUBLE PRECISION as
// DOUBLE.
func calciteTypeNames(t *sql.DataType) {
	if t == nil {
		return
	}
	switch t.Name {
	case "INT":
		t.Name = "INTEGER"
	case "DOUBLE PRECISION":
		t.Name = "DOUBLE"
	}
	calciteTypeNames(t.Elem)
	calciteTypeNames(t.Key)
	calciteTypeNames(t.Value)
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}
