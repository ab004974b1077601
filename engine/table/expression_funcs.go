package table

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// TimeIntervalUnit is a unit for Extract, Ceil and Floor (PyFlink's
// TimeIntervalUnit).
type TimeIntervalUnit string

// Time interval units.
const (
	TimeIntervalUnitYear           TimeIntervalUnit = "YEAR"
	TimeIntervalUnitYearToMonth    TimeIntervalUnit = "YEAR_TO_MONTH"
	TimeIntervalUnitQuarter        TimeIntervalUnit = "QUARTER"
	TimeIntervalUnitMonth          TimeIntervalUnit = "MONTH"
	TimeIntervalUnitWeek           TimeIntervalUnit = "WEEK"
	TimeIntervalUnitDay            TimeIntervalUnit = "DAY"
	TimeIntervalUnitDayToHour      TimeIntervalUnit = "DAY_TO_HOUR"
	TimeIntervalUnitDayToMinute    TimeIntervalUnit = "DAY_TO_MINUTE"
	TimeIntervalUnitDayToSecond    TimeIntervalUnit = "DAY_TO_SECOND"
	TimeIntervalUnitHour           TimeIntervalUnit = "HOUR"
	TimeIntervalUnitHourToMinute   TimeIntervalUnit = "HOUR_TO_MINUTE"
	TimeIntervalUnitHourToSecond   TimeIntervalUnit = "HOUR_TO_SECOND"
	TimeIntervalUnitMinute         TimeIntervalUnit = "MINUTE"
	TimeIntervalUnitMinuteToSecond TimeIntervalUnit = "MINUTE_TO_SECOND"
	TimeIntervalUnitSecond         TimeIntervalUnit = "SECOND"
)

// sqlUnit is the unit keyword (the leading unit of a range).
func (u TimeIntervalUnit) sqlUnit() string {
	s := string(u)
	if i := strings.Index(s, "_TO_"); i >= 0 {
		s = s[:i]
	}
	return s
}

// TimePointUnit is a unit for TimestampDiff (PyFlink's TimePointUnit).
type TimePointUnit string

// Time point units.
const (
	TimePointUnitYear        TimePointUnit = "YEAR"
	TimePointUnitQuarter     TimePointUnit = "QUARTER"
	TimePointUnitMonth       TimePointUnit = "MONTH"
	TimePointUnitWeek        TimePointUnit = "WEEK"
	TimePointUnitDay         TimePointUnit = "DAY"
	TimePointUnitHour        TimePointUnit = "HOUR"
	TimePointUnitMinute      TimePointUnit = "MINUTE"
	TimePointUnitSecond      TimePointUnit = "SECOND"
	TimePointUnitMillisecond TimePointUnit = "MILLISECOND"
	TimePointUnitMicrosecond TimePointUnit = "MICROSECOND"
)

// ---------------------------------------------------------------- column selection

// Range selects the columns from start to end, both inclusive, by name or
// by 1-based index, for WithColumns and WithoutColumns (PyFlink's range_):
// Range("b", "c") or Range(2, 3).
func Range(start, end any) Expression {
	for _, b := range []any{start, end} {
		switch b.(type) {
		case string, int:
		default:
			return failedf("Range: bounds must be column names or 1-based indexes, got %T", b)
		}
	}
	bound := func(b any) sql.Expr {
		if s, ok := b.(string); ok {
			return &sql.StringLit{Value: s}
		}
		return intLit(int64(b.(int)))
	}
	return Expression{&exprData{kind: kindRange, from: start, to: end,
		node: &sql.FuncCall{Name: objName(markRange), Args: []sql.Expr{bound(start), bound(end)}}}}
}

// WithColumns selects columns: each argument is a Range, a column name or
// Col, or a 1-based index (PyFlink's with_columns). It is valid wherever a
// list of expressions is (Select, GroupBy, function arguments).
func WithColumns(head any, tail ...any) Expression {
	return selector(kindWithColumns, append([]any{head}, tail...))
}

// WithoutColumns selects all columns except the given ones (PyFlink's
// without_columns).
func WithoutColumns(head any, tail ...any) Expression {
	return selector(kindWithout, append([]any{head}, tail...))
}

func selector(kind exprKind, items []any) Expression {
	var args []any
	for _, it := range items {
		switch v := it.(type) {
		case string:
			args = append(args, Col(v))
		case int:
			args = append(args, Range(v, v))
		case Expression:
			args = append(args, v)
		default:
			return failedf("column selection: unsupported selector %v (%T)", it, it)
		}
	}
	name := markWithColumns
	if kind == kindWithout {
		name = markWithoutColumns
	}
	x := derive(func(n []sql.Expr) sql.Expr { return &sql.FuncCall{Name: objName(name), Args: n} }, args...)
	if x.x.err == nil {
		x.x.kind = kind
	}
	return x
}

