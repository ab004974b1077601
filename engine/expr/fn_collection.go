package expr

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Collection functions of Flink's "collection" list: CARDINALITY, ELEMENT,
// the ARRAY_* family and the MAP_* family. Arrays are []any, maps and
// multisets *types.Map (a multiset maps each element to its count).
// Elements compare by value (types.ValuesEqual); NULL elements are
// elements like any other unless a function says otherwise.

func arrayElem(t *types.DataType) *types.DataType {
	if t.Root == types.ArrayRoot {
		return t.Elem
	}
	return types.NullType()
}

// arrayArgs checks that the listed arguments are arrays with a common
// element type and returns it (asking for casts to it).
func arrayArgs(c *InferCtx, idx ...int) (*types.DataType, error) {
	var elems []*types.DataType
	for _, i := range idx {
		t := c.Args[i]
		if t.Root == types.Null {
			continue
		}
		if t.Root != types.ArrayRoot {
			return nil, invalidArgs(c)
		}
		elems = append(elems, t.Elem)
	}
	if len(elems) == 0 {
		return types.NullType(), nil
	}
	et := types.CommonType(elems...)
	if et == nil {
		return nil, invalidArgs(c)
	}
	for _, i := range idx {
		if c.Args[i].Root == types.ArrayRoot && !c.Args[i].Elem.Equals(et) {
			c.CastArg(i, types.ArrayType(et).WithNullable(c.Args[i].Nullable))
		}
	}
	return et, nil
}

func containsValue(l []any, v any) bool {
	for _, x := range l {
		if types.ValuesEqual(x, v) {
			return true
		}
	}
	return false
}

