package authoring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// TableRef names a table or view of the query, as chosen in the builder.
type TableRef struct {
	// Path is the object name as 1 to 3 parts (catalog, database, table);
	// unqualified names resolve against the current catalog and database.
	Path []string
	// Alias is the correlation name, or "".
	Alias string
}

// Qualifier is the name columns of this table are qualified with: the
// alias, or else the last part of the path.
func (t TableRef) Qualifier() string {
	if t.Alias != "" {
		return t.Alias
	}
	if len(t.Path) == 0 {
		return ""
	}
	return t.Path[len(t.Path)-1]
}

// String renders the path as SQL (parts quoted where needed).
func (t TableRef) String() string {
	parts := make([]string, len(t.Path))
	for i, p := range t.Path {
		parts[i] = sql.QuoteIdentIfNeeded(p)
	}
	return strings.Join(parts, ".")
}

// ColumnRef names a column of one of the query's tables, or (in ORDER BY)
// an output column of the query.
type ColumnRef struct {
	// Table is the qualifier (a table's alias or name); "" leaves the column
	// unqualified, which is what a single-table query uses.
	Table string
	Name  string
}

// String renders the reference as SQL.
func (c ColumnRef) String() string {
	if c.Table == "" {
		return sql.QuoteIdentIfNeeded(c.Name)
	}
	return sql.QuoteIdentIfNeeded(c.Table) + "." + sql.QuoteIdentIfNeeded(c.Name)
}

// Agg is the aggregate applied to a selected column.
type Agg uint8

// Aggregates offered by the builder.
const (
	AggNone Agg = iota
	AggCount
	AggCountDistinct
	AggSum
	AggAvg
	AggMin
	AggMax
)

var aggNames = [...]string{"", "COUNT", "COUNT DISTINCT", "SUM", "AVG", "MIN", "MAX"}

// String is the aggregate as shown in the builder: "COUNT DISTINCT", "AVG".
func (a Agg) String() string {
	if int(a) < len(aggNames) {
		return aggNames[a]
	}
	return "?"
}

// Aggs lists the aggregates in menu order (AggNone first).
func Aggs() []Agg {
	return []Agg{AggNone, AggCount, AggCountDistinct, AggSum, AggAvg, AggMin, AggMax}
}

// funcName is the SQL function of the aggregate.
func (a Agg) funcName() string {
	if a == AggCountDistinct {
		return "COUNT"
	}
	return a.String()
}

// Item is one output column of the query.
type Item struct {
	// Column is the source column. With AggCount an empty Column.Name means
	// COUNT(*).
	Column ColumnRef
	Agg    Agg
	// Alias is the output name, or "" for the column's own name (plain
	// columns) or Flink's generated EXPR$n (aggregates).
	Alias string
}

// OutputName is the name of the item's result column as Flink names it
// (aliases win; aggregates without alias are EXPR$n, which the builder
// never generates, so "" is returned for them).
func (it Item) OutputName() string {
	if it.Alias != "" {
		return it.Alias
	}
	if it.Agg == AggNone {
		return it.Column.Name
	}
	return ""
}

// DefaultAlias is the alias the builder gives an aggregate: cnt for
// COUNT(*), otherwise <agg>_<column> such as avg_delay or
// count_distinct_origin.
func DefaultAlias(agg Agg, column string) string {
	if agg == AggNone {
		return ""
	}
	if agg == AggCount && column == "" {
		return "cnt"
	}
	name := strings.ToLower(strings.ReplaceAll(agg.String(), " ", "_"))
	return name + "_" + aliasPart(column)
}

// aliasPart turns a column name into identifier characters.
func aliasPart(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_")
}

// Op is a filter operator.
type Op uint8

// Filter operators.
const (
	OpEq Op = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpIsNull
	OpIsNotNull
	OpIn
	OpNotIn
	OpLike
	OpNotLike
	OpBetween
	OpNotBetween
)

var opNames = [...]string{"=", "<>", "<", "<=", ">", ">=", "IS NULL", "IS NOT NULL", "IN", "NOT IN", "LIKE", "NOT LIKE", "BETWEEN", "NOT BETWEEN"}

// String is the operator as written in SQL.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// Operands is the number of values the operator takes: 0 (IS NULL), 1,
// 2 (BETWEEN) or -1 (IN: one or more).
func (o Op) Operands() int {
	switch o {
	case OpIsNull, OpIsNotNull:
		return 0
	case OpIn, OpNotIn:
		return -1
	case OpBetween, OpNotBetween:
		return 2
	}
	return 1
}

