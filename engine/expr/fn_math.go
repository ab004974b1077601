package expr

import (
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
)

// Math functions: ABS, ROUND, FLOOR, CEIL, POWER, SQRT, LN, LOG10, LOG2,
// EXP, SIGN, PI.

func numericArg(c *InferCtx) error {
	for _, t := range c.Args {
		if !t.IsNumeric() && t.Root != types.Null {
			return invalidArgs(c)
		}
	}
	return nil
}

func init() {
	Builtins.Register(&Function{Name: "ABS", Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
		Signatures: []string{"ABS(numeric) -> same type"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := numericArg(c); err != nil {
				return nil, err
			}
			return c.Args[0].WithTimeAttr(types.NoTimeAttr), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				switch ret.Root {
				case types.TinyInt:
					return unaryFixed(a[0], n, ret, func(x int8) int8 { return absInt(x) }), nil
				case types.SmallInt:
					return unaryFixed(a[0], n, ret, func(x int16) int16 { return absInt(x) }), nil
				case types.Integer:
					return unaryFixed(a[0], n, ret, func(x int32) int32 { return absInt(x) }), nil
				case types.BigInt:
					return unaryFixed(a[0], n, ret, func(x int64) int64 { return absInt(x) }), nil
				case types.Float:
					return unaryFixed(a[0], n, ret, func(x float32) float32 { return float32(math.Abs(float64(x))) }), nil
				case types.Double:
					return unaryFixed(a[0], n, ret, math.Abs), nil
				case types.DecimalRoot:
					return unaryFixed(a[0], n, ret, func(x decimal128.Num) decimal128.Num { return x.Abs() }), nil
				}
				return ConstVec(nil, ret), nil
			}, nil
		}})

	Builtins.Register(&Function{Name: "ROUND", Category: "Arithmetic", MinArgs: 1, MaxArgs: 2,
		Signatures: []string{"ROUND(numeric[, integer]) -> numeric rounded HALF_UP to integer decimal places"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := numericArg(c); err != nil {
				return nil, err
			}
			r := 0
			if len(c.Args) == 2 {
				if !c.Args[1].IsIntegral() {
					return nil, invalidArgs(c)
				}
				c.CastArg(1, types.IntType())
				if l := c.Literals[1]; l != nil && l.Value != nil {
					if v, ok := toInt64(l.Value); ok {
						r = int(v)
					}
				}
			}
			t := c.Args[0]
			if t.Root == types.DecimalRoot {
				return types.DecimalRoundType(t.Precision, t.Scale, r).WithNullable(anyNullable(c.Args)), nil
			}
			return t.WithNullable(anyNullable(c.Args)).WithTimeAttr(types.NoTimeAttr), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, false, func(v []any) (any, error) {
					digits := 0
					if len(v) == 2 {
						digits = int(v[1].(int32))
					}
					return roundValue(v[0], digits, ret), nil
				})
			}, nil
		}})

	floorCeil := func(name string, ceil bool) {
		Builtins.Register(&Function{Name: name, Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
			Signatures: []string{name + "(numeric)"},
			Infer: func(c *InferCtx) (*types.DataType, error) {
				if err := numericArg(c); err != nil {
					return nil, err
				}
				t := c.Args[0]
				if t.Root == types.DecimalRoot {
					p := t.Precision - t.Scale
					if t.Scale > 0 {
						p++
					}
					return types.DecimalType(min(max(p, 1), types.MaxDecimalPrecision), 0).WithNullable(t.Nullable), nil
				}
				return t.WithTimeAttr(types.NoTimeAttr), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
					switch ret.Root {
					case types.Float:
						f := math.Floor
						if ceil {
							f = math.Ceil
						}
						return unaryFixed(a[0], n, ret, func(x float32) float32 { return float32(f(float64(x))) }), nil
					case types.Double:
						if ceil {
							return unaryFixed(a[0], n, ret, math.Ceil), nil
						}
						return unaryFixed(a[0], n, ret, math.Floor), nil
					case types.DecimalRoot:
						scale := args[0].Scale
						return rowWise(a, n, ret, false, func(v []any) (any, error) {
							d := v[0].(types.Decimal)
							q, m := new(big.Int).DivMod(d.Unscaled.BigInt(), pow10[scale], new(big.Int))
							// DivMod is Euclidean: q is floor for positive divisor
							if ceil && m.Sign() != 0 {
								q.Add(q, big.NewInt(1))
							}
							return types.DecimalFromBig(q, 0)
						})
					}
					return a[0], nil // integers are unchanged
				}, nil
			}})
	}
	floorCeil("FLOOR", false)
	floorCeil("CEIL", true)
	Builtins.Register(mustLookup("CEIL"), "CEILING")

	doubleFn := func(name, sig string, f func(float64) float64) {
		Builtins.Register(&Function{Name: name, Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
			Signatures: []string{sig},
			Infer: func(c *InferCtx) (*types.DataType, error) {
				if err := numericArg(c); err != nil {
					return nil, err
				}
				c.CastArg(0, types.DoubleType())
				return types.DoubleType().WithNullable(c.Args[0].Nullable), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return unaryFixed(a[0], n, ret, f), nil }, nil
			}})
	}
	doubleFn("SQRT", "SQRT(numeric) -> DOUBLE", math.Sqrt)
	doubleFn("LN", "LN(numeric) -> DOUBLE, natural logarithm", math.Log)
	doubleFn("LOG10", "LOG10(numeric) -> DOUBLE", math.Log10)
	doubleFn("LOG2", "LOG2(numeric) -> DOUBLE", math.Log2)
	doubleFn("EXP", "EXP(numeric) -> DOUBLE, e raised to the power", math.Exp)
	Builtins.Register(&Function{Name: "POWER", Category: "Arithmetic", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"POWER(numeric1, numeric2) -> DOUBLE"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := numericArg(c); err != nil {
				return nil, err
			}
			c.CastArg(0, types.DoubleType())
			c.CastArg(1, types.DoubleType())
			return types.DoubleType().WithNullable(anyNullable(c.Args)), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return binaryFixed(a[0], a[1], n, ret, math.Pow), nil }, nil
		}})
	Builtins.Register(&Function{Name: "PI", Category: "Arithmetic", MinArgs: 0, MaxArgs: 0,
		Signatures: []string{"PI() -> DOUBLE"},
		Infer:      func(c *InferCtx) (*types.DataType, error) { return types.DoubleType().NotNull(), nil },
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return ConstVec(math.Pi, ret), nil }, nil
		}})
}

