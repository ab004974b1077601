package authoring

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Literal returns a SQL literal denoting v, a value of type t in the
// engine's Go value conventions (see engine/types), such that comparing a
// column of type t with it is exact:
//
//   - strings are quoted, an embedded quote doubled; binary strings are X'..'
//   - integers and DECIMALs keep every digit (never through float64)
//   - DOUBLE uses the shortest text that reads back to the same float64;
//     FLOAT is wrapped in CAST(... AS FLOAT) because a decimal literal
//     compared with a FLOAT is widened to DOUBLE; NaN and infinities are
//     CAST('NaN' AS DOUBLE) and so on
//   - DATE, TIME and TIMESTAMP are typed literals (TIMESTAMP '2001-01-01
//     00:00:00') with the column's fractional precision
//   - TIMESTAMP_LTZ values are instants: TO_TIMESTAMP_LTZ(epoch millis, 3),
//     which does not depend on the session time zone
//   - intervals are INTERVAL literals.
//
// A nil v has no literal (NULL compares with nothing): callers write IS
// NULL instead, and Literal returns an error. Arrays, maps, rows and RAW
// values have no literal either. t may be nil, in which case the Go type of
// v decides.
func Literal(v any, t *types.DataType) (sql.Expr, error) {
	if v == nil {
		return nil, fmt.Errorf("NULL has no literal; use IS NULL")
	}
	switch x := v.(type) {
	case bool:
		return &sql.BoolLit{Value: x}, nil
	case int8:
		return intLit(int64(x)), nil
	case int16:
		return intLit(int64(x)), nil
	case int32:
		return intLit(int64(x)), nil
	case int64:
		return intLit(x), nil
	case int:
		return intLit(int64(x)), nil
	case float32:
		return floatLit(float64(x), 32), nil
	case float64:
		if t != nil && t.Root == types.Float {
			return floatLit(x, 32), nil
		}
		return floatLit(x, 64), nil
	case types.Decimal:
		return numberLit(x.String()), nil
	case string:
		return &sql.StringLit{Value: x}, nil
	case []byte:
		return &sql.BinaryLit{Hex: strings.ToUpper(hex.EncodeToString(x))}, nil
	case types.Date:
		return &sql.DateTimeLit{Type: "DATE", Value: x.String()}, nil
	case types.LocalTime:
		p := 0
		if t != nil && t.Root == types.TimeRoot {
			p = t.Precision
		} else if int64(x)%1e9 != 0 {
			p = 9
		}
		return &sql.DateTimeLit{Type: "TIME", Value: types.FormatTimeSQL(int64(x), p)}, nil
	case time.Time:
		if t != nil && t.Root == types.TimestampLTZRoot {
			millis := x.UnixMilli()
			return &sql.FuncCall{Name: objName("TO_TIMESTAMP_LTZ"), Args: []sql.Expr{intLit(millis), intLit(3)}}, nil
		}
		p := 6
		if t != nil && t.Root == types.TimestampRoot {
			p = t.Precision
		} else if x.Nanosecond() == 0 {
			p = 0
		}
		return &sql.DateTimeLit{Type: "TIMESTAMP", Value: types.FormatTimestampSQL(x.UTC(), p)}, nil
	case types.Months:
		m := int64(x)
		neg := m < 0
		if neg {
			m = -m
		}
		p := -1
		if m/12 > 99 {
			p = len(strconv.FormatInt(m/12, 10))
		}
		return &sql.IntervalLit{Negative: neg, Value: fmt.Sprintf("%d-%d", m/12, m%12),
			Qualifier: &sql.IntervalQualifier{StartUnit: "YEAR", StartPrecision: p, EndUnit: "MONTH", FracPrecision: -1}}, nil
	case time.Duration:
		return sql.DayTimeInterval(x.Milliseconds()), nil
	}
	name := fmt.Sprintf("%T", v)
	if t != nil {
		name = t.String()
	}
	return nil, fmt.Errorf("values of type %s have no SQL literal", name)
}

// LiteralSQL is Literal rendered as SQL text.
func LiteralSQL(v any, t *types.DataType) (string, error) {
	e, err := Literal(v, t)
	if err != nil {
		return "", err
	}
	return sql.FormatCompact(e), nil
}

func objName(parts ...string) *sql.ObjectName {
	n := &sql.ObjectName{}
	for _, p := range parts {
		n.Parts = append(n.Parts, &sql.Ident{Name: p})
	}
	return n
}

func intLit(v int64) sql.Expr { return numberLit(strconv.FormatInt(v, 10)) }