// Filter is one condition of the WHERE clause; a query's filters are
// combined with AND.
type Filter struct {
	Column ColumnRef
	Op     Op
	Values []Value
}

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds.
const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
)

var joinKindNames = [...]string{"INNER", "LEFT", "RIGHT", "FULL"}

// String names the join kind.
func (k JoinKind) String() string {
	if int(k) < len(joinKindNames) {
		return joinKindNames[k]
	}
	return "?"
}

// JoinKey is one equality of a join condition: Left (a column of a table
// joined earlier) = Right (a column of the joined table).
type JoinKey struct {
	Left  ColumnRef
	Right string
}

// Join joins another table to the query.
type Join struct {
	Kind  JoinKind
	Table TableRef
	Keys  []JoinKey
}

// WindowKind is a window table-valued function.
type WindowKind uint8

// Window TVFs.
const (
	Tumble WindowKind = iota
	Hop
	Cumulate
	Session
)

var windowNames = [...]string{"TUMBLE", "HOP", "CUMULATE", "SESSION"}

// String is the TVF name.
func (k WindowKind) String() string {
	if int(k) < len(windowNames) {
		return windowNames[k]
	}
	return "?"
}

// Interval is a window size, slide or gap: a positive count of a unit.
type Interval struct {
	Value int64
	// Unit is SECOND, MINUTE, HOUR or DAY.
	Unit string
}

// String renders INTERVAL 'n' UNIT.
func (iv Interval) String() string { return fmt.Sprintf("INTERVAL '%d' %s", iv.Value, iv.Unit) }

// IntervalUnits lists the units the builder offers.
func IntervalUnits() []string { return []string{"SECOND", "MINUTE", "HOUR", "DAY"} }

// Window is a window TVF applied to the query's table.
type Window struct {
	Kind WindowKind
	// TimeColumn is the rowtime (streaming) or TIMESTAMP (batch) column.
	TimeColumn string
	// Size is the window size (the gap for SESSION, the maximum size for
	// CUMULATE).
	Size Interval
	// Slide is HOP's slide and CUMULATE's step; unused otherwise.
	Slide Interval
	// PartitionBy are SESSION's partition keys (may be empty).
	PartitionBy []string
}

// Window TVF output columns.
const (
	WindowStart = "window_start"
	WindowEnd   = "window_end"
	WindowTime  = "window_time"
)

// Order is one ORDER BY item: a column or output alias.
type Order struct {
	Column ColumnRef
	Desc   bool
}

// Query is the query builder's model. The zero value of each optional part
// means "absent": no Items is SELECT *, Limit 0 is no LIMIT.
type Query struct {
	From  TableRef
	Joins []Join
	// Window, when set, replaces FROM t by FROM TABLE(<TVF>(TABLE t, ...)).
	Window *Window
	// Items are the output columns; none means SELECT *.
	Items   []Item
	Filters []Filter
	GroupBy []ColumnRef
	OrderBy []Order
	// Limit is the LIMIT row count; 0 means no limit.
	Limit int64
}

// NewQuery starts a query over one table: SELECT * FROM table.
func NewQuery(path ...string) *Query {
	return &Query{From: TableRef{Path: append([]string(nil), path...)}}
}

// Clone returns a deep copy.
func (q *Query) Clone() *Query {
	c := *q
	c.From.Path = slices.Clone(q.From.Path)
	c.Joins = make([]Join, len(q.Joins))
	for i, j := range q.Joins {
		j.Table.Path = slices.Clone(j.Table.Path)
		j.Keys = slices.Clone(j.Keys)
		c.Joins[i] = j
	}
	if q.Window != nil {
		w := *q.Window
		w.PartitionBy = slices.Clone(w.PartitionBy)
		c.Window = &w
	}
	c.Items = slices.Clone(q.Items)
	c.Filters = make([]Filter, len(q.Filters))
	for i, f := range q.Filters {
		f.Values = slices.Clone(f.Values)
		c.Filters[i] = f
	}
	if q.Filters == nil {
		c.Filters = nil
	}
	if q.Joins == nil {
		c.Joins = nil
	}
	c.GroupBy = slices.Clone(q.GroupBy)
	c.OrderBy = slices.Clone(q.OrderBy)
	return &c
}

// HasAggregates reports whether any item is aggregated.
func (q *Query) HasAggregates() bool {
	for _, it := range q.Items {
		if it.Agg != AggNone {
			return true
		}
	}
	return false
}

