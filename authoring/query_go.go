package authoring

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// The Table API names the generated code uses, in one place: they follow
// PyFlink's Table API (from_path, where, window, group_by, select, col,
// lit, Tumble.over(...).on(...).alias(...)) in Go style.
const (
	goCol   = "table.Col"
	goLit   = "table.Lit"
	goAlias = "As"
)

var goCompare = map[Op]string{
	OpEq: "IsEqual", OpNe: "IsNotEqual", OpLt: "LessThan", OpLe: "LessThanOrEqual",
	OpGt: "GreaterThan", OpGe: "GreaterThanOrEqual",
}

var goAggs = map[Agg]string{AggCount: "Count()", AggSum: "Sum()", AggAvg: "Avg()", AggMin: "Min()", AggMax: "Max()",
	AggCountDistinct: "Count().Distinct()"}

var goJoins = map[JoinKind]string{JoinInner: "Join", JoinLeft: "LeftOuterJoin", JoinRight: "RightOuterJoin", JoinFull: "FullOuterJoin"}

// goWindowAlias is the group window alias of generated code.
const goWindowAlias = "w"

// Go returns the query as Riffle Table API code ("Copy as Go"): a chain
// on env, a *table.TableEnvironment, assigned to result, e.g.
//
//	result := env.FromPath("flights").
//		Where(table.Col("delay").GreaterThan(table.Lit(60))).
//		GroupBy(table.Col("origin")).
//		Select(table.Col("origin"), table.Col("delay").Avg().As("avg_delay"))
//
// Window TVFs become group windows (TUMBLE → Tumble, HOP → Slide, SESSION
// → Session). What the Table API cannot say the same way (CUMULATE, a
// window without aggregation, joined tables with clashing column names)
// is written as env.SQLQuery with the query's SQL, so the result is always
// usable; the second result says which form was chosen (true: Table API
// calls).
func (q *Query) Go() (code string, native bool, err error) {
	if err := q.Check(); err != nil {
		return "", false, err
	}
	if reason := q.goUnsupported(); reason != "" {
		text, err := q.SQL()
		if err != nil {
			return "", false, err
		}
		return fmt.Sprintf("// The Table API has no form for %s: the query runs as SQL.\nresult, err := env.SQLQuery(%s)\n", reason, goRawString(text)), false, nil
	}
	var lines []string
	lines = append(lines, "result := env.FromPath("+strconv.Quote(q.From.String())+")")
	for _, j := range q.Joins {
		var cond []string
		for _, k := range j.Keys {
			cond = append(cond, goColumn(k.Left.Name)+".IsEqual("+goColumn(k.Right)+")")
		}
		lines = append(lines, goJoins[j.Kind]+"(env.FromPath("+strconv.Quote(j.Table.String())+"), "+goAnd(cond)+")")
	}
	for _, f := range q.Filters {
		e, err := goFilter(f)
		if err != nil {
			return "", false, err
		}
		lines = append(lines, "Where("+e+")")
	}
	if w := q.Window; w != nil {
		lines = append(lines, "Window("+goWindow(w)+")")
	}
	var keys []string
	if q.Window != nil {
		keys = append(keys, goColumn(goWindowAlias))
	}
	for _, g := range q.GroupBy {
		if q.Window != nil && isWindowColumn(g.Name) {
			continue
		}
		keys = append(keys, goColumn(g.Name))
	}
	if len(keys) > 0 {
		lines = append(lines, "GroupBy("+strings.Join(keys, ", ")+")")
	}
	if len(q.Items) > 0 {
		var items []string
		for _, it := range q.Items {
			items = append(items, q.goItem(it))
		}
		lines = append(lines, "Select("+goArgs(items)+")")
	}
	if len(q.OrderBy) > 0 {
		var keys []string
		for _, o := range q.OrderBy {
			dir := ".Asc()"
			if o.Desc {
				dir = ".Desc()"
			}
			keys = append(keys, goColumn(o.Column.Name)+dir)
		}
		lines = append(lines, "OrderBy("+strings.Join(keys, ", ")+")")
	}
	if q.Limit > 0 {
		lines = append(lines, "Limit("+strconv.FormatInt(q.Limit, 10)+")")
	}
	return strings.Join(lines, ".\n\t") + "\n", true, nil
}

// goUnsupported names what keeps the query from plain Table API calls.
func (q *Query) goUnsupported() string {
	if w := q.Window; w != nil {
		if w.Kind == Cumulate {
			return "CUMULATE windows"
		}
		if !q.HasAggregates() {
			return "a window TVF without aggregation"
		}
		for _, k := range w.PartitionBy {
			if !slices.Contains(q.GroupBy, ColumnRef{Name: k}) {
				return "a SESSION window partitioned by a column it is not grouped by"
			}
		}
	}
	// Table API joins see one flat row: column names must be unique and
	// references are unqualified.
	seen := map[string]string{}
	clash := ""
	note := func(c ColumnRef) {
		if c.Name == "" {
			return
		}
		if t, ok := seen[c.Name]; ok && t != c.Table {
			clash = c.Name
		}
		seen[c.Name] = c.Table
	}
	for _, j := range q.Joins {
		for _, k := range j.Keys {
			note(k.Left)
			note(ColumnRef{Table: j.Table.Qualifier(), Name: k.Right})
		}
	}
	for _, it := range q.Items {
		note(it.Column)
	}
	for _, f := range q.Filters {
		note(f.Column)
	}
	for _, g := range q.GroupBy {
		note(g)
	}
	if clash != "" {
		return fmt.Sprintf("column %s taken from two joined tables", clash)
	}
	return ""
}

