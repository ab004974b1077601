package types

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Go values of each logical type, as found in Row.Values, literals and the
// arguments and results of scalar functions. nil is SQL NULL everywhere.
//
//	BOOLEAN                 bool
//	TINYINT .. BIGINT       int8, int16, int32, int64
//	FLOAT, DOUBLE           float32, float64
//	DECIMAL(p, s)           Decimal
//	CHAR, VARCHAR, STRING   string
//	BINARY, VARBINARY       []byte
//	DATE                    Date (days since 1970-01-01)
//	TIME(p)                 LocalTime (nanoseconds since midnight)
//	TIMESTAMP(p)            time.Time in UTC holding the wall-clock value
//	TIMESTAMP_LTZ(p)        time.Time (an instant; shown in the session zone)
//	INTERVAL YEAR TO MONTH  Months (number of months)
//	INTERVAL DAY TO SECOND  time.Duration
//	ARRAY<T>                []any
//	MULTISET<T>             *Map (element -> INT count)
//	MAP<K, V>               *Map (ordered entries)
//	ROW<...>                *Row
//	VARIANT                 Variant (see variant.go)

// Decimal is an exact decimal number: Unscaled × 10^-Scale, with at most 38
// digits (Flink's DecimalData). The precision is the column type's.
type Decimal struct {
	Unscaled decimal128.Num
	Scale    int32
}

// ParseDecimal parses a decimal literal such as "-12.340" or "1e3" keeping
// all its digits. The scale is the number of fractional digits written.
func ParseDecimal(s string) (Decimal, error) {
	s = strings.TrimSpace(s)
	r, ok := new(big.Rat).SetString(s)
	if !ok || s == "" {
		return Decimal{}, fmt.Errorf("invalid decimal %q", s)
	}
	scale := int32(0)
	mant := s
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		exp, err := strconv.Atoi(mant[i+1:])
		if err != nil {
			return Decimal{}, fmt.Errorf("invalid decimal %q", s)
		}
		mant = mant[:i]
		if j := strings.IndexByte(mant, '.'); j >= 0 {
			scale = int32(len(mant) - j - 1)
		}
		scale -= int32(exp)
		if scale < 0 {
			scale = 0
		}
	} else if j := strings.IndexByte(mant, '.'); j >= 0 {
		scale = int32(len(mant) - j - 1)
	}
	return DecimalFromRat(r, scale)
}

// MustDecimal is ParseDecimal that panics on error (for literals in code).
func MustDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

// DecimalFromRat rounds r (HALF_UP, as Java's BigDecimal in Flink) to the
// given scale. It fails when the result needs more than 38 digits.
func DecimalFromRat(r *big.Rat, scale int32) (Decimal, error) {
	num := new(big.Int).Mul(r.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	q, rem := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	// HALF_UP: round away from zero when |rem|*2 >= denom.
	rem.Abs(rem).Mul(rem, big.NewInt(2))
	if rem.Cmp(r.Denom()) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return DecimalFromBig(q, scale)
}

var maxDecimal38 = new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))

// DecimalFromBig builds a decimal from an unscaled big integer.
func DecimalFromBig(unscaled *big.Int, scale int32) (Decimal, error) {
	if new(big.Int).Abs(unscaled).Cmp(maxDecimal38) > 0 {
		return Decimal{}, fmt.Errorf("decimal overflow: %s digits exceed precision 38", unscaled.String())
	}
	return Decimal{Unscaled: decimal128.FromBigInt(unscaled), Scale: scale}, nil
}

// DecimalFromInt64 builds v × 10^-scale.
func DecimalFromInt64(v int64, scale int32) Decimal {
	return Decimal{Unscaled: decimal128.FromI64(v), Scale: scale}
}

// Rat returns the exact value as a rational number.
func (d Decimal) Rat() *big.Rat {
	return new(big.Rat).SetFrac(d.Unscaled.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil))
}