// ItemIndex returns the index of the plain (not aggregated) item selecting
// column c, or -1.
func (q *Query) ItemIndex(c ColumnRef) int {
	for i, it := range q.Items {
		if it.Agg == AggNone && it.Column == c {
			return i
		}
	}
	return -1
}

// ToggleColumn adds column c as a plain item, or removes every item that
// selects it when it is already selected. It then regroups (see Regroup).
func (q *Query) ToggleColumn(c ColumnRef) {
	removed := false
	out := q.Items[:0:0]
	for _, it := range q.Items {
		if it.Column == c {
			removed = true
			continue
		}
		out = append(out, it)
	}
	if !removed {
		it := Item{Column: c}
		// a column of another table with the same name (a self-join's
		// origin and origin) gets its table's name: unique output names
		if c.Table != "" && slices.ContainsFunc(out, func(o Item) bool { return o.OutputName() == c.Name }) {
			it.Alias = aliasPart(c.Table) + "_" + aliasPart(c.Name)
		}
		out = append(out, it)
	}
	q.Items = out
	q.Regroup()
}

// SetAggregate sets the aggregate of the item at index i (giving it the
// default alias when it has none or had a default one) and regroups.
func (q *Query) SetAggregate(i int, agg Agg) {
	if i < 0 || i >= len(q.Items) {
		return
	}
	it := &q.Items[i]
	if it.Alias == "" || it.Alias == DefaultAlias(it.Agg, it.Column.Name) {
		it.Alias = DefaultAlias(agg, it.Column.Name)
	}
	it.Agg = agg
	q.Regroup()
}

// AddCountStar adds COUNT(*) AS cnt and regroups.
func (q *Query) AddCountStar() {
	q.Items = append(q.Items, Item{Agg: AggCount, Alias: DefaultAlias(AggCount, "")})
	q.Regroup()
}

// Regroup keeps GROUP BY consistent with the select list, as the builder's
// "group by" column does: when any item is aggregated, the plain items are
// the grouping keys, in select-list order; without aggregates (and without
// a window) GROUP BY is cleared.
func (q *Query) Regroup() {
	if !q.HasAggregates() {
		if q.Window == nil {
			q.GroupBy = nil
		}
		return
	}
	var keys []ColumnRef
	for _, it := range q.Items {
		if it.Agg == AggNone && !slices.Contains(keys, it.Column) {
			keys = append(keys, it.Column)
		}
	}
	q.GroupBy = keys
}

// SetWindow applies a window TVF: window_start and window_end become the
// first output columns and grouping keys, as Flink's window aggregation
// requires. Passing nil removes the window and its columns.
func (q *Query) SetWindow(w *Window) {
	isWinCol := func(c ColumnRef) bool {
		return c.Table == "" && (c.Name == WindowStart || c.Name == WindowEnd || c.Name == WindowTime)
	}
	var items []Item
	for _, it := range q.Items {
		if !(it.Agg == AggNone && isWinCol(it.Column)) {
			items = append(items, it)
		}
	}
	q.GroupBy = slices.DeleteFunc(q.GroupBy, isWinCol)
	q.Window = nil
	if w == nil {
		q.Items = items
		q.Regroup()
		return
	}
	cp := *w
	cp.PartitionBy = slices.Clone(w.PartitionBy)
	q.Window = &cp
	q.Items = append([]Item{{Column: ColumnRef{Name: WindowStart}}, {Column: ColumnRef{Name: WindowEnd}}}, items...)
	q.Regroup()
	if !q.HasAggregates() {
		q.GroupBy = nil
	}
}

// AddFilter appends a filter.
func (q *Query) AddFilter(f Filter) { q.Filters = append(q.Filters, f) }

// RemoveFilter removes the filter at index i.
func (q *Query) RemoveFilter(i int) {
	if i >= 0 && i < len(q.Filters) {
		q.Filters = slices.Delete(q.Filters, i, i+1)
	}
}

// SetOrder makes c the first ORDER BY key (removing it from later
// positions); keepOthers keeps the other keys after it.
func (q *Query) SetOrder(c ColumnRef, desc, keepOthers bool) {
	rest := slices.DeleteFunc(slices.Clone(q.OrderBy), func(o Order) bool { return o.Column == c })
	if !keepOthers {
		rest = nil
	}
	q.OrderBy = append([]Order{{Column: c, Desc: desc}}, rest...)
}

