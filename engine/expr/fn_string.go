package expr

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// String functions: UPPER, LOWER, TRIM/LTRIM/RTRIM, SUBSTRING,
// CONCAT and ||, CHAR_LENGTH, LIKE / NOT LIKE.

// stringArgs checks that the listed arguments are character strings (or
// NULL literals) and asks for VARCHAR casts where needed.
func stringArgs(c *InferCtx, idx ...int) error {
	for _, i := range idx {
		t := c.Args[i]
		if !t.IsString() && t.Root != types.Null {
			return invalidArgs(c)
		}
	}
	return nil
}

func registerStringMap(name, sig string, f func(string) string) {
	Builtins.Register(&Function{Name: name, Category: "String", MinArgs: 1, MaxArgs: 1,
		Signatures: []string{sig},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := stringArgs(c, 0); err != nil {
				return nil, err
			}
			t := c.Args[0]
			if t.Root == types.Null {
				return types.StringType(), nil
			}
			return types.VarCharType(t.Length).WithNullable(t.Nullable), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			if name == "LOWER" || name == "UPPER" {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return mapCase(a[0], n, ret, name == "UPPER", f), nil }, nil
			}
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return mapString(a[0], n, ret, f), nil }, nil
		}})
}

// mapCase is mapString for LOWER (upper false) and UPPER: an ASCII string
// is converted byte by byte into a reused buffer (no allocation per row);
// others go through f.
func mapCase(a *Vec, n int, out *types.DataType, upper bool, f func(string) string) *Vec {
	if a.Const {
		return mapString(a, n, out, f)
	}
	from, to := byte('A'), byte('Z')
	if upper {
		from, to = 'a', 'z'
	}
	s := strOf(a)
	sb := vector.NewStringBuilder(n, 16)
	var buf []byte
	for i := 0; i < n; i++ {
		if a.Arr.IsNull(i) {
			sb.AppendNull()
			continue
		}
		v := s.at(i)
		ascii, change := true, false
		for j := 0; j < len(v); j++ {
			c := v[j]
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
			if c >= from && c <= to {
				change = true
			}
		}
		switch {
		case !ascii:
			sb.AppendString(f(v))
		case !change:
			sb.AppendString(v)
		default:
			buf = append(buf[:0], v...)
			for j, c := range buf {
				if c >= from && c <= to {
					buf[j] = c ^ 0x20
				}
			}
			sb.AppendBytes(buf)
		}
	}
	return ArrVec(sb.Finish(false), out)
}

// javaUpper and javaLower case a string as Java's String.toUpperCase and
// toLowerCase do for Flink's UPPER and LOWER: with the full Unicode
// mappings, where one character may become several ("straße" -> "STRASSE")
// and a final capital sigma lowers to 'ς' ("ΣΑΣ" -> "σας"); Go's
// strings.ToUpper and ToLower map rune by rune. ASCII strings take the
// fast path of mapCase and never get here in a column.
func javaUpper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	return cases.Upper(language.Und).String(s)
}

func javaLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return cases.Lower(language.Und).String(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func init() {
	registerStringMap("UPPER", "UPPER(string) -> STRING", javaUpper)
	registerStringMap("LOWER", "LOWER(string) -> STRING", javaLower)
	registerStringMap("LTRIM", "LTRIM(string) -> STRING, removes leading spaces", func(s string) string { return strings.TrimLeft(s, " ") })
	registerStringMap("RTRIM", "RTRIM(string) -> STRING, removes trailing spaces", func(s string) string { return strings.TrimRight(s, " ") })

	// TRIM(flag, chars, string): flag is BOTH, LEADING or TRAILING.
	Builtins.Register(&Function{Name: "TRIM", Category: "String", MinArgs: 1, MaxArgs: 3,
		Signatures: []string{"TRIM([ BOTH | LEADING | TRAILING ] [string1] FROM string2) -> STRING"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			s := len(c.Args) - 1
			if err := stringArgs(c, s); err != nil {
				return nil, err
			}
			if len(c.Args) == 3 {
				if err := stringArgs(c, 1); err != nil {
					return nil, err
				}
			}
			return types.StringType().WithNullable(anyNullable(c.Args)), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				flag, chars, src := "BOTH", " ", a[len(a)-1]
				if len(a) == 3 {
					flag, _ = a[0].Val.(string)
					if !a[1].Const {
						return rowWise(a, n, ret, false, func(v []any) (any, error) {
							return trim(v[0].(string), v[1].(string), v[2].(string)), nil
						})
					}
					if a[1].Val == nil {
						return ConstVec(nil, ret), nil
					}
					chars = a[1].Val.(string)
				}
				return mapString(src, n, ret, func(s string) string { return trim(flag, chars, s) }), nil
			}, nil
		}})

	Builtins.Register(&Function{Name: "SUBSTRING", Category: "String", MinArgs: 2, MaxArgs: 3,
		Signatures: []string{"SUBSTRING(string FROM integer1 [FOR integer2]) -> STRING", "SUBSTR(string, integer1[, integer2]) -> STRING"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := stringArgs(c, 0); err != nil {
				return nil, err
			}
			for _, t := range c.Args[1:] {
				if !t.IsIntegral() && t.Root != types.Null {
					return nil, invalidArgs(c)
				}
			}
			for i := 1; i < len(c.Args); i++ {
				c.CastArg(i, types.IntType())
			}
			l := types.MaxLength
			if c.Args[0].Root != types.Null {
				l = c.Args[0].Length
			}
			return types.VarCharType(l).WithNullable(anyNullable(c.Args)), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				if a[1].Const && (len(a) == 2 || a[2].Const) {
					if a[1].Val == nil || (len(a) == 3 && a[2].Val == nil) {
						return ConstVec(nil, ret), nil
					}
					pos := int(a[1].Val.(int32))
					length := -1
					if len(a) == 3 {
						length = int(a[2].Val.(int32))
					}
					return mapString(a[0], n, ret, func(s string) string { return substring(s, pos, length, len(a) == 3) }), nil
				}
				return rowWise(a, n, ret, false, func(v []any) (any, error) {
					length := -1
					if len(v) == 3 {
						length = int(v[2].(int32))
					}
					return substring(v[0].(string), int(v[1].(int32)), length, len(v) == 3), nil
				})
			}, nil
		}}, "SUBSTR")

	concatInfer := func(c *InferCtx) (*types.DataType, error) {
		length := 0
		for i, t := range c.Args {
			if !t.IsString() && t.Root != types.Null {
				return nil, invalidArgs(c)
			}
			if t.IsString() {
				length += t.Length
			}
			c.CastArg(i, types.StringType())
		}
		if length > types.MaxLength || length <= 0 {
			length = types.MaxLength
		}
		return types.VarCharType(length).WithNullable(anyNullable(c.Args)), nil
	}
	concatBuild := func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
			for _, v := range a {
				if v.IsNullConst() {
					return ConstVec(nil, ret), nil
				}
			}
			acc := make([]strAccess, len(a))
			allConst := true
			for i, v := range a {
				acc[i] = strOf(v)
				if !v.Const {
					allConst = false
				}
			}
			if allConst {
				var sb strings.Builder
				for i := range acc {
					sb.WriteString(acc[i].c)
				}
				return ConstVec(sb.String(), ret), nil
			}
			valid := andValidity(n, a...)
			out := vector.NewStringBuilder(n, 16)
			var buf []byte
			for i := 0; i < n; i++ {
				if valid != nil && !vector.BitIsSet(valid, i) {
					out.AppendNull()
					continue
				}
				buf = buf[:0]
				for k := range acc {
					buf = append(buf, acc[k].bytesAt(i)...)
				}
				out.AppendBytes(buf)
			}
			return ArrVec(out.Finish(false), ret), nil
		}, nil
	}
	Builtins.Register(&Function{Name: "CONCAT", Category: "String", MinArgs: 1, MaxArgs: -1,
		Signatures: []string{"CONCAT(string1, string2, ...) -> STRING; NULL if any argument is NULL"},
		Infer:      concatInfer, Build: concatBuild})
	Builtins.Register(&Function{Name: "||", Category: "String", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"string1 || string2"}, Infer: concatInfer, Build: concatBuild})

	Builtins.Register(&Function{Name: "CHAR_LENGTH", Category: "String", MinArgs: 1, MaxArgs: 1,
		Signatures: []string{"CHAR_LENGTH(string) -> INT, the number of characters"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := stringArgs(c, 0); err != nil {
				return nil, err
			}
			return types.IntType().WithNullable(c.Args[0].Nullable), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				if a[0].Const {
					if a[0].Val == nil {
						return ConstVec(nil, ret), nil
					}
					return ConstVec(int32(utf8.RuneCountInString(a[0].Val.(string))), ret), nil
				}
				s := strOf(a[0])
				out := make([]int32, n)
				for i := range out {
					out[i] = int32(utf8.RuneCount(s.bytesAt(i)))
				}
				return ArrVec(vector.FromValues(arrowType(ret), out, validityOf(a[0], n), -1), ret), nil
			}, nil
		}}, "CHARACTER_LENGTH")

	likeInfer := func(c *InferCtx) (*types.DataType, error) {
		for i := range c.Args {
			if err := stringArgs(c, i); err != nil {
				return nil, typeErrorf("Cannot apply 'LIKE' to arguments of type %s. Supported form(s): '<STRING> LIKE <STRING> [ESCAPE <STRING>]'", argList(c.Args))
			}
		}
		return types.BooleanType().WithNullable(anyNullable(c.Args)), nil
	}
	Builtins.Register(&Function{Name: "LIKE", Category: "String", MinArgs: 2, MaxArgs: 3,
		Signatures: []string{"string1 LIKE string2 [ESCAPE char]"},
		Infer:      likeInfer, Build: likeBuild(false)})
	Builtins.Register(&Function{Name: "NOT LIKE", Category: "String", MinArgs: 2, MaxArgs: 3,
		Signatures: []string{"string1 NOT LIKE string2 [ESCAPE char]"},
		Infer:      likeInfer, Build: likeBuild(true)})
}

