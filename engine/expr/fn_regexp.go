package expr

import (
	"strings"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Regular-expression functions (Java regex semantics, see regex.go):
// REGEXP, REGEXP_REPLACE, REGEXP_EXTRACT, REGEXP_EXTRACT_ALL, REGEXP_COUNT,
// REGEXP_INSTR, REGEXP_SUBSTR and SIMILAR TO. As in Flink (SqlFunctionUtils
// and RegexpFunctionsITCase), an invalid pattern or group index gives
// NULL rather than failing the job, and REGEXP_REPLACE takes its
// replacement literally (Matcher.quoteReplacement: "$1" is not a group).

func init() {
	registerRowFn(rowFn{name: "REGEXP", category: "String", args: []argKind{kString, kString},
		sig: "REGEXP(string1, string2) -> BOOLEAN, whether some substring of string1 matches the Java regular expression string2",
		ret: types.BooleanType(), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			re, err := compileJavaRegex(v[1].(string))
			if err != nil {
				return nil, nil
			}
			return re.find(v[0].(string)), nil
		}})
	Builtins.Register(&Function{Name: "REGEXP_REPLACE", Category: "String", MinArgs: 3, MaxArgs: 3,
		Signatures: []string{"REGEXP_REPLACE(string1, string2, string3) -> STRING with every match of the regular expression string2 replaced by string3"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := stringArgs(c, 0, 1, 2); err != nil {
				return nil, err
			}
			for i := range c.Args {
				c.CastArg(i, types.StringType())
			}
			return types.StringType(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				if a[1].Const && a[2].Const {
					if a[1].Val == nil || a[2].Val == nil {
						return ConstVec(nil, ret), nil
					}
					re, err := compileJavaRegex(a[1].Val.(string))
					if err != nil {
						return ConstVec(nil, ret), nil
					}
					repl := a[2].Val.(string)
					return mapString(a[0], n, ret, func(s string) string { return re.replaceLiteral(s, repl) }), nil
				}
				return rowWise(a, n, ret, false, func(v []any) (any, error) {
					re, err := compileJavaRegex(v[1].(string))
					if err != nil {
						return nil, nil
					}
					return re.replaceLiteral(v[0].(string), v[2].(string)), nil
				})
			}, nil
		}})
	Builtins.Register(&Function{Name: "REGEXP_EXTRACT", Category: "String", MinArgs: 2, MaxArgs: 3,
		Signatures: []string{"REGEXP_EXTRACT(string1, string2[, integer]) -> STRING, group integer (default 0, the whole match) of the first match; NULL when none"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := stringArgs(c, 0, 1); err != nil {
				return nil, err
			}
			c.CastArg(0, types.StringType())
			c.CastArg(1, types.StringType())
			if len(c.Args) == 3 {
				if !c.Args[2].IsIntegral() && c.Args[2].Root != types.Null {
					return nil, invalidArgs(c)
				}
				c.CastArg(2, types.IntType())
			}
			return types.StringType(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				if a[1].Const && (len(a) == 2 || a[2].Const) {
					if a[1].Val == nil || (len(a) == 3 && a[2].Val == nil) {
						return ConstVec(nil, ret), nil
					}
					re, err := compileJavaRegex(a[1].Val.(string))
					if err != nil {
						return ConstVec(nil, ret), nil
					}
					idx := 0
					if len(a) == 3 {
						idx = int(a[2].Val.(int32))
					}
					return extractColumn(a[0], n, ret, re, idx), nil
				}
				return rowWise(a, n, ret, false, func(v []any) (any, error) {
					re, err := compileJavaRegex(v[1].(string))
					if err != nil {
						return nil, nil
					}
					idx := 0
					if len(v) == 3 {
						idx = int(v[2].(int32))
					}
					return regexpExtract(re, v[0].(string), idx), nil
				})
			}, nil
		}})
	registerRowFn(rowFn{name: "REGEXP_EXTRACT_ALL", category: "String", args: []argKind{kString, kString, kLong}, min: 2, max: 3,
		sig: "REGEXP_EXTRACT_ALL(str, regex[, extractIndex]) -> ARRAY<STRING> of group extractIndex (default 1) of every match",
		ret: types.ArrayType(types.StringType()), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			re, err := compileJavaRegex(v[1].(string))
			if err != nil {
				return nil, nil
			}
			idx := int64(1)
			if len(v) == 3 {
				idx = intArg(v[2])
			}
			if idx < 0 || int(idx) > re.groups {
				return nil, nil
			}
			s := v[0].(string)
			out := []any{}
			for _, m := range re.javaMatches(s) {
				if m[2*idx] < 0 {
					out = append(out, nil)
					continue
				}
				out = append(out, s[m[2*idx]:m[2*idx+1]])
			}
			return out, nil
		}})
	registerRowFn(rowFn{name: "REGEXP_COUNT", category: "String", args: []argKind{kString, kString},
		sig: "REGEXP_COUNT(str, regex) -> INT, the number of matches", ret: types.IntType(), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			re, err := compileJavaRegex(v[1].(string))
			if err != nil {
				return nil, nil
			}
			return int32(len(re.javaMatches(v[0].(string)))), nil
		}})
	registerRowFn(rowFn{name: "REGEXP_INSTR", category: "String", args: []argKind{kString, kString},
		sig: "REGEXP_INSTR(str, regex) -> INT, 1-based position of the first match, 0 when none", ret: types.IntType(), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			re, err := compileJavaRegex(v[1].(string))
			if err != nil {
				return nil, nil
			}
			s := v[0].(string)
			ms := re.matches(s, 1)
			if len(ms) == 0 {
				return int32(0), nil
			}
			return int32(utf8.RuneCountInString(s[:ms[0][0]]) + 1), nil
		}})
	registerRowFn(rowFn{name: "REGEXP_SUBSTR", category: "String", args: []argKind{kString, kString},
		sig: "REGEXP_SUBSTR(str, regex) -> STRING, the first match; NULL when none", ret: types.StringType(), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			re, err := compileJavaRegex(v[1].(string))
			if err != nil {
				return nil, nil
			}
			s := v[0].(string)
			ms := re.matches(s, 1)
			if len(ms) == 0 {
				return nil, nil
			}
			return s[ms[0][0]:ms[0][1]], nil
		}})
	for _, neg := range []bool{false, true} {
		name := "SIMILAR TO"
		if neg {
			name = "NOT SIMILAR TO"
		}
		negate := neg
		Builtins.Register(&Function{Name: name, Category: "Comparison", MinArgs: 2, MaxArgs: 3,
			Signatures: []string{"string1 " + name + " string2 [ESCAPE char]"},
			Infer: func(c *InferCtx) (*types.DataType, error) {
				for i := range c.Args {
					if err := stringArgs(c, i); err != nil {
						return nil, err
					}
					c.CastArg(i, types.StringType())
				}
				return types.BooleanType().WithNullable(anyNullable(c.Args)), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
					return rowWise(a, n, ret, false, func(v []any) (any, error) {
						var esc rune
						if len(v) == 3 {
							var err error
							if esc, err = likeEscape(v[2].(string)); err != nil {
								return nil, err
							}
						}
						re, err := compileJavaRegex(similarToRegex(v[1].(string), esc))
						if err != nil {
							return nil, &EvalError{Func: "SIMILAR TO", Msg: "invalid pattern '" + v[1].(string) + "'"}
						}
						return re.find(v[0].(string)) != negate, nil
					})
				}, nil
			}})
	}
}

// replaceLiteral replaces every match with repl taken literally.
func (r *javaRegex) replaceLiteral(s, repl string) string {
	ms := r.javaMatches(s)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m[0]])
		b.WriteString(repl)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func regexpExtract(re *javaRegex, s string, idx int) any {
	if g, ok := re.group(s, idx); ok {
		return g
	}
	return nil
}

// extractColumn applies REGEXP_EXTRACT with a constant pattern and index.
func extractColumn(a *Vec, n int, ret *types.DataType, re *javaRegex, idx int) *Vec {
	if a.Const {
		if a.Val == nil {
			return ConstVec(nil, ret)
		}
		return ConstVec(regexpExtract(re, a.Val.(string), idx), ret)
	}
	s := strOf(a)
	sb := vector.NewStringBuilder(n, 16)
	for i := 0; i < n; i++ {
		if a.Arr.IsNull(i) {
			sb.AppendNull()
			continue
		}
		g, ok := re.group(s.at(i), idx)
		if !ok {
			sb.AppendNull()
			continue
		}
		sb.AppendString(g)
	}
	return ArrVec(sb.Finish(false), ret)
}