// AddJoin joins table t with the given keys. When the query had a single
// table, its columns are qualified from now on: the main table gets an
// alias (its first letter, or the table name when that clashes) and every
// reference is rewritten.
func (q *Query) AddJoin(kind JoinKind, t TableRef, keys []JoinKey) {
	if len(q.Joins) == 0 {
		q.qualifyMain()
	}
	if t.Alias == "" {
		t.Alias = q.freeAlias(t.Qualifier(), q.HasTable(t.Path))
	}
	q.Joins = append(q.Joins, Join{Kind: kind, Table: t, Keys: keys})
}

// RemoveJoin removes join i and every reference to its table.
func (q *Query) RemoveJoin(i int) {
	if i < 0 || i >= len(q.Joins) {
		return
	}
	qual := q.Joins[i].Table.Qualifier()
	q.Joins = slices.Delete(q.Joins, i, i+1)
	refersTo := func(c ColumnRef) bool { return c.Table == qual }
	q.Items = slices.DeleteFunc(q.Items, func(it Item) bool { return refersTo(it.Column) })
	q.Filters = slices.DeleteFunc(q.Filters, func(f Filter) bool { return refersTo(f.Column) })
	q.GroupBy = slices.DeleteFunc(q.GroupBy, refersTo)
	q.OrderBy = slices.DeleteFunc(q.OrderBy, func(o Order) bool { return refersTo(o.Column) })
	for k := range q.Joins {
		q.Joins[k].Keys = slices.DeleteFunc(q.Joins[k].Keys, func(j JoinKey) bool { return refersTo(j.Left) })
	}
	q.Regroup()
}

// qualifyMain gives the main table an alias and qualifies unqualified
// column references with it (window columns stay unqualified).
func (q *Query) qualifyMain() {
	if q.From.Alias == "" && len(q.From.Path) > 0 {
		name := q.From.Path[len(q.From.Path)-1]
		q.From.Alias = aliasPart(name)
		if len(q.From.Alias) > 0 {
			q.From.Alias = q.From.Alias[:1]
		} else {
			q.From.Alias = "t"
		}
	}
	qual := q.From.Qualifier()
	fix := func(c *ColumnRef) {
		if c.Table == "" && c.Name != "" && !(q.Window != nil && (c.Name == WindowStart || c.Name == WindowEnd || c.Name == WindowTime)) {
			c.Table = qual
		}
	}
	for i := range q.Items {
		fix(&q.Items[i].Column)
	}
	for i := range q.Filters {
		fix(&q.Filters[i].Column)
	}
	for i := range q.GroupBy {
		fix(&q.GroupBy[i])
	}
	for i := range q.OrderBy {
		if q.outputAlias(q.OrderBy[i].Column.Name) {
			continue
		}
		fix(&q.OrderBy[i].Column)
	}
}

// outputAlias reports whether name is the alias of an aggregate item.
func (q *Query) outputAlias(name string) bool {
	for _, it := range q.Items {
		if it.Alias == name && (it.Agg != AggNone || it.Alias != it.Column.Name) {
			return true
		}
	}
	return false
}

// HasTable reports whether the query reads the table at path already
// (compared by the table's name: joining it again is a self-join).
func (q *Query) HasTable(path []string) bool {
	if len(path) == 0 {
		return false
	}
	return slices.ContainsFunc(q.Tables(), func(t TableRef) bool {
		return len(t.Path) > 0 && t.Path[len(t.Path)-1] == path[len(path)-1]
	})
}

// freeAlias returns base's first letter, or a longer name, that no table
// of the query uses yet; another instance of a table read already (self)
// is numbered: f, f2, f3.
func (q *Query) freeAlias(base string, self bool) string {
	used := map[string]bool{q.From.Qualifier(): true}
	for _, j := range q.Joins {
		used[j.Table.Qualifier()] = true
	}
	b := aliasPart(base)
	if b == "" {
		b = "t"
	}
	cands := []string{b[:1], b}
	if self {
		b = b[:1]
		cands = cands[:1]
	}
	for _, cand := range cands {
		if !used[cand] {
			return cand
		}
	}
	for n := 2; ; n++ {
		cand := fmt.Sprintf("%s%d", b, n)
		if !used[cand] {
			return cand
		}
	}
}

// Tables lists the query's tables: the main table first, then the joined
// ones.
func (q *Query) Tables() []TableRef {
	out := []TableRef{q.From}
	for _, j := range q.Joins {
		out = append(out, j.Table)
	}
	return out
}
