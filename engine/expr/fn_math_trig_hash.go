package expr

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Math functions of Flink's "arithmetic" list beyond the basics: the
// trigonometric and hyperbolic functions, DEGREES, RADIANS, ATAN2, SIGN,
// E, LOG, TRUNCATE, RAND, RAND_INTEGER, BIN, HEX, UNHEX; and the hash
// functions MD5, SHA1, SHA224, SHA256, SHA384, SHA512, SHA2.

func init() {
	dbl := func(name, desc string, f func(float64) float64) {
		Builtins.Register(&Function{Name: name, Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
			Signatures: []string{name + "(numeric) -> DOUBLE, " + desc},
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
	dbl("SIN", "the sine", math.Sin)
	dbl("COS", "the cosine", math.Cos)
	dbl("TAN", "the tangent", math.Tan)
	dbl("COT", "the cotangent", func(x float64) float64 { return 1 / math.Tan(x) })
	dbl("ASIN", "the arc sine", math.Asin)
	dbl("ACOS", "the arc cosine", javaAcos)
	dbl("ATAN", "the arc tangent", math.Atan)
	dbl("SINH", "the hyperbolic sine", math.Sinh)
	dbl("COSH", "the hyperbolic cosine", math.Cosh)
	dbl("TANH", "the hyperbolic tangent", math.Tanh)
	dbl("DEGREES", "radians converted to degrees", func(x float64) float64 { return x * 180 / math.Pi })
	dbl("RADIANS", "degrees converted to radians", func(x float64) float64 { return x / 180 * math.Pi })
	binaryDoubleFn("ATAN2", "ATAN2(numeric1, numeric2) -> DOUBLE, the arc tangent of the point (numeric1, numeric2)", math.Atan2)
	Builtins.Register(&Function{Name: "E", Category: "Arithmetic", MinArgs: 0, MaxArgs: 0,
		Signatures: []string{"E() -> DOUBLE NOT NULL, Euler's number"},
		Infer:      func(c *InferCtx) (*types.DataType, error) { return types.DoubleType().NotNull(), nil },
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return ConstVec(math.E, ret), nil }, nil
		}})
	registerRowFn(rowFn{name: "LOG", category: "Arithmetic", args: []argKind{kDouble, kDouble}, min: 1, max: 2,
		sig: "LOG(numeric2) or LOG(numeric1, numeric2) -> DOUBLE, the natural logarithm or the logarithm of numeric2 to the base numeric1",
		ret: types.DoubleType(),
		eval: func(_ *Ctx, v []any) (any, error) {
			if len(v) == 1 {
				return math.Log(v[0].(float64)), nil
			}
			base, x := v[0].(float64), v[1].(float64)
			if base <= 1 || x <= 0 {
				return nil, &EvalError{Func: "LOG", Msg: "the base must be greater than 1 and the value greater than 0, got LOG(" +
					types.FormatDoubleJava(base) + ", " + types.FormatDoubleJava(x) + ")"}
			}
			return math.Log(x) / math.Log(base), nil
		}})
	Builtins.Register(&Function{Name: "SIGN", Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
		Signatures: []string{"SIGN(numeric) -> the signum, of the argument's type"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := numericArg(c); err != nil {
				return nil, err
			}
			return c.Args[0].WithTimeAttr(types.NoTimeAttr), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, false, func(v []any) (any, error) { return signValue(v[0], ret), nil })
			}, nil
		}})
	Builtins.Register(&Function{Name: "TRUNCATE", Category: "Arithmetic", MinArgs: 1, MaxArgs: 2,
		Signatures: []string{"TRUNCATE(numeric1[, integer2]) -> numeric1 truncated to integer2 (default 0) decimal places"},
		Infer:      mustLookup("ROUND").Infer,
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, false, func(v []any) (any, error) {
					digits := 0
					if len(v) == 2 {
						digits = int(v[1].(int32))
					}
					return truncateValue(v[0], digits, ret), nil
				})
			}, nil
		}})
	randFn := func(name, sig string, isInt bool) {
		Builtins.Register(&Function{Name: name, Category: "Arithmetic", NonDeterministic: true,
			MinArgs: map[bool]int{false: 0, true: 1}[isInt], MaxArgs: map[bool]int{false: 1, true: 2}[isInt],
			Signatures: []string{sig},
			Infer: func(c *InferCtx) (*types.DataType, error) {
				for i, t := range c.Args {
					if !t.IsIntegral() && t.Root != types.Null {
						return nil, invalidArgs(c)
					}
					c.CastArg(i, types.IntType())
				}
				if isInt {
					return types.IntType().WithNullable(anyNullable(c.Args)), nil
				}
				return types.DoubleType().WithNullable(anyNullable(c.Args)), nil
			},
			// every call site (and operator instance) has its own
			// generator, as Flink's generated code keeps a java.util.Random
			// per call: RAND(42) = RAND(42) is TRUE
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				seeded := len(args) == 2 || !isInt && len(args) == 1
				var gen *javaRandom
				var mu sync.Mutex
				return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
					mu.Lock()
					defer mu.Unlock()
					if gen == nil {
						if seeded {
							if a[0].Const && a[0].Val == nil {
								return ConstVec(nil, ret), nil
							}
							gen = newJavaRandom(intArg(a[0].Value(0)))
						} else {
							gen = newJavaRandom(time.Now().UnixNano())
						}
					}
					if isInt {
						bv := a[len(a)-1]
						if bv.IsNullConst() {
							return ConstVec(nil, ret), nil
						}
						out := make([]int32, n)
						for i := range out {
							bound := bv.Value(i).(int32)
							if bound <= 0 {
								return nil, &EvalError{Func: name, Msg: "bound must be positive, got " + strconv.Itoa(int(bound))}
							}
							out[i] = gen.nextInt(bound)
						}
						return ArrVec(vector.FromValues(arrowType(ret), out, nil, -1), ret), nil
					}
					out := make([]float64, n)
					for i := range out {
						out[i] = gen.nextDouble()
					}
					return ArrVec(vector.FromValues(arrowType(ret), out, nil, -1), ret), nil
				}, nil
			}})
	}
	randFn("RAND", "RAND([seed]) -> DOUBLE NOT NULL in [0.0, 1.0); the same seed gives the same sequence", false)
	randFn("RAND_INTEGER", "RAND_INTEGER([seed, ] bound) -> INT NOT NULL in [0, bound); the same seed and bound give the same sequence", true)
	registerRowFn(rowFn{name: "BIN", category: "Arithmetic", args: []argKind{kLong},
		sig: "BIN(integer) -> STRING, the binary representation (two's complement for negative numbers)", ret: types.StringType(),
		eval: func(_ *Ctx, v []any) (any, error) { return strconv.FormatUint(uint64(v[0].(int64)), 2), nil }})
	registerRowFn(rowFn{name: "HEX", category: "Arithmetic", args: []argKind{kAny},
		sig: "HEX(integer or string) -> STRING, the upper-case hexadecimal representation",
		retFn: func(c *InferCtx) (*types.DataType, error) {
			t := c.Args[0]
			switch {
			case t.IsIntegral():
				c.CastArg(0, types.BigIntType())
			case t.IsString(), t.IsBinary(), t.Root == types.Null:
			default:
				return nil, invalidArgs(c)
			}
			return types.StringType(), nil
		},
		eval: func(_ *Ctx, v []any) (any, error) {
			switch x := v[0].(type) {
			case int64:
				return strings.ToUpper(strconv.FormatUint(uint64(x), 16)), nil
			case string:
				return strings.ToUpper(hex.EncodeToString([]byte(x))), nil
			case []byte:
				return strings.ToUpper(hex.EncodeToString(x)), nil
			}
			return nil, nil
		}})
	registerRowFn(rowFn{name: "UNHEX", category: "Arithmetic", args: []argKind{kString},
		sig: "UNHEX(expr) -> BYTES decoded from hexadecimal (an odd length gets a leading 0); NULL for non-hex input",
		ret: types.BytesType(), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			s := v[0].(string)
			if len(s)%2 == 1 {
				s = "0" + s
			}
			b, err := hex.DecodeString(s)
			if err != nil {
				return nil, nil
			}
			return b, nil
		}})
	hashFn := func(name string, h func() hash.Hash, digits int) {
		registerRowFn(rowFn{name: name, category: "Hash", args: []argKind{kStrOrBin},
			sig: name + "(string) -> STRING of " + strconv.Itoa(digits) + " hexadecimal digits", ret: types.StringType(),
			eval: func(_ *Ctx, v []any) (any, error) {
				hh := h()
				hh.Write([]byte(str(v[0])))
				return hex.EncodeToString(hh.Sum(nil)), nil
			}})
	}
	hashFn("MD5", md5.New, 32)
	hashFn("SHA1", sha1.New, 40)
	hashFn("SHA224", sha256.New224, 56)
	hashFn("SHA256", sha256.New, 64)
	hashFn("SHA384", sha512.New384, 96)
	hashFn("SHA512", sha512.New, 128)
	registerRowFn(rowFn{name: "SHA2", category: "Hash", args: []argKind{kStrOrBin, kInt},
		sig: "SHA2(string, hashLength) -> STRING, the SHA-224, SHA-256, SHA-384 or SHA-512 hash in hexadecimal",
		ret: types.StringType(), alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			var h hash.Hash
			switch v[1].(int32) {
			case 224:
				h = sha256.New224()
			case 256:
				h = sha256.New()
			case 384:
				h = sha512.New384()
			case 512:
				h = sha512.New()
			default:
				return nil, nil
			}
			h.Write([]byte(str(v[0])))
			return hex.EncodeToString(h.Sum(nil)), nil
		}})
}

