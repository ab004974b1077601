package authoring

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// The grid actions rewrite a result tab's query from a right-click on a
// cell or a column header, as the filter bars of DBeaver and DB Browser
// for SQLite do. Each parses the query with engine/sql, edits the tree and
// prints it back with sql.FormatPretty, so the user sees (and can edit) the
// SQL that runs. Columns are named as the grid shows them: the query's
// output column names. When an action cannot be applied in place (a UNION,
// a column computed by a window function, a name the select list does not
// produce) the query is wrapped: SELECT ... FROM (query) WHERE ...

// FilterByValue adds "column op value" to the query, for the grid's "Filter
// = value", "Filter ≠ value", "Filter > value" and "Filter < value". op is
// one of OpEq, OpNe, OpLt, OpLe, OpGt, OpGe; value and its type t follow
// the engine's Go value conventions. A NULL value gives IS NULL (for =) or
// IS NOT NULL (for ≠). An earlier filter of the same kind on the same
// column (= or ≠ or IS [NOT] NULL; > and >=; < and <=) is replaced. A
// filter on an aggregate goes into HAVING.
func FilterByValue(query, column string, op Op, value any, t *types.DataType) (string, error) {
	var cond func(target sql.Expr) (sql.Expr, error)
	switch op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
	default:
		return "", fmt.Errorf("the grid filters with =, <>, <, <=, > or >=, not %s", op)
	}
	if value == nil {
		if op != OpEq && op != OpNe {
			return "", fmt.Errorf("NULL cannot be compared with %s", op)
		}
		cond = func(target sql.Expr) (sql.Expr, error) {
			return &sql.IsExpr{X: target, Not: op == OpNe, What: "NULL"}, nil
		}
	} else {
		lit, err := Literal(value, t)
		if err != nil {
			return "", err
		}
		cond = func(target sql.Expr) (sql.Expr, error) {
			return &sql.BinaryExpr{Op: op.String(), X: target, Y: lit}, nil
		}
	}
	q, err := parseGridQuery(query)
	if err != nil {
		return "", err
	}
	sel, target, ok := resolveOutput(q, column)
	if !ok || hasWindowCall(target) {
		q = wrap(q)
		sel, target = q.Body.(*sql.Select), columnExpr(ColumnRef{Name: column})
	}
	c, err := cond(target)
	if err != nil {
		return "", err
	}
	if hasAggregate(target) || (len(sel.GroupBy) > 0 && !isGroupKey(sel, target)) {
		sel.Having = addConjunct(sel.Having, c)
	} else {
		sel.Where = addConjunct(sel.Where, c)
	}
	return sql.FormatPretty(q), nil
}

// GroupByColumn groups the query by a column and counts the rows of each
// group: SELECT column, COUNT(*) AS cnt FROM ... WHERE ... GROUP BY column.
// A query that is grouped or aggregated already is wrapped, so that its
// result rows are what gets grouped (a histogram of an aggregate column).
// ORDER BY items that no longer name an output column are dropped.
func GroupByColumn(query, column string) (string, error) {
	q, err := parseGridQuery(query)
	if err != nil {
		return "", err
	}
	sel, target, ok := resolveOutput(q, column)
	if !ok || hasWindowCall(target) || hasAggregate(target) || len(sel.GroupBy) > 0 || selectHasAggregate(sel) {
		q = wrap(q)
		sel, target = q.Body.(*sql.Select), columnExpr(ColumnRef{Name: column})
	}
	item := &sql.SelectItem{Expr: target}
	if outName(target, -1) != column {
		item.Alias = &sql.Ident{Name: column}
	}
	sel.Items = []*sql.SelectItem{item, countStar(countAlias(column))}
	sel.GroupBy = []*sql.GroupingElement{groupKey(target)}
	sel.Quantifier = ""
	pruneOrderBy(q, sel)
	return sql.FormatPretty(q), nil
}

// countAlias is "cnt", or "cnt_rows" when the grouped column is called cnt.
func countAlias(column string) string {
	if column == "cnt" {
		return "cnt_rows"
	}
	return "cnt"
}

