package expr

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Logical operators with SQL three-valued logic, NULL tests, and the
// conditional functions CASE, COALESCE, IF, NULLIF, IFNULL. AND, OR, CASE,
// IF and COALESCE are lazy: a branch is evaluated only on the rows that
// need it, so `b <> 0 AND a / b > 1` never divides by zero.

// tri is a three-valued truth value: 0 false, 1 true, 2 unknown.
type tri = uint8

func triOf(v *Vec, n int) []tri {
	out := make([]tri, n)
	if v.Const {
		t := tri(2)
		if v.Val != nil {
			if v.Val.(bool) {
				t = 1
			} else {
				t = 0
			}
		}
		for i := range out {
			out[i] = t
		}
		return out
	}
	b := v.Arr.(*array.Boolean)
	for i := 0; i < n; i++ {
		switch {
		case b.IsNull(i):
			out[i] = 2
		case b.Value(i):
			out[i] = 1
		}
	}
	return out
}

func triVec(ts []tri, t *types.DataType) *Vec {
	vals := make([]bool, len(ts))
	var valid []byte
	for i, x := range ts {
		vals[i] = x == 1
		if x == 2 {
			if valid == nil {
				valid = vector.AllValid(len(ts))
			}
			vector.ClearBit(valid, i)
		}
	}
	return ArrVec(vector.Bools(vals, valid), t)
}

func boolInfer(min int) func(c *InferCtx) (*types.DataType, error) {
	return func(c *InferCtx) (*types.DataType, error) {
		for _, a := range c.Args {
			if a.Root != types.Boolean && a.Root != types.Null {
				return nil, typeErrorf("Cannot apply '%s' to arguments of type '%s'. Supported form(s): '<BOOLEAN> %s <BOOLEAN>'", c.Name, argList(c.Args), c.Name)
			}
		}
		return types.BooleanType().WithNullable(anyNullable(c.Args)), nil
	}
}

func argList(ts []*types.DataType) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += "<" + calciteName(t) + ">"
	}
	return s
}

// andOr evaluates AND (isAnd) or OR lazily over any number of operands.
func andOr(isAnd bool) func(ctx *Ctx, args *LazyArgs, _ []*types.DataType, ret *types.DataType) (*Vec, error) {
	decisive := tri(0) // AND: false decides
	if !isAnd {
		decisive = 1
	}
	return func(ctx *Ctx, args *LazyArgs, _ []*types.DataType, ret *types.DataType) (*Vec, error) {
		n := args.Len()
		first, err := args.Eval(ctx, 0, nil)
		if err != nil {
			return nil, err
		}
		acc := triOf(first, n)
		for k := 1; k < args.Count(); k++ {
			// rows not yet decided
			var sel []int32
			for i, t := range acc {
				if t != decisive {
					sel = append(sel, int32(i))
				}
			}
			if len(sel) == 0 {
				break
			}
			v, full, err := args.EvalCovering(ctx, k, sel)
			if err != nil {
				return nil, err
			}
			if full {
				part := triOf(v, n)
				for _, i := range sel {
					acc[i] = combine(isAnd, acc[i], part[i])
				}
				continue
			}
			part := triOf(v, len(sel))
			for k, i := range sel {
				acc[i] = combine(isAnd, acc[i], part[k])
			}
		}
		return triVec(acc, ret), nil
	}
}

func combine(isAnd bool, x, y tri) tri {
	if isAnd {
		switch {
		case x == 0 || y == 0:
			return 0
		case x == 2 || y == 2:
			return 2
		}
		return 1
	}
	switch {
	case x == 1 || y == 1:
		return 1
	case x == 2 || y == 2:
		return 2
	}
	return 0
}

