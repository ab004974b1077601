package authoring

import (
	"fmt"
	"go/token"
	gotypes "go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/riffle-sql/riffle/engine/sql"
)

// The Table API names the generated code uses, in one place: they follow
// PyFlink's Table API (from_path, where, window, group_by, select, col,
// lit, Tumble.over(...).on(...).alias(...)) in Go style, as engine/table
// spells them (docs/API.md).
const (
	goCol   = "table.Col"
	goLit   = "table.Lit"
	goAlias = "As"
	// GoImport is the package the generated code uses.
	GoImport = "github.com/riffle-sql/riffle/engine/table"
	// GoFunc is the name of the generated function.
	GoFunc = "Query"
)

var goCompare = map[Op]string{
	OpEq: "IsEqual", OpNe: "IsNotEqual", OpLt: "IsLess", OpLe: "IsLessOrEqual",
	OpGt: "IsGreater", OpGe: "IsGreaterOrEqual",
}

var goAggs = map[Agg]string{AggCount: "Count()", AggSum: "Sum()", AggAvg: "Avg()", AggMin: "Min()", AggMax: "Max()",
	AggCountDistinct: "Count().Distinct()"}

var goJoins = map[JoinKind]string{JoinInner: "Join", JoinLeft: "LeftOuterJoin", JoinRight: "RightOuterJoin", JoinFull: "FullOuterJoin"}

// goWindowAlias is the group window alias of generated code.
const goWindowAlias = "w"

