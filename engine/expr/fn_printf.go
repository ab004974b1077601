package expr

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// PRINTF(format[, obj]*): a printf-style format string as Java's
// java.util.Formatter (Locale.US) reads it, which Flink uses. Supported:
// %[index$][flags][width][.precision]conversion with the conversions
// s S b B c d o x X e E f g G % n and the flags - + space 0 , ( #. A NULL
// object formats as "null"; a NULL or invalid format gives NULL.

func init() {
	registerRowFn(rowFn{name: "PRINTF", category: "String", args: []argKind{kString, kAny}, min: 1, max: -1,
		sig: "PRINTF(format[, obj]*) -> STRING formatted as java.util.Formatter does; NULL if format is NULL or invalid",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			return types.StringType().WithNullable(true), nil
		}, exactNull: true, nullSafe: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			s, ok := javaFormat(v[0].(string), v[1:])
			if !ok {
				return nil, nil
			}
			return s, nil
		}})
}

// javaFormat formats like String.format(Locale.US, f, args...); ok is false
// for an invalid format.
func javaFormat(f string, args []any) (string, bool) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		// argument index
		argIdx := -1
		k := j
		for k < len(f) && f[k] >= '0' && f[k] <= '9' {
			k++
		}
		if k < len(f) && f[k] == '$' && k > j {
			n, _ := strconv.Atoi(f[j:k])
			argIdx = n - 1
			j = k + 1
		}
		flags := ""
		for j < len(f) && strings.IndexByte("-#+ 0,(", f[j]) >= 0 {
			flags += string(f[j])
			j++
		}
		wstart := j
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		width := -1
		if j > wstart {
			width, _ = strconv.Atoi(f[wstart:j])
		}
		prec := -1
		if j < len(f) && f[j] == '.' {
			j++
			ps := j
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			if j == ps {
				return "", false
			}
			prec, _ = strconv.Atoi(f[ps:j])
		}
		if j >= len(f) {
			return "", false
		}
		conv := f[j]
		i = j
		if conv == '%' {
			b.WriteString(pad1("%", width, flags))
			continue
		}
		if conv == 'n' {
			b.WriteByte('\n')
			continue
		}
		var arg any
		idx := argIdx
		if idx < 0 {
			idx = next
			next++
		}
		if idx >= len(args) || idx < 0 {
			return "", false
		}
		arg = args[idx]
		s, ok := formatConv(conv, arg, flags, prec)
		if !ok {
			return "", false
		}
		b.WriteString(pad1(s, width, flags))
	}
	return b.String(), true
}

func pad1(s string, width int, flags string) string {
	n := len([]rune(s))
	if width <= n {
		return s
	}
	fill := strings.Repeat(" ", width-n)
	if strings.Contains(flags, "-") {
		return s + fill
	}
	if strings.Contains(flags, "0") && len(s) > 0 {
		sign := ""
		if s[0] == '-' || s[0] == '+' {
			sign, s = s[:1], s[1:]
		}
		return sign + strings.Repeat("0", width-n) + s
	}
	return fill + s
}

func formatConv(conv byte, arg any, flags string, prec int) (string, bool) {
	upper := conv >= 'A' && conv <= 'Z'
	lc := conv | 0x20
	var s string
	switch lc {
	case 's':
		if arg == nil {
			s = "null"
		} else {
			s = types.FormatValue(arg)
			if b, ok := arg.(bool); ok {
				s = strconv.FormatBool(b)
			}
		}
		if prec >= 0 && prec < len([]rune(s)) {
			s = string([]rune(s)[:prec])
		}
	case 'b':
		switch x := arg.(type) {
		case nil:
			s = "false"
		case bool:
			s = strconv.FormatBool(x)
		default:
			s = "true"
		}
	case 'c':
		switch x := arg.(type) {
		case nil:
			s = "null"
		case string:
			s = x
		default:
			i, ok := toInt64(arg)
			if !ok {
				return "", false
			}
			s = string(rune(i))
		}
	case 'd', 'o', 'x':
		if arg == nil {
			s = "null"
			break
		}
		var bi *big.Int
		switch x := arg.(type) {
		case types.Decimal:
			if x.Scale != 0 {
				return "", false
			}
			bi = x.Unscaled.BigInt()
		default:
			i, ok := toInt64(arg)
			if !ok {
				return "", false
			}
			if _, isBool := arg.(bool); isBool {
				return "", false
			}
			bi = big.NewInt(i)
		}
		switch lc {
		case 'd':
			s = bi.String()
			if strings.Contains(flags, ",") {
				s = groupThousands(s)
			}
			if strings.Contains(flags, "+") && bi.Sign() >= 0 {
				s = "+" + s
			} else if strings.Contains(flags, " ") && bi.Sign() >= 0 {
				s = " " + s
			}
			if strings.Contains(flags, "(") && bi.Sign() < 0 {
				s = "(" + strings.TrimPrefix(s, "-") + ")"
			}
		case 'o', 'x':
			base := 8
			if lc == 'x' {
				base = 16
			}
			if bi.Sign() < 0 {
				// two's complement of the Java type width (long)
				bi = new(big.Int).Add(bi, new(big.Int).Lsh(big.NewInt(1), 64))
			}
			s = bi.Text(base)
			if strings.Contains(flags, "#") {
				s = map[int]string{8: "0", 16: "0x"}[base] + s
			}
		}
	case 'e', 'f', 'g':
		if arg == nil {
			s = "null"
			break
		}
		fv, ok := toFloat(arg)
		if !ok {
			return "", false
		}
		if prec < 0 {
			prec = 6
		}
		switch lc {
		case 'e':
			s = strconv.FormatFloat(fv, 'e', prec, 64)
			// Java writes at least two exponent digits, as Go does
		case 'f':
			s = strconv.FormatFloat(fv, 'f', prec, 64)
			if strings.Contains(flags, ",") {
				intPart, frac, hasFrac := strings.Cut(s, ".")
				s = groupThousands(intPart)
				if hasFrac {
					s += "." + frac
				}
			}
		case 'g':
			if prec == 0 {
				prec = 1
			}
			s = fmt.Sprintf("%.*g", prec, fv)
		}
		if strings.Contains(flags, "+") && fv >= 0 {
			s = "+" + s
		}
	default:
		return "", false
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s, true
}

func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
