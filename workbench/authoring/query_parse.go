package authoring

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// UnsupportedError says which part of a query the builder cannot show.
// The builder leaves such SQL alone and displays the message.
type UnsupportedError struct {
	// Part describes the construct, e.g. "the HAVING clause", "OR in WHERE".
	Part string
	// Pos is where it starts in the parsed text.
	Pos sql.Pos
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("the query builder cannot show %s (%s); edit it as SQL", e.Part, e.Pos)
}

func unsupported(n sql.Node, format string, args ...any) error {
	var pos sql.Pos
	if n != nil {
		pos = n.Pos()
	}
	return &UnsupportedError{Part: fmt.Sprintf(format, args...), Pos: pos}
}

var sqlJoinKinds = map[sql.JoinType]JoinKind{sql.JoinInner: JoinInner, sql.JoinLeft: JoinLeft, sql.JoinRight: JoinRight, sql.JoinFull: JoinFull}

// ParseQuery reads SQL back into the builder's model. The text must be one
// SELECT statement (a trailing ";" is fine) that stays within what the
// builder expresses; otherwise the error is a *sql.Error (the text does not
// parse) or an *UnsupportedError naming the first part the builder cannot
// show.
func ParseQuery(text string) (*Query, error) {
	spans := sql.SplitStatements(text)
	if len(spans) == 0 {
		return nil, &UnsupportedError{Part: "an empty statement", Pos: sql.Pos{Line: 1, Column: 1}}
	}
	if len(spans) > 1 {
		return nil, unsupportedAt(spans[1].Start, "more than one statement")
	}
	st, err := spans[0].Parse()
	if err != nil {
		return nil, err
	}
	return FromStatement(st)
}

func unsupportedAt(pos sql.Pos, part string) error { return &UnsupportedError{Part: part, Pos: pos} }

// FromStatement is ParseQuery for a parsed statement.
func FromStatement(st sql.Statement) (*Query, error) {
	qq, ok := st.(*sql.Query)
	if !ok {
		return nil, unsupported(st, "statements other than SELECT")
	}
	if qq.With != nil {
		return nil, unsupported(qq.With, "a WITH clause")
	}
	if qq.Offset != nil {
		return nil, unsupported(qq.Offset, "OFFSET")
	}
	sel, ok := qq.Body.(*sql.Select)
	if !ok {
		switch b := qq.Body.(type) {
		case *sql.SetOp:
			return nil, unsupported(b, "%s", b.Op)
		case *sql.Values:
			return nil, unsupported(b, "VALUES")
		}
		return nil, unsupported(qq.Body, "a nested query")
	}
	switch {
	case len(sel.Hints) > 0:
		return nil, unsupported(sel.Hints[0], "hints")
	case sel.Quantifier == "DISTINCT":
		return nil, unsupported(sel, "SELECT DISTINCT")
	case sel.From == nil:
		return nil, unsupported(sel, "a SELECT without FROM")
	case sel.Having != nil:
		return nil, unsupported(sel.Having, "the HAVING clause")
	case len(sel.Windows) > 0:
		return nil, unsupported(sel.Windows[0], "a WINDOW clause")
	case sel.Qualify != nil:
		return nil, unsupported(sel.Qualify, "the QUALIFY clause")
	case sel.GroupByQuantifier != "":
		return nil, unsupported(sel, "GROUP BY %s", sel.GroupByQuantifier)
	}
	q := &Query{}
	if err := q.readFrom(sel.From); err != nil {
		return nil, err
	}
	for _, si := range sel.Items {
		if _, star := si.Expr.(*sql.Star); star && len(sel.Items) == 1 {
			if len(si.Expr.(*sql.Star).Qualifier) > 0 {
				return nil, unsupported(si, "a qualified *")
			}
			break
		}
		it, err := readItem(si)
		if err != nil {
			return nil, err
		}
		q.Items = append(q.Items, it)
	}
	if err := q.readWhere(sel.Where); err != nil {
		return nil, err
	}
	for _, g := range sel.GroupBy {
		if g.Kind != sql.GroupExpr || len(g.Exprs) != 1 {
			return nil, unsupported(g, "ROLLUP, CUBE and GROUPING SETS")
		}
		c, err := readColumn(g.Exprs[0], "GROUP BY")
		if err != nil {
			return nil, err
		}
		q.GroupBy = append(q.GroupBy, c)
	}
	for _, o := range qq.OrderBy {
		if o.Nulls != "" {
			return nil, unsupported(o, "NULLS %s", o.Nulls)
		}
		c, err := readColumn(o.Expr, "ORDER BY")
		if err != nil {
			return nil, err
		}
		q.OrderBy = append(q.OrderBy, Order{Column: c, Desc: o.Desc})
	}
	if qq.LimitAll {
		return nil, unsupported(qq, "LIMIT ALL")
	}
	if qq.Limit != nil {
		n, ok := qq.Limit.(*sql.NumberLit)
		if !ok || n.Kind != sql.NumInteger {
			return nil, unsupported(qq.Limit, "a LIMIT that is not a number")
		}
		v, err := strconv.ParseInt(n.Text, 10, 64)
		if err != nil || v <= 0 {
			return nil, unsupported(qq.Limit, "LIMIT %s", n.Text)
		}
		q.Limit = v
	}
	return q, nil
}

