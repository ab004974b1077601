package expr

import (
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/types"
)

// Value to text, in the two forms Flink has (flink-table-planner,
// functions/casting):
//
//   - CAST(x AS STRING): the cast rules. BINARY/VARBINARY/BYTES decode as
//     UTF-8 and fail on malformed input (BinaryToStringCastRule, strict
//     since FLINK-39623).
//   - display: what the SQL Client, tableau printing and the workbench grid
//     show (RowDataToStringConverterImpl runs the same cast rules with the
//     "printing" flag set). It differs from CAST only for binary strings,
//     which print as x'hex'.
//
// Both share every other rule, which this file implements once:
//
//	BOOLEAN           TRUE / FALSE                         (BooleanToStringCastRule)
//	TINYINT..BIGINT   -12345678
//	FLOAT, DOUBLE     Java's Float/Double.toString: 123.4, 1.0E10, NaN, -Infinity
//	DECIMAL(p, s)     exactly s fractional digits, never exponent form: 9.870
//	DATE              2021-09-24
//	TIME(p)           12:34:56.123: the milliseconds, at most p digits, stopping
//	                  after the last non-zero one (DateTimeUtils.unixTimeToString)
//	TIMESTAMP(p)      2021-09-24 12:34:56.123456000 for p = 9: exactly p digits
//	TIMESTAMP_LTZ(p)  the same, as wall-clock time in the session time zone
//	INTERVAL          +10-03 (YEAR TO MONTH), +1 10:17:36.789 (DAY TO SECOND)
//	ARRAY             [NULL, 456]
//	MAP, MULTISET     {a=-10-03, NULL=NULL}, {a=1, b=1}
//	ROW               (123, abc), (NULL, abc)
//
// Nested NULLs print as NULL (Flink's PrintStyle.NULL_VALUE). Expected
// strings are those of Flink's CastRulesTest "testCastTo(STRING())" cases.

// NullText is how NULL is rendered, top-level and nested.
const NullText = "NULL"

// FormatSQL renders a value as Flink displays it (the SQL Client's tableau
// and table views, RowDataToStringConverterImpl): CAST(value AS STRING)
// except that binary strings show as x'hex'. zone is the session time zone
// for TIMESTAMP_LTZ (nil = UTC). NULL renders as "NULL"; display layers
// that show NULL differently check for nil first.
func FormatSQL(v any, t *types.DataType, zone *time.Location) string {
	return string(AppendSQL(nil, v, t, zone))
}

// AppendSQL appends the display text of v (see FormatSQL) to dst.
func AppendSQL(dst []byte, v any, t *types.DataType, zone *time.Location) []byte {
	out, err := appendText(dst, v, t, zone, true)
	if err != nil {
		return append(dst, types.FormatValue(v)...)
	}
	return out
}

// CastToString renders a value as CAST(value AS STRING) does. It fails only
// for binary strings that are not valid UTF-8.
func CastToString(v any, t *types.DataType, zone *time.Location) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	b, err := appendText(nil, v, t, zone, false)
	return string(b), err
}

var errBadUTF8 = errors.New("invalid UTF-8")