// numberLit builds an exact numeric literal from its text; a leading minus
// becomes a unary minus, as the parser produces.
func numberLit(text string) sql.Expr {
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimPrefix(text, "-")
	kind := sql.NumInteger
	switch {
	case strings.ContainsAny(text, "eE"):
		kind = sql.NumApprox
	case strings.Contains(text, "."):
		kind = sql.NumDecimal
	}
	var e sql.Expr = &sql.NumberLit{Kind: kind, Text: text}
	if neg {
		e = &sql.UnaryExpr{Op: "-", X: e}
	}
	return e
}

func floatLit(f float64, bits int) sql.Expr {
	typ := "DOUBLE"
	if bits == 32 {
		typ = "FLOAT"
	}
	switch {
	case math.IsNaN(f):
		return castString("NaN", typ)
	case math.IsInf(f, 1):
		return castString("Infinity", typ)
	case math.IsInf(f, -1):
		return castString("-Infinity", typ)
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if strings.Contains(s, "e") {
		// 1e+21 → 1E21: an approximate (DOUBLE) literal
		mant, exp, _ := strings.Cut(s, "e")
		s = mant + "E" + strings.TrimPrefix(exp, "+")
	}
	lit := numberLit(s)
	if bits == 32 {
		return &sql.CastExpr{X: lit, Type: &sql.DataType{Name: "FLOAT"}}
	}
	return lit
}

func castString(s, typ string) sql.Expr {
	return &sql.CastExpr{X: &sql.StringLit{Value: s}, Type: &sql.DataType{Name: typ}}
}

// ValueKind is the kind of input a filter value needs, chosen from the
// column type: the builder shows a number field, a text field, a date or
// time picker, or a true/false choice.
type ValueKind uint8

// Value kinds.
const (
	// ValueString is text, written as a quoted string literal.
	ValueString ValueKind = iota
	// ValueNumber is an exact or approximate number as written.
	ValueNumber
	// ValueBool is TRUE or FALSE.
	ValueBool
	// ValueDate is a date yyyy-MM-dd, written DATE '...'.
	ValueDate
	// ValueTime is a time of day HH:mm:ss[.fff], written TIME '...'.
	ValueTime
	// ValueTimestamp is yyyy-MM-dd HH:mm:ss[.fff], written TIMESTAMP '...'.
	ValueTimestamp
)

var valueKindNames = [...]string{"string", "number", "boolean", "date", "time", "timestamp"}

// String names the kind.
func (k ValueKind) String() string {
	if int(k) < len(valueKindNames) {
		return valueKindNames[k]
	}
	return "value?"
}

// ValueKindFor returns the kind of value input that fits a column type.
func ValueKindFor(t *types.DataType) ValueKind {
	if t == nil {
		return ValueString
	}
	switch {
	case t.IsNumeric():
		return ValueNumber
	case t.Root == types.Boolean:
		return ValueBool
	case t.Root == types.DateRoot:
		return ValueDate
	case t.Root == types.TimeRoot:
		return ValueTime
	case t.IsTimestamp():
		return ValueTimestamp
	}
	return ValueString
}

// Value is a filter operand as the user entered it.
type Value struct {
	Kind ValueKind
	// Text is the value as typed: digits for numbers, the unquoted content
	// for strings, "true"/"false", "2001-01-01", "2001-01-01 10:00:00".
	Text string
}

// Expr checks the value and returns it as a SQL literal.
func (v Value) Expr() (sql.Expr, error) {
	s := strings.TrimSpace(v.Text)
	switch v.Kind {
	case ValueString:
		return &sql.StringLit{Value: v.Text}, nil
	case ValueNumber:
		if !isNumber(s) {
			return nil, fmt.Errorf("'%s' is not a number", v.Text)
		}
		if strings.ContainsAny(s, "eE") {
			// an approximate literal is a DOUBLE: Flink refuses one that
			// is not finite
			if f, err := strconv.ParseFloat(s, 64); err != nil || math.IsInf(f, 0) {
				return nil, fmt.Errorf("'%s' is out of the range of DOUBLE", v.Text)
			}
		} else if digits := strings.TrimLeft(strings.NewReplacer("+", "", "-", "", ".", "").Replace(s), "0"); len(digits) > maxDecimalPrecision {
			return nil, fmt.Errorf("'%s' has more than %d digits (the largest DECIMAL)", v.Text, maxDecimalPrecision)
		}
		return numberLit(strings.TrimPrefix(s, "+")), nil
	case ValueBool:
		switch strings.ToLower(s) {
		case "true":
			return &sql.BoolLit{Value: true}, nil
		case "false":
			return &sql.BoolLit{Value: false}, nil
		}
		return nil, fmt.Errorf("'%s' is not TRUE or FALSE", v.Text)
	case ValueDate:
		d, err := types.ParseDate(s)
		if err != nil {
			return nil, fmt.Errorf("'%s' is not a date (yyyy-MM-dd)", v.Text)
		}
		return &sql.DateTimeLit{Type: "DATE", Value: d.String()}, nil
	case ValueTime:
		if _, err := types.ParseTime(s); err != nil {
			return nil, fmt.Errorf("'%s' is not a time (HH:mm:ss)", v.Text)
		}
		return &sql.DateTimeLit{Type: "TIME", Value: s}, nil
	case ValueTimestamp:
		if d, err := types.ParseDate(s); err == nil && !strings.ContainsAny(s, " T:") {
			// a date alone is its midnight
			return &sql.DateTimeLit{Type: "TIMESTAMP", Value: d.String() + " 00:00:00"}, nil
		}
		if _, err := types.ParseTimestamp(s); err != nil || !strings.Contains(s, ":") {
			return nil, fmt.Errorf("'%s' is not a timestamp (yyyy-MM-dd HH:mm:ss)", v.Text)
		}
		return &sql.DateTimeLit{Type: "TIMESTAMP", Value: strings.Replace(strings.TrimSuffix(s, "Z"), "T", " ", 1)}, nil
	}
	return nil, fmt.Errorf("unknown value kind %d", v.Kind)
}

// maxDecimalPrecision is Flink's largest DECIMAL precision.
const maxDecimalPrecision = 38

// CheckFor checks a number against the range of the column type it is
// compared with: TINYINT to BIGINT, DECIMAL(p, s) (at most p - s digits
// before the point), FLOAT and DOUBLE. Other kinds and types pass.
func (v Value) CheckFor(t *types.DataType) error {
	if v.Kind != ValueNumber || t == nil || !t.IsNumeric() {
		return nil
	}
	if _, err := v.Expr(); err != nil {
		return err
	}
	s := strings.TrimPrefix(strings.TrimSpace(v.Text), "+")
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return fmt.Errorf("'%s' is not a number", v.Text)
	}
	abs := new(big.Rat).Abs(r)
	var lo, hi *big.Rat
	switch t.Root {
	case types.TinyInt:
		lo, hi = big.NewRat(math.MinInt8, 1), big.NewRat(math.MaxInt8, 1)
	case types.SmallInt:
		lo, hi = big.NewRat(math.MinInt16, 1), big.NewRat(math.MaxInt16, 1)
	case types.Integer:
		lo, hi = big.NewRat(math.MinInt32, 1), big.NewRat(math.MaxInt32, 1)
	case types.BigInt:
		lo, hi = big.NewRat(math.MinInt64, 1), big.NewRat(math.MaxInt64, 1)
	case types.Float, types.Double:
		max := math.MaxFloat64
		if t.Root == types.Float {
			max = math.MaxFloat32
		}
		if abs.Cmp(new(big.Rat).SetFloat64(max)) > 0 {
			return fmt.Errorf("'%s' is out of the range of %s", v.Text, t.AsNullable())
		}
		return nil
	case types.DecimalRoot:
		// |v| < 10^(p-s)
		limit := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision-t.Scale)), nil))
		if abs.Cmp(limit) >= 0 {
			return fmt.Errorf("'%s' is out of the range of %s (at most %d digits before the point)", v.Text, t.AsNullable(), t.Precision-t.Scale)
		}
		return nil
	default:
		return nil
	}
	if r.Cmp(lo) < 0 || r.Cmp(hi) > 0 {
		return fmt.Errorf("'%s' is out of the range of %s (%s to %s)", v.Text, t.AsNullable(), lo.FloatString(0), hi.FloatString(0))
	}
	return nil
}