// Float64 converts to the nearest float64 (correctly rounded, as Java's
// BigDecimal.doubleValue): 41.979595 becomes the same float64 as the
// literal 41.979595E0, so a DOUBLE column compares equal to the decimal
// text it was read from.
func (d Decimal) Float64() float64 {
	if d.Unscaled.HighBits() == 0 || d.Unscaled.HighBits() == -1 {
		// |unscaled| < 2^53 and 10^scale <= 10^22 are exact float64s, so
		// one division is correctly rounded.
		u := int64(d.Unscaled.LowBits())
		if u > -1<<53 && u < 1<<53 && ((d.Unscaled.HighBits() == 0) == (u >= 0)) && d.Scale >= 0 && d.Scale <= 22 {
			return float64(u) / exactPow10[d.Scale]
		}
	}
	f, err := strconv.ParseFloat(d.Unscaled.ToString(d.Scale), 64)
	if err != nil {
		return d.Unscaled.ToFloat64(d.Scale)
	}
	return f
}

var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Rescale returns the value at another scale, rounding HALF_UP when the
// scale shrinks. It fails when the result does not fit precision digits.
func (d Decimal) Rescale(scale int32, precision int32) (Decimal, error) {
	var out Decimal
	if scale == d.Scale {
		out = d
	} else if scale > d.Scale {
		out = Decimal{Unscaled: d.Unscaled.IncreaseScaleBy(scale - d.Scale), Scale: scale}
		if d.Unscaled.Sign() != 0 && out.Unscaled.Abs().Cmp(d.Unscaled.Abs()) < 0 {
			return Decimal{}, fmt.Errorf("decimal overflow")
		}
	} else {
		out = Decimal{Unscaled: d.Unscaled.ReduceScaleBy(d.Scale-scale, true), Scale: scale}
	}
	if precision > 0 && !out.Unscaled.FitsInPrecision(precision) {
		return Decimal{}, fmt.Errorf("decimal %s does not fit DECIMAL(%d, %d)", d.String(), precision, scale)
	}
	return out, nil
}

// Cmp compares two decimals numerically (scales may differ).
func (d Decimal) Cmp(o Decimal) int {
	if d.Scale == o.Scale {
		return d.Unscaled.Cmp(o.Unscaled)
	}
	return d.Rat().Cmp(o.Rat())
}

// String renders the plain digits with exactly Scale fractional digits
// (Java's BigDecimal.toPlainString), e.g. "-0.50".
func (d Decimal) String() string { return d.Unscaled.ToString(d.Scale) }

// Date is a calendar date as days since 1970-01-01 (Flink's internal DATE).
type Date int32