func appendText(dst []byte, v any, t *types.DataType, zone *time.Location, printing bool) ([]byte, error) {
	if v == nil {
		return append(dst, NullText...), nil
	}
	if zone == nil {
		zone = time.UTC
	}
	switch x := v.(type) {
	case string:
		return append(dst, x...), nil
	case bool:
		if x {
			return append(dst, "TRUE"...), nil
		}
		return append(dst, "FALSE"...), nil
	case int8:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int32:
		if t != nil && t.Root == types.IntervalYearMonthRoot {
			return append(dst, types.FormatIntervalMonths(x)...), nil
		}
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case float32:
		if t != nil && t.Root == types.Double {
			return append(dst, types.FormatDoubleJava(float64(x))...), nil
		}
		return append(dst, types.FormatFloatJava(x)...), nil
	case float64:
		if t != nil && t.Root == types.Float {
			return append(dst, types.FormatFloatJava(float32(x))...), nil
		}
		return append(dst, types.FormatDoubleJava(x)...), nil
	case types.Decimal:
		return AppendDecimal(dst, x, t), nil
	case []byte:
		if printing {
			return AppendBinaryLiteral(dst, x), nil
		}
		if !utf8.Valid(x) {
			return dst, fmt.Errorf("%w in binary string x'%x'", errBadUTF8, x)
		}
		return append(dst, x...), nil
	case types.Date:
		return append(dst, types.FormatDate(int32(x))...), nil
	case types.LocalTime:
		p := 0
		if t != nil {
			p = t.Precision
		}
		return AppendTime(dst, int64(x), p), nil
	case time.Time:
		p := 6
		if t != nil {
			p = t.Precision
			if t.Root == types.TimestampLTZRoot {
				x = x.In(zone)
			} else {
				x = x.UTC()
			}
		} else {
			x = x.UTC()
		}
		return AppendTimestamp(dst, x, p), nil
	case types.Variant:
		return append(dst, x.String()...), nil
	case types.Months:
		return append(dst, types.FormatIntervalMonths(int32(x))...), nil
	case time.Duration:
		return append(dst, types.FormatIntervalMillis(x)...), nil
	case []any:
		var et *types.DataType
		if t != nil {
			et = t.Elem
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			var err error
			if dst, err = appendText(dst, e, et, zone, printing); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *types.Map:
		var kt, vt *types.DataType
		if t != nil {
			kt, vt = t.Key, t.Value
			if t.Root == types.MultisetRoot {
				kt, vt = t.Elem, types.IntType()
			}
		}
		dst = append(dst, '{')
		for i := range x.Keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			var err error
			if dst, err = appendText(dst, x.Keys[i], kt, zone, printing); err != nil {
				return dst, err
			}
			dst = append(dst, '=')
			if dst, err = appendText(dst, x.Values[i], vt, zone, printing); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case *types.Row:
		dst = append(dst, '(')
		for i, fv := range x.Values {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			var ft *types.DataType
			if t != nil && i < len(t.Fields) {
				ft = t.Fields[i].Type
			}
			var err error
			if dst, err = appendText(dst, fv, ft, zone, printing); err != nil {
				return dst, err
			}
		}
		return append(dst, ')'), nil
	}
	// a type without a cast rule (RAW): Java's toString, as Flink's
	// fallback in RowDataToStringConverterImpl does
	return append(dst, types.FormatValue(v)...), nil
}

// AppendDecimal writes the exact digits of d at the scale of type t (when t
// is a DECIMAL), as DecimalData.toString (BigDecimal.toPlainString) does.
func AppendDecimal(dst []byte, d types.Decimal, t *types.DataType) []byte {
	if t != nil && t.Root == types.DecimalRoot && d.Scale != int32(t.Scale) {
		if r, err := d.Rescale(int32(t.Scale), 0); err == nil {
			d = r
		}
	}
	return append(dst, d.String()...)
}

// AppendBinaryLiteral writes b as Flink prints binary strings: x'0aff'.
func AppendBinaryLiteral(dst []byte, b []byte) []byte {
	const hexdigits = "0123456789abcdef"
	dst = append(dst, 'x', '\'')
	for _, c := range b {
		dst = append(dst, hexdigits[c>>4], hexdigits[c&15])
	}
	return append(dst, '\'')
}

// AppendTime writes a time of day as Flink's DateTimeUtils.unixTimeToString
// does: TIME keeps milliseconds; with precision > 0 a '.' follows and then
// up to precision of the three millisecond digits, stopping after the first
// digit that leaves a zero remainder ("12:34:56.1", "12:34:56.123",
// "12:34:56.0" for a whole second).
func AppendTime(dst []byte, nanosOfDay int64, precision int) []byte {
	const day = 24 * 3600 * 1e9
	for nanosOfDay < 0 {
		nanosOfDay += day
	}
	ms := nanosOfDay / 1e6
	dst = append2(dst, int(ms/3_600_000))
	dst = append(dst, ':')
	dst = append2(dst, int(ms/60_000%60))
	dst = append(dst, ':')
	dst = append2(dst, int(ms/1000%60))
	if precision > 0 {
		dst = append(dst, '.')
		frac := int(ms % 1000)
		for ; precision > 0; precision-- {
			dst = append(dst, byte('0'+frac/100))
			frac = frac % 100 * 10
			if frac == 0 {
				break
			}
		}
	}
	return dst
}

// AppendTimestamp writes "yyyy-MM-dd HH:mm:ss" and exactly precision
// fractional digits of t's wall clock (TimestampToStringCastRule;
// CastRulesTest: TIMESTAMP(9) .123456 → ".123456000", TIMESTAMP(3) .1 →
// ".100"). Years outside 0..9999 carry a sign, as java.time prints them.
func AppendTimestamp(dst []byte, t time.Time, precision int) []byte {
	y := t.Year()
	if y < 0 || y > 9999 {
		return append(dst, types.FormatTimestampSQL(t, precision)...)
	}
	dst = append4(dst, y)
	dst = append(dst, '-')
	dst = append2(dst, int(t.Month()))
	dst = append(dst, '-')
	dst = append2(dst, t.Day())
	dst = append(dst, ' ')
	dst = append2(dst, t.Hour())
	dst = append(dst, ':')
	dst = append2(dst, t.Minute())
	dst = append(dst, ':')
	dst = append2(dst, t.Second())
	if precision > 0 {
		if precision > 9 {
			precision = 9
		}
		dst = append(dst, '.')
		n := t.Nanosecond()
		div := 100_000_000
		for i := 0; i < precision; i++ {
			dst = append(dst, byte('0'+n/div%10))
			div /= 10
		}
	}
	return dst
}

func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10%10), byte('0'+v%10))
}

func append4(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/1000%10), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}
