package expr

import (
	"strings"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/types"
)

// String functions of Flink's system-function list (sql_functions.yml,
// "string" section) that find, cut, pad, trim, replace and re-case:
// POSITION, LOCATE, INSTR, OVERLAY, LPAD, RPAD, INITCAP, REPEAT, REPLACE,
// REVERSE, LEFT, RIGHT, ASCII, CHR, CONCAT_WS, TRANSLATE, STARTSWITH,
// ENDSWITH, BTRIM, two-argument LTRIM/RTRIM, ELT. Positions and lengths
// count characters (code points), not bytes; NULL arguments give NULL
// unless noted.

var stringT = types.StringType()

func init() {
	registerRowFn(rowFn{name: "POSITION", category: "String", args: []argKind{kString, kString, kInt}, min: 2, max: 3,
		sig: "POSITION(string1 IN string2 [FROM integer]) -> INT, 1-based position of string1 in string2, 0 if absent",
		ret: types.IntType(),
		eval: func(_ *Ctx, v []any) (any, error) {
			from := int64(1)
			if len(v) == 3 {
				from = intArg(v[2])
			}
			return int32(locate(v[0].(string), v[1].(string), from)), nil
		}})
	registerRowFn(rowFn{name: "LOCATE", category: "String", args: []argKind{kString, kString, kInt}, min: 2, max: 3,
		sig: "LOCATE(string1, string2[, integer]) -> INT, position of string1 in string2 at or after position integer; 0 if not found",
		ret: types.IntType(),
		eval: func(_ *Ctx, v []any) (any, error) {
			from := int64(1)
			if len(v) == 3 {
				from = intArg(v[2])
			}
			return int32(locate(v[0].(string), v[1].(string), from)), nil
		}})
	registerRowFn(rowFn{name: "INSTR", category: "String", args: []argKind{kString, kString},
		sig:  "INSTR(string1, string2) -> INT, position of the first occurrence of string2 in string1",
		ret:  types.IntType(),
		eval: func(_ *Ctx, v []any) (any, error) { return int32(locate(v[1].(string), v[0].(string), 1)), nil }})
	registerRowFn(rowFn{name: "OVERLAY", category: "String", args: []argKind{kString, kString, kInt, kInt}, min: 3, max: 4,
		sig: "OVERLAY(string1 PLACING string2 FROM integer1 [FOR integer2]) -> STRING",
		ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) {
			s, r := []rune(v[0].(string)), []rune(v[1].(string))
			pos := int(intArg(v[2]))
			l := len(r)
			if len(v) == 4 {
				l = int(intArg(v[3]))
			}
			return overlay(s, r, pos, l), nil
		}})
	padFn := func(name string, left bool) {
		registerRowFn(rowFn{name: name, category: "String", args: []argKind{kString, kInt, kString},
			sig: name + "(string1, integer, string2) -> STRING padded with string2 to integer characters (shortened when longer)",
			ret: stringT, alwaysNull: true,
			eval: func(_ *Ctx, v []any) (any, error) {
				return pad(v[0].(string), int(intArg(v[1])), v[2].(string), left), nil
			}})
	}
	padFn("LPAD", true)
	padFn("RPAD", false)
	registerRowFn(rowFn{name: "INITCAP", category: "String", args: []argKind{kString},
		sig: "INITCAP(string) -> STRING with the first character of each word upper case and the rest lower case",
		ret: stringT, eval: func(_ *Ctx, v []any) (any, error) { return initCap(v[0].(string)), nil }})
	registerRowFn(rowFn{name: "REPEAT", category: "String", args: []argKind{kString, kInt},
		sig: "REPEAT(string, integer) -> STRING repeated integer times ('' when integer <= 0)",
		ret: stringT, eval: func(_ *Ctx, v []any) (any, error) {
			n := intArg(v[1])
			if n <= 0 {
				return "", nil
			}
			return strings.Repeat(v[0].(string), int(n)), nil
		}})
	registerRowFn(rowFn{name: "REPLACE", category: "String", args: []argKind{kString, kString, kString},
		sig: "REPLACE(string1, string2, string3) -> STRING with every occurrence of string2 replaced by string3",
		ret: stringT, eval: func(_ *Ctx, v []any) (any, error) {
			return strings.ReplaceAll(v[0].(string), v[1].(string), v[2].(string)), nil
		}})
	registerRowFn(rowFn{name: "REVERSE", category: "String", args: []argKind{kString},
		sig: "REVERSE(string) -> STRING reversed", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) {
			r := []rune(v[0].(string))
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return string(r), nil
		}})
	registerRowFn(rowFn{name: "LEFT", category: "String", args: []argKind{kString, kInt},
		sig: "LEFT(string, integer) -> the leftmost integer characters ('' when integer < 0)", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) {
			r := []rune(v[0].(string))
			n := int(intArg(v[1]))
			if n <= 0 {
				return "", nil
			}
			return string(r[:min(n, len(r))]), nil
		}})
	registerRowFn(rowFn{name: "RIGHT", category: "String", args: []argKind{kString, kInt},
		sig: "RIGHT(string, integer) -> the rightmost integer characters ('' when integer < 0)", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) {
			r := []rune(v[0].(string))
			n := int(intArg(v[1]))
			if n <= 0 {
				return "", nil
			}
			return string(r[max(0, len(r)-n):]), nil
		}})
	registerRowFn(rowFn{name: "ASCII", category: "String", args: []argKind{kString},
		sig: "ASCII(string) -> INT, the numeric value of the first character (0 for '')", ret: types.IntType(),
		eval: func(_ *Ctx, v []any) (any, error) {
			s := v[0].(string)
			if s == "" {
				return int32(0), nil
			}
			// Flink returns the first UTF-8 byte as a Java (signed) byte:
			// ASCII('ü') is -61 (0xC3), not 195 or 252
			return int32(int8(s[0])), nil
		}})
	registerRowFn(rowFn{name: "CHR", category: "String", args: []argKind{kLong},
		sig: "CHR(integer) -> STRING of the character with code integer modulo 256", ret: types.VarCharType(1),
		eval: func(_ *Ctx, v []any) (any, error) {
			n := intArg(v[0])
			if n < 0 {
				return "", nil
			}
			return string(rune(n % 256)), nil
		}})
	registerRowFn(rowFn{name: "CONCAT_WS", category: "String", args: []argKind{kString}, min: 1, max: -1,
		sig: "CONCAT_WS(separator, string1, string2, ...) -> STRING; NULL arguments after the separator are skipped",
		ret: stringT, nullSafe: true,
		retFn: func(c *InferCtx) (*types.DataType, error) {
			return stringT.WithNullable(c.Args[0].Nullable), nil
		}, exactNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			var parts []string
			for _, x := range v[1:] {
				if x != nil {
					parts = append(parts, x.(string))
				}
			}
			return strings.Join(parts, v[0].(string)), nil
		}})
	registerRowFn(rowFn{name: "TRANSLATE", category: "String", args: []argKind{kString, kString, kString},
		sig: "TRANSLATE(expr, fromStr, toStr) -> STRING with each character of fromStr replaced by the one at the same position of toStr (removed when toStr is shorter)",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			return stringT.WithNullable(c.Args[0].Nullable), nil
		}, exactNull: true, nullSafe: true,
		// StringFunctionsITCase: a NULL fromStr or toStr counts as ''
		eval: func(_ *Ctx, v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			from, _ := v[1].(string)
			to, _ := v[2].(string)
			return translate(v[0].(string), from, to), nil
		}})
	for _, name := range []string{"STARTSWITH", "ENDSWITH"} {
		prefix := name == "STARTSWITH"
		registerRowFn(rowFn{name: name, category: "String", args: []argKind{kStrOrBin, kStrOrBin},
			sig: name + "(expr, other) -> BOOLEAN; both strings or both binary",
			retFn: func(c *InferCtx) (*types.DataType, error) {
				a, b := c.Args[0], c.Args[1]
				if a.Root != types.Null && b.Root != types.Null && a.IsString() != b.IsString() {
					return nil, invalidArgs(c)
				}
				return types.BooleanType(), nil
			},
			eval: func(_ *Ctx, v []any) (any, error) {
				if prefix {
					return strings.HasPrefix(str(v[0]), str(v[1])), nil
				}
				return strings.HasSuffix(str(v[0]), str(v[1])), nil
			}})
	}
	trimFn := func(name string, left, right bool) {
		registerRowFn(rowFn{name: name, category: "String", args: []argKind{kString, kString}, min: 1, max: 2,
			sig: name + "(str[, trimStr]) -> STRING without the characters of trimStr (default ' ') at the " +
				map[bool]string{true: "start", false: "end"}[left && !right] + map[bool]string{true: " and end", false: ""}[left && right],
			retFn: func(c *InferCtx) (*types.DataType, error) {
				if c.Args[0].IsString() && len(c.Args) == 1 {
					return types.VarCharType(c.Args[0].Length), nil
				}
				return stringT, nil
			},
			eval: func(_ *Ctx, v []any) (any, error) {
				cut := " "
				if len(v) == 2 {
					cut = v[1].(string)
				}
				s := v[0].(string)
				if left {
					s = strings.TrimLeft(s, cut)
				}
				if right {
					s = strings.TrimRight(s, cut)
				}
				return s, nil
			}})
	}
	trimFn("LTRIM", true, false)
	trimFn("RTRIM", false, true)
	trimFn("BTRIM", true, true)
	registerRowFn(rowFn{name: "ELT", category: "String", args: []argKind{kLong, kStrOrBin}, min: 2, max: -1,
		sig: "ELT(index, expr[, exprs]*) -> the index-th (1-based) expression; NULL when out of range",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			// Flink's index argument strategy rejects a negative literal
			// index while planning; a negative value at run time is NULL
			if l := c.Literals[0]; l != nil && l.Value != nil {
				if v, ok := toInt64(l.Value); ok && v < 0 {
					return nil, typeErrorf("Index must be an integer starting from '0', but was '%d'.", v)
				}
			}
			ct := types.CommonType(c.Args[1:]...)
			if ct == nil {
				return nil, invalidArgs(c)
			}
			for i := 1; i < len(c.Args); i++ {
				c.CastArg(i, ct)
			}
			return ct.WithNullable(true), nil
		}, exactNull: true, nullSafe: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			i := intArg(v[0])
			if i < 1 || int(i) >= len(v) {
				// Flink's EltFunction (FLINK-35987): NULL, not an error
				return nil, nil
			}
			return v[i], nil
		}})
}

