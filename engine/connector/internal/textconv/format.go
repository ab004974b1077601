package textconv

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// AppendDate appends "yyyy-MM-dd" (ISO_LOCAL_DATE; years beyond 9999 get a
// '+', negative years a '-').
func AppendDate(dst []byte, days int64) []byte {
	y, m, d := CivilFromDays(days)
	switch {
	case y > 9999:
		dst = append(dst, '+')
		dst = strconv.AppendInt(dst, y, 10)
	case y < 0:
		dst = append(dst, '-')
		ay := -y
		if ay < 1000 {
			dst = append(dst, "000"[:4-len(strconv.FormatInt(ay, 10))]...)
		}
		dst = strconv.AppendInt(dst, ay, 10)
	default:
		dst = append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
	}
	dst = append(dst, '-')
	dst = append2(dst, m)
	dst = append(dst, '-')
	return append2(dst, d)
}

// AppendTime appends "HH:mm:ss" and, when the nanoseconds are not zero,
// '.' and the fraction without trailing zeros (Flink's SQL_TIME_FORMAT,
// appendFraction(NANO_OF_SECOND, 0, 9, true)).
func AppendTime(dst []byte, nanosOfDay int64) []byte {
	secs := nanosOfDay / 1e9
	n := nanosOfDay % 1e9
	dst = append2(dst, int(secs/3600))
	dst = append(dst, ':')
	dst = append2(dst, int(secs/60%60))
	dst = append(dst, ':')
	dst = append2(dst, int(secs%60))
	if n != 0 {
		var f [9]byte
		for i := 8; i >= 0; i-- {
			f[i] = byte('0' + n%10)
			n /= 10
		}
		k := 9
		for k > 0 && f[k-1] == '0' {
			k--
		}
		dst = append(dst, '.')
		dst = append(dst, f[:k]...)
	}
	return dst
}

// AppendTimestamp appends "yyyy-MM-dd<sep>HH:mm:ss[.fraction]" for a
// wall-clock value given as seconds and nanoseconds since the epoch (read
// as UTC). Flink's SQL standard uses sep ' ', ISO-8601 'T'.
func AppendTimestamp(dst []byte, sec int64, nanos int64, sep byte) []byte {
	days := floorDiv(sec, 86400)
	sod := sec - days*86400
	dst = AppendDate(dst, days)
	dst = append(dst, sep)
	return AppendTime(dst, sod*1e9+nanos)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// SplitUnits splits an epoch count in units per second into seconds and
// nanoseconds (floor division, nanos in [0, 1e9)).
func SplitUnits(v int64, unitsPerSecond int64) (sec int64, nanos int64) {
	sec = floorDiv(v, unitsPerSecond)
	rem := v - sec*unitsPerSecond
	return sec, rem * (1e9 / unitsPerSecond)
}

// AppendDoubleJava appends f as Java's Double.toString (bits 64) or
// Float.toString (bits 32) does: "1.0", "0.001", "1.0E7", "1.0E-4", "NaN",
// "Infinity".
func AppendDoubleJava(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'f', -1, bits)
		for _, c := range dst[start:] {
			if c == '.' {
				return dst
			}
		}
		return append(dst, ".0"...)
	}
	var tmp [32]byte
	s := strconv.AppendFloat(tmp[:0], f, 'e', -1, bits)
	// s is like "-1.2345e+07" or "1e-05".
	e := 0
	for e < len(s) && s[e] != 'e' {
		e++
	}
	mant := s[:e]
	dst = append(dst, mant...)
	hasDot := false
	for _, c := range mant {
		if c == '.' {
			hasDot = true
		}
	}
	if !hasDot {
		dst = append(dst, ".0"...)
	}
	dst = append(dst, 'E')
	exp, _ := strconv.Atoi(string(s[e+1:]))
	return strconv.AppendInt(dst, int64(exp), 10)
}

// AppendDecimal appends an unscaled decimal at scale as Java's BigDecimal
// would print it. stripZeros first removes trailing fractional zeros (and
// zeros of integers, making the scale negative) as stripTrailingZeros
// does. plain selects toPlainString; otherwise toString, which uses
// scientific notation when the scale is negative or the adjusted exponent
// is below -6 ("1E+5", "1.5E-7").
func AppendDecimal(dst []byte, n decimal128.Num, scale int32, stripZeros, plain bool) []byte {
	var digits []byte
	neg := n.Sign() < 0
	hi, lo := n.HighBits(), int64(n.LowBits())
	if (hi == 0 && lo >= 0) || (hi == -1 && lo < 0) {
		// Fits in an int64.
		var tmp [24]byte
		if lo < 0 {
			digits = strconv.AppendUint(tmp[:0], uint64(-lo), 10)
		} else {
			digits = strconv.AppendUint(tmp[:0], uint64(lo), 10)
		}
	} else {
		b := n.BigInt()
		b.Abs(b)
		digits = b.Append(nil, 10)
	}
	sc := int(scale)
	if stripZeros {
		if len(digits) == 1 && digits[0] == '0' {
			sc = 0
		} else {
			for len(digits) > 1 && digits[len(digits)-1] == '0' {
				digits = digits[:len(digits)-1]
				sc--
			}
		}
	}
	if neg {
		dst = append(dst, '-')
	}
	adjusted := -sc + (len(digits) - 1)
	if plain || (sc >= 0 && adjusted >= -6) {
		switch {
		case sc <= 0:
			dst = append(dst, digits...)
			for i := 0; i < -sc; i++ {
				dst = append(dst, '0')
			}
		case len(digits) > sc:
			dst = append(dst, digits[:len(digits)-sc]...)
			dst = append(dst, '.')
			dst = append(dst, digits[len(digits)-sc:]...)
		default:
			dst = append(dst, '0', '.')
			for i := len(digits); i < sc; i++ {
				dst = append(dst, '0')
			}
			dst = append(dst, digits...)
		}
		return dst
	}
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'E')
	if adjusted > 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(adjusted), 10)
}