// valueOf reads a literal expression back into a Value; ok is false for
// anything that is not a plain literal.
func valueOf(e sql.Expr) (Value, bool) {
	switch x := e.(type) {
	case *sql.StringLit:
		if x.Unicode {
			return Value{}, false
		}
		return Value{Kind: ValueString, Text: x.Value}, true
	case *sql.NumberLit:
		return Value{Kind: ValueNumber, Text: x.Text}, true
	case *sql.UnaryExpr:
		if n, ok := x.X.(*sql.NumberLit); ok && x.Op == "-" {
			return Value{Kind: ValueNumber, Text: "-" + n.Text}, true
		}
	case *sql.BoolLit:
		if x.Value {
			return Value{Kind: ValueBool, Text: "true"}, true
		}
		return Value{Kind: ValueBool, Text: "false"}, true
	case *sql.DateTimeLit:
		switch x.Type {
		case "DATE":
			return Value{Kind: ValueDate, Text: x.Value}, true
		case "TIME":
			return Value{Kind: ValueTime, Text: x.Value}, true
		case "TIMESTAMP":
			return Value{Kind: ValueTimestamp, Text: x.Value}, true
		}
	}
	return Value{}, false
}

// isNumber accepts SQL numeric literals with an optional sign: 12, -1.5,
// .5, 1e10, 2.5E-3.
func isNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	digits, i := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}