// locate finds needle in s at or after 1-based position from: the 1-based
// character position, or 0 (also for from < 1). An empty needle is found
// at from.
func locate(needle, s string, from int64) int {
	if from < 1 {
		return 0
	}
	r := []rune(s)
	if int(from) > len(r)+1 {
		return 0
	}
	rest := string(r[from-1:])
	i := strings.Index(rest, needle)
	if i < 0 {
		return 0
	}
	return int(from) + utf8.RuneCountInString(rest[:i])
}

// overlay replaces l characters of s starting at 1-based pos by r.
func overlay(s, r []rune, pos, l int) string {
	if pos < 1 {
		pos = 1
	}
	start := min(pos-1, len(s))
	end := min(max(start+l, start), len(s))
	out := append(append(append([]rune(nil), s[:start]...), r...), s[end:]...)
	return string(out)
}

// pad implements LPAD/RPAD (SqlFunctionUtils.lpad/rpad): NULL for a
// negative length or an empty pad, the string cut to length when longer.
func pad(s string, length int, p string, left bool) any {
	if length < 0 || p == "" {
		return nil
	}
	r := []rune(s)
	if length <= len(r) {
		return string(r[:length])
	}
	need := length - len(r)
	pr := []rune(p)
	fill := make([]rune, 0, need)
	for len(fill) < need {
		fill = append(fill, pr[len(fill)%len(pr)])
	}
	if left {
		return string(fill) + s
	}
	return s + string(fill)
}

// initCap upper-cases the first letter of each word and lower-cases the
// rest; words are runs of letters and digits.
func initCap(s string) string {
	// Flink's INITCAP is Calcite's SqlFunctions.initcap: only ASCII
	// letters and digits form words; they are cased (first upper, the rest
	// lower) and every other character, non-ASCII letters included, is
	// kept as is and separates words ("élan" -> "éLan").
	b := []byte(s)
	start := true
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			start = false
		case c >= 'A' && c <= 'Z':
			if !start {
				b[i] = c + 32
			}
			start = false
		case c >= 'a' && c <= 'z':
			if start {
				b[i] = c - 32
			}
			start = false
		default:
			start = true
		}
	}
	return string(b)
}

func translate(s, from, to string) string {
	fr, tr := []rune(from), []rune(to)
	m := map[rune]int{}
	for i, r := range fr {
		if _, ok := m[r]; !ok {
			m[r] = i
		}
	}
	var b strings.Builder
	for _, r := range s {
		i, ok := m[r]
		switch {
		case !ok:
			b.WriteRune(r)
		case i < len(tr):
			b.WriteRune(tr[i])
		}
	}
	return b.String()
}