// DateOf returns the Date of a calendar day.
func DateOf(year int, month time.Month, day int) Date {
	return Date(time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// Time returns midnight of the date in UTC.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String renders "yyyy-MM-dd".
func (d Date) String() string { return FormatDate(int32(d)) }

// LocalTime is a time of day as nanoseconds since midnight (TIME(p)).
type LocalTime int64

// TimeOf builds a LocalTime.
func TimeOf(h, m, s, nanos int) LocalTime {
	return LocalTime(((int64(h)*60+int64(m))*60+int64(s))*1e9 + int64(nanos))
}

// String renders "HH:mm:ss[.fff]" as Java's LocalTime.toString does.
func (t LocalTime) String() string { return FormatTimeJava(int64(t)) }

// Months is an INTERVAL YEAR TO MONTH value: a number of months.
type Months int32

// String renders Flink's SQL form, e.g. "+1-02".
func (m Months) String() string { return FormatIntervalMonths(int32(m)) }

// Map is a MAP or MULTISET value: entries in insertion order.
type Map struct {
	Keys   []any
	Values []any
}

// Len is the number of entries.
func (m *Map) Len() int { return len(m.Keys) }

// Get looks up a key by value equality.
func (m *Map) Get(k any) (any, bool) {
	for i, key := range m.Keys {
		if ValuesEqual(key, k) {
			return m.Values[i], true
		}
	}
	return nil, false
}

// ValuesEqual compares two Go values of the same logical type (nil equals nil).
func ValuesEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case Decimal:
		y, ok := b.(Decimal)
		return ok && x.Cmp(y) == 0
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || (math.IsNaN(x) && math.IsNaN(y)))
	case float32:
		y, ok := b.(float32)
		return ok && (x == y || (x != x && y != y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !ValuesEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Map:
		y, ok := b.(*Map)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i, k := range x.Keys {
			v, found := y.Get(k)
			if !found || !ValuesEqual(x.Values[i], v) {
				return false
			}
		}
		return true
	case *Row:
		y, ok := b.(*Row)
		return ok && x.Equal(y)
	}
	return a == b
}

// FormatValue renders a value as Java's toString does inside Flink's
// Row.toString (LocalDateTime as "2024-01-31T12:00", null as "null").
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int8, int16, int32, int64, int:
		return fmt.Sprint(x)
	case float64:
		return FormatDoubleJava(x)
	case float32:
		return FormatFloatJava(x)
	case Decimal:
		return x.JavaString()
	case []byte:
		// Arrays.toString of Java's signed bytes: "[1, -2]".
		var b strings.Builder
		b.WriteByte('[')
		for i, c := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(int(int8(c))))
		}
		b.WriteByte(']')
		return b.String()
	case time.Time:
		return formatLocalDateTimeJava(x)
	case Date:
		return x.String()
	case LocalTime:
		return x.String()
	case time.Duration:
		return FormatDurationJava(x)
	case Months:
		return FormatPeriodJava(int32(x))
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *Map:
		parts := make([]string, len(x.Keys))
		for i := range x.Keys {
			parts[i] = FormatValue(x.Keys[i]) + "=" + FormatValue(x.Values[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *Row:
		return x.String()
	case Variant:
		return x.String()
	}
	return fmt.Sprint(v)
}

// FormatValueAs renders a value of logical type t as Java's toString does
// inside Flink's Row.toString (the print connector's output). Unlike
// FormatValue it knows the type, so TIMESTAMP_LTZ values print as a
// java.time.Instant ("2024-01-31T12:00:00Z") and TIMESTAMP values as a
// LocalDateTime ("2024-01-31T12:00").
func FormatValueAs(v any, t *DataType) string {
	if v == nil || t == nil {
		return FormatValue(v)
	}
	switch t.Root {
	case TimestampLTZRoot:
		if x, ok := v.(time.Time); ok {
			return formatInstantJava(x)
		}
	case ArrayRoot:
		if x, ok := v.([]any); ok {
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = FormatValueAs(e, t.Elem)
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
	case MapRoot, MultisetRoot:
		if x, ok := v.(*Map); ok {
			kt, vt := t.Key, t.Value
			if t.Root == MultisetRoot {
				kt, vt = t.Elem, IntType()
			}
			parts := make([]string, len(x.Keys))
			for i := range x.Keys {
				parts[i] = FormatValueAs(x.Keys[i], kt) + "=" + FormatValueAs(x.Values[i], vt)
			}
			return "{" + strings.Join(parts, ", ") + "}"
		}
	case RowRoot:
		if x, ok := v.(*Row); ok {
			var b strings.Builder
			b.WriteString(x.Kind.ShortString())
			b.WriteByte('[')
			for i, fv := range x.Values {
				if i > 0 {
					b.WriteString(", ")
				}
				var ft *DataType
				if i < len(t.Fields) {
					ft = t.Fields[i].Type
				}
				b.WriteString(FormatValueAs(fv, ft))
			}
			b.WriteByte(']')
			return b.String()
		}
	}
	return FormatValue(v)
}

// formatInstantJava mirrors java.time.Instant.toString (ISO_INSTANT):
// seconds always, the fraction in groups of three digits, then 'Z'.
func formatInstantJava(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	if n := t.Nanosecond(); n != 0 {
		switch {
		case n%1_000_000 == 0:
			s += fmt.Sprintf(".%03d", n/1_000_000)
		case n%1000 == 0:
			s += fmt.Sprintf(".%06d", n/1000)
		default:
			s += fmt.Sprintf(".%09d", n)
		}
	}
	return s + "Z"
}

// FormatDurationJava mirrors java.time.Duration.toString: "PT0S", "PT1H30M",
// "PT0.001S", "PT-1H-30M", "PT48H".
func FormatDurationJava(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	total := int64(d)
	secs := total / 1e9
	nanos := total % 1e9
	if nanos < 0 {
		nanos += 1e9
		secs--
	}
	hours := secs / 3600
	minutes := secs % 3600 / 60
	s := secs % 60
	var b strings.Builder
	b.WriteString("PT")
	if hours != 0 {
		b.WriteString(strconv.FormatInt(hours, 10) + "H")
	}
	if minutes != 0 {
		b.WriteString(strconv.FormatInt(minutes, 10) + "M")
	}
	if s == 0 && nanos == 0 && b.Len() > 2 {
		return b.String()
	}
	if s < 0 && nanos > 0 {
		if s == -1 {
			b.WriteString("-0")
		} else {
			b.WriteString(strconv.FormatInt(s+1, 10))
		}
	} else {
		b.WriteString(strconv.FormatInt(s, 10))
	}
	if nanos > 0 {
		frac := nanos
		if s < 0 {
			frac = 1e9 - nanos
		}
		f := fmt.Sprintf("%09d", frac)
		b.WriteString("." + strings.TrimRight(f, "0"))
	}
	b.WriteByte('S')
	return b.String()
}

// FormatPeriodJava mirrors java.time.Period.toString for a number of
// months: "P1Y2M", "P-1Y-2M", "P0D".
func FormatPeriodJava(months int32) string {
	if months == 0 {
		return "P0D"
	}
	y, m := months/12, months%12
	s := "P"
	if y != 0 {
		s += strconv.Itoa(int(y)) + "Y"
	}
	if m != 0 {
		s += strconv.Itoa(int(m)) + "M"
	}
	return s
}

// JavaString renders the decimal as Java's BigDecimal.toString does:
// plain digits, or scientific notation when the adjusted exponent is
// below -6 ("1E-7", "1.5E-8").
func (d Decimal) JavaString() string {
	plain := d.String()
	if d.Scale <= 0 {
		return plain
	}
	neg := strings.HasPrefix(plain, "-")
	digits := strings.TrimLeft(strings.Replace(strings.TrimPrefix(plain, "-"), ".", "", 1), "0")
	if digits == "" {
		return plain
	}
	adjusted := -int(d.Scale) + len(digits) - 1
	if adjusted >= -6 {
		return plain
	}
	out := digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	out += "E" + strconv.Itoa(adjusted)
	if neg {
		out = "-" + out
	}
	return out
}

// formatLocalDateTimeJava mirrors java.time.LocalDateTime.toString:
// "2024-01-31T12:00", "2024-01-31T12:00:01", "2024-01-31T12:00:00.123".
func formatLocalDateTimeJava(t time.Time) string {
	t = t.UTC()
	date := t.Format("2006-01-02")
	secs := int64(t.Hour()*3600+t.Minute()*60+t.Second())*1e9 + int64(t.Nanosecond())
	return date + "T" + FormatTimeJava(secs)
}

// FormatTimeJava mirrors java.time.LocalTime.toString: "HH:mm", then ":ss"
// when seconds or nanos are non-zero, then ".SSS", ".SSSSSS" or ".SSSSSSSSS".
func FormatTimeJava(nanosOfDay int64) string {
	h := nanosOfDay / 3_600_000_000_000
	m := nanosOfDay / 60_000_000_000 % 60
	s := nanosOfDay / 1e9 % 60
	n := nanosOfDay % 1e9
	out := fmt.Sprintf("%02d:%02d", h, m)
	if s > 0 || n > 0 {
		out += fmt.Sprintf(":%02d", s)
		if n > 0 {
			switch {
			case n%1_000_000 == 0:
				out += fmt.Sprintf(".%03d", n/1_000_000)
			case n%1000 == 0:
				out += fmt.Sprintf(".%06d", n/1000)
			default:
				out += fmt.Sprintf(".%09d", n)
			}
		}
	}
	return out
}

// FormatDoubleJava mirrors Java's Double.toString: "1.0", "0.1", "1.0E10",
// "1.23E-5", "NaN", "Infinity". Flink uses it to cast DOUBLE to STRING.
func FormatDoubleJava(f float64) string { return formatJavaFloat(f, 64) }

// FormatFloatJava mirrors Java's Float.toString.
func FormatFloatJava(f float32) string { return formatJavaFloat(float64(f), 32) }

func formatJavaFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	// Scientific: shortest digits, Java style "d.dddE±n" (no '+').
	s := strconv.FormatFloat(f, 'e', -1, bits)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
