package expr

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/riffle-sql/riffle/engine/types"
)

// Character-class tests of a string (Flink's sql_functions.yml,
// "conditional" section): IS_ALPHA, IS_DIGIT, IS_DECIMAL; NULL is FALSE.

func init() {
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
}

func asNumErr(err error, target **strconv.NumError) bool {
	ne, ok := err.(*strconv.NumError)
	if ok {
		*target = ne
	}
	return ok
}