// Go returns the query as Riffle Table API code ("Copy as Go"): a function
// that builds the query on a *table.TableEnvironment, e.g.
//
//	// Query builds the query with Riffle's Table API
//	// (import "github.com/riffle-sql/riffle/engine/table").
//	func Query(env *table.TableEnvironment) (*table.Table, error) {
//		flights, err := env.FromPath("flights")
//		if err != nil {
//			return nil, err
//		}
//		result := flights.
//			Where(table.Col("delay").IsGreater(table.Lit(60))).
//			GroupBy(table.Col("origin")).
//			Select(table.Col("origin"), table.Col("delay").Avg().As("avg_delay"))
//		return result, result.Err()
//	}
//
// The code compiles against engine/table as it is (the tests type-check
// and run it). Window TVFs become group windows (TUMBLE → TumbleOver, HOP
// → SlideOver, SESSION → SessionWithGap). Joined tables are narrowed to
// the columns the query uses, because Table API joins need distinct column
// names. What the Table API cannot say the same way (CUMULATE, a window
// without aggregation, a window over joined tables, SELECT * over a join,
// one column name taken from two joined tables, ORDER BY a column that is
// not selected) is written as env.SQLQuery with the query's SQL, so the
// result is always usable; the second result says which form was chosen
// (true: Table API calls).
func (q *Query) Go() (code string, native bool, err error) {
	if err := q.Check(); err != nil {
		return "", false, err
	}
	head := "// " + GoFunc + " builds the query with Riffle's Table API\n" +
		"// (import " + strconv.Quote(GoImport) + ").\n" +
		"func " + GoFunc + "(env *table.TableEnvironment) (*table.Table, error) {\n"
	if reason := q.goUnsupported(); reason != "" {
		text, err := q.SQL()
		if err != nil {
			return "", false, err
		}
		return head + "\t// The Table API has no form for " + reason + ": the query runs as SQL.\n" +
			"\treturn env.SQLQuery(" + goRawString(text) + ")\n}\n", false, nil
	}
	var b strings.Builder
	b.WriteString(head)
	vars := map[string]string{} // table qualifier → Go variable
	used := map[string]bool{"env": true, "err": true, "result": true, "table": true}
	for _, t := range q.Tables() {
		v := goVarName(t.Qualifier(), used)
		vars[t.Qualifier()] = v
		fmt.Fprintf(&b, "\t%s, err := env.FromPath(%s)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n", v, strconv.Quote(t.String()))
	}
	var lines []string
	if len(q.Joins) == 0 {
		lines = append(lines, "result := "+vars[q.From.Qualifier()])
	} else {
		cols := q.columnsByTable()
		lines = append(lines, "result := "+vars[q.From.Qualifier()]+".Select("+goColumns(cols[q.From.Qualifier()])+")")
		for _, j := range q.Joins {
			var cond []string
			for _, k := range j.Keys {
				cond = append(cond, goColumn(k.Left.Name)+".IsEqual("+goColumn(k.Right)+")")
			}
			right := vars[j.Table.Qualifier()] + ".Select(" + goColumns(cols[j.Table.Qualifier()]) + ")"
			lines = append(lines, goJoins[j.Kind]+"("+right+", "+goAnd(cond)+")")
		}
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
	b.WriteString("\t" + strings.Join(lines, ".\n\t\t") + "\n")
	b.WriteString("\treturn result, result.Err()\n}\n")
	return b.String(), true, nil
}

// goVarName turns a table qualifier into a Go variable name not in used
// (nor a Go keyword or predeclared name), and marks it used.
func goVarName(qual string, used map[string]bool) string {
	base := aliasPart(qual)
	var b strings.Builder
	up := false
	for _, r := range base {
		switch {
		case r == '_':
			up = b.Len() > 0
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || unicode.IsDigit(rune(name[0])) || token.Lookup(name).IsKeyword() || gotypes.Universe.Lookup(name) != nil {
		name = "t" + strings.ToUpper(name[:min(1, len(name))]) + name[min(1, len(name)):]
	}
	cand := name
	for n := 2; used[cand]; n++ {
		cand = fmt.Sprintf("%s%d", name, n)
	}
	used[cand] = true
	return cand
}

// columnsByTable lists, per table qualifier, the columns the query reads
// from it (in first-use order).
func (q *Query) columnsByTable() map[string][]string {
	out := map[string][]string{}
	add := func(c ColumnRef) {
		if c.Name == "" || (q.Window != nil && c.Table == "" && isWindowColumn(c.Name)) {
			return
		}
		t := c.Table
		if t == "" {
			t = q.From.Qualifier()
		}
		if !slices.Contains(out[t], c.Name) {
			out[t] = append(out[t], c.Name)
		}
	}
	for _, it := range q.Items {
		add(it.Column)
	}
	for _, j := range q.Joins {
		for _, k := range j.Keys {
			add(k.Left)
			add(ColumnRef{Table: j.Table.Qualifier(), Name: k.Right})
		}
	}
	for _, f := range q.Filters {
		add(f.Column)
	}
	for _, g := range q.GroupBy {
		add(g)
	}
	// ORDER BY names output columns (goUnsupported checks it), which
	// the final Select produces.
	return out
}

func goColumns(names []string) string {
	cols := make([]string, len(names))
	for i, n := range names {
		cols[i] = goColumn(n)
	}
	return strings.Join(cols, ", ")
}

// goUnsupported names what keeps the query from plain Table API calls.
func (q *Query) goUnsupported() string {
	if len(q.Joins) > 0 {
		if q.Window != nil {
			return "a window over joined tables"
		}
		if len(q.Items) == 0 {
			return "SELECT * over joined tables"
		}
	}
	if len(q.Items) > 0 {
		for _, o := range q.OrderBy {
			found := false
			for _, it := range q.Items {
				name := it.OutputName()
				if q.Window != nil && it.Agg == AggNone && it.Column.Table == "" && isWindowColumn(it.Column.Name) && name == "" {
					name = it.Column.Name
				}
				if name == o.Column.Name {
					found = true
				}
			}
			if !found {
				return fmt.Sprintf("ORDER BY %s, which is not selected", o.Column)
			}
		}
	}
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
	return "\n\t\t\t" + strings.Join(args, ",\n\t\t\t") + ",\n\t\t"
}

func goWindow(w *Window) string {
	on := ".On(" + goColumn(w.TimeColumn) + ").Alias(" + strconv.Quote(goWindowAlias) + ")"
	switch w.Kind {
	case Hop:
		return "table.SlideOver(" + goInterval(w.Size) + ").Every(" + goInterval(w.Slide) + ")" + on
	case Session:
		return "table.SessionWithGap(" + goInterval(w.Size) + ")" + on
	}
	return "table.TumbleOver(" + goInterval(w.Size) + ")" + on
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
