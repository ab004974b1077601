package alerting

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// literal is a Compare condition's value read as one family of types.
type literal struct {
	num  *big.Rat  // numbers
	str  *string   // strings
	ts   time.Time // timestamps and dates (UTC wall clock)
	isTS bool
	b    *bool
}

// timestampLayouts are the forms a timestamp literal may take.
var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
	time.RFC3339Nano,
}

// literalFor reads a condition's value as the column type t.
func literalFor(value string, t *types.DataType) (literal, error) {
	switch {
	case t.IsNumeric():
		return numberLiteral(value)
	case t.IsString():
		return stringLiteral(value), nil
	case t.Root == types.TimestampRoot || t.Root == types.TimestampLTZRoot || t.Root == types.DateRoot:
		return timeLiteral(value)
	case t.Root == types.Boolean:
		return boolLiteral(value)
	}
	return literal{}, fmt.Errorf("a condition compares numbers, strings, timestamps, dates or booleans, not %s", t.SQLString())
}

func numberLiteral(value string) (literal, error) {
	v := value
	if s, ok := unquote(value); ok {
		v = strings.TrimSpace(s)
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return literal{}, fmt.Errorf("%s is not a number", value)
	}
	return literal{num: r}, nil
}

func stringLiteral(value string) literal {
	s, ok := unquote(value)
	if !ok {
		s = value // a bare number compared with a string column reads as its text
	}
	return literal{str: &s}
}

func timeLiteral(value string) (literal, error) {
	s, ok := unquote(value)
	if !ok {
		return literal{}, fmt.Errorf("write a timestamp in single quotes, such as '2001-01-01 12:00:00', not %s", value)
	}
	s = strings.TrimSpace(s)
	for _, layout := range timestampLayouts {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return literal{ts: t.UTC(), isTS: true}, nil
		}
	}
	return literal{}, fmt.Errorf("%s is not a timestamp (write 'yyyy-MM-dd HH:mm:ss', optionally with a fraction, or 'yyyy-MM-dd')", value)
}

func boolLiteral(value string) (literal, error) {
	v := value
	if s, ok := unquote(value); ok {
		v = s
	}
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "TRUE":
		b := true
		return literal{b: &b}, nil
	case "FALSE":
		b := false
		return literal{b: &b}, nil
	}
	return literal{}, fmt.Errorf("%s is not TRUE or FALSE", value)
}

// ratOf returns a numeric Go value as an exact rational (nil for NaN,
// infinities and non-numbers).
func ratOf(v any) *big.Rat {
	switch x := v.(type) {
	case int8:
		return new(big.Rat).SetInt64(int64(x))
	case int16:
		return new(big.Rat).SetInt64(int64(x))
	case int32:
		return new(big.Rat).SetInt64(int64(x))
	case int64:
		return new(big.Rat).SetInt64(x)
	case int:
		return new(big.Rat).SetInt64(int64(x))
	case float32:
		return floatRat(float64(x))
	case float64:
		return floatRat(x)
	case types.Decimal:
		return x.Rat()
	}
	return nil
}

func floatRat(f float64) *big.Rat {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return new(big.Rat).SetFloat64(f)
}

// compareValue compares a row's value with the condition's value by op;
// NULL (nil) and values of another family never match, like SQL's
// comparisons with NULL. The literal is read by the value's Go type.
func compareValue(v any, op, value string) (bool, error) {
	if v == nil {
		return false, nil
	}
	var c int
	switch x := v.(type) {
	case string:
		lit := stringLiteral(value)
		c = strings.Compare(x, *lit.str)
	case time.Time:
		lit, err := timeLiteral(value)
		if err != nil {
			return false, err
		}
		c = x.UTC().Compare(lit.ts)
	case types.Date:
		lit, err := timeLiteral(value)
		if err != nil {
			return false, err
		}
		c = x.Time().Compare(lit.ts)
	case bool:
		lit, err := boolLiteral(value)
		if err != nil {
			return false, err
		}
		if op != "=" && op != "<>" {
			return false, fmt.Errorf("a boolean compares with = or <> only")
		}
		return (x == *lit.b) == (op == "="), nil
	default:
		r := ratOf(v)
		if r == nil {
			if _, isNum := v.(float64); isNum {
				return false, nil // NaN
			}
			if _, isNum := v.(float32); isNum {
				return false, nil
			}
			return false, fmt.Errorf("cannot compare a %T value", v)
		}
		lit, err := numberLiteral(value)
		if err != nil {
			return false, err
		}
		c = r.Cmp(lit.num)
	}
	switch op {
	case "=":
		return c == 0, nil
	case "<>":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	case ">=":
		return c >= 0, nil
	}
	return false, fmt.Errorf("unknown operator %q", op)
}