func isWindowColumn(name string) bool {
	return name == WindowStart || name == WindowEnd || name == WindowTime
}

func (q *Query) goItem(it Item) string {
	var e string
	switch {
	case q.Window != nil && it.Agg == AggNone && it.Column.Table == "" && isWindowColumn(it.Column.Name):
		prop := map[string]string{WindowStart: "Start()", WindowEnd: "End()", WindowTime: "Rowtime()"}[it.Column.Name]
		alias := it.Alias
		if alias == "" {
			alias = it.Column.Name
		}
		return goColumn(goWindowAlias) + "." + prop + "." + goAlias + "(" + strconv.Quote(alias) + ")"
	case it.Agg == AggCount && it.Column.Name == "":
		e = goLit + "(1).Count()"
	case it.Agg != AggNone:
		e = goColumn(it.Column.Name) + "." + goAggs[it.Agg]
	default:
		e = goColumn(it.Column.Name)
	}
	if it.Alias != "" && !(it.Agg == AggNone && it.Alias == it.Column.Name) {
		e += "." + goAlias + "(" + strconv.Quote(it.Alias) + ")"
	}
	return e
}

func goColumn(name string) string { return goCol + "(" + strconv.Quote(name) + ")" }

func goAnd(conds []string) string {
	if len(conds) == 1 {
		return conds[0]
	}
	return "table.And(" + strings.Join(conds, ", ") + ")"
}

// goArgs lists call arguments, one per line when there are several.
func goArgs(args []string) string {
	if len(args) <= 1 {
		return strings.Join(args, "")
	}
	return "\n\t\t" + strings.Join(args, ",\n\t\t") + ",\n\t"
}

func goWindow(w *Window) string {
	on := ".On(" + goColumn(w.TimeColumn) + ").As(" + strconv.Quote(goWindowAlias) + ")"
	switch w.Kind {
	case Hop:
		return "table.Slide().Over(" + goInterval(w.Size) + ").Every(" + goInterval(w.Slide) + ")" + on
	case Session:
		return "table.Session().WithGap(" + goInterval(w.Size) + ")" + on
	}
	return "table.Tumble().Over(" + goInterval(w.Size) + ")" + on
}

func goInterval(iv Interval) string {
	unit := map[string]string{"SECOND": "Seconds", "MINUTE": "Minutes", "HOUR": "Hours", "DAY": "Days"}[iv.Unit]
	return goLit + "(" + strconv.FormatInt(iv.Value, 10) + ")." + unit + "()"
}

func goFilter(f Filter) (string, error) {
	vals := make([]string, len(f.Values))
	for i, v := range f.Values {
		s, err := goValue(v)
		if err != nil {
			return "", fmt.Errorf("filter on %s: %v", f.Column, err)
		}
		vals[i] = s
	}
	c := goColumn(f.Column.Name)
	switch f.Op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return c + "." + goCompare[f.Op] + "(" + vals[0] + ")", nil
	case OpIsNull:
		return c + ".IsNull()", nil
	case OpIsNotNull:
		return c + ".IsNotNull()", nil
	case OpIn:
		return c + ".In(" + strings.Join(vals, ", ") + ")", nil
	case OpNotIn:
		return c + ".In(" + strings.Join(vals, ", ") + ").Not()", nil
	case OpLike:
		return c + ".Like(" + vals[0] + ")", nil
	case OpNotLike:
		return c + ".Like(" + vals[0] + ").Not()", nil
	case OpBetween:
		return c + ".Between(" + vals[0] + ", " + vals[1] + ")", nil
	case OpNotBetween:
		return c + ".NotBetween(" + vals[0] + ", " + vals[1] + ")", nil
	}
	return "", fmt.Errorf("unknown operator %d", f.Op)
}

// goValue writes a filter value as a Table API literal.
func goValue(v Value) (string, error) {
	e, err := v.Expr() // validates the text
	if err != nil {
		return "", err
	}
	switch v.Kind {
	case ValueNumber:
		s := strings.TrimPrefix(strings.TrimSpace(v.Text), "+")
		if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "-.") {
			s = strings.Replace(s, ".", "0.", 1)
		}
		return goLit + "(" + s + ")", nil
	case ValueBool:
		return goLit + "(" + strings.ToLower(strings.TrimSpace(v.Text)) + ")", nil
	case ValueDate, ValueTime, ValueTimestamp:
		conv := map[ValueKind]string{ValueDate: "ToDate()", ValueTime: "ToTime()", ValueTimestamp: "ToTimestamp()"}[v.Kind]
		return goLit + "(" + strconv.Quote(e.(*sql.DateTimeLit).Value) + ")." + conv, nil
	}
	return goLit + "(" + strconv.Quote(v.Text) + ")", nil
}

// goRawString quotes SQL for Go source: a raw string when possible.
func goRawString(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
