// Package textconv parses and formats SQL values as text the way Flink's
// text formats (csv, json) do: Java's Integer.parseInt / Double.parseDouble
// / BigDecimal rules for numbers, java.time's ISO and SQL patterns for
// dates and times, Java's toString for DOUBLE and DECIMAL output.
//
// Every function works on byte slices and appends to byte slices so the
// hot paths of decoders and encoders do not allocate.
package textconv

import (
	"math"
	"math/big"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// unsafeString views b as a string without copying; the string must not
// outlive b's contents.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// TrimJava removes leading and trailing bytes <= ' ' (Java's String.trim).
func TrimJava(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && b[i] <= ' ' {
		i++
	}
	for j > i && b[j-1] <= ' ' {
		j--
	}
	return b[i:j]
}

// ParseInt parses a decimal integer as Java's Long.parseLong does after
// String.trim: an optional '+' or '-' and ASCII digits, within bits
// (8, 16, 32 or 64) of two's complement range.
func ParseInt(b []byte, bits int) (int64, bool) {
	if len(b) > 0 && (b[0] <= ' ' || b[len(b)-1] <= ' ') {
		b = TrimJava(b)
	}
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg = true
		b = b[1:]
	case '+':
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		if len(b) > 19 {
			// Leading zeros may make a long literal still valid.
			for len(b) > 19 && b[0] == '0' {
				b = b[1:]
			}
			if len(b) > 19 {
				return 0, false
			}
		} else {
			return 0, false
		}
	}
	var u uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		u = u*10 + uint64(d)
	}
	limit := uint64(1) << (bits - 1)
	if neg {
		if u > limit {
			return 0, false
		}
		return -int64(u), true
	}
	if u >= limit {
		return 0, false
	}
	return int64(u), true
}

