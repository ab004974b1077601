package expr

import (
	"fmt"
	"github.com/riffle-sql/riffle/engine/vector"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
)

// Value construction and access: ROW(...), ARRAY[...], MAP[...], field
// access r.f (GET_FIELD) and element access a[i] / m[k] (ITEM).

func init() {
	Builtins.Register(&Function{Name: "GET_FIELD", Category: "Value access", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"row.field -> the field's value"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			t := c.Args[0]
			l := c.Literals[1]
			if t.Root != types.RowRoot || l == nil {
				return nil, invalidArgs(c)
			}
			i := t.FieldIndex(l.Value.(string))
			if i < 0 {
				return nil, typeErrorf("Field '%v' not found in %s", l.Value, t)
			}
			ft := t.Fields[i].Type
			if t.Nullable {
				ft = ft.WithNullable(true)
			}
			return ft, nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				name, _ := a[1].Val.(string)
				idx := args[0].FieldIndex(name)
				if a[0].Const {
					if a[0].Val == nil {
						return ConstVec(nil, ret), nil
					}
					return ConstVec(a[0].Val.(*types.Row).Values[idx], ret), nil
				}
				st := a[0].Arr.(*array.Struct)
				child := st.Field(idx)
				if st.NullN() > 0 {
					// a NULL row has NULL fields
					return ArrVec(vector.MaskNulls(child, st), ret), nil
				}
				return ArrVec(child, ret), nil
			}, nil
		}})

	Builtins.Register(&Function{Name: "ROW", Category: "Value construction", MinArgs: 1, MaxArgs: -1,
		Signatures: []string{"ROW(value1 [, value2]*) -> ROW"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			fields := make([]types.Field, len(c.Args))
			for i, t := range c.Args {
				if t.Root == types.Null {
					t = types.NullType()
				}
				fields[i] = types.Field{Name: fmt.Sprintf("EXPR$%d", i), Type: t.WithTimeAttr(types.NoTimeAttr)}
			}
			return types.RowType(fields...).NotNull(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, true, func(v []any) (any, error) {
					names := make([]string, len(v))
					for i := range names {
						names[i] = ret.Fields[i].Name
					}
					return &types.Row{Kind: types.Insert, Values: append([]any(nil), v...), Names: names}, nil
				})
			}, nil
		}})

	Builtins.Register(&Function{Name: "ARRAY", Category: "Value construction", MinArgs: 0, MaxArgs: -1,
		Signatures: []string{"ARRAY[value1 [, value2]*] -> ARRAY"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if len(c.Args) == 0 {
				// ARRAY[]: Flink's SqlArrayConstructor types the empty
				// array ARRAY<INT NOT NULL> NOT NULL
				return types.ArrayType(types.IntType().NotNull()).NotNull(), nil
			}
			et := types.CommonType(c.Args...)
			if et == nil {
				return nil, typeErrorf("Parameters must be of the same type")
			}
			for i := range c.Args {
				c.CastArg(i, et)
			}
			return types.ArrayType(et).NotNull(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, true, func(v []any) (any, error) {
					return append([]any(nil), v...), nil
				})
			}, nil
		}})

	Builtins.Register(&Function{Name: "MAP", Category: "Value construction", MinArgs: 2, MaxArgs: -1,
		Signatures: []string{"MAP[key1, value1 [, key2, value2]*] -> MAP"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if len(c.Args)%2 != 0 {
				return nil, typeErrorf("MAP requires an even number of arguments")
			}
			var ks, vs []*types.DataType
			for i, t := range c.Args {
				if i%2 == 0 {
					ks = append(ks, t)
				} else {
					vs = append(vs, t)
				}
			}
			kt, vt := types.CommonType(ks...), types.CommonType(vs...)
			if kt == nil || vt == nil {
				return nil, typeErrorf("Parameters must be of the same type")
			}
			for i := range c.Args {
				if i%2 == 0 {
					c.CastArg(i, kt)
				} else {
					c.CastArg(i, vt)
				}
			}
			return types.MapType(kt, vt).NotNull(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, true, func(v []any) (any, error) {
					m := &types.Map{}
					for i := 0; i+1 < len(v); i += 2 {
						if j := indexOfKey(m, v[i]); j >= 0 {
							m.Values[j] = v[i+1] // later keys win
							continue
						}
						m.Keys = append(m.Keys, v[i])
						m.Values = append(m.Values, v[i+1])
					}
					return m, nil
				})
			}, nil
		}})

	Builtins.Register(&Function{Name: "ITEM", Category: "Value access", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"array[index] -> element (1-based; NULL when out of range)", "map[key] -> value",
			"variant[key] -> VARIANT (NULL when missing)", "variant[index] -> VARIANT (1-based; NULL when out of range)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			t := c.Args[0]
			switch t.Root {
			case types.ArrayRoot:
				if !c.Args[1].IsIntegral() {
					return nil, invalidArgs(c)
				}
				c.CastArg(1, types.IntType())
				return t.Elem.WithNullable(true), nil
			case types.MapRoot:
				c.CastArg(1, t.Key)
				return t.Value.WithNullable(true), nil
			case types.VariantRoot:
				if !c.Args[1].IsString() && !c.Args[1].IsIntegral() && c.Args[1].Root != types.Null {
					return nil, typeErrorf("Cannot apply 'ITEM' to arguments of type 'ITEM(<VARIANT>, <%s>)'. Supported form(s): <ARRAY>[<INTEGER>]\n<MAP>[<ANY>]\n<ROW>[<CHARACTER>|<INTEGER>]\n<VARIANT>[<CHARACTER>|<INTEGER>]", calciteName(c.Args[1]))
				}
				return types.VariantType(), nil
			}
			return nil, invalidArgs(c)
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, false, func(v []any) (any, error) {
					switch x := v[0].(type) {
					case []any:
						i := int(v[1].(int32))
						if i < 1 || i > len(x) {
							return nil, nil
						}
						return x[i-1], nil
					case *types.Map:
						val, _ := x.Get(v[1])
						return val, nil
					case types.Variant:
						return variantItem(x, v[1])
					}
					return nil, nil
				})
			}, nil
		}})
}

func indexOfKey(m *types.Map, k any) int {
	for i, x := range m.Keys {
		if types.ValuesEqual(x, k) {
			return i
		}
	}
	return -1
}
