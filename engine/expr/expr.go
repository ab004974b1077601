// Package expr is Riffle's expression layer, shared by SQL and the Table
// API: resolved, typed expression trees (RexNode-like), the built-in
// function registry with Flink's type inference, and compilation of a tree
// into a vectorised evaluator that computes a whole column per call.
//
// Evaluation is columnar: every function has a kernel taking argument
// columns (Arrow arrays, or constants) and returning a column; kernels for
// hot functions are typed loops over Go slices. Three-valued logic and
// NULL propagation follow Flink (SQL standard): most functions return NULL
// when an argument is NULL; AND/OR/IS NULL/COALESCE/CASE do not.
package expr

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Expr is a resolved, typed expression.
type Expr interface {
	// Type is the result type, with nullability.
	Type() *types.DataType
	// String renders the expression in Flink's plan notation, e.g.
	// ">(delay, 10)", "CAST(x AS BIGINT)".
	String() string
}

// InputRef reads column Index of the input row.
type InputRef struct {
	Index int
	Name  string
	T     *types.DataType
}

// Type implements Expr.
func (r *InputRef) Type() *types.DataType { return r.T }

// String implements Expr: the column name (or $index when unnamed).
func (r *InputRef) String() string {
	if r.Name != "" {
		return r.Name
	}
	return fmt.Sprintf("$%d", r.Index)
}

// Literal is a constant. Value follows the Go value conventions of package
// types (nil = NULL). Symbol literals (time units, TRIM flags) have
// Root == types.Symbol and a string Value.
type Literal struct {
	Value any
	T     *types.DataType
}

// Type implements Expr.
func (l *Literal) Type() *types.DataType { return l.T }

// String implements Expr.
func (l *Literal) String() string {
	if l.Value == nil {
		return "null:" + l.T.SQLString()
	}
	switch v := l.Value.(type) {
	case string:
		if l.T.Root == types.Symbol {
			return v
		}
		// Calcite's RexLiteral digest: the character set prefix Flink
		// plans show (_UTF-16LE'F%')
		return "_UTF-16LE'" + strings.ReplaceAll(v, "'", "''") + "'"
	case bool:
		// RexLiteral prints booleans in lower case
		return fmt.Sprint(v)
	case types.Date:
		// RexLiteral's digest of a DATE: the value alone
		return v.String()
	}
	switch l.T.Root {
	case types.TimestampRoot:
		if t, ok := l.Value.(time.Time); ok {
			return calciteTimestamp(t)
		}
	case types.TimestampLTZRoot, types.TimeRoot:
		return l.T.SQLString() + " '" + types.FormatValue(l.Value) + "'"
	case types.IntervalDayTimeRoot, types.IntervalYearMonthRoot:
		return formatIntervalLiteral(l)
	}
	return types.FormatValue(l.Value)
}

// Call applies a function (scalar operator or built-in) to arguments.
type Call struct {
	// Name is the upper-case SQL name or operator symbol ("+", "AND",
	// "CAST", "UPPER", ...).
	Name string
	Fn   *Function
	Args []Expr
	T    *types.DataType
	// Kernel is bound at compile time.
}

// Type implements Expr.
func (c *Call) Type() *types.DataType { return c.T }

// String implements Expr.
func (c *Call) String() string {
	switch c.Name {
	case "CAST", "TRY_CAST":
		return fmt.Sprintf("%s(%s AS %s)", c.Name, c.Args[0], c.T.SQLString())
	}
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = a.String()
	}
	return digestName(c.Name) + "(" + strings.Join(parts, ", ") + ")"
}

// digestName is the name Calcite's RexCall digest gives an operator where
// it differs from Riffle's: unary minus is "-", the remainder MOD.
func digestName(name string) string {
	switch name {
	case "NEGATE":
		return "-"
	case "%":
		return "MOD"
	}
	return name
}

// Walk calls fn for e and every sub-expression, depth first, stopping a
// branch when fn returns false.
func Walk(e Expr, fn func(Expr) bool) {
	if !fn(e) {
		return
	}
	if c, ok := e.(*Call); ok {
		for _, a := range c.Args {
			Walk(a, fn)
		}
	}
}