// readFrom reads the FROM clause: a table, a window TVF over a table, or a
// left-deep chain of joins over them with equality keys.
func (q *Query) readFrom(t sql.TableExpr) error {
	switch x := t.(type) {
	case *sql.TableRef:
		ref, err := readTableRef(x)
		if err != nil {
			return err
		}
		q.From = ref
		return nil
	case *sql.TableFunc:
		return q.readWindow(x)
	case *sql.Join:
		if err := q.readFrom(x.Left); err != nil {
			return err
		}
		kind, ok := sqlJoinKinds[x.Type]
		if !ok || x.Natural {
			what := x.Type.String() + " JOIN"
			if x.Natural {
				what = "NATURAL JOIN"
			}
			return unsupported(x, "%s", what)
		}
		right, ok := x.Right.(*sql.TableRef)
		if !ok {
			return unsupported(x.Right, "a join with something other than a table")
		}
		ref, err := readTableRef(right)
		if err != nil {
			return err
		}
		if len(x.Using) > 0 {
			return unsupported(x, "JOIN ... USING")
		}
		j := Join{Kind: kind, Table: ref}
		for _, c := range conjuncts(x.On) {
			k, err := q.readJoinKey(c, ref.Qualifier())
			if err != nil {
				return err
			}
			j.Keys = append(j.Keys, k)
		}
		if len(j.Keys) == 0 {
			return unsupported(x, "a join without ON")
		}
		q.Joins = append(q.Joins, j)
		return nil
	case *sql.DerivedTable:
		return unsupported(x, "a subquery in FROM")
	case *sql.Unnest:
		return unsupported(x, "UNNEST")
	}
	return unsupported(t, "this FROM item")
}

func readTableRef(x *sql.TableRef) (TableRef, error) {
	switch {
	case len(x.Hints) > 0:
		return TableRef{}, unsupported(x.Hints[0], "table hints")
	case x.SystemTime != nil:
		return TableRef{}, unsupported(x.SystemTime, "FOR SYSTEM_TIME AS OF")
	case len(x.Columns) > 0:
		return TableRef{}, unsupported(x, "column aliases of a table")
	case len(x.Name.Parts) > 3:
		return TableRef{}, unsupported(x, "a name with more than 3 parts")
	}
	ref := TableRef{}
	for _, p := range x.Name.Parts {
		ref.Path = append(ref.Path, p.Name)
	}
	if x.Alias != nil {
		ref.Alias = x.Alias.Name
	}
	return ref, nil
}

// readJoinKey reads one a.x = b.y equality of a join condition; the side
// qualified by the joined table's name is the right key.
func (q *Query) readJoinKey(e sql.Expr, right string) (JoinKey, error) {
	b, ok := e.(*sql.BinaryExpr)
	if !ok || b.Op != "=" {
		return JoinKey{}, unsupported(e, "a join condition other than column = column")
	}
	l, err1 := readColumn(b.X, "a join condition")
	r, err2 := readColumn(b.Y, "a join condition")
	if err1 != nil || err2 != nil {
		return JoinKey{}, unsupported(e, "a join condition other than column = column")
	}
	if l.Table == "" || r.Table == "" {
		return JoinKey{}, unsupported(e, "unqualified columns in a join condition")
	}
	if l.Table == right && r.Table != right {
		l, r = r, l
	}
	if r.Table != right || l.Table == right {
		return JoinKey{}, unsupported(e, "a join condition that does not compare the joined table %s with an earlier one", right)
	}
	return JoinKey{Left: l, Right: r.Name}, nil
}