func trim(flag, chars, s string) string {
	switch strings.ToUpper(flag) {
	case "LEADING":
		return strings.TrimLeft(s, chars)
	case "TRAILING":
		return strings.TrimRight(s, chars)
	}
	return strings.Trim(s, chars)
}

// substring follows Flink's SUBSTRING: 1-based; position 0 is treated as 1;
// a negative position counts from the end; without a length the rest of
// the string; a negative length gives the empty string.
func substring(s string, pos, length int, hasLen bool) string {
	r := []rune(s)
	n := len(r)
	var start int
	switch {
	case pos > 0:
		start = pos - 1
	case pos < 0:
		start = n + pos
		if start < 0 {
			start = 0
		}
	}
	if start >= n {
		return ""
	}
	end := n
	if hasLen {
		if length < 0 {
			return ""
		}
		if start+length < end {
			end = start + length
		}
	}
	return string(r[start:end])
}

// likeMatcher compiles a SQL LIKE pattern (with % and _, and an optional
// escape character) into a matcher, using plain string tests for the
// common prefix/suffix/contains/equals shapes.
func likeMatcher(pattern string, escape rune) (func(string) bool, error) {
	hasEscape := escape != 0 && strings.ContainsRune(pattern, escape)
	if hasEscape {
		// Calcite's Like.sqlToRegexLike: the escape character must be
		// followed by '_', '%' or itself
		rs := []rune(pattern)
		for i := 0; i < len(rs); i++ {
			if rs[i] != escape {
				continue
			}
			if i+1 == len(rs) || (rs[i+1] != '_' && rs[i+1] != '%' && rs[i+1] != escape) {
				return nil, &EvalError{Msg: fmt.Sprintf("Invalid escape sequence '%s', %d", pattern, i)}
			}
			i++
		}
	}
	if !hasEscape && !strings.Contains(pattern, "_") {
		inner := strings.Trim(pattern, "%")
		if !strings.Contains(inner, "%") {
			pre, suf := strings.HasPrefix(pattern, "%"), strings.HasSuffix(pattern, "%") && len(pattern) > 0
			switch {
			case pattern == "%":
				return func(string) bool { return true }, nil
			case pre && suf:
				return func(s string) bool { return strings.Contains(s, inner) }, nil
			case pre:
				return func(s string) bool { return strings.HasSuffix(s, inner) }, nil
			case suf:
				return func(s string) bool { return strings.HasPrefix(s, inner) }, nil
			default:
				return func(s string) bool { return s == pattern }, nil
			}
		}
	}
	var re strings.Builder
	re.WriteString("(?s)^")
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case hasEscape && c == escape && i+1 < len(rs):
			i++
			re.WriteString(regexp.QuoteMeta(string(rs[i])))
		case c == '%':
			re.WriteString(".*")
		case c == '_':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	rx := regexp.MustCompile(re.String())
	return rx.MatchString, nil
}

// likeEscape reads the ESCAPE string, which must be one character
// (Calcite's Like: "Invalid escape character '...'").
func likeEscape(s string) (rune, error) {
	if utf8.RuneCountInString(s) != 1 {
		return 0, &EvalError{Msg: fmt.Sprintf("Invalid escape character '%s'", s)}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r, nil
}

// likeMatch matches s against a pattern compiled on the spot.
func likeMatch(s, pattern string, escape rune) (bool, error) {
	m, err := likeMatcher(pattern, escape)
	if err != nil {
		return false, err
	}
	return m(s), nil
}

func likeBuild(negate bool) func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
	return func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
			var escape rune
			if len(a) == 3 {
				if !a[2].Const || a[2].Val == nil {
					return rowWise(a, n, ret, false, func(v []any) (any, error) {
						e, err := likeEscape(v[2].(string))
						if err != nil {
							return nil, err
						}
						ok, err := likeMatch(v[0].(string), v[1].(string), e)
						return ok != negate, err
					})
				}
				var err error
				if escape, err = likeEscape(a[2].Val.(string)); err != nil {
					return nil, err
				}
			}
			if !a[1].Const {
				return rowWise(a[:2], n, ret, false, func(v []any) (any, error) {
					ok, err := likeMatch(v[0].(string), v[1].(string), escape)
					return ok != negate, err
				})
			}
			if a[1].Val == nil || a[0].IsNullConst() {
				return ConstVec(nil, ret), nil
			}
			m, err := likeMatcher(a[1].Val.(string), escape)
			if err != nil {
				return nil, err
			}
			if a[0].Const {
				return ConstVec(m(a[0].Val.(string)) != negate, ret), nil
			}
			s := strOf(a[0])
			bits := make([]byte, (n+7)/8)
			for i := 0; i < n; i++ {
				if m(s.at(i)) != negate {
					bits[i>>3] |= 1 << (i & 7)
				}
			}
			return ArrVec(vector.BoolsFromBits(bits, n, validityOf(a[0], n)), ret), nil
		}, nil
	}
}
