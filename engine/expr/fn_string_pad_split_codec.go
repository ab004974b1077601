package expr

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/types"
)

// More string functions of Flink's system-function list (sql_functions.yml,
// "string" and "conditional" sections): POSITION, LOCATE, INSTR, OVERLAY,
// LPAD, RPAD, INITCAP, REPEAT, REPLACE, REVERSE, LEFT, RIGHT, ASCII, CHR,
// TO_BASE64, FROM_BASE64, CONCAT_WS, SPLIT_INDEX, SPLIT, STR_TO_MAP,
// TRANSLATE, STARTSWITH, ENDSWITH, BTRIM, two-argument LTRIM/RTRIM, ENCODE,
// DECODE, URL_ENCODE, URL_DECODE, PARSE_URL, ELT, JSON_QUOTE, JSON_UNQUOTE,
// IS_ALPHA, IS_DIGIT, IS_DECIMAL, UUID. Positions and lengths count
// characters (code points), not bytes; NULL arguments give NULL unless
// noted.

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
	registerRowFn(rowFn{name: "TO_BASE64", category: "String", args: []argKind{kStrOrBin},
		sig: "TO_BASE64(string) -> STRING, base64 of the UTF-8 bytes", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return base64.StdEncoding.EncodeToString([]byte(str(v[0]))), nil }})
	registerRowFn(rowFn{name: "FROM_BASE64", category: "String", args: []argKind{kStrOrBin},
		sig: "FROM_BASE64(string) -> STRING decoded from base64", ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			b, err := base64.StdEncoding.DecodeString(str(v[0]))
			if err != nil {
				return nil, &EvalError{Func: "FROM_BASE64", Msg: fmt.Sprintf("invalid base64 string '%s'", str(v[0]))}
			}
			return string(b), nil
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
	registerRowFn(rowFn{name: "SPLIT_INDEX", category: "String", args: []argKind{kString, kString, kInt},
		sig: "SPLIT_INDEX(string1, string2, integer) -> the integer-th (0-based) piece of string1 split by string2",
		ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			idx := intArg(v[2])
			if idx < 0 {
				return nil, nil
			}
			parts := javaSplit(v[0].(string), v[1].(string))
			if int(idx) >= len(parts) {
				return nil, nil
			}
			return parts[idx], nil
		}})
	fastPath("SPLIT_INDEX", splitIndexFast)
	registerRowFn(rowFn{name: "SPLIT", category: "Collection", args: []argKind{kString, kString},
		sig: "SPLIT(string, delimiter) -> ARRAY<STRING> of the pieces (every character when the delimiter is '')",
		ret: types.ArrayType(types.StringType()),
		eval: func(_ *Ctx, v []any) (any, error) {
			s, d := v[0].(string), v[1].(string)
			var parts []string
			if d == "" {
				for _, r := range s {
					parts = append(parts, string(r))
				}
			} else {
				parts = strings.Split(s, d)
			}
			out := make([]any, len(parts))
			for i, p := range parts {
				out[i] = p
			}
			return out, nil
		}})
	registerRowFn(rowFn{name: "STR_TO_MAP", category: "String", args: []argKind{kString, kString, kString}, min: 1, max: 3,
		sig: "STR_TO_MAP(string1[, string2, string3]) -> MAP<STRING, STRING> split on the regular expressions string2 (pairs, default ',') and string3 (key/value, default '=')",
		ret: types.MapType(types.StringType(), types.StringType()), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			pairSep, kvSep := ",", "="
			if len(v) == 3 {
				pairSep, kvSep = v[1].(string), v[2].(string)
			}
			return strToMap(v[0].(string), pairSep, kvSep)
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
	registerRowFn(rowFn{name: "ENCODE", category: "String", args: []argKind{kString, kString},
		sig:  "ENCODE(string1, string2) -> BYTES of string1 in charset string2 (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16)",
		ret:  types.BytesType(),
		eval: func(_ *Ctx, v []any) (any, error) { return encodeCharset(v[0].(string), v[1].(string)) }})
	registerRowFn(rowFn{name: "DECODE", category: "String", args: []argKind{kBinary, kString},
		sig:  "DECODE(binary, string) -> STRING decoded from charset string (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16)",
		ret:  stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return decodeCharset(v[0].([]byte), v[1].(string)) }})
	registerRowFn(rowFn{name: "URL_ENCODE", category: "String", args: []argKind{kString},
		sig: "URL_ENCODE(string) -> STRING in application/x-www-form-urlencoded form (UTF-8)", ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) { return javaURLEncode(v[0].(string)), nil }})
	registerRowFn(rowFn{name: "URL_DECODE", category: "String", args: []argKind{kString},
		sig: "URL_DECODE(string) -> STRING decoded from application/x-www-form-urlencoded form; NULL when malformed", ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			s, err := url.QueryUnescape(v[0].(string))
			if err != nil {
				return nil, nil
			}
			return s, nil
		}})
	registerRowFn(rowFn{name: "PARSE_URL", category: "String", args: []argKind{kString, kString, kString}, min: 2, max: 3,
		sig: "PARSE_URL(string1, string2[, string3]) -> STRING, the HOST, PATH, QUERY, REF, PROTOCOL, AUTHORITY, FILE or USERINFO part (or a QUERY parameter)",
		ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			key := ""
			if len(v) == 3 {
				key = v[2].(string)
			}
			return parseURL(v[0].(string), v[1].(string), key, len(v) == 3), nil
		}})
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
	registerRowFn(rowFn{name: "JSON_QUOTE", category: "String", args: []argKind{kString},
		sig: "JSON_QUOTE(string) -> STRING quoted as a JSON string value", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return jsonQuote(v[0].(string)), nil }})
	registerRowFn(rowFn{name: "JSON_UNQUOTE", category: "String", args: []argKind{kString},
		sig: "JSON_UNQUOTE(string) -> STRING unquoted from a JSON string value (unchanged when not one)", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return jsonUnquote(v[0].(string)), nil }})
	isFn := func(name, desc string, f func(string) bool) {
		registerRowFn(rowFn{name: name, category: "Conditional", args: []argKind{kString},
			sig: name + "(string) -> BOOLEAN NOT NULL, " + desc, ret: types.BooleanType().NotNull(), exactNull: true, nullSafe: true,
			eval: func(_ *Ctx, v []any) (any, error) {
				if v[0] == nil {
					return false, nil
				}
				return f(v[0].(string)), nil
			}})
	}
	isFn("IS_ALPHA", "whether every character is a letter", func(s string) bool {
		if s == "" {
			return false
		}
		for _, r := range s {
			if !unicode.IsLetter(r) {
				return false
			}
		}
		return true
	})
	isFn("IS_DIGIT", "whether every character is a digit", func(s string) bool {
		if s == "" {
			return false
		}
		for _, r := range s {
			if !unicode.IsDigit(r) {
				return false
			}
		}
		return true
	})
	isFn("IS_DECIMAL", "whether the string parses as a number", func(s string) bool {
		if s == "" {
			return false
		}
		_, err := strconv.ParseFloat(s, 64)
		if err != nil {
			var ne *strconv.NumError
			if ok := asNumErr(err, &ne); ok && ne.Err == strconv.ErrRange {
				return true
			}
			return false
		}
		low := strings.ToLower(s)
		return !strings.Contains(low, "inf") && !strings.Contains(low, "nan") && !strings.Contains(low, "x") && !strings.Contains(low, "_")
	})
	registerRowFn(rowFn{name: "UUID", category: "Arithmetic", nonDet: true,
		sig: "UUID() -> CHAR(36) NOT NULL, a random RFC 4122 version 4 UUID", ret: types.CharType(36).NotNull(), exactNull: true,
		eval: func(_ *Ctx, _ []any) (any, error) { return newUUID(), nil }})
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