func init() {
	Builtins.Register(&Function{Name: "AND", Category: "Logical", MinArgs: 2, MaxArgs: -1,
		Signatures: []string{"boolean1 AND boolean2"}, Infer: boolInfer(2), Lazy: andOr(true)})
	Builtins.Register(&Function{Name: "OR", Category: "Logical", MinArgs: 2, MaxArgs: -1,
		Signatures: []string{"boolean1 OR boolean2"}, Infer: boolInfer(2), Lazy: andOr(false)})
	Builtins.Register(&Function{Name: "NOT", Category: "Logical", MinArgs: 1, MaxArgs: 1,
		Signatures: []string{"NOT boolean"}, Infer: boolInfer(1),
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				if a[0].Const {
					if a[0].Val == nil {
						return ConstVec(nil, ret), nil
					}
					return ConstVec(!a[0].Val.(bool), ret), nil
				}
				ts := triOf(a[0], n)
				for i, t := range ts {
					if t < 2 {
						ts[i] = 1 - t
					}
				}
				return triVec(ts, ret), nil
			}, nil
		}})
	nullTest := func(name string, f func(null bool, t tri) bool, boolOnly bool) {
		Builtins.Register(&Function{Name: name, Category: "Logical", MinArgs: 1, MaxArgs: 1,
			Signatures: []string{"value " + name},
			Infer: func(c *InferCtx) (*types.DataType, error) {
				if boolOnly && c.Args[0].Root != types.Boolean && c.Args[0].Root != types.Null {
					return nil, typeErrorf("Cannot apply '%s' to arguments of type '<%s> %s'. Supported form(s): '<BOOLEAN> %s'", name, calciteName(c.Args[0]), name, name)
				}
				return types.BooleanType().NotNull(), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
					out := make([]bool, n)
					var ts []tri
					if boolOnly {
						ts = triOf(a[0], n)
					}
					for i := 0; i < n; i++ {
						var t tri
						if ts != nil {
							t = ts[i]
						}
						out[i] = f(a[0].Null(i), t)
					}
					return ArrVec(vector.Bools(out, nil), ret), nil
				}, nil
			}})
	}
	nullTest("IS NULL", func(null bool, _ tri) bool { return null }, false)
	nullTest("IS NOT NULL", func(null bool, _ tri) bool { return !null }, false)
	nullTest("IS TRUE", func(_ bool, t tri) bool { return t == 1 }, true)
	nullTest("IS NOT TRUE", func(_ bool, t tri) bool { return t != 1 }, true)
	nullTest("IS FALSE", func(_ bool, t tri) bool { return t == 0 }, true)
	nullTest("IS NOT FALSE", func(_ bool, t tri) bool { return t != 0 }, true)
	nullTest("IS UNKNOWN", func(_ bool, t tri) bool { return t == 2 }, true)
	nullTest("IS NOT UNKNOWN", func(_ bool, t tri) bool { return t != 2 }, true)

	Builtins.Register(&Function{Name: "CASE", Category: "Conditional", MinArgs: 1, MaxArgs: -1,
		Signatures: []string{"CASE WHEN condition1 THEN result1 [WHEN ...] [ELSE resultZ] END"},
		Infer:      caseInfer, Lazy: caseEval})
	Builtins.Register(&Function{Name: "IF", Category: "Conditional", MinArgs: 3, MaxArgs: 3,
		Signatures: []string{"IF(condition, true_value, false_value)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			return caseInfer(c)
		}, Lazy: caseEval})
	Builtins.Register(&Function{Name: "COALESCE", Category: "Conditional", MinArgs: 1, MaxArgs: -1,
		Signatures: []string{"COALESCE(value1 [, value2]*)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			ct := types.CommonType(c.Args...)
			if ct == nil {
				return nil, typeErrorf("Could not find a common type for the arguments of COALESCE: %s", argList(c.Args))
			}
			nullable := true
			for i := range c.Args {
				c.CastArg(i, ct)
				if !c.Args[i].Nullable {
					nullable = false
				}
			}
			return ct.WithNullable(nullable), nil
		}, Lazy: coalesceEval})
	Builtins.Register(&Function{Name: "IFNULL", Category: "Conditional", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"IFNULL(input, null_replacement)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			ct := types.CommonType(c.Args...)
			if ct == nil {
				return nil, invalidArgs(c)
			}
			c.CastArg(0, ct)
			c.CastArg(1, ct)
			return ct.WithNullable(c.Args[1].Nullable), nil
		}, Lazy: coalesceEval})
	Builtins.Register(&Function{Name: "NULLIF", Category: "Conditional", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"NULLIF(value1, value2)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if comparisonType(c.Args[0], c.Args[1]) == nil {
				return nil, invalidArgs(c)
			}
			return c.Args[0].WithNullable(true).WithTimeAttr(types.NoTimeAttr), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			ct := comparisonType(args[0], args[1])
			eq, err := compareKernel("=", ct)
			if err != nil {
				return nil, err
			}
			return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
				x, err := castVec(ctx, a[0], ct, n)
				if err != nil {
					return nil, err
				}
				y, err := castVec(ctx, a[1], ct, n)
				if err != nil {
					return nil, err
				}
				r, err := eq(ctx, []*Vec{x, y}, n)
				if err != nil {
					return nil, err
				}
				src := a[0].Materialize(n)
				idx := make([]int32, n)
				for i := range idx {
					idx[i] = int32(i)
					if !r.Null(i) && r.Value(i).(bool) {
						idx[i] = -1
					}
				}
				return ArrVec(vector.Take(src, idx), ret), nil
			}, nil
		}})
}