// signValue returns -1, 0 or 1 in the representation of type t.
func signValue(v any, t *types.DataType) any {
	switch x := v.(type) {
	case types.Decimal:
		s := int64(x.Unscaled.Sign())
		d, _ := types.DecimalFromInt64(s, 0).Rescale(int32(t.Scale), 0)
		return d
	case float64:
		switch {
		case x > 0:
			return 1.0
		case x < 0:
			return -1.0
		}
		return x
	case float32:
		switch {
		case x > 0:
			return float32(1)
		case x < 0:
			return float32(-1)
		}
		return x
	}
	i, _ := toInt64(v)
	switch {
	case i > 0:
		i = 1
	case i < 0:
		i = -1
	}
	return narrowInt(i, t)
}

// truncateValue cuts v to digits decimal places toward zero (digits may be
// negative: TRUNCATE(42, -1) = 40).
func truncateValue(v any, digits int, ret *types.DataType) any {
	switch x := v.(type) {
	case types.Decimal:
		return decimalRoundTo(x, digits, true, ret)
	case float64:
		return truncFloat(x, digits)
	case float32:
		return float32(truncFloat(float64(x), digits))
	}
	i, _ := toInt64(v)
	if digits >= 0 {
		return v
	}
	return narrowInt(intRoundTo(i, digits, true), ret)
}