// ---------------------------------------------------------------- logic

// And is the three-valued conjunction of two or more predicates (PyFlink's
// and_).
func And(p0, p1 any, ps ...any) Expression {
	out := binary("AND", p0, p1)
	for _, p := range ps {
		out = binary("AND", out, p)
	}
	return out
}

// Or is the three-valued disjunction of two or more predicates (PyFlink's
// or_).
func Or(p0, p1 any, ps ...any) Expression {
	out := binary("OR", p0, p1)
	for _, p := range ps {
		out = binary("OR", out, p)
	}
	return out
}

// Not is the negation of a predicate (Flink's not).
func Not(p any) Expression { return toExpr(p).Not() }

// IfThenElse is CASE WHEN condition THEN ifTrue ELSE ifFalse END
// (PyFlink's if_then_else): IfThenElse(Col("f0").IsGreater(5), "A", "B").
func IfThenElse(condition, ifTrue, ifFalse any) Expression {
	return derive(func(n []sql.Expr) sql.Expr {
		return &sql.CaseExpr{Whens: []*sql.When{{Cond: n[0], Result: n[1]}}, Else: n[2]}
	}, condition, ifTrue, ifFalse)
}

// ---------------------------------------------------------------- over window bounds

// UnboundedRow is the preceding bound of an unbounded row-count over window
// (from the partition's first row) (PyFlink's UNBOUNDED_ROW).
var UnboundedRow = Expression{&exprData{kind: kindOverBound, bound: "UNBOUNDED_ROW"}}

// UnboundedRange is the preceding bound of an unbounded time-range over
// window (PyFlink's UNBOUNDED_RANGE).
var UnboundedRange = Expression{&exprData{kind: kindOverBound, bound: "UNBOUNDED_RANGE"}}

// CurrentRow is the following bound "current row" of a row-count over
// window (PyFlink's CURRENT_ROW).
var CurrentRow = Expression{&exprData{kind: kindOverBound, bound: "CURRENT_ROW"}}

// CurrentRange is the following bound "current row" of a time-range over
// window, including peers with the same time (Flink's CURRENT_RANGE).
var CurrentRange = Expression{&exprData{kind: kindOverBound, bound: "CURRENT_RANGE"}}

// RowInterval is a row-count interval of rows rows, for over windows and
// count group windows (PyFlink's row_interval).
func RowInterval(rows int64) Expression {
	if rows < 0 {
		return failedf("RowInterval: the row count must not be negative, got %d", rows)
	}
	return Expression{&exprData{kind: kindOverBound, bound: "ROWS", rows: rows}}
}

// ---------------------------------------------------------------- time

func niladic(name string) Expression {
	return plain(&sql.FuncCall{Name: objName(name), Syntax: sql.SyntaxNiladic})
}

// CurrentDate is the current DATE in the session time zone (PyFlink's
// current_date).
func CurrentDate() Expression { return niladic("CURRENT_DATE") }

// CurrentTime is the current TIME in the session time zone (PyFlink's
// current_time).
func CurrentTime() Expression { return niladic("CURRENT_TIME") }

// CurrentTimestamp is the current TIMESTAMP_LTZ(3) (PyFlink's
// current_timestamp).
func CurrentTimestamp() Expression { return niladic("CURRENT_TIMESTAMP") }

// LocalTime is the current TIME in the session time zone (PyFlink's
// local_time).
func LocalTime() Expression { return niladic("LOCALTIME") }

// LocalTimestamp is the current TIMESTAMP(3) without time zone, the wall
// clock of the session time zone (PyFlink's local_timestamp).
func LocalTimestamp() Expression { return niladic("LOCALTIMESTAMP") }

// CurrentWatermark is the current watermark of a rowtime attribute, with
// precision 3, or NULL when none was emitted yet (PyFlink's
// current_watermark).
func CurrentWatermark(rowtimeAttribute any) Expression {
	return call("CURRENT_WATERMARK", rowtimeAttribute)
}

