package expr

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/types"
)

// VARIANT functions (Flink 2.1): PARSE_JSON and TRY_PARSE_JSON build a
// VARIANT from JSON text; v['key'] and v[index] (ITEM, fn_constructors.go)
// read inside one. The value representation is types.Variant.

func init() {
	for _, try := range []bool{false, true} {
		try := try
		name := "PARSE_JSON"
		sigs := []string{
			"PARSE_JSON(<CHARACTER_STRING>) -> VARIANT, the JSON text as a VARIANT; invalid JSON or a repeated key fails the query",
			"PARSE_JSON(<CHARACTER_STRING>, <BOOLEAN>) -> VARIANT, allowDuplicateKeys TRUE keeps a repeated key's last value",
		}
		if try {
			name = "TRY_PARSE_JSON"
			sigs = []string{
				"TRY_PARSE_JSON(<CHARACTER_STRING>) -> VARIANT, as PARSE_JSON but NULL for invalid JSON",
				"TRY_PARSE_JSON(<CHARACTER_STRING>, <BOOLEAN>) -> VARIANT",
			}
		}
		Builtins.Register(&Function{Name: name, Category: "JSON", MinArgs: 1, MaxArgs: 2, Signatures: sigs,
			Infer: func(c *InferCtx) (*types.DataType, error) {
				if !kString.accepts(c.Args[0]) || (len(c.Args) == 2 && !kBool.accepts(c.Args[1])) {
					return nil, invalidArgs(c)
				}
				// a CHAR or VARCHAR is read as it is (no cast, as in Flink's plans)
				if len(c.Args) == 2 && c.Args[1].Root == types.Null {
					c.CastArg(1, types.BooleanType())
				}
				return types.VariantType().WithNullable(try || c.Args[0].Nullable), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
					return rowWise(a, n, ret, true, func(v []any) (any, error) {
						s, ok := v[0].(string)
						if !ok {
							return nil, nil
						}
						dup := false
						if len(v) == 2 {
							dup, _ = v[1].(bool)
						}
						out, err := types.ParseJSONVariant(s, dup)
						if err != nil {
							if try {
								return nil, nil
							}
							return nil, err
						}
						return out, nil
					})
				}, nil
			}})
	}
}

// variantItem is v[key] (a CHAR/VARCHAR key) or v[index] (an integral
// index, 1-based) for ITEM on a VARIANT: NULL for a missing key or an
// index out of range; an error when the key is a string and v is not an
// object, or the index is a number and v is not an array, as Flink fails.
func variantItem(v types.Variant, k any) (any, error) {
	switch x := k.(type) {
	case string:
		if v.Kind() != types.VariantObject {
			return nil, fmt.Errorf("String key access on variant requires an object variant, but a non-object variant was provided.")
		}
		if f, ok := v.Field(x); ok {
			return f, nil
		}
		return nil, nil
	case int8, int16, int32, int64:
		if v.Kind() != types.VariantArray {
			return nil, fmt.Errorf("Integer index access on variant requires an array variant, but a non-array variant was provided.")
		}
		if e, ok := v.Index(intArg(x)); ok {
			return e, nil
		}
		return nil, nil
	}
	return nil, nil
}
