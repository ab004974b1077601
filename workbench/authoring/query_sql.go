package authoring

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// SQL renders the query as Flink SQL in the formatter's multi-line style
// (no trailing ";"). It fails when Check finds a problem.
func (q *Query) SQL() (string, error) {
	st, err := q.Statement()
	if err != nil {
		return "", err
	}
	return sql.FormatPretty(st), nil
}

// Statement builds the query's syntax tree.
func (q *Query) Statement() (*sql.Query, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	sel := &sql.Select{}
	if len(q.Items) == 0 {
		sel.Items = []*sql.SelectItem{{Expr: &sql.Star{}}}
	}
	for _, it := range q.Items {
		si := &sql.SelectItem{Expr: itemExpr(it)}
		if it.Alias != "" && !(it.Agg == AggNone && it.Alias == it.Column.Name) {
			si.Alias = &sql.Ident{Name: it.Alias}
		}
		sel.Items = append(sel.Items, si)
	}
	var from sql.TableExpr
	if q.Window != nil {
		from = windowFunc(q.From, q.Window)
	} else {
		from = &sql.TableRef{Name: objName(q.From.Path...), Alias: optIdent(q.From.Alias)}
	}
	for _, j := range q.Joins {
		var on sql.Expr
		for _, k := range j.Keys {
			eq := &sql.BinaryExpr{Op: "=", X: columnExpr(k.Left), Y: columnExpr(ColumnRef{Table: j.Table.Qualifier(), Name: k.Right})}
			on = and(on, eq)
		}
		from = &sql.Join{Type: joinTypes[j.Kind], Left: from,
			Right: &sql.TableRef{Name: objName(j.Table.Path...), Alias: optIdent(j.Table.Alias)}, On: on}
	}
	sel.From = from
	for _, f := range q.Filters {
		e, err := f.expr()
		if err != nil {
			return nil, err
		}
		sel.Where = and(sel.Where, e)
	}
	for _, g := range q.GroupBy {
		sel.GroupBy = append(sel.GroupBy, &sql.GroupingElement{Kind: sql.GroupExpr, Exprs: []sql.Expr{columnExpr(g)}})
	}
	out := &sql.Query{Body: sel}
	for _, o := range q.OrderBy {
		out.OrderBy = append(out.OrderBy, &sql.OrderItem{Expr: columnExpr(o.Column), Desc: o.Desc})
	}
	if q.Limit > 0 {
		out.Limit = intLit(q.Limit)
	}
	return out, nil
}

// CheckValues checks the filters' numbers against the types of their
// columns (typeOf returns nil for a column it does not know): a BIGINT
// is not compared with 1e400, nor an INT with 3000000000.
func (q *Query) CheckValues(typeOf func(ColumnRef) *types.DataType) error {
	for _, f := range q.Filters {
		t := typeOf(f.Column)
		for _, v := range f.Values {
			if err := v.CheckFor(t); err != nil {
				return fmt.Errorf("filter on %s: %v", f.Column, err)
			}
		}
	}
	return nil
}