// castVec casts a column to type t (used inside kernels).
func castVec(ctx *Ctx, v *Vec, t *types.DataType, n int) (*Vec, error) {
	if v.T.EqualsIgnoreNull(t) {
		return v, nil
	}
	k, err := castKernel(v.T, t, false)
	if err != nil {
		return nil, err
	}
	return k(ctx, []*Vec{v}, n)
}

// caseInfer types CASE WHEN c1 THEN r1 ... [ELSE e] given as arguments
// (c1, r1, c2, r2, ..., [e]); IF(c, a, b) has the same shape.
func caseInfer(c *InferCtx) (*types.DataType, error) {
	var results []*types.DataType
	nArgs := len(c.Args)
	for i := 0; i+1 < nArgs; i += 2 {
		if c.Args[i].Root != types.Boolean && c.Args[i].Root != types.Null {
			return nil, typeErrorf("Expected a boolean type for the CASE condition, but got %s", c.Args[i])
		}
		results = append(results, c.Args[i+1])
	}
	hasElse := nArgs%2 == 1
	if hasElse {
		results = append(results, c.Args[nArgs-1])
	}
	ct := types.CommonType(results...)
	if ct == nil || ct.Root == types.Null && !hasElse {
		return nil, typeErrorf("Illegal mixing of types in CASE or COALESCE statement: %s", argList(results))
	}
	nullable := !hasElse
	for _, r := range results {
		if r.Nullable {
			nullable = true
		}
	}
	for i := 1; i < nArgs; i += 2 {
		c.CastArg(i, ct)
	}
	if hasElse {
		c.CastArg(nArgs-1, ct)
	}
	return ct.WithNullable(nullable), nil
}

func caseEval(ctx *Ctx, args *LazyArgs, argTypes []*types.DataType, ret *types.DataType) (*Vec, error) {
	n := args.Len()
	which := make([]int8, n)
	pos := make([]int32, n)
	for i := range which {
		which[i] = -1
	}
	remaining := make([]int32, n)
	for i := range remaining {
		remaining[i] = int32(i)
	}
	nArgs := args.Count()
	var parts []*Vec
	for k := 0; k+1 < nArgs && len(remaining) > 0; k += 2 {
		cond, full, err := args.EvalCovering(ctx, k, remaining)
		if err != nil {
			return nil, err
		}
		var ts []tri
		if full {
			ts = triOf(cond, n)
		} else {
			ts = triOf(cond, len(remaining))
		}
		var hit, miss []int32
		for j, r := range remaining {
			if full {
				j = int(r)
			}
			if ts[j] == 1 {
				hit = append(hit, r)
			} else {
				miss = append(miss, r)
			}
		}
		if len(hit) > 0 {
			v, err := args.Eval(ctx, k+1, hit)
			if err != nil {
				return nil, err
			}
			for j, r := range hit {
				which[r] = int8(len(parts))
				pos[r] = int32(j)
			}
			parts = append(parts, v)
		}
		remaining = miss
	}
	if nArgs%2 == 1 && len(remaining) > 0 {
		v, err := args.Eval(ctx, nArgs-1, remaining)
		if err != nil {
			return nil, err
		}
		for j, r := range remaining {
			which[r] = int8(len(parts))
			pos[r] = int32(j)
		}
		parts = append(parts, v)
	}
	return ArrVec(scatter(ret, n, parts, which, pos), ret), nil
}

func coalesceEval(ctx *Ctx, args *LazyArgs, argTypes []*types.DataType, ret *types.DataType) (*Vec, error) {
	n := args.Len()
	which := make([]int8, n)
	pos := make([]int32, n)
	for i := range which {
		which[i] = -1
	}
	remaining := make([]int32, n)
	for i := range remaining {
		remaining[i] = int32(i)
	}
	var parts []*Vec
	for k := 0; k < args.Count(); k++ {
		if len(remaining) == 0 {
			break
		}
		v, err := args.Eval(ctx, k, remaining)
		if err != nil {
			return nil, err
		}
		var miss []int32
		used := false
		for j, r := range remaining {
			if v.Null(j) {
				miss = append(miss, r)
				continue
			}
			which[r] = int8(len(parts))
			pos[r] = int32(j)
			used = true
		}
		if used {
			parts = append(parts, v)
		}
		remaining = miss
	}
	if len(parts) == 1 && len(remaining) == 0 && !parts[0].Const && parts[0].Arr.Len() == n {
		return parts[0], nil
	}
	return ArrVec(scatter(ret, n, parts, which, pos), ret), nil
}