// CountDistinct replaces the query by the number of distinct values of a
// column: SELECT COUNT(DISTINCT column) AS count_distinct_column FROM ...,
// keeping FROM and WHERE. Grouped and compound queries are wrapped.
func CountDistinct(query, column string) (string, error) {
	q, err := parseGridQuery(query)
	if err != nil {
		return "", err
	}
	sel, target, ok := resolveOutput(q, column)
	if !ok || hasWindowCall(target) || hasAggregate(target) || len(sel.GroupBy) > 0 || selectHasAggregate(sel) || sel.Quantifier == "DISTINCT" {
		q = wrap(q)
		sel, target = q.Body.(*sql.Select), columnExpr(ColumnRef{Name: column})
	}
	call := &sql.FuncCall{Name: objName("COUNT"), Quantifier: "DISTINCT", Args: []sql.Expr{target}}
	sel.Items = []*sql.SelectItem{{Expr: call, Alias: &sql.Ident{Name: DefaultAlias(AggCountDistinct, column)}}}
	sel.Quantifier = ""
	q.OrderBy, q.Limit, q.Offset, q.Fetch, q.LimitAll = nil, nil, nil, false, false
	return sql.FormatPretty(q), nil
}

// SortBy makes a column the first ORDER BY key (ascending or descending),
// keeping the other keys after it.
func SortBy(query, column string, desc bool) (string, error) {
	q, err := parseGridQuery(query)
	if err != nil {
		return "", err
	}
	key := sql.Expr(columnExpr(ColumnRef{Name: column}))
	if sel, ok := q.Body.(*sql.Select); ok {
		// Flink names unaliased expressions EXPR$n; ORDER BY cannot use
		// that name, so sort by the expression itself.
		if i := itemIndex(sel, column); i >= 0 && strings.HasPrefix(column, "EXPR$") && sel.Items[i].Alias == nil {
			key = sel.Items[i].Expr
		}
	}
	kept := slices.DeleteFunc(q.OrderBy, func(o *sql.OrderItem) bool {
		return sameExpr(o.Expr, key) || sameExpr(o.Expr, columnExpr(ColumnRef{Name: column}))
	})
	q.OrderBy = append([]*sql.OrderItem{{Expr: key, Desc: desc}}, kept...)
	return sql.FormatPretty(q), nil
}

// HideColumn removes a column from the output. columns are the query's
// current output columns (the grid's header); they are needed to expand a
// SELECT *. Hiding the only column is an error.
func HideColumn(query, column string, columns []string) (string, error) {
	if len(columns) > 0 && !slices.Contains(columns, column) {
		return "", fmt.Errorf("the result has no column %s", sql.QuoteIdentIfNeeded(column))
	}
	if len(columns) == 1 {
		return "", fmt.Errorf("cannot hide the only column")
	}
	q, err := parseGridQuery(query)
	if err != nil {
		return "", err
	}
	sel, isSel := q.Body.(*sql.Select)
	if isSel {
		if i := itemIndex(sel, column); i >= 0 {
			if len(sel.Items) == 1 {
				return "", fmt.Errorf("cannot hide the only column")
			}
			sel.Items = slices.Delete(sel.Items, i, i+1)
			return sql.FormatPretty(q), nil
		}
		if len(sel.Items) == 1 && isBareStar(sel.Items[0].Expr) && len(columns) > 0 {
			sel.Items = otherColumns(columns, column)
			return sql.FormatPretty(q), nil
		}
	}
	if len(columns) == 0 {
		return "", fmt.Errorf("the result's columns are needed to hide %s", sql.QuoteIdentIfNeeded(column))
	}
	w := wrap(q)
	w.Body.(*sql.Select).Items = otherColumns(columns, column)
	return sql.FormatPretty(w), nil
}

func otherColumns(columns []string, hide string) []*sql.SelectItem {
	var items []*sql.SelectItem
	for _, c := range columns {
		if c != hide {
			items = append(items, &sql.SelectItem{Expr: columnExpr(ColumnRef{Name: c})})
		}
	}
	return items
}