// Check reports the first problem that keeps the query from being valid
// Flink SQL: a missing table, a window without its time column or with a
// size Flink rejects, a filter whose values do not fit its operator, or a
// plain column next to aggregates that is not grouped.
func (q *Query) Check() error {
	if len(q.From.Path) == 0 || slices.Contains(q.From.Path, "") {
		return fmt.Errorf("choose a table")
	}
	if len(q.From.Path) > 3 {
		return fmt.Errorf("table name %s has more than 3 parts", q.From)
	}
	if w := q.Window; w != nil {
		if err := w.check(); err != nil {
			return err
		}
	}
	quals := map[string]bool{}
	for _, t := range q.Tables() {
		if len(t.Path) == 0 {
			return fmt.Errorf("choose the table to join")
		}
		if quals[t.Qualifier()] {
			return fmt.Errorf("two tables are called %s: give one an alias", sql.QuoteIdentIfNeeded(t.Qualifier()))
		}
		quals[t.Qualifier()] = true
	}
	for i, j := range q.Joins {
		if len(j.Keys) == 0 {
			return fmt.Errorf("join %d (%s) needs at least one key column pair", i+1, j.Table)
		}
		for _, k := range j.Keys {
			if k.Left.Name == "" || k.Right == "" {
				return fmt.Errorf("join %d (%s) has an incomplete key column pair", i+1, j.Table)
			}
		}
	}
	for _, f := range q.Filters {
		if _, err := f.expr(); err != nil {
			return err
		}
	}
	for _, it := range q.Items {
		if it.Column.Name == "" && it.Agg != AggCount {
			return fmt.Errorf("%s needs a column", it.Agg)
		}
	}
	if q.HasAggregates() || len(q.GroupBy) > 0 {
		for _, it := range q.Items {
			if it.Agg == AggNone && !slices.Contains(q.GroupBy, it.Column) {
				return fmt.Errorf("column %s must be grouped or aggregated", it.Column)
			}
		}
	}
	if q.Window != nil && (q.HasAggregates() || len(q.GroupBy) > 0) {
		for _, c := range []string{WindowStart, WindowEnd} {
			if !slices.Contains(q.GroupBy, ColumnRef{Name: c}) {
				return fmt.Errorf("a window aggregation must group by %s and %s", WindowStart, WindowEnd)
			}
		}
	}
	if q.Limit < 0 {
		return fmt.Errorf("LIMIT must not be negative")
	}
	return nil
}

func (w *Window) check() error {
	if w.TimeColumn == "" {
		return fmt.Errorf("choose the time column of the %s window", w.Kind)
	}
	size, err := w.Size.seconds()
	if err != nil {
		return fmt.Errorf("window size: %v", err)
	}
	switch w.Kind {
	case Hop, Cumulate:
		what := "slide"
		if w.Kind == Cumulate {
			what = "step"
		}
		slide, err := w.Slide.seconds()
		if err != nil {
			return fmt.Errorf("window %s: %v", what, err)
		}
		if size%slide != 0 {
			return fmt.Errorf("%s window size %s must be an integral multiple of the %s %s", w.Kind, w.Size, what, w.Slide)
		}
	case Tumble, Session:
	default:
		return fmt.Errorf("unknown window kind %d", w.Kind)
	}
	if w.Kind != Session && len(w.PartitionBy) > 0 {
		return fmt.Errorf("only SESSION windows take partition keys")
	}
	return nil
}

