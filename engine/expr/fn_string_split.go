package expr

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// Splitting strings (Flink's sql_functions.yml, "string" and
// "collection" sections): SPLIT_INDEX, SPLIT, STR_TO_MAP. NULL arguments
// give NULL.

func init() {
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