// InputRefs returns the distinct input indexes an expression reads.
func InputRefs(e Expr) []int {
	seen := map[int]bool{}
	var out []int
	Walk(e, func(x Expr) bool {
		if r, ok := x.(*InputRef); ok && !seen[r.Index] {
			seen[r.Index] = true
			out = append(out, r.Index)
		}
		return true
	})
	return out
}

// Rewrite rebuilds e bottom-up, replacing each node by fn(node) (fn
// returns its argument to keep it).
func Rewrite(e Expr, fn func(Expr) Expr) Expr {
	if c, ok := e.(*Call); ok {
		args := make([]Expr, len(c.Args))
		changed := false
		for i, a := range c.Args {
			args[i] = Rewrite(a, fn)
			if args[i] != a {
				changed = true
			}
		}
		if changed {
			nc := *c
			nc.Args = args
			e = &nc
		}
	}
	return fn(e)
}

// ShiftInputs returns e with every InputRef index mapped through m (m[i] is
// the new index of old column i) and names replaced by names[new] when
// names is non-nil.
func ShiftInputs(e Expr, m func(int) int) Expr {
	return Rewrite(e, func(x Expr) Expr {
		if r, ok := x.(*InputRef); ok {
			n := m(r.Index)
			if n != r.Index {
				return &InputRef{Index: n, Name: r.Name, T: r.T}
			}
		}
		return x
	})
}

// IsDeterministic reports whether e contains only deterministic functions.
func IsDeterministic(e Expr) bool {
	det := true
	Walk(e, func(x Expr) bool {
		if c, ok := x.(*Call); ok && c.Fn != nil && c.Fn.NonDeterministic {
			det = false
		}
		return det
	})
	return det
}

// IsConstant reports whether e reads no input columns and is deterministic.
func IsConstant(e Expr) bool { return len(InputRefs(e)) == 0 && IsDeterministic(e) }

// NewLiteral builds a literal of type t.
func NewLiteral(v any, t *types.DataType) *Literal { return &Literal{Value: v, T: t} }

// Symbol builds a symbol literal (a flag argument such as a time unit).
func Symbol(s string) *Literal { return &Literal{Value: s, T: types.SymbolType()} }

// formatIntervalLiteral writes an interval as Calcite's RexLiteral digest
// does: the value in milliseconds (day-time) or months (year-month), a
// colon and the interval type without precisions (600000:INTERVAL MINUTE,
// 14:INTERVAL YEAR TO MONTH).
func formatIntervalLiteral(l *Literal) string {
	var v string
	switch x := l.Value.(type) {
	case time.Duration:
		if x%time.Millisecond == 0 {
			v = strconv.FormatInt(x.Milliseconds(), 10)
		} else {
			v = strconv.FormatFloat(float64(x)/float64(time.Millisecond), 'f', -1, 64)
		}
	case types.Months:
		v = strconv.FormatInt(int64(x), 10)
	default:
		return "INTERVAL '" + types.FormatValue(l.Value) + "'"
	}
	return v + ":" + intervalDigestType(l.T)
}

// intervalDigestType names an interval type by its resolution alone.
func intervalDigestType(t *types.DataType) string {
	name := [...]string{
		types.ResYear: "YEAR", types.ResYearToMonth: "YEAR TO MONTH", types.ResMonth: "MONTH",
		types.ResDay: "DAY", types.ResDayToHour: "DAY TO HOUR", types.ResDayToMinute: "DAY TO MINUTE",
		types.ResDayToSecond: "DAY TO SECOND", types.ResHour: "HOUR", types.ResHourToMinute: "HOUR TO MINUTE",
		types.ResHourToSecond: "HOUR TO SECOND", types.ResMinute: "MINUTE", types.ResMinuteToSecond: "MINUTE TO SECOND",
		types.ResSecond: "SECOND",
	}
	if int(t.Resolution) < len(name) {
		return "INTERVAL " + name[t.Resolution]
	}
	return t.SQLString()
}

// calciteTimestamp writes a TIMESTAMP literal as Calcite's TimestampString
// does: date and time with a space, the fraction of a second without its
// trailing zeros (none when zero).
func calciteTimestamp(t time.Time) string {
	s := t.Format("2006-01-02 15:04:05")
	if ns := t.Nanosecond(); ns != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%09d", ns), "0")
	}
	return s
}