// TemporalOverlaps reports whether two time intervals, each a point and a
// point or interval, overlap: leftEnd >= rightStart AND rightEnd >=
// leftStart (PyFlink's temporal_overlaps).
func TemporalOverlaps(leftTimePoint, leftTemporal, rightTimePoint, rightTemporal any) Expression {
	return derive(func(n []sql.Expr) sql.Expr {
		return &sql.BinaryExpr{Op: "OVERLAPS", X: &sql.RowExpr{Items: n[:2]}, Y: &sql.RowExpr{Items: n[2:]}}
	}, leftTimePoint, leftTemporal, rightTimePoint, rightTemporal)
}

// DateFormat formats a timestamp, a date or a timestamp string as a
// STRING with a Java SimpleDateFormat pattern, as Flink's DATE_FORMAT does:
// DateFormat(ts, "yyyy, dd MMM") gives "2017, 05 May" (PyFlink's
// date_format). PyFlink's docstring describes a MySQL-style format
// ("%Y, %d %M"), which Flink does not implement: there '%' is a literal
// and Y the week year, so that format gives "%2017, %5 %5", here as in
// Flink (Flink later corrected its docstring). A TIMESTAMP_LTZ is
// formatted in the session time zone (table.local-time-zone); a string
// that is not a timestamp gives NULL; NULL arguments give NULL; an invalid
// pattern fails the job.
func DateFormat(timestamp, format any) Expression { return call("DATE_FORMAT", timestamp, format) }

// TimestampDiff is the signed number of units between two time points
// (PyFlink's timestamp_diff): TIMESTAMPDIFF(unit, timePoint1, timePoint2).
func TimestampDiff(unit TimePointUnit, timePoint1, timePoint2 any) Expression {
	return callSyntax("TIMESTAMPDIFF", sql.SyntaxTimestampAdd, symbolExpr(string(unit)), timePoint1, timePoint2)
}

// ---------------------------------------------------------------- constructors

// Array builds an ARRAY of its arguments (PyFlink's array).
func Array(head any, tail ...any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.ArrayExpr{Items: n} }, append([]any{head}, tail...)...)
}

// Row builds a ROW of its arguments (PyFlink's row).
func Row(head any, tail ...any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.RowExpr{Explicit: true, Items: n} }, append([]any{head}, tail...)...)
}

// Map builds a MAP from alternating keys and values (PyFlink's map_);
// keys and values must have uniform types.
func Map(key, value any, tail ...any) Expression {
	if len(tail)%2 != 0 {
		return failedf("Map: keys and values must come in pairs")
	}
	return derive(func(n []sql.Expr) sql.Expr { return &sql.MapExpr{Items: n} }, append([]any{key, value}, tail...)...)
}

// NullOf is a NULL literal of a type (PyFlink's null_of).
func NullOf(t *types.DataType) Expression { return Lit(nil, t) }

// ---------------------------------------------------------------- math

// Pi is π (PyFlink's pi).
func Pi() Expression { return call("PI") }

// E is Euler's number (PyFlink's e).
func E() Expression { return call("E") }

// Rand is a pseudo-random DOUBLE in [0, 1); a seed makes the sequence
// repeatable (PyFlink's rand).
func Rand(seed ...any) Expression {
	if len(seed) > 0 {
		return call("RAND", seed[0])
	}
	return call("RAND")
}

// RandInteger is a pseudo-random INT in [0, bound); a seed makes the
// sequence repeatable (PyFlink's rand_integer).
func RandInteger(bound any, seed ...any) Expression {
	if len(seed) > 0 {
		return call("RAND_INTEGER", seed[0], bound)
	}
	return call("RAND_INTEGER", bound)
}

// Atan2 is the arc tangent of y/x (PyFlink's atan2).
func Atan2(y, x any) Expression { return call("ATAN2", y, x) }

// Negative is -v (PyFlink's negative).
func Negative(v any) Expression { return toExpr(v).Negate() }

// Log is the natural logarithm of v, or its logarithm to base (PyFlink's
// log(v, base=None)).
func Log(v any, base ...any) Expression { return toExpr(v).Log(base...) }

// ---------------------------------------------------------------- strings

// Concat concatenates strings; NULL if any argument is NULL (PyFlink's
// concat).
func Concat(first any, others ...any) Expression {
	return call("CONCAT", append([]any{first}, others...)...)
}

// ConcatWs concatenates with a separator, skipping NULL arguments but
// keeping empty strings; NULL only when the separator is NULL (PyFlink's
// concat_ws).
func ConcatWs(separator, first any, others ...any) Expression {
	return call("CONCAT_WS", append([]any{separator, first}, others...)...)
}

// UUID is a random RFC 4122 version 4 UUID string (PyFlink's uuid).
func UUID() Expression { return call("UUID") }