// parseGridQuery parses the tab's query: one SELECT statement.
func parseGridQuery(text string) (*sql.Query, error) {
	spans := sql.SplitStatements(text)
	if len(spans) != 1 {
		return nil, fmt.Errorf("the grid actions need exactly one query, found %d statements", len(spans))
	}
	st, err := spans[0].Parse()
	if err != nil {
		return nil, err
	}
	q, ok := st.(*sql.Query)
	if !ok {
		return nil, fmt.Errorf("the grid actions work on queries (SELECT), not on %s", strings.Fields(spans[0].Text)[0])
	}
	return q, nil
}

// wrap turns q into SELECT * FROM (q).
func wrap(q *sql.Query) *sql.Query {
	return &sql.Query{Body: &sql.Select{
		Items: []*sql.SelectItem{{Expr: &sql.Star{}}},
		From:  &sql.DerivedTable{Query: q},
	}}
}

// resolveOutput finds the expression that produces output column name in
// q's select block; for SELECT * (and t.*) the column of the source
// itself. ok is false when q is not a simple SELECT or no item produces
// the name.
func resolveOutput(q *sql.Query, name string) (*sql.Select, sql.Expr, bool) {
	sel, ok := q.Body.(*sql.Select)
	if !ok || sel.From == nil {
		return nil, nil, false
	}
	if i := itemIndex(sel, name); i >= 0 {
		return sel, sel.Items[i].Expr, true
	}
	for _, it := range sel.Items {
		if st, ok := it.Expr.(*sql.Star); ok {
			c := ColumnRef{Name: name}
			if len(st.Qualifier) > 0 {
				c.Table = st.Qualifier[len(st.Qualifier)-1].Name
			}
			return sel, columnExpr(c), true
		}
	}
	return nil, nil, false
}

// itemIndex returns the index of the select item whose output name is
// name, or -1.
func itemIndex(sel *sql.Select, name string) int {
	for i, it := range sel.Items {
		if it.Alias != nil {
			if it.Alias.Name == name {
				return i
			}
			continue
		}
		if outName(it.Expr, i) == name {
			return i
		}
	}
	return -1
}

// outName is Flink's name for an unaliased select expression at index i:
// a column's own name, a field's name, or EXPR$i.
func outName(e sql.Expr, i int) string {
	switch x := e.(type) {
	case *sql.Identifier:
		return x.Parts[len(x.Parts)-1].Name
	case *sql.FieldExpr:
		return x.Field.Name
	case *sql.Star:
		return ""
	}
	return "EXPR$" + strconv.Itoa(i)
}

func isBareStar(e sql.Expr) bool {
	st, ok := e.(*sql.Star)
	return ok && len(st.Qualifier) == 0
}

func countStar(alias string) *sql.SelectItem {
	return &sql.SelectItem{Expr: &sql.FuncCall{Name: objName("COUNT"), Args: []sql.Expr{&sql.Star{}}}, Alias: &sql.Ident{Name: alias}}
}

func groupKey(e sql.Expr) *sql.GroupingElement {
	return &sql.GroupingElement{Kind: sql.GroupExpr, Exprs: []sql.Expr{e}}
}

func isGroupKey(sel *sql.Select, e sql.Expr) bool {
	for _, g := range sel.GroupBy {
		if g.Kind == sql.GroupExpr && len(g.Exprs) == 1 && sameExpr(g.Exprs[0], e) {
			return true
		}
	}
	return false
}

// pruneOrderBy drops ORDER BY items that are not output columns of sel any
// more (after its select list changed).
func pruneOrderBy(q *sql.Query, sel *sql.Select) {
	q.OrderBy = slices.DeleteFunc(q.OrderBy, func(o *sql.OrderItem) bool {
		if id, ok := o.Expr.(*sql.Identifier); ok && len(id.Parts) == 1 && itemIndex(sel, id.Parts[0].Name) >= 0 {
			return false
		}
		for _, it := range sel.Items {
			if sameExpr(it.Expr, o.Expr) {
				return false
			}
		}
		return true
	})
}