func truncFloat(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || digits > 400 {
		return x
	}
	if digits < -400 {
		return 0
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		return x
	}
	num := new(big.Int).Set(r.Num())
	den := new(big.Int).Set(r.Denom())
	if digits >= 0 {
		num.Mul(num, pow10Big(digits))
		num.Quo(num, den)
		f, _ := new(big.Rat).SetFrac(num, pow10Big(digits)).Float64()
		return f
	}
	p := pow10Big(-digits)
	num.Quo(num, den)
	num.Quo(num, p)
	num.Mul(num, p)
	f, _ := new(big.Rat).SetInt(num).Float64()
	return f
}

// javaRandom is java.util.Random (a 48-bit linear congruential generator),
// so that seeded RAND/RAND_INTEGER produce Flink's sequences.
type javaRandom struct{ seed int64 }

func newJavaRandom(seed int64) *javaRandom {
	return &javaRandom{seed: (seed ^ 0x5DEECE66D) & (1<<48 - 1)}
}

func (r *javaRandom) next(bits uint) int32 {
	r.seed = (r.seed*0x5DEECE66D + 0xB) & (1<<48 - 1)
	return int32(r.seed >> (48 - bits))
}

func (r *javaRandom) nextDouble() float64 {
	return float64(int64(r.next(26))<<27+int64(r.next(27))) * (1.0 / float64(int64(1)<<53))
}

func (r *javaRandom) nextInt(bound int32) int32 {
	if bound&(-bound) == bound {
		return int32((int64(bound) * int64(r.next(31))) >> 31)
	}
	for {
		bits := r.next(31)
		val := bits % bound
		if bits-val+(bound-1) >= 0 {
			return val
		}
	}
}