var unitSeconds = map[string]int64{"SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86400}

func (iv Interval) seconds() (int64, error) {
	u, ok := unitSeconds[iv.Unit]
	if !ok {
		return 0, fmt.Errorf("unit %q is not one of SECOND, MINUTE, HOUR, DAY", iv.Unit)
	}
	if iv.Value <= 0 {
		return 0, fmt.Errorf("%s must be positive", iv)
	}
	return iv.Value * u, nil
}

func (iv Interval) expr() sql.Expr {
	p := -1
	if iv.Value > 99 {
		// INTERVAL '120' MINUTE exceeds MINUTE(2)
		p = len(strconv.FormatInt(iv.Value, 10))
	}
	if s, ok := unitSeconds[iv.Unit]; ok && p > 3 && iv.Value <= math.MaxInt64/1000/s {
		// Flink takes no day-time literal with a leading precision above 3
		return sql.DayTimeInterval(iv.Value * s * 1000)
	}
	return &sql.IntervalLit{Value: strconv.FormatInt(iv.Value, 10),
		Qualifier: &sql.IntervalQualifier{StartUnit: iv.Unit, StartPrecision: p, FracPrecision: -1}}
}

// windowFunc builds TABLE(<TVF>(TABLE t, DESCRIPTOR(ts), ...)).
func windowFunc(t TableRef, w *Window) *sql.TableFunc {
	arg := &sql.TableArg{Name: objName(t.Path...)}
	for _, k := range w.PartitionBy {
		arg.PartitionBy = append(arg.PartitionBy, columnExpr(ColumnRef{Name: k}))
	}
	args := []sql.Expr{arg, &sql.Descriptor{Columns: []*sql.Ident{{Name: w.TimeColumn}}}}
	switch w.Kind {
	case Hop, Cumulate:
		args = append(args, w.Slide.expr(), w.Size.expr())
	default:
		args = append(args, w.Size.expr())
	}
	return &sql.TableFunc{Call: &sql.FuncCall{Name: objName(w.Kind.String()), Args: args}, Alias: optIdent(t.Alias)}
}

var joinTypes = map[JoinKind]sql.JoinType{JoinInner: sql.JoinInner, JoinLeft: sql.JoinLeft, JoinRight: sql.JoinRight, JoinFull: sql.JoinFull}

func optIdent(name string) *sql.Ident {
	if name == "" {
		return nil
	}
	return &sql.Ident{Name: name}
}

func columnExpr(c ColumnRef) *sql.Identifier {
	id := &sql.Identifier{}
	if c.Table != "" {
		id.Parts = append(id.Parts, &sql.Ident{Name: c.Table})
	}
	id.Parts = append(id.Parts, &sql.Ident{Name: c.Name})
	return id
}

func itemExpr(it Item) sql.Expr {
	if it.Agg == AggNone {
		return columnExpr(it.Column)
	}
	call := &sql.FuncCall{Name: objName(it.Agg.funcName())}
	if it.Agg == AggCountDistinct {
		call.Quantifier = "DISTINCT"
	}
	if it.Column.Name == "" {
		call.Args = []sql.Expr{&sql.Star{}}
	} else {
		call.Args = []sql.Expr{columnExpr(it.Column)}
	}
	return call
}

func and(a, b sql.Expr) sql.Expr {
	if a == nil {
		return b
	}
	return &sql.BinaryExpr{Op: "AND", X: a, Y: b}
}

// expr builds the filter's condition.
func (f Filter) expr() (sql.Expr, error) {
	col := columnExpr(f.Column)
	if f.Column.Name == "" {
		return nil, fmt.Errorf("a filter needs a column")
	}
	n := f.Op.Operands()
	switch {
	case n >= 0 && len(f.Values) != n:
		return nil, fmt.Errorf("filter %s %s needs %d value(s), has %d", f.Column, f.Op, n, len(f.Values))
	case n < 0 && len(f.Values) == 0:
		return nil, fmt.Errorf("filter %s %s needs at least one value", f.Column, f.Op)
	}
	vals := make([]sql.Expr, len(f.Values))
	for i, v := range f.Values {
		e, err := v.Expr()
		if err != nil {
			return nil, fmt.Errorf("filter on %s: %v", f.Column, err)
		}
		vals[i] = e
	}
	switch f.Op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return &sql.BinaryExpr{Op: f.Op.String(), X: col, Y: vals[0]}, nil
	case OpIsNull, OpIsNotNull:
		return &sql.IsExpr{X: col, Not: f.Op == OpIsNotNull, What: "NULL"}, nil
	case OpIn, OpNotIn:
		return &sql.InExpr{X: col, Not: f.Op == OpNotIn, List: vals}, nil
	case OpLike, OpNotLike:
		if f.Values[0].Kind != ValueString {
			return nil, fmt.Errorf("filter on %s: LIKE needs a text pattern", f.Column)
		}
		return &sql.LikeExpr{X: col, Not: f.Op == OpNotLike, Op: "LIKE", Pattern: vals[0]}, nil
	case OpBetween, OpNotBetween:
		return &sql.BetweenExpr{X: col, Not: f.Op == OpNotBetween, Low: vals[0], High: vals[1]}, nil
	}
	return nil, fmt.Errorf("unknown filter operator %d", f.Op)
}