func distinctValues(l []any) []any {
	out := []any{}
	for _, x := range l {
		if !containsValue(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func init() {
	registerRowFn(rowFn{name: "CARDINALITY", category: "Collection", args: []argKind{kAny},
		sig: "CARDINALITY(array or map or multiset) -> INT, the number of elements or entries",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			switch c.Args[0].Root {
			case types.ArrayRoot, types.MapRoot, types.MultisetRoot, types.Null:
				return types.IntType(), nil
			}
			return nil, invalidArgs(c)
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			switch x := v[0].(type) {
			case []any:
				return int32(len(x)), nil
			case *types.Map:
				return int32(x.Len()), nil
			}
			return nil, nil
		}})
	registerRowFn(rowFn{name: "ELEMENT", category: "Collection", args: []argKind{kAny},
		sig: "ELEMENT(array) -> the sole element of the array; NULL when empty; an error for more than one element",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			t := c.Args[0]
			switch t.Root {
			case types.ArrayRoot, types.MultisetRoot:
				return t.Elem.WithNullable(true), nil
			}
			return nil, invalidArgs(c)
		}, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			var l []any
			switch x := v[0].(type) {
			case []any:
				l = x
			case *types.Map:
				for i, k := range x.Keys {
					for c := int32(0); c < x.Values[i].(int32); c++ {
						l = append(l, k)
					}
				}
			}
			switch len(l) {
			case 0:
				return nil, nil
			case 1:
				return l[0], nil
			}
			return nil, &EvalError{Func: "ELEMENT", Msg: fmt.Sprintf("the array has more than one element (%d)", len(l))}
		}})
	registerRowFn(rowFn{name: "ARRAY_CONTAINS", category: "Collection", args: []argKind{kArray, kAny},
		sig: "ARRAY_CONTAINS(haystack, needle) -> BOOLEAN, whether needle (cast to the element type) is an element; NULL elements are found too",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			et := arrayElem(c.Args[0])
			if c.Args[1].Root != types.Null && et.Root != types.Null && !SupportsImplicitCast(c.Args[1], et) {
				return nil, invalidArgs(c)
			}
			if et.Root != types.Null {
				c.CastArg(1, et.WithNullable(true))
			}
			return types.BooleanType().WithNullable(c.Args[0].Nullable), nil
		}, exactNull: true, nullSafe: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			return containsValue(v[0].([]any), v[1]), nil
		}})
	registerRowFn(rowFn{name: "ARRAY_POSITION", category: "Collection", args: []argKind{kArray, kAny},
		sig: "ARRAY_POSITION(haystack, needle) -> INT, 1-based position of the first occurrence, 0 when absent",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			if et := arrayElem(c.Args[0]); et.Root != types.Null {
				c.CastArg(1, et.WithNullable(true))
			}
			return types.IntType(), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			for i, x := range v[0].([]any) {
				if types.ValuesEqual(x, v[1]) {
					return int32(i + 1), nil
				}
			}
			return int32(0), nil
		}})
	sameArray := func(c *InferCtx) (*types.DataType, error) {
		if c.Args[0].Root != types.ArrayRoot {
			return nil, invalidArgs(c)
		}
		return c.Args[0], nil
	}
	registerRowFn(rowFn{name: "ARRAY_DISTINCT", category: "Collection", args: []argKind{kArray},
		sig: "ARRAY_DISTINCT(haystack) -> the array without duplicates, in order", retFn: sameArray,
		eval: func(_ *Ctx, v []any) (any, error) { return distinctValues(v[0].([]any)), nil }})
	registerRowFn(rowFn{name: "ARRAY_REVERSE", category: "Collection", args: []argKind{kArray},
		sig: "ARRAY_REVERSE(haystack) -> the array in reverse order", retFn: sameArray,
		eval: func(_ *Ctx, v []any) (any, error) {
			l := v[0].([]any)
			out := make([]any, len(l))
			for i, x := range l {
				out[len(l)-1-i] = x
			}
			return out, nil
		}})
	registerRowFn(rowFn{name: "ARRAY_REMOVE", category: "Collection", args: []argKind{kArray, kAny},
		sig: "ARRAY_REMOVE(haystack, needle) -> the array without the elements equal to needle",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			if c.Args[0].Root != types.ArrayRoot {
				return nil, invalidArgs(c)
			}
			c.CastArg(1, c.Args[0].Elem.WithNullable(true))
			return c.Args[0].WithNullable(c.Args[0].Nullable), nil
		}, exactNull: true, nullSafe: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			out := []any{}
			for _, x := range v[0].([]any) {
				if !types.ValuesEqual(x, v[1]) {
					out = append(out, x)
				}
			}
			return out, nil
		}})
	appendFn := func(name string, front bool) {
		registerRowFn(rowFn{name: name, category: "Collection", args: []argKind{kArray, kAny},
			sig: name + "(array, element) -> the array with element added at the " + map[bool]string{true: "beginning", false: "end"}[front],
			retFn: func(c *InferCtx) (*types.DataType, error) {
				if c.Args[0].Root != types.ArrayRoot {
					return nil, invalidArgs(c)
				}
				et := types.CommonType(c.Args[0].Elem, c.Args[1])
				if et == nil {
					return nil, invalidArgs(c)
				}
				if et.Root == types.Null {
					et = c.Args[0].Elem.WithNullable(true)
				}
				c.CastArg(0, types.ArrayType(et).WithNullable(c.Args[0].Nullable))
				c.CastArg(1, et)
				return types.ArrayType(et).WithNullable(c.Args[0].Nullable), nil
			}, exactNull: true, nullSafe: true,
			eval: func(_ *Ctx, v []any) (any, error) {
				if v[0] == nil {
					return nil, nil
				}
				l := v[0].([]any)
				if front {
					return append([]any{v[1]}, l...), nil
				}
				return append(append([]any(nil), l...), v[1]), nil
			}})
	}
	appendFn("ARRAY_APPEND", false)
	appendFn("ARRAY_PREPEND", true)
	registerRowFn(rowFn{name: "ARRAY_SLICE", category: "Collection", args: []argKind{kArray, kInt, kInt}, min: 2, max: 3,
		sig:   "ARRAY_SLICE(array, start_offset[, end_offset]) -> the elements from start_offset to end_offset (1-based, inclusive; negative from the end; 0 is the beginning)",
		retFn: sameArray,
		eval: func(_ *Ctx, v []any) (any, error) {
			l := v[0].([]any)
			n := len(l)
			start := int(intArg(v[1]))
			end := n
			if len(v) == 3 {
				end = int(intArg(v[2]))
			}
			norm := func(i int) int {
				switch {
				case i < 0:
					return n + i + 1
				case i == 0:
					return 1
				}
				return i
			}
			s, e := norm(start), norm(end)
			if s < 1 {
				s = 1
			}
			if e > n {
				e = n
			}
			if s > e || s > n || e < 1 {
				return []any{}, nil
			}
			return append([]any(nil), l[s-1:e]...), nil
		}})
	registerRowFn(rowFn{name: "ARRAY_SORT", category: "Collection", args: []argKind{kArray, kBool, kBool}, min: 1, max: 3,
		sig: "ARRAY_SORT(array[, ascending_order[, null_first]]) -> the array sorted (default ascending, NULLs first; descending puts NULLs last unless null_first is given)",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			if c.Args[0].Root != types.ArrayRoot || !c.Args[0].Elem.IsComparable() {
				return nil, invalidArgs(c)
			}
			return c.Args[0], nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			asc := true
			if len(v) >= 2 {
				asc = v[1].(bool)
			}
			nullFirst := asc
			if len(v) == 3 {
				nullFirst = v[2].(bool)
			}
			out := append([]any(nil), v[0].([]any)...)
			sort.SliceStable(out, func(i, j int) bool {
				a, b := out[i], out[j]
				if a == nil || b == nil {
					if a == nil && b == nil {
						return false
					}
					return (a == nil) == nullFirst
				}
				c := compareAny(a, b)
				if asc {
					return c < 0
				}
				return c > 0
			})
			return out, nil
		}})
	setOp := func(name, desc string, f func(a, b []any) []any) {
		registerRowFn(rowFn{name: name, category: "Collection", args: []argKind{kArray, kArray},
			sig: name + "(array1, array2) -> " + desc,
			retFn: func(c *InferCtx) (*types.DataType, error) {
				et, err := arrayArgs(c, 0, 1)
				if err != nil {
					return nil, err
				}
				return types.ArrayType(et), nil
			},
			eval: func(_ *Ctx, v []any) (any, error) { return f(v[0].([]any), v[1].([]any)), nil }})
	}
	setOp("ARRAY_UNION", "the distinct elements of both arrays", func(a, b []any) []any {
		return distinctValues(append(append([]any(nil), a...), b...))
	})
	setOp("ARRAY_EXCEPT", "the distinct elements of array1 not in array2, in the order of array1", func(a, b []any) []any {
		out := []any{}
		for _, x := range distinctValues(a) {
			if !containsValue(b, x) {
				out = append(out, x)
			}
		}
		return out
	})
	setOp("ARRAY_INTERSECT", "the distinct elements of array1 also in array2, in the order of array1", func(a, b []any) []any {
		out := []any{}
		for _, x := range distinctValues(a) {
			if containsValue(b, x) {
				out = append(out, x)
			}
		}
		return out
	})
	registerRowFn(rowFn{name: "ARRAY_CONCAT", category: "Collection", args: []argKind{kArray}, min: 1, max: -1,
		sig: "ARRAY_CONCAT(array1, ...) -> the arrays concatenated; NULL if any is NULL",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			idx := make([]int, len(c.Args))
			for i := range idx {
				idx[i] = i
			}
			et, err := arrayArgs(c, idx...)
			if err != nil {
				return nil, err
			}
			return types.ArrayType(et), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			out := []any{}
			for _, a := range v {
				out = append(out, a.([]any)...)
			}
			return out, nil
		}})
	extreme := func(name string, want int) {
		registerRowFn(rowFn{name: name, category: "Collection", args: []argKind{kArray},
			sig: name + "(array) -> the " + map[int]string{1: "largest", -1: "smallest"}[want] + " non-NULL element; NULL when there is none",
			retFn: func(c *InferCtx) (*types.DataType, error) {
				if c.Args[0].Root != types.ArrayRoot || !c.Args[0].Elem.IsComparable() {
					return nil, invalidArgs(c)
				}
				return c.Args[0].Elem.WithNullable(true), nil
			}, alwaysNull: true,
			eval: func(_ *Ctx, v []any) (any, error) {
				var best any
				for _, x := range v[0].([]any) {
					if x != nil && (best == nil || compareAny(x, best)*want > 0) {
						best = x
					}
				}
				return best, nil
			}})
	}
	extreme("ARRAY_MAX", 1)
	extreme("ARRAY_MIN", -1)
	registerRowFn(rowFn{name: "ARRAY_JOIN", category: "Collection", args: []argKind{kArray, kString, kString}, min: 2, max: 3,
		sig: "ARRAY_JOIN(array, delimiter[, nullReplacement]) -> STRING of the string elements joined by delimiter; NULL elements replaced or omitted",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			if c.Args[0].Root != types.ArrayRoot || !c.Args[0].Elem.IsString() && c.Args[0].Elem.Root != types.Null {
				return nil, invalidArgs(c)
			}
			return types.StringType(), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			var parts []string
			for _, x := range v[0].([]any) {
				switch {
				case x != nil:
					parts = append(parts, x.(string))
				case len(v) == 3:
					parts = append(parts, v[2].(string))
				}
			}
			return strings.Join(parts, v[1].(string)), nil
		}})

	mapOf := func(c *InferCtx) (*types.DataType, error) {
		if c.Args[0].Root != types.MapRoot {
			return nil, invalidArgs(c)
		}
		return c.Args[0], nil
	}
	registerRowFn(rowFn{name: "MAP_KEYS", category: "Collection", args: []argKind{kMap},
		sig: "MAP_KEYS(map) -> ARRAY of the keys",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			t, err := mapOf(c)
			if err != nil {
				return nil, err
			}
			return types.ArrayType(t.Key), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) { return append([]any{}, v[0].(*types.Map).Keys...), nil }})
	registerRowFn(rowFn{name: "MAP_VALUES", category: "Collection", args: []argKind{kMap},
		sig: "MAP_VALUES(map) -> ARRAY of the values",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			t, err := mapOf(c)
			if err != nil {
				return nil, err
			}
			return types.ArrayType(t.Value), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) { return append([]any{}, v[0].(*types.Map).Values...), nil }})
	registerRowFn(rowFn{name: "MAP_ENTRIES", category: "Collection", args: []argKind{kMap},
		sig: "MAP_ENTRIES(map) -> ARRAY<ROW<key, value>> of the entries",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			t, err := mapOf(c)
			if err != nil {
				return nil, err
			}
			return types.ArrayType(types.RowType(types.NewField("key", t.Key), types.NewField("value", t.Value)).NotNull()), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			m := v[0].(*types.Map)
			out := make([]any, m.Len())
			for i := range m.Keys {
				out[i] = &types.Row{Kind: types.Insert, Values: []any{m.Keys[i], m.Values[i]}, Names: []string{"key", "value"}}
			}
			return out, nil
		}})
	registerRowFn(rowFn{name: "MAP_UNION", category: "Collection", args: []argKind{kMap}, min: 1, max: -1,
		sig: "MAP_UNION(map1, ...) -> the maps merged; later maps win on equal keys; NULL if any is NULL",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			ct := types.CommonType(c.Args...)
			if ct == nil || ct.Root != types.MapRoot {
				return nil, invalidArgs(c)
			}
			for i := range c.Args {
				c.CastArg(i, ct.WithNullable(c.Args[i].Nullable))
			}
			return ct, nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			out := &types.Map{}
			for _, x := range v {
				m := x.(*types.Map)
				for i, k := range m.Keys {
					if j := indexOfKey(out, k); j >= 0 {
						out.Values[j] = m.Values[i]
						continue
					}
					out.Keys = append(out.Keys, k)
					out.Values = append(out.Values, m.Values[i])
				}
			}
			return out, nil
		}})
	registerRowFn(rowFn{name: "MAP_FROM_ARRAYS", category: "Collection", args: []argKind{kArray, kArray},
		sig: "MAP_FROM_ARRAYS(array_of_keys, array_of_values) -> MAP of the pairs; the arrays must have the same length",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			return types.MapType(arrayElem(c.Args[0]), arrayElem(c.Args[1])), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			ks, vs := v[0].([]any), v[1].([]any)
			if len(ks) != len(vs) {
				return nil, &EvalError{Func: "MAP_FROM_ARRAYS", Msg: fmt.Sprintf("Invalid function MAP_FROM_ARRAYS call:\nThe length of the keys array %d is not equal to the length of the values array %d", len(ks), len(vs))}
			}
			out := &types.Map{}
			for i, k := range ks {
				if j := indexOfKey(out, k); j >= 0 {
					out.Values[j] = vs[i]
					continue
				}
				out.Keys = append(out.Keys, k)
				out.Values = append(out.Values, vs[i])
			}
			return out, nil
		}})
}

// compareAny orders two non-NULL Go values of the same logical type.
func compareAny(a, b any) int {
	switch x := a.(type) {
	case int8:
		return cmpOrdered(x, b.(int8))
	case int16:
		return cmpOrdered(x, b.(int16))
	case int32:
		return cmpOrdered(x, b.(int32))
	case int64:
		return cmpOrdered(x, b.(int64))
	case float32:
		return cmpOrdered(x, b.(float32))
	case float64:
		return cmpOrdered(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return strings.Compare(string(x), string(b.([]byte)))
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case types.Decimal:
		return x.Cmp(b.(types.Decimal))
	case types.Date:
		return cmpOrdered(x, b.(types.Date))
	case types.LocalTime:
		return cmpOrdered(x, b.(types.LocalTime))
	case types.Months:
		return cmpOrdered(x, b.(types.Months))
	case time.Duration:
		return cmpOrdered(x, b.(time.Duration))
	case time.Time:
		return x.Compare(b.(time.Time))
	}
	return strings.Compare(types.FormatValue(a), types.FormatValue(b))
}

func cmpOrdered[T ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