// ParseFloat parses a floating point number as Java's Double.parseDouble
// does after trimming: decimal or hexadecimal notation, an optional type
// suffix f/F/d/D, "NaN" and "Infinity" with an optional sign.
func ParseFloat(b []byte, bits int) (float64, bool) {
	b = TrimJava(b)
	if len(b) == 0 {
		return 0, false
	}
	if c := b[len(b)-1]; c == 'd' || c == 'D' || c == 'f' || c == 'F' {
		if !(len(b) > 2 && (b[1] == 'x' || b[1] == 'X' || (len(b) > 3 && (b[2] == 'x' || b[2] == 'X')))) {
			b = b[:len(b)-1]
		}
	}
	body := b
	if len(body) > 0 && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch unsafeString(body) {
	case "NaN":
		if len(body) != len(b) {
			return 0, false
		}
		return math.NaN(), true
	case "Infinity":
		if len(b) > 0 && b[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	for _, c := range body {
		switch {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-',
			c == 'x', c == 'X', c == 'p', c == 'P', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(unsafeString(b), bits)
	if err != nil {
		// Java rounds overflow to Infinity instead of failing.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// ParseBool accepts "true" and "false" in any letter case after trimming.
// (Java's Boolean.parseBoolean maps every other text to false; Riffle
// rejects it instead of producing a silently wrong value.)
func ParseBool(b []byte) (bool, bool) {
	b = TrimJava(b)
	switch len(b) {
	case 4:
		if (b[0]|0x20) == 't' && (b[1]|0x20) == 'r' && (b[2]|0x20) == 'u' && (b[3]|0x20) == 'e' {
			return true, true
		}
	case 5:
		if (b[0]|0x20) == 'f' && (b[1]|0x20) == 'a' && (b[2]|0x20) == 'l' && (b[3]|0x20) == 's' && (b[4]|0x20) == 'e' {
			return false, true
		}
	}
	return false, false
}

// DaysFromCivil returns the days since 1970-01-01 of a proleptic Gregorian
// date (month 1..12).
func DaysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := int64((153*mp+2)/5 + d - 1)
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays is the inverse of DaysFromCivil.
func CivilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// DaysIn returns the number of days of a month.
func DaysIn(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func digit(c byte) (int, bool) {
	d := int(c) - '0'
	return d, d >= 0 && d <= 9
}

func num2(b []byte) (int, bool) {
	a, ok1 := digit(b[0])
	c, ok2 := digit(b[1])
	return a*10 + c, ok1 && ok2
}

// parseISODate parses ISO_LOCAL_DATE at the start of b: a 4-digit year (or
// a signed year of more digits), 2-digit month and day. It returns the
// days since epoch and the number of bytes used.
func parseISODate(b []byte, lenient bool) (int64, int, bool) {
	i := 0
	neg := false
	signed := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		signed = true
		i = 1
	}
	start := i
	var y int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 10 {
		y = y*10 + int64(b[i]-'0')
		i++
	}
	nd := i - start
	if nd < 4 || (nd > 4 && !signed) || (lenient && nd != 4) {
		return 0, 0, false
	}
	if neg {
		y = -y
	}
	if i >= len(b) || b[i] != '-' {
		return 0, 0, false
	}
	i++
	m, n, ok := field12(b[i:], lenient)
	if !ok {
		return 0, 0, false
	}
	i += n
	if i >= len(b) || b[i] != '-' {
		return 0, 0, false
	}
	i++
	d, n, ok := field12(b[i:], lenient)
	if !ok {
		return 0, 0, false
	}
	i += n
	if m < 1 || m > 12 || d < 1 || d > DaysIn(y, m) {
		return 0, 0, false
	}
	return DaysFromCivil(y, m, d), i, true
}

// field12 reads a two-digit number, or (lenient) a one- or two-digit one.
func field12(b []byte, lenient bool) (int, int, bool) {
	if len(b) >= 2 {
		if v, ok := num2(b); ok {
			return v, 2, true
		}
	}
	if lenient && len(b) >= 1 {
		if v, ok := digit(b[0]); ok && (len(b) == 1 || b[1] < '0' || b[1] > '9') {
			return v, 1, true
		}
	}
	return 0, 0, false
}

// ParseDateISO parses "yyyy-MM-dd" (java.time ISO_LOCAL_DATE, as Flink's
// json format does) into days since 1970-01-01.
func ParseDateISO(b []byte) (int32, bool) {
	d, n, ok := parseISODate(b, false)
	if !ok || n != len(b) || d < math.MinInt32 || d > math.MaxInt32 {
		return 0, false
	}
	return int32(d), true
}

// ParseDateSQL parses "yyyy-[m]m-[d]d" (java.sql.Date.valueOf, as Flink's
// csv format does) into days since 1970-01-01. Unlike Java, an impossible
// day such as 2023-02-30 is rejected rather than rolled into March.
func ParseDateSQL(b []byte) (int32, bool) {
	d, n, ok := parseISODate(b, true)
	if !ok || n != len(b) {
		return 0, false
	}
	return int32(d), true
}

// parseTime parses HH:mm[:ss[.f{1,9}]] at the start of b (seconds are
// required unless secondsOptional). It returns nanoseconds of the day and
// the bytes used.
func parseTime(b []byte, secondsOptional bool) (int64, int, bool) {
	if len(b) < 5 || b[2] != ':' {
		return 0, 0, false
	}
	h, ok1 := num2(b)
	mi, ok2 := num2(b[3:])
	if !ok1 || !ok2 || h > 23 || mi > 59 {
		return 0, 0, false
	}
	nanos := (int64(h)*60 + int64(mi)) * 60 * 1e9
	i := 5
	if len(b) < 8 || b[5] != ':' {
		if !secondsOptional {
			return 0, 0, false
		}
		return nanos, i, true
	}
	s, ok := num2(b[6:])
	if !ok || s > 59 {
		return 0, 0, false
	}
	nanos += int64(s) * 1e9
	i = 8
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		var f int64
		for i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 9 {
			f = f*10 + int64(b[i]-'0')
			i++
		}
		n := i - start
		if n == 0 {
			return 0, 0, false
		}
		for k := n; k < 9; k++ {
			f *= 10
		}
		nanos += f
	}
	return nanos, i, true
}

// ParseTime parses a time of day "HH:mm:ss[.fffffffff]" (with
// secondsOptional, also "HH:mm": java.time's ISO_LOCAL_TIME) into
// nanoseconds since midnight.
func ParseTime(b []byte, secondsOptional bool) (int64, bool) {
	n, used, ok := parseTime(b, secondsOptional)
	return n, ok && used == len(b)
}

// ParseTimestamp parses "yyyy-MM-dd<sep>HH:mm:ss[.fffffffff]" followed by
// a literal 'Z' when zSuffix, into seconds and nanoseconds since the epoch
// of the wall-clock value read as UTC. Flink's SQL standard uses sep ' '
// with seconds required; ISO-8601 uses 'T' with seconds optional.
func ParseTimestamp(b []byte, sep byte, zSuffix, secondsOptional bool) (int64, int32, bool) {
	// Fast path: exactly "yyyy-MM-dd HH:mm:ss", optionally followed by
	// '.' and 1 to 9 fraction digits (what the json format's writers,
	// Riffle's and Flink's, write for a TIMESTAMP(3)).
	if len(b) >= 19 && !zSuffix && b[4] == '-' && b[7] == '-' && b[10] == sep && b[13] == ':' && b[16] == ':' &&
		(len(b) == 19 || (b[19] == '.' && len(b) >= 21 && len(b) <= 29)) {
		d0, d1, d2, d3 := b[0]-'0', b[1]-'0', b[2]-'0', b[3]-'0'
		m0, m1, a0, a1 := b[5]-'0', b[6]-'0', b[8]-'0', b[9]-'0'
		h0, h1, i0, i1, s0, s1 := b[11]-'0', b[12]-'0', b[14]-'0', b[15]-'0', b[17]-'0', b[18]-'0'
		if (d0|d1|d2|d3|m0|m1|a0|a1|h0|h1|i0|i1|s0|s1)&0xF0 == 0 && d0 <= 9 && d1 <= 9 && d2 <= 9 && d3 <= 9 &&
			m1 <= 9 && a1 <= 9 && h1 <= 9 && i1 <= 9 && s1 <= 9 {
			y := int64(d0)*1000 + int64(d1)*100 + int64(d2)*10 + int64(d3)
			m := int(m0)*10 + int(m1)
			d := int(a0)*10 + int(a1)
			h := int(h0)*10 + int(h1)
			mi := int(i0)*10 + int(i1)
			sec := int(s0)*10 + int(s1)
			if !(m >= 1 && m <= 12 && d >= 1 && d <= DaysIn(y, m) && h <= 23 && mi <= 59 && sec <= 59) {
				return 0, 0, false
			}
			var frac int64
			if len(b) > 19 {
				for _, c := range b[20:] {
					if c < '0' || c > '9' {
						return 0, 0, false
					}
					frac = frac*10 + int64(c-'0')
				}
				frac *= pow10[29-len(b)]
			}
			return DaysFromCivil(y, m, d)*86400 + int64(h*3600+mi*60+sec), int32(frac), true
		}
	}
	days, n, ok := parseISODate(b, false)
	if !ok || n >= len(b) || b[n] != sep {
		return 0, 0, false
	}
	nanos, used, ok := parseTime(b[n+1:], secondsOptional)
	if !ok {
		return 0, 0, false
	}
	rest := b[n+1+used:]
	if zSuffix {
		if len(rest) != 1 || rest[0] != 'Z' {
			return 0, 0, false
		}
	} else if len(rest) != 0 {
		return 0, 0, false
	}
	return days*86400 + nanos/1e9, int32(nanos % 1e9), true
}

// EpochUnits is sec*units + fracNanos/(1e9/units), the count of units
// (1, 1e3, 1e6 or 1e9 per second) since the epoch that an Arrow timestamp
// column holds; ok is false when it does not fit in an int64 (a
// TIMESTAMP(7..9) before 1677-09-21 or after 2262-04-11). fracNanos is
// 0..999999999.
func EpochUnits(sec, fracNanos, units int64) (v int64, ok bool) {
	frac := fracNanos / (1_000_000_000 / units)
	if sec > (math.MaxInt64-frac)/units || sec < math.MinInt64/units {
		return 0, false
	}
	return sec*units + frac, true
}

// TruncNanos drops fractional digits beyond precision p (0..9).
func TruncNanos(nanos int64, p int) int64 {
	if p >= 9 {
		return nanos
	}
	m := pow10[9-p]
	return nanos - nanos%m
}

var pow10 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	10000000000, 100000000000, 1000000000000, 10000000000000, 100000000000000,
	1000000000000000, 10000000000000000, 100000000000000000, 1000000000000000000}

// Pow10 returns 10^n for 0 <= n <= 18.
func Pow10(n int) int64 { return pow10[n] }

// DecimalError explains why a decimal did not parse.
type DecimalError string

// Error returns the reason.
func (e DecimalError) Error() string { return string(e) }

// ParseDecimal parses a number in Java's BigDecimal syntax (optional sign,
// digits with an optional '.', optional exponent e/E) and returns its
// unscaled value at scale, rounding HALF_UP, checking that it fits
// precision digits. Overflow is an error (Flink's DecimalData.fromBigDecimal
// would yield NULL).
func ParseDecimal(b []byte, precision, scale int) (decimal128.Num, error) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd := 0      // significant digits kept in mant
	frac := 0    // digits after '.'
	big := false // mant overflowed
	sawDigit, sawDot := false, false
	startDigits := i
	for ; i < len(b); i++ {
		c := b[i]
		if c >= '0' && c <= '9' {
			sawDigit = true
			if sawDot {
				frac++
			}
			if nd < 18 {
				if mant != 0 || c != '0' {
					nd++
				}
				mant = mant*10 + uint64(c-'0')
			} else {
				big = true
			}
			continue
		}
		if c == '.' && !sawDot {
			sawDot = true
			continue
		}
		break
	}
	if !sawDigit {
		return decimal128.Num{}, DecimalError("not a number")
	}
	digitsEnd := i
	exp := 0
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		es := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if exp > 100000 {
				return decimal128.Num{}, DecimalError("exponent out of range")
			}
			exp = exp*10 + int(b[i]-'0')
			i++
		}
		if i == es {
			return decimal128.Num{}, DecimalError("not a number")
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(b) {
		return decimal128.Num{}, DecimalError("not a number")
	}
	if big {
		return parseDecimalBig(b[startDigits:digitsEnd], neg, exp, precision, scale)
	}
	// value = mant × 10^(exp-frac); unscaled at scale = mant × 10^(scale+exp-frac)
	shift := scale + exp - frac
	var u uint64
	switch {
	case shift >= 0:
		if shift > 18 || (mant != 0 && mant > math.MaxUint64/uint64(pow10[shift])) {
			return parseDecimalBig(b[startDigits:digitsEnd], neg, exp, precision, scale)
		}
		u = mant * uint64(pow10[shift])
	default:
		if -shift > 18 {
			u = 0 // rounds to zero: mant < 10^18 < 10^-shift / 2
		} else {
			d := uint64(pow10[-shift])
			q, r := mant/d, mant%d
			if r*2 >= d {
				q++
			}
			u = q
		}
	}
	if (precision <= 18 && u >= uint64(pow10[precision])) || (precision == 19 && u >= 10_000_000_000_000_000_000) {
		return decimal128.Num{}, DecimalError("out of range")
	}
	n := decimal128.FromU64(u)
	if neg {
		n = n.Negate()
	}
	return n, nil
}

// parseDecimalBig handles numbers with more than 18 significant digits.
func parseDecimalBig(digits []byte, neg bool, exp, precision, scale int) (decimal128.Num, error) {
	intPart := make([]byte, 0, len(digits))
	frac := 0
	seenDot := false
	for _, c := range digits {
		if c == '.' {
			seenDot = true
			continue
		}
		if seenDot {
			frac++
		}
		intPart = append(intPart, c)
	}
	v, ok := new(big.Int).SetString(string(intPart), 10)
	if !ok {
		return decimal128.Num{}, DecimalError("not a number")
	}
	shift := scale + exp - frac
	ten := big.NewInt(10)
	if shift >= 0 {
		if shift > 80 {
			if v.Sign() != 0 {
				return decimal128.Num{}, DecimalError("out of range")
			}
		} else {
			v.Mul(v, new(big.Int).Exp(ten, big.NewInt(int64(shift)), nil))
		}
	} else {
		if -shift > 200 {
			v.SetInt64(0)
		} else {
			d := new(big.Int).Exp(ten, big.NewInt(int64(-shift)), nil)
			q, r := new(big.Int).QuoRem(v, d, new(big.Int))
			if r.Mul(r, big.NewInt(2)).Cmp(d) >= 0 {
				q.Add(q, big.NewInt(1))
			}
			v = q
		}
	}
	limit := new(big.Int).Exp(ten, big.NewInt(int64(precision)), nil)
	if v.Cmp(limit) >= 0 {
		return decimal128.Num{}, DecimalError("out of range")
	}
	if neg {
		v.Neg(v)
	}
	return decimal128.FromBigInt(v), nil
}