// readWindow reads TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(c), ...)).
func (q *Query) readWindow(x *sql.TableFunc) error {
	if x.Lateral {
		return unsupported(x, "LATERAL TABLE")
	}
	if len(x.Columns) > 0 {
		return unsupported(x, "column aliases of a table function")
	}
	call := x.Call
	name := strings.ToUpper(call.Name.Parts[len(call.Name.Parts)-1].Name)
	w := &Window{}
	switch {
	case len(call.Name.Parts) != 1:
		return unsupported(call, "the table function %s", sql.FormatCompact(call.Name))
	case name == "TUMBLE":
		w.Kind = Tumble
	case name == "HOP":
		w.Kind = Hop
	case name == "CUMULATE":
		w.Kind = Cumulate
	case name == "SESSION":
		w.Kind = Session
	default:
		return unsupported(call, "the table function %s", call.Name.Parts[0].Name)
	}
	want := 3
	if w.Kind == Hop || w.Kind == Cumulate {
		want = 4
	}
	if len(call.Args) != want {
		return unsupported(call, "%s with %d arguments (a window offset or named arguments)", name, len(call.Args))
	}
	ta, ok := call.Args[0].(*sql.TableArg)
	if !ok || ta.Query != nil || ta.Name == nil || len(ta.OrderBy) > 0 {
		return unsupported(call.Args[0], "a window over something other than a table")
	}
	if len(ta.PartitionBy) > 0 && w.Kind != Session {
		return unsupported(ta, "PARTITION BY in %s", name)
	}
	for _, p := range ta.PartitionBy {
		c, err := readColumn(p, "PARTITION BY")
		if err != nil || c.Table != "" {
			return unsupported(p, "a partition key that is not a column")
		}
		w.PartitionBy = append(w.PartitionBy, c.Name)
	}
	ref, err := readTableRef(&sql.TableRef{Span: ta.Span, Name: ta.Name})
	if err != nil {
		return err
	}
	if x.Alias != nil {
		ref.Alias = x.Alias.Name
	}
	q.From = ref
	d, ok := call.Args[1].(*sql.Descriptor)
	if !ok || len(d.Columns) != 1 {
		return unsupported(call.Args[1], "a window whose time column is not DESCRIPTOR(column)")
	}
	w.TimeColumn = d.Columns[0].Name
	ivs := make([]Interval, 0, 2)
	for _, a := range call.Args[2:] {
		iv, err := readInterval(a)
		if err != nil {
			return err
		}
		ivs = append(ivs, iv)
	}
	if len(ivs) == 2 {
		w.Slide, w.Size = ivs[0], ivs[1]
	} else {
		w.Size = ivs[0]
	}
	q.Window = w
	return nil
}

func readInterval(e sql.Expr) (Interval, error) {
	lit, ok := e.(*sql.IntervalLit)
	if !ok || lit.Negative || lit.Qualifier.EndUnit != "" || lit.Qualifier.StartPrecision >= 0 || lit.Qualifier.FracPrecision >= 0 {
		return Interval{}, unsupported(e, "a window size other than INTERVAL 'n' unit")
	}
	if _, ok := unitSeconds[lit.Qualifier.StartUnit]; !ok {
		return Interval{}, unsupported(e, "window sizes in %s", lit.Qualifier.StartUnit)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(lit.Value), 10, 64)
	if err != nil || v <= 0 {
		return Interval{}, unsupported(e, "the window size '%s'", lit.Value)
	}
	return Interval{Value: v, Unit: lit.Qualifier.StartUnit}, nil
}

// readColumn accepts a column reference: name or qualifier.name.
func readColumn(e sql.Expr, where string) (ColumnRef, error) {
	id, ok := e.(*sql.Identifier)
	if !ok || len(id.Parts) > 2 {
		return ColumnRef{}, unsupported(e, "the expression %s in %s", sql.FormatCompact(e), where)
	}
	if len(id.Parts) == 2 {
		return ColumnRef{Table: id.Parts[0].Name, Name: id.Parts[1].Name}, nil
	}
	return ColumnRef{Name: id.Parts[0].Name}, nil
}

// readItem reads a select item: a column or an aggregate of a column.
func readItem(si *sql.SelectItem) (Item, error) {
	it := Item{}
	if si.Alias != nil {
		it.Alias = si.Alias.Name
	}
	switch x := si.Expr.(type) {
	case *sql.Identifier:
		c, err := readColumn(x, "the select list")
		if err != nil {
			return it, err
		}
		it.Column = c
		return it, nil
	case *sql.FuncCall:
		if len(x.Name.Parts) != 1 || x.Syntax != sql.SyntaxFunction || x.Filter != nil || x.Over != nil ||
			len(x.OrderBy) > 0 || len(x.WithinGroup) > 0 || x.NullTreatment != "" || x.JSON != nil || len(x.Args) != 1 {
			return it, unsupported(x, "the expression %s in the select list", sql.FormatCompact(x))
		}
		switch strings.ToUpper(x.Name.Parts[0].Name) {
		case "COUNT":
			it.Agg = AggCount
			if x.Quantifier == "DISTINCT" {
				it.Agg = AggCountDistinct
			}
		case "SUM":
			it.Agg = AggSum
		case "AVG":
			it.Agg = AggAvg
		case "MIN":
			it.Agg = AggMin
		case "MAX":
			it.Agg = AggMax
		default:
			return it, unsupported(x, "the function %s", x.Name.Parts[0].Name)
		}
		if x.Quantifier != "" && it.Agg != AggCountDistinct {
			return it, unsupported(x, "%s(%s ...)", strings.ToUpper(x.Name.Parts[0].Name), x.Quantifier)
		}
		if st, ok := x.Args[0].(*sql.Star); ok {
			if it.Agg != AggCount || len(st.Qualifier) > 0 {
				return it, unsupported(x, "%s", sql.FormatCompact(x))
			}
			return it, nil
		}
		c, err := readColumn(x.Args[0], "an aggregate")
		if err != nil {
			return it, err
		}
		it.Column = c
		return it, nil
	case *sql.Star:
		return it, unsupported(x, "* next to other columns")
	}
	return it, unsupported(si.Expr, "the expression %s in the select list", sql.FormatCompact(si.Expr))
}

