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
	binaryDoubleFn("POWER", "POWER(numeric1, numeric2) -> DOUBLE", math.Pow)
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
		return decimalRoundTo(x, digits, false, ret)
	case float64:
		return roundFloat(x, digits)
	case float32:
		return float32(roundFloat(float64(x), digits))
	}
	i, _ := toInt64(v)
	if digits >= 0 {
		return v
	}
	return narrowInt(intRoundTo(i, digits, false), ret)
}

// pow10Big is 10^n for 0 <= n (cached below 80).
func pow10Big(n int) *big.Int {
	if n < len(pow10) {
		return pow10[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// decimalRoundTo rounds (HALF_UP) or truncates a decimal to digits
// decimal places (negative: to tens, hundreds, ...) and fits the result to
// ret, as Flink's SqlFunctionUtils.sround / struncate do with BigDecimal
// setScale. A rounding position past the value's own scale keeps the value
// (ROUND(123.456, 38) is 123.456); one past 38 digits to the left gives 0.
func decimalRoundTo(x types.Decimal, digits int, truncate bool, ret *types.DataType) any {
	d := x
	if digits < int(x.Scale) {
		drop := int(x.Scale) - digits
		u := x.Unscaled.BigInt()
		if drop > 2*types.MaxDecimalPrecision {
			u.SetInt64(0)
		} else {
			p := pow10Big(drop)
			q, r := new(big.Int).QuoRem(u, p, new(big.Int))
			if !truncate && new(big.Int).Mul(r.Abs(r), big.NewInt(2)).Cmp(p) >= 0 {
				if u.Sign() < 0 {
					q.Sub(q, big.NewInt(1))
				} else {
					q.Add(q, big.NewInt(1))
				}
			}
			u = q
		}
		scale := int32(max(digits, 0))
		if digits < 0 && u.Sign() != 0 {
			// |u| >= 1 here, so -digits <= 2*38
			u.Mul(u, pow10Big(-digits))
		}
		var err error
		if d, err = types.DecimalFromBig(u, scale); err != nil {
			return nil
		}
	}
	out, err := d.Rescale(int32(ret.Scale), int32(ret.Precision))
	if err != nil {
		return nil
	}
	return out
}

// intRoundTo rounds (HALF_UP) or truncates an integer to a negative
// number of digits; the result wraps to 64 bits as Java's
// BigDecimal.longValue does.
func intRoundTo(i int64, digits int, truncate bool) int64 {
	if -digits > 19 {
		return 0
	}
	p := pow10Big(-digits)
	u := big.NewInt(i)
	q, r := new(big.Int).QuoRem(u, p, new(big.Int))
	if !truncate && new(big.Int).Mul(r.Abs(r), big.NewInt(2)).Cmp(p) >= 0 {
		if i < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	q.Mul(q, p)
	if q.IsInt64() {
		return q.Int64()
	}
	// the low 64 bits, two's complement (And works so on negatives)
	return int64(new(big.Int).And(q, new(big.Int).SetUint64(math.MaxUint64)).Uint64())
}

func roundFloat(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || digits > 400 {
		// a double has no digits 400 places after the point
		return x
	}
	if digits < -308 {
		return 0
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

// binaryDoubleFn registers a function of two numeric arguments, both cast
// to DOUBLE, computing f; the result is DOUBLE, NULL when either argument
// is NULL.
func binaryDoubleFn(name, sig string, f func(float64, float64) float64) {
	Builtins.Register(&Function{Name: name, Category: "Arithmetic", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{sig},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := numericArg(c); err != nil {
				return nil, err
			}
			c.CastArg(0, types.DoubleType())
			c.CastArg(1, types.DoubleType())
			return types.DoubleType().WithNullable(anyNullable(c.Args)), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return binaryFixed(a[0], a[1], n, ret, f), nil }, nil
		}})
}