// ---------------------------------------------------------------- calls

// Call calls a function (PyFlink's call): f is a function name or path
// ("f", "cat.db.f"), resolved in Flink's order (temporary system
// function, built-in function, temporary catalog function, catalog
// function), or a *UserDefinedFunction called inline without registration.
func Call(f any, args ...any) Expression {
	switch fn := f.(type) {
	case string:
		parts, err := ParsePath(fn)
		if err != nil {
			return failed(err)
		}
		return derive(func(n []sql.Expr) sql.Expr {
			return &sql.FuncCall{Name: objName(parts...), Args: n}
		}, args...)
	case *UserDefinedFunction:
		return fn.Call(args...)
	}
	return failedf("Call: the function must be a name or a *UserDefinedFunction, got %T", f)
}

// CallSQL parses a scalar SQL expression, resolved when used (PyFlink's
// call_sql): CallSQL("UPPER(name) || '!'"). Aggregates, table functions
// and sub-queries are not allowed.
func CallSQL(sqlExpression string) Expression {
	n, err := sql.ParseExpr(sqlExpression)
	if err != nil {
		return failed(fmt.Errorf("CallSQL: %w", err))
	}
	var bad string
	walkSQLExpr(n, func(x sql.Expr) {
		switch v := x.(type) {
		case *sql.SubqueryExpr, *sql.ExistsExpr:
			bad = "sub-queries"
		case *sql.InExpr:
			if v.Query != nil {
				bad = "sub-queries"
			}
		case *sql.FuncCall:
			if v.Over != nil {
				bad = "window functions"
			}
		}
	})
	if bad != "" {
		return failedf("CallSQL: %s are not allowed in %q (only scalar expressions are)", bad, sqlExpression)
	}
	return Expression{&exprData{node: n, prop: "callsql"}}
}

// SourceWatermark is the SOURCE_WATERMARK() marker: as the whole watermark
// expression of a Schema it asks the source for its own watermarks
// (PyFlink's source_watermark).
func SourceWatermark() Expression { return call("SOURCE_WATERMARK") }

// Exprs parses a comma-separated list of SQL expressions, each optionally
// followed by AS alias, into Expressions: Exprs("a + 1 AS a1, b"). It
// stands in for PyFlink's string expression arguments ("a + 1 as a1,
// concat(b, 'sunny') as b1"); the deprecated Java-style forms ("value.avg",
// "name.desc", "b.count over ow") are not accepted, write them as
// Expressions. A parse error is reported by the Table operation that uses
// the result.
func Exprs(list string) []Expression {
	st, err := sql.Parse("SELECT " + list)
	if err != nil {
		return []Expression{failed(fmt.Errorf("cannot parse expression list %q: %w", list, err))}
	}
	q, ok := st.(*sql.Query)
	var sel *sql.Select
	if ok {
		sel, ok = q.Body.(*sql.Select)
	}
	if !ok || sel.From != nil || q.OrderBy != nil || q.Limit != nil {
		return []Expression{failedf("cannot parse expression list %q", list)}
	}
	out := make([]Expression, len(sel.Items))
	for i, it := range sel.Items {
		var e Expression
		if s, ok := it.Expr.(*sql.Star); ok && len(s.Qualifier) == 0 {
			e = Col("*")
		} else {
			e = plain(it.Expr)
		}
		if it.Alias != nil {
			e = e.As(it.Alias.Name)
		}
		out[i] = e
	}
	return out
}

// Expr parses a single SQL expression (with an optional AS alias) as
// Exprs does, e.g. for a predicate: tab.Where(Expr("name = 'Fred'")).
func Expr(text string) Expression {
	es := Exprs(text)
	if len(es) != 1 {
		return failedf("expected one expression, got %d in %q", len(es), text)
	}
	return es[0]
}