// sameExpr compares expressions by their canonical text (ignoring
// positions and quoting).
func sameExpr(a, b sql.Expr) bool { return sql.Format(a) == sql.Format(b) }

// addConjunct ANDs c onto cond, first removing conjuncts that c replaces:
// the same left-hand side with a comparison of the same family.
func addConjunct(cond, c sql.Expr) sql.Expr {
	lhs, fam := condFamily(c)
	var kept sql.Expr
	for _, e := range conjuncts(cond) {
		if l, f := condFamily(e); f != "" && f == fam && sameExpr(l, lhs) {
			continue
		}
		kept = and(kept, e)
	}
	return and(kept, c)
}

// condFamily classifies "x op literal" conditions: "eq" for =, <>, IS
// [NOT] NULL; "gt" for > and >=; "lt" for < and <=.
func condFamily(e sql.Expr) (sql.Expr, string) {
	switch x := e.(type) {
	case *sql.IsExpr:
		if x.What == "NULL" {
			return x.X, "eq"
		}
	case *sql.BinaryExpr:
		if _, lit := valueOf(x.Y); !lit {
			if _, isLTZ := x.Y.(*sql.FuncCall); !isLTZ {
				if _, isCast := x.Y.(*sql.CastExpr); !isCast {
					return nil, ""
				}
			}
		}
		switch x.Op {
		case "=", "<>":
			return x.X, "eq"
		case ">", ">=":
			return x.X, "gt"
		case "<", "<=":
			return x.X, "lt"
		}
	}
	return nil, ""
}

// walkExpr visits e and its sub-expressions depth first; fn returns false
// to skip a node's children.
func walkExpr(e sql.Expr, fn func(sql.Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	var kids []sql.Expr
	switch x := e.(type) {
	case *sql.UnaryExpr:
		kids = []sql.Expr{x.X}
	case *sql.BinaryExpr:
		kids = []sql.Expr{x.X, x.Y}
	case *sql.IsExpr:
		kids = []sql.Expr{x.X}
	case *sql.IsDistinctFromExpr:
		kids = []sql.Expr{x.X, x.Y}
	case *sql.LikeExpr:
		kids = []sql.Expr{x.X, x.Pattern, x.Escape}
	case *sql.InExpr:
		kids = append([]sql.Expr{x.X}, x.List...)
	case *sql.BetweenExpr:
		kids = []sql.Expr{x.X, x.Low, x.High}
	case *sql.CastExpr:
		kids = []sql.Expr{x.X}
	case *sql.CaseExpr:
		kids = []sql.Expr{x.Operand, x.Else}
		for _, w := range x.Whens {
			kids = append(append(kids, w.Cond, w.Result), w.More...)
		}
	case *sql.FuncCall:
		kids = append(append(kids, x.Args...), x.Filter)
	case *sql.RowExpr:
		kids = x.Items
	case *sql.ArrayExpr:
		kids = x.Items
	case *sql.MapExpr:
		kids = x.Items
	case *sql.IndexExpr:
		kids = []sql.Expr{x.X, x.Index}
	case *sql.FieldExpr:
		kids = []sql.Expr{x.X}
	}
	for _, k := range kids {
		walkExpr(k, fn)
	}
}

// isAggregateCall reports whether f calls an aggregate function (not as a
// window function).
func isAggregateCall(f *sql.FuncCall) bool {
	if f.Over != nil || len(f.Name.Parts) != 1 {
		return false
	}
	fn, ok := expr.Builtins.Lookup(f.Name.Parts[0].Name)
	return ok && fn.Kind == expr.AggregateKind
}

func hasAggregate(e sql.Expr) bool {
	found := false
	walkExpr(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.FuncCall); ok && isAggregateCall(f) {
			found = true
		}
		return !found
	})
	return found
}

func hasWindowCall(e sql.Expr) bool {
	found := false
	walkExpr(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.FuncCall); ok && f.Over != nil {
			found = true
		}
		return !found
	})
	return found
}

func selectHasAggregate(sel *sql.Select) bool {
	for _, it := range sel.Items {
		if hasAggregate(it.Expr) {
			return true
		}
	}
	return false
}