// javaSplit splits like SqlFunctionUtils.splitByWholeSeparatorPreserveAllTokens:
// an empty separator splits on whitespace runs.
func javaSplit(s, sep string) []string {
	if s == "" {
		return nil
	}
	if sep == "" {
		return strings.Fields(s)
	}
	return strings.Split(s, sep)
}

func strToMap(s, pairSep, kvSep string) (any, error) {
	pr, err := compileJavaRegex(pairSep)
	if err != nil {
		return nil, nil
	}
	kr, err := compileJavaRegex(kvSep)
	if err != nil {
		return nil, nil
	}
	m := &types.Map{}
	for _, pair := range regexSplit(pr, s) {
		kv := regexSplitN(kr, pair, 2)
		var val any
		if len(kv) == 2 {
			val = kv[1]
		}
		if j := indexOfKey(m, kv[0]); j >= 0 {
			m.Values[j] = val
			continue
		}
		m.Keys = append(m.Keys, kv[0])
		m.Values = append(m.Values, val)
	}
	return m, nil
}

// regexSplit splits as Java's String.split(regex): trailing empty strings
// are removed.
func regexSplit(r *javaRegex, s string) []string {
	parts := regexSplitN(r, s, -1)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return []string{""}
	}
	return parts
}

func regexSplitN(r *javaRegex, s string, n int) []string {
	var out []string
	last := 0
	for _, m := range r.matches(s, -1) {
		if n > 0 && len(out) == n-1 {
			break
		}
		if m[1] == 0 && m[0] == 0 {
			continue // a zero-width match at the start yields no leading empty string
		}
		out = append(out, s[last:m[0]])
		last = m[1]
	}
	return append(out, s[last:])
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

func charsetName(cs string) string { return strings.ToUpper(strings.TrimSpace(cs)) }

func encodeCharset(s, cs string) (any, error) {
	switch charsetName(cs) {
	case "UTF-8", "UTF8":
		return []byte(s), nil
	case "US-ASCII", "ASCII":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 127 {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "ISO-8859-1", "LATIN1":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 255 {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "UTF-16BE", "UTF-16LE", "UTF-16":
		u := utf16.Encode([]rune(s))
		var out []byte
		le := charsetName(cs) == "UTF-16LE"
		if charsetName(cs) == "UTF-16" {
			out = append(out, 0xFE, 0xFF) // Java writes a big-endian BOM
		}
		for _, c := range u {
			if le {
				out = append(out, byte(c), byte(c>>8))
			} else {
				out = append(out, byte(c>>8), byte(c))
			}
		}
		return out, nil
	}
	return nil, &EvalError{Func: "ENCODE", Msg: fmt.Sprintf("unsupported charset '%s'", cs)}
}

func decodeCharset(b []byte, cs string) (any, error) {
	switch charsetName(cs) {
	case "UTF-8", "UTF8":
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	case "US-ASCII", "ASCII":
		var sb strings.Builder
		for _, c := range b {
			if c > 127 {
				sb.WriteRune('\uFFFD')
			} else {
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	case "ISO-8859-1", "LATIN1":
		var sb strings.Builder
		for _, c := range b {
			sb.WriteRune(rune(c))
		}
		return sb.String(), nil
	case "UTF-16BE", "UTF-16LE", "UTF-16":
		le := charsetName(cs) == "UTF-16LE"
		if charsetName(cs) == "UTF-16" && len(b) >= 2 {
			switch {
			case b[0] == 0xFE && b[1] == 0xFF:
				b = b[2:]
			case b[0] == 0xFF && b[1] == 0xFE:
				b, le = b[2:], true
			}
		}
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			if le {
				u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
			} else {
				u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
			}
		}
		return string(utf16.Decode(u)), nil
	}
	return nil, &EvalError{Func: "DECODE", Msg: fmt.Sprintf("unsupported charset '%s'", cs)}
}

// javaURLEncode follows java.net.URLEncoder with UTF-8: letters, digits and
// ".-*_" stay, space becomes '+', everything else %XX (upper-case hex).
func javaURLEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// parseURL follows Flink's PARSE_URL (java.net.URL parts).
func parseURL(raw, part, key string, withKey bool) any {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil
	}
	switch strings.ToUpper(part) {
	case "HOST":
		return nilIfEmpty(u.Hostname())
	case "PATH":
		return u.EscapedPath()
	case "QUERY":
		if withKey {
			for _, kv := range strings.Split(u.RawQuery, "&") {
				k, v, ok := strings.Cut(kv, "=")
				if ok && k == key {
					return v
				}
			}
			return nil
		}
		return nilIfEmpty(u.RawQuery)
	case "REF":
		return nilIfEmpty(u.EscapedFragment())
	case "PROTOCOL":
		return u.Scheme
	case "AUTHORITY":
		return nilIfEmpty(u.Host)
	case "FILE":
		if u.RawQuery != "" {
			return u.EscapedPath() + "?" + u.RawQuery
		}
		return u.EscapedPath()
	case "USERINFO":
		if u.User == nil {
			return nil
		}
		return u.User.String()
	}
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// jsonQuote quotes s as a JSON string the way Flink's JSON_QUOTE does:
// '"', '\\', '/' and control characters are escaped, non-ASCII as \uXXXX.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r > 0x7e {
				for _, u := range utf16.Encode([]rune{r}) {
					fmt.Fprintf(&b, `\u%04x`, u)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonUnquote reverses jsonQuote for a value that starts and ends with '"'
// and is a valid JSON string literal; anything else is returned unchanged.
func jsonUnquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	in := s[1 : len(s)-1]
	var pending []uint16
	flush := func() {
		if len(pending) > 0 {
			b.WriteString(string(utf16.Decode(pending)))
			pending = nil
		}
	}
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '"' {
			return s
		}
		if c != '\\' {
			flush()
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(in) {
			return s
		}
		switch in[i] {
		case '"', '\\', '/':
			flush()
			b.WriteByte(in[i])
		case 'b':
			flush()
			b.WriteByte('\b')
		case 'f':
			flush()
			b.WriteByte('\f')
		case 'n':
			flush()
			b.WriteByte('\n')
		case 'r':
			flush()
			b.WriteByte('\r')
		case 't':
			flush()
			b.WriteByte('\t')
		case 'u':
			if i+5 > len(in) {
				return s
			}
			v, err := strconv.ParseUint(in[i+1:i+5], 16, 16)
			if err != nil {
				return s
			}
			pending = append(pending, uint16(v))
			i += 4
		default:
			return s
		}
	}
	flush()
	return b.String()
}

func asNumErr(err error, target **strconv.NumError) bool {
	ne, ok := err.(*strconv.NumError)
	if ok {
		*target = ne
	}
	return ok
}

// newUUID returns a random version-4 UUID in lower-case 8-4-4-4-12 form.
func newUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