// walkSQLExpr visits an expression tree (without descending into
// sub-queries).
func walkSQLExpr(e sql.Expr, fn func(sql.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch x := e.(type) {
	case *sql.UnaryExpr:
		walkSQLExpr(x.X, fn)
	case *sql.BinaryExpr:
		walkSQLExpr(x.X, fn)
		walkSQLExpr(x.Y, fn)
	case *sql.IsExpr:
		walkSQLExpr(x.X, fn)
	case *sql.IsDistinctFromExpr:
		walkSQLExpr(x.X, fn)
		walkSQLExpr(x.Y, fn)
	case *sql.LikeExpr:
		walkSQLExpr(x.X, fn)
		walkSQLExpr(x.Pattern, fn)
		walkSQLExpr(x.Escape, fn)
	case *sql.InExpr:
		walkSQLExpr(x.X, fn)
		for _, it := range x.List {
			walkSQLExpr(it, fn)
		}
	case *sql.BetweenExpr:
		walkSQLExpr(x.X, fn)
		walkSQLExpr(x.Low, fn)
		walkSQLExpr(x.High, fn)
	case *sql.CastExpr:
		walkSQLExpr(x.X, fn)
	case *sql.CaseExpr:
		walkSQLExpr(x.Operand, fn)
		for _, w := range x.Whens {
			walkSQLExpr(w.Cond, fn)
			for _, m := range w.More {
				walkSQLExpr(m, fn)
			}
			walkSQLExpr(w.Result, fn)
		}
		walkSQLExpr(x.Else, fn)
	case *sql.FuncCall:
		for _, a := range x.Args {
			walkSQLExpr(a, fn)
		}
		walkSQLExpr(x.Filter, fn)
	case *sql.RowExpr:
		for _, it := range x.Items {
			walkSQLExpr(it, fn)
		}
	case *sql.ArrayExpr:
		for _, it := range x.Items {
			walkSQLExpr(it, fn)
		}
	case *sql.MapExpr:
		for _, it := range x.Items {
			walkSQLExpr(it, fn)
		}
	case *sql.IndexExpr:
		walkSQLExpr(x.X, fn)
		walkSQLExpr(x.Index, fn)
	case *sql.FieldExpr:
		walkSQLExpr(x.X, fn)
	}
}

// rewriteSQLExpr rebuilds an expression tree bottom-up, replacing each node
// with fn(node) (fn returns its argument to keep it). Nodes are copied,
// never modified in place.
func rewriteSQLExpr(e sql.Expr, fn func(sql.Expr) (sql.Expr, error)) (sql.Expr, error) {
	if e == nil {
		return nil, nil
	}
	var err error
	re := func(x sql.Expr) sql.Expr {
		if err != nil || x == nil {
			return x
		}
		var out sql.Expr
		out, err = rewriteSQLExpr(x, fn)
		return out
	}
	reList := func(xs []sql.Expr) []sql.Expr {
		out := make([]sql.Expr, len(xs))
		for i, x := range xs {
			out[i] = re(x)
		}
		return out
	}
	switch x := e.(type) {
	case *sql.UnaryExpr:
		c := *x
		c.X = re(x.X)
		e = &c
	case *sql.BinaryExpr:
		c := *x
		c.X, c.Y = re(x.X), re(x.Y)
		e = &c
	case *sql.IsExpr:
		c := *x
		c.X = re(x.X)
		e = &c
	case *sql.IsDistinctFromExpr:
		c := *x
		c.X, c.Y = re(x.X), re(x.Y)
		e = &c
	case *sql.LikeExpr:
		c := *x
		c.X, c.Pattern, c.Escape = re(x.X), re(x.Pattern), re(x.Escape)
		e = &c
	case *sql.InExpr:
		c := *x
		c.X = re(x.X)
		if x.List != nil {
			c.List = reList(x.List)
		}
		e = &c
	case *sql.BetweenExpr:
		c := *x
		c.X, c.Low, c.High = re(x.X), re(x.Low), re(x.High)
		e = &c
	case *sql.CastExpr:
		c := *x
		c.X = re(x.X)
		e = &c
	case *sql.CaseExpr:
		c := *x
		c.Operand = re(x.Operand)
		c.Whens = make([]*sql.When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = &sql.When{Span: w.Span, Cond: re(w.Cond), Result: re(w.Result)}
			for _, m := range w.More {
				c.Whens[i].More = append(c.Whens[i].More, re(m))
			}
		}
		c.Else = re(x.Else)
		e = &c
	case *sql.FuncCall:
		c := *x
		c.Args = reList(x.Args)
		c.Filter = re(x.Filter)
		e = &c
	case *sql.RowExpr:
		c := *x
		c.Items = reList(x.Items)
		e = &c
	case *sql.ArrayExpr:
		c := *x
		c.Items = reList(x.Items)
		e = &c
	case *sql.MapExpr:
		c := *x
		c.Items = reList(x.Items)
		e = &c
	case *sql.IndexExpr:
		c := *x
		c.X, c.Index = re(x.X), re(x.Index)
		e = &c
	case *sql.FieldExpr:
		c := *x
		c.X = re(x.X)
		e = &c
	}
	if err != nil {
		return nil, err
	}
	return fn(e)
}