// conjuncts splits a condition at AND.
func conjuncts(e sql.Expr) []sql.Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*sql.BinaryExpr); ok && b.Op == "AND" {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []sql.Expr{e}
}

var flipOp = map[string]string{"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
var cmpOps = map[string]Op{"=": OpEq, "<>": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe}

func (q *Query) readWhere(e sql.Expr) error {
	for _, c := range conjuncts(e) {
		f, err := readFilter(c)
		if err != nil {
			return err
		}
		q.Filters = append(q.Filters, f)
	}
	return nil
}

func literals(es []sql.Expr, where string) ([]Value, error) {
	out := make([]Value, len(es))
	for i, e := range es {
		v, ok := valueOf(e)
		if !ok {
			return nil, unsupported(e, "the value %s in %s (only literals)", sql.FormatCompact(e), where)
		}
		out[i] = v
	}
	return out, nil
}

// readFilter reads one condition of WHERE.
func readFilter(e sql.Expr) (Filter, error) {
	switch x := e.(type) {
	case *sql.BinaryExpr:
		if x.Op == "OR" {
			return Filter{}, unsupported(x, "OR in WHERE")
		}
		op, ok := cmpOps[x.Op]
		if !ok {
			break
		}
		colE, valE := x.X, x.Y
		if _, isCol := colE.(*sql.Identifier); !isCol {
			colE, valE = valE, colE
			op = cmpOps[flipOp[x.Op]]
		}
		c, err := readColumn(colE, "WHERE")
		if err != nil {
			return Filter{}, unsupported(x, "the condition %s", sql.FormatCompact(x))
		}
		vals, err := literals([]sql.Expr{valE}, "WHERE")
		if err != nil {
			return Filter{}, err
		}
		return Filter{Column: c, Op: op, Values: vals}, nil
	case *sql.IsExpr:
		if x.What != "NULL" {
			break
		}
		c, err := readColumn(x.X, "WHERE")
		if err != nil {
			return Filter{}, err
		}
		op := OpIsNull
		if x.Not {
			op = OpIsNotNull
		}
		return Filter{Column: c, Op: op}, nil
	case *sql.InExpr:
		if x.Query != nil {
			return Filter{}, unsupported(x, "IN (subquery)")
		}
		c, err := readColumn(x.X, "WHERE")
		if err != nil {
			return Filter{}, err
		}
		vals, err := literals(x.List, "IN")
		if err != nil {
			return Filter{}, err
		}
		op := OpIn
		if x.Not {
			op = OpNotIn
		}
		return Filter{Column: c, Op: op, Values: vals}, nil
	case *sql.LikeExpr:
		if x.Op != "LIKE" || x.Escape != nil {
			break
		}
		c, err := readColumn(x.X, "WHERE")
		if err != nil {
			return Filter{}, err
		}
		vals, err := literals([]sql.Expr{x.Pattern}, "LIKE")
		if err != nil {
			return Filter{}, err
		}
		if vals[0].Kind != ValueString {
			return Filter{}, unsupported(x.Pattern, "a LIKE pattern that is not a string")
		}
		op := OpLike
		if x.Not {
			op = OpNotLike
		}
		return Filter{Column: c, Op: op, Values: vals}, nil
	case *sql.BetweenExpr:
		if x.Symmetric != "" {
			break
		}
		c, err := readColumn(x.X, "WHERE")
		if err != nil {
			return Filter{}, err
		}
		vals, err := literals([]sql.Expr{x.Low, x.High}, "BETWEEN")
		if err != nil {
			return Filter{}, err
		}
		op := OpBetween
		if x.Not {
			op = OpNotBetween
		}
		return Filter{Column: c, Op: op, Values: vals}, nil
	case *sql.UnaryExpr:
		if x.Op == "NOT" {
			return Filter{}, unsupported(x, "NOT in WHERE")
		}
	}
	return Filter{}, unsupported(e, "the condition %s", sql.FormatCompact(e))
}