func mustLookup(name string) *Function {
	f, ok := Builtins.Lookup(name)
	if !ok {
		panic("expr: missing builtin " + name)
	}
	return f
}

func absInt[T integer](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// roundValue rounds HALF_UP (Java BigDecimal.ROUND_HALF_UP, as Flink does
// for every numeric type) to digits decimal places.
func roundValue(v any, digits int, ret *types.DataType) any {
	switch x := v.(type) {
	case types.Decimal:
		d, err := types.DecimalFromRat(x.Rat(), int32(max(digits, 0)))
		if err != nil {
			return nil
		}
		if digits < 0 {
			r := new(big.Rat).SetFrac(d.Unscaled.BigInt(), pow10[-digits])
			q, _ := types.DecimalFromRat(r, 0)
			q.Unscaled = q.Unscaled.Mul(decimal128.FromBigInt(pow10[-digits]))
			d = q
		}
		out, err := d.Rescale(int32(ret.Scale), int32(ret.Precision))
		if err != nil {
			return nil
		}
		return out
	case float64:
		return roundFloat(x, digits)
	case float32:
		return float32(roundFloat(float64(x), digits))
	}
	i, _ := toInt64(v)
	if digits >= 0 {
		return v
	}
	p := int64(math.Pow10(-digits))
	q := i / p
	r := i % p
	if absInt(r)*2 >= p {
		if i < 0 {
			q--
		} else {
			q++
		}
	}
	return narrowInt(q*p, ret)
}

func roundFloat(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, ok := new(big.Rat).SetString(formatG(x))
	if !ok {
		return x
	}
	d, err := types.DecimalFromRat(r, int32(max(digits, 0)))
	if err != nil {
		return x
	}
	if digits < 0 {
		p := math.Pow10(-digits)
		return math.Round(x/p) * p
	}
	// The nearest double to the rounded decimal (Decimal.Float64 scales by
	// a power of ten and would give 13.700000000000001 for 13.7).
	if f, err := strconv.ParseFloat(d.String(), 64); err == nil {
		return f
	}
	return d.Float64()
}

func formatG(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
