package results

import (
	"encoding/hex"
	"strconv"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// NullText is how a NULL value is displayed (Flink's PrintStyle.NULL_VALUE
// and the "NULL" inside ARRAY/MAP/ROW casts). The grid shows top-level
// NULLs distinctly; Snapshot reports them as flags, never as this text.
const NullText = "NULL"

// Formatter renders values as Flink renders them for display: the SQL
// Client converts every column with the CAST(... AS STRING) rules in their
// non-legacy form (RowDataToStringConverterImpl in flink-table-planner,
// package functions.casting; table.exec.legacy-cast-behaviour is disabled by
// default since Flink 1.15). Expected strings were checked against Flink's
// CastRulesTest ("testCastTo(STRING())" cases):
//
//	BOOLEAN           TRUE / FALSE                      (BooleanToStringCastRule)
//	TINYINT..BIGINT   -12345678
//	FLOAT, DOUBLE     Java's Float/Double.toString: 123.4, 1.0E10
//	DECIMAL(4, 3)     9.870: exactly the type's scale, never exponent form
//	BINARY, BYTES     lower-case hex: 00fffe            (BinaryToStringCastRule)
//	DATE              2021-09-24
//	TIME(p)           12:34:56.123: Flink keeps milliseconds and stops at the
//	                  last non-zero digit, at most p digits (DateTimeUtils.unixTimeToString)
//	TIMESTAMP(p)      2021-09-24 12:34:56.123456000 for p=9: exactly p digits
//	TIMESTAMP_LTZ(p)  the same, in the session time zone (Location)
//	INTERVAL          +10-03 (YEAR TO MONTH), +1 10:17:36.789 (DAY TO SECOND)
//	ARRAY             [NULL, 456]
//	MAP, MULTISET     {NULL=-10-03, b=NULL}, {a=1, b=1}
//	ROW               (123, abc), (NULL, abc)
//
// Nested NULLs print as NULL. Numbers never get digit grouping.
type Formatter struct {
	// Location is the session time zone for TIMESTAMP_LTZ (Flink's
	// table.local-time-zone); nil means UTC.
	Location *time.Location
}

// Format renders v of type t with TIMESTAMP_LTZ in UTC; see Formatter.
// A nil v renders as "NULL".
func Format(v any, t *types.DataType) string { return Formatter{}.Format(v, t) }

// Format renders v of type t; see Formatter. A nil v renders as "NULL".
func (f Formatter) Format(v any, t *types.DataType) string {
	return string(f.AppendFormat(nil, v, t))
}

func (f Formatter) loc() *time.Location {
	if f.Location == nil {
		return time.UTC
	}
	return f.Location
}

// AppendFormat appends the display text of v to dst.
func (f Formatter) AppendFormat(dst []byte, v any, t *types.DataType) []byte {
	if v == nil {
		return append(dst, NullText...)
	}
	if t == nil {
		return append(dst, types.FormatValue(v)...)
	}
	switch t.Root {
	case types.Boolean:
		if b, ok := v.(bool); ok {
			return appendBool(dst, b)
		}
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		if i, ok := asInt64(v); ok {
			return strconv.AppendInt(dst, i, 10)
		}
	case types.Float:
		switch x := v.(type) {
		case float32:
			return append(dst, types.FormatFloatJava(x)...)
		case float64:
			return append(dst, types.FormatFloatJava(float32(x))...)
		}
	case types.Double:
		switch x := v.(type) {
		case float64:
			return append(dst, types.FormatDoubleJava(x)...)
		case float32:
			return append(dst, types.FormatDoubleJava(float64(x))...)
		}
	case types.DecimalRoot:
		if d, ok := v.(types.Decimal); ok {
			return appendDecimal(dst, d, t)
		}
	case types.Char, types.VarChar:
		if s, ok := v.(string); ok {
			return append(dst, s...)
		}
	case types.Binary, types.VarBinary:
		if b, ok := v.([]byte); ok {
			return hex.AppendEncode(dst, b)
		}
	case types.DateRoot:
		switch d := v.(type) {
		case types.Date:
			return append(dst, types.FormatDate(int32(d))...)
		case time.Time:
			return append(dst, d.Format("2006-01-02")...)
		}
	case types.TimeRoot:
		if lt, ok := v.(types.LocalTime); ok {
			return appendTime(dst, int64(lt), t.Precision)
		}
	case types.TimestampRoot:
		if ts, ok := v.(time.Time); ok {
			return appendTimestamp(dst, ts.UTC(), t.Precision)
		}
	case types.TimestampLTZRoot:
		if ts, ok := v.(time.Time); ok {
			return appendTimestamp(dst, ts.In(f.loc()), t.Precision)
		}
	case types.IntervalYearMonthRoot:
		switch m := v.(type) {
		case types.Months:
			return append(dst, types.FormatIntervalMonths(int32(m))...)
		case int32:
			return append(dst, types.FormatIntervalMonths(m)...)
		}
	case types.IntervalDayTimeRoot:
		if d, ok := v.(time.Duration); ok {
			return append(dst, types.FormatIntervalMillis(d)...)
		}
	case types.ArrayRoot:
		if a, ok := v.([]any); ok {
			dst = append(dst, '[')
			for i, e := range a {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				dst = f.AppendFormat(dst, e, t.Elem)
			}
			return append(dst, ']')
		}
	case types.MapRoot, types.MultisetRoot:
		if m, ok := v.(*types.Map); ok {
			kt, vt := t.Key, t.Value
			if t.Root == types.MultisetRoot {
				kt, vt = t.Elem, types.IntType()
			}
			dst = append(dst, '{')
			for i := range m.Keys {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				dst = f.AppendFormat(dst, m.Keys[i], kt)
				dst = append(dst, '=')
				dst = f.AppendFormat(dst, m.Values[i], vt)
			}
			return append(dst, '}')
		}
	case types.RowRoot:
		if r, ok := v.(*types.Row); ok {
			dst = append(dst, '(')
			for i, fv := range r.Values {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				var ft *types.DataType
				if i < len(t.Fields) {
					ft = t.Fields[i].Type
				}
				dst = f.AppendFormat(dst, fv, ft)
			}
			return append(dst, ')')
		}
	}
	// A value that does not match its declared type, or a type without a
	// cast rule (RAW, SYMBOL): Java's toString, as Flink's fallback does.
	return append(dst, types.FormatValue(v)...)
}

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "TRUE"...)
	}
	return append(dst, "FALSE"...)
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}

// appendDecimal writes the exact digits at the column's scale (Flink's
// DecimalData.toString is BigDecimal.toPlainString at the type's scale).
func appendDecimal(dst []byte, d types.Decimal, t *types.DataType) []byte {
	if t.Precision > 0 && d.Scale != int32(t.Scale) {
		if r, err := d.Rescale(int32(t.Scale), 0); err == nil {
			d = r
		}
	}
	return append(dst, d.String()...)
}

// appendTime follows Flink's DateTimeUtils.unixTimeToString: TIME holds
// milliseconds; with p > 0 a '.' follows and then up to p of the three
// millisecond digits, stopping after the last non-zero one (at least one).
func appendTime(dst []byte, nanosOfDay int64, precision int) []byte {
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

// appendTimestamp writes "yyyy-MM-dd HH:mm:ss" and exactly precision
// fractional digits (Flink's TimestampToStringCastRule; CastRulesTest:
// TIMESTAMP(9) .123456 -> ".123456000", TIMESTAMP(3) .1 -> ".100").
func appendTimestamp(dst []byte, t time.Time, precision int) []byte {
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
