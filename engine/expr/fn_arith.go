package expr

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Arithmetic operators + - * / % and unary minus, with Flink's result
// types: integers keep the wider integer type (INT / INT is INT, integer
// division), DECIMAL follows LogicalTypeMerging's precision/scale rules,
// anything with FLOAT/DOUBLE is approximate. Datetime ± interval is
// supported for + and -.

func arithInfer(op string) func(c *InferCtx) (*types.DataType, error) {
	return func(c *InferCtx) (*types.DataType, error) {
		a, b := c.Args[0], c.Args[1]
		nullable := a.Nullable || b.Nullable
		if a.Root == types.Null || b.Root == types.Null {
			other := a
			if a.Root == types.Null {
				other = b
			}
			if other.Root == types.Null {
				return nil, typeErrorf("Cannot apply '%s' to arguments of type '<NULL> %s <NULL>'", op, op)
			}
			return other.WithNullable(true), nil
		}
		if a.IsNumeric() && b.IsNumeric() {
			rt, err := numericResult(op, a, b)
			if err != nil {
				return nil, err
			}
			if op == "%" && a.Root == types.DecimalRoot && b.IsIntegral() {
				// Calcite's MOD takes the type of its second operand
				// (MathFunctionsITCase: DECIMAL(19, 0) % INT => INT); the
				// remainder is computed exactly in DECIMAL first
				p, s := types.DecimalPS(b)
				c.CastArg(1, types.DecimalType(p, s))
				return b.WithNullable(nullable).WithTimeAttr(types.NoTimeAttr), nil
			}
			if rt.Root == types.DecimalRoot {
				// keep decimal operands at their own scale; integers become DECIMAL(p, 0)
				for i, t := range c.Args {
					if t.Root != types.DecimalRoot {
						p, s := types.DecimalPS(t)
						c.CastArg(i, types.DecimalType(p, s))
					}
				}
			} else if op == "%" && a.IsIntegral() && b.IsIntegral() && a.IntegralRank() > b.IntegralRank() {
				// MOD takes the narrower type of its second operand, but
				// the remainder is computed in the first's (Flink's code
				// generation for '%' keeps operands that are not
				// interoperable): BIGINT 5000000000 % 3 is 2, not the
				// remainder of an INT cast that overflowed (arithKernel)
			} else {
				c.CastArg(0, rt)
				c.CastArg(1, rt)
			}
			return rt.WithNullable(nullable), nil
		}
		// datetime and interval arithmetic
		if op == "+" || op == "-" {
			switch {
			case a.IsDatetime() && b.IsInterval():
				if a.Root == types.TimeRoot && b.Root == types.IntervalYearMonthRoot {
					break
				}
				return a.WithNullable(nullable).WithTimeAttr(types.NoTimeAttr), nil
			case op == "+" && a.IsInterval() && b.IsDatetime():
				return b.WithNullable(nullable).WithTimeAttr(types.NoTimeAttr), nil
			case a.IsInterval() && b.IsInterval() && a.Root == b.Root:
				return types.CommonType(a, b), nil
			}
		}
		if op == "*" && ((a.IsInterval() && b.IsNumeric()) || (b.IsInterval() && a.IsNumeric())) {
			it := a
			if b.IsInterval() {
				it = b
			}
			return it.WithNullable(nullable), nil
		}
		if op == "/" && a.IsInterval() && b.IsNumeric() {
			return a.WithNullable(nullable), nil
		}
		return nil, typeErrorf("Cannot apply '%s' to arguments of type '<%s> %s <%s>'. Supported form(s): '<NUMERIC> %s <NUMERIC>'\n'<DATETIME_INTERVAL> %s <DATETIME_INTERVAL>'\n'<DATETIME> %s <DATETIME_INTERVAL>'",
			op, calciteName(a), op, calciteName(b), op, op, op)
	}
}

func numericResult(op string, a, b *types.DataType) (*types.DataType, error) {
	if a.IsApproxNumeric() || b.IsApproxNumeric() {
		ct := types.CommonType(a, b)
		if ct.Root == types.Float && (a.Root == types.DecimalRoot || b.Root == types.DecimalRoot) {
			ct = types.DoubleType()
		}
		return ct.WithNullable(false), nil
	}
	if a.Root == types.DecimalRoot || b.Root == types.DecimalRoot {
		p1, s1 := types.DecimalPS(a)
		p2, s2 := types.DecimalPS(b)
		switch op {
		case "+", "-":
			return types.DecimalAddType(p1, s1, p2, s2), nil
		case "*":
			return types.DecimalMulType(p1, s1, p2, s2), nil
		case "/":
			return types.DecimalDivType(p1, s1, p2, s2), nil
		case "%":
			return types.DecimalModType(p1, s1, p2, s2), nil
		}
	}
	// integers: the wider type, except that MOD takes the type of its
	// second operand (MathFunctionsITCase: BIGINT % INT => INT)
	if op == "%" {
		return b.WithNullable(false).WithTimeAttr(types.NoTimeAttr), nil
	}
	if b.IntegralRank() > a.IntegralRank() {
		return b.WithNullable(false).WithTimeAttr(types.NoTimeAttr), nil
	}
	return a.WithNullable(false).WithTimeAttr(types.NoTimeAttr), nil
}

func init() {
	for _, op := range []string{"+", "-", "*", "/", "%"} {
		op := op
		Builtins.Register(&Function{
			Name: op, Category: "Arithmetic", MinArgs: 2, MaxArgs: 2,
			Signatures: []string{"numeric1 " + op + " numeric2"},
			Infer:      arithInfer(op),
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return arithKernel(op, args[0], args[1], ret)
			},
		}, map[string]string{"+": "PLUS", "-": "MINUS", "*": "TIMES", "/": "DIVIDE", "%": "MOD_OP"}[op])
	}
	Builtins.Register(&Function{
		Name: "MOD", Category: "Arithmetic", MinArgs: 2, MaxArgs: 2,
		Signatures: []string{"MOD(numeric1, numeric2) -> remainder of numeric1 divided by numeric2"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsNumeric() || !c.Args[1].IsNumeric() {
				return nil, invalidArgs(c)
			}
			return arithInfer("%")(c)
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return arithKernel("%", args[0], args[1], ret)
		},
	})
	Builtins.Register(&Function{
		Name: "NEGATE", Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
		Signatures: []string{"- numeric"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsNumeric() && !c.Args[0].IsInterval() {
				return nil, invalidArgs(c)
			}
			return c.Args[0].WithTimeAttr(types.NoTimeAttr), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return negate(a[0], n, ret) }, nil
		},
	}, "UNARY_MINUS")
	Builtins.Register(&Function{
		Name: "UNARY_PLUS", Category: "Arithmetic", MinArgs: 1, MaxArgs: 1,
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsNumeric() && !c.Args[0].IsInterval() {
				return nil, invalidArgs(c)
			}
			return c.Args[0], nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return a[0], nil }, nil
		},
	})
}

func negate(a *Vec, n int, t *types.DataType) (*Vec, error) {
	switch t.Root {
	case types.TinyInt:
		return unaryFixed(a, n, t, func(x int8) int8 { return -x }), nil
	case types.SmallInt:
		return unaryFixed(a, n, t, func(x int16) int16 { return -x }), nil
	case types.Integer, types.IntervalYearMonthRoot:
		return unaryFixed(a, n, t, func(x int32) int32 { return -x }), nil
	case types.BigInt, types.IntervalDayTimeRoot:
		return unaryFixed(a, n, t, func(x int64) int64 { return -x }), nil
	case types.Float:
		return unaryFixed(a, n, t, func(x float32) float32 { return -x }), nil
	case types.Double:
		return unaryFixed(a, n, t, func(x float64) float64 { return -x }), nil
	case types.DecimalRoot:
		return unaryFixed(a, n, t, func(x decimal128.Num) decimal128.Num { return x.Negate() }), nil
	}
	return nil, fmt.Errorf("cannot negate %s", t)
}

var errDivZero = &EvalError{Func: "/", Msg: "division by zero"}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64
}

func intArith[T integer](op string) func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
	switch op {
	case "+":
		return func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
			return binaryFixed(a, b, n, t, func(x, y T) T { return x + y }), nil
		}
	case "-":
		return func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
			return binaryFixed(a, b, n, t, func(x, y T) T { return x - y }), nil
		}
	case "*":
		return func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
			return binaryFixed(a, b, n, t, func(x, y T) T { return x * y }), nil
		}
	case "/":
		return func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
			return binaryFixedErr(a, b, n, t, func(x, y T) (T, error) {
				if y == 0 {
					return 0, &EvalError{Func: "/", Msg: fmt.Sprintf("division by zero: %d / 0", x)}
				}
				return x / y, nil
			})
		}
	case "%":
		return func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
			return binaryFixedErr(a, b, n, t, func(x, y T) (T, error) {
				if y == 0 {
					return 0, &EvalError{Func: "MOD", Msg: fmt.Sprintf("division by zero: MOD(%d, 0)", x)}
				}
				return x % y, nil
			})
		}
	}
	return nil
}

type float interface{ ~float32 | ~float64 }

func floatArith[T float](op string) func(a, b *Vec, n int, t *types.DataType) (*Vec, error) {
	var f func(x, y T) T
	switch op {
	case "+":
		f = func(x, y T) T { return x + y }
	case "-":
		f = func(x, y T) T { return x - y }
	case "*":
		f = func(x, y T) T { return x * y }
	case "/":
		f = func(x, y T) T { return x / y }
	case "%":
		f = func(x, y T) T { return T(math.Mod(float64(x), float64(y))) }
	}
	return func(a, b *Vec, n int, t *types.DataType) (*Vec, error) { return binaryFixed(a, b, n, t, f), nil }
}

func arithKernel(op string, ta, tb, ret *types.DataType) (Kernel, error) {
	var f func(a, b *Vec, n int, t *types.DataType) (*Vec, error)
	switch {
	case ret.Root == types.DecimalRoot && ta.Root == types.DecimalRoot && tb.Root == types.DecimalRoot:
		return decimalArith(op, ta, tb, ret), nil
	case op == "%" && ta.Root == types.DecimalRoot && tb.Root == types.DecimalRoot && ret.IsIntegral():
		dt := types.DecimalModType(ta.Precision, ta.Scale, tb.Precision, tb.Scale)
		k := decimalArith(op, ta, tb, dt)
		conv, err := castKernel(dt, ret, false)
		if err != nil {
			return nil, err
		}
		return func(ctx *Ctx, args []*Vec, n int) (*Vec, error) {
			v, err := k(ctx, args, n)
			if err != nil {
				return nil, err
			}
			return conv(ctx, []*Vec{v}, n)
		}, nil
	case op == "%" && ta.IsIntegral() && tb.IsIntegral() && ret.IsIntegral() && ta.IntegralRank() > ret.IntegralRank():
		return wideIntegerMod(ta, tb, ret)
	case ret.IsDatetime() || ret.IsInterval() && (ta.IsNumeric() || tb.IsNumeric()):
		return datetimeArith(op, ta, tb, ret)
	case ret.Root == types.IntervalDayTimeRoot:
		f = intArith[int64](op)
	case ret.Root == types.IntervalYearMonthRoot:
		f = intArith[int32](op)
	}
	if f == nil {
		switch ret.Root {
		case types.TinyInt:
			f = intArith[int8](op)
		case types.SmallInt:
			f = intArith[int16](op)
		case types.Integer:
			f = intArith[int32](op)
		case types.BigInt:
			f = intArith[int64](op)
		case types.Float:
			f = floatArith[float32](op)
		case types.Double:
			f = floatArith[float64](op)
		}
	}
	if f == nil {
		return nil, fmt.Errorf("no kernel for %s %s %s", ta, op, tb)
	}
	return func(_ *Ctx, args []*Vec, n int) (*Vec, error) { return f(args[0], args[1], n, ret) }, nil
}

// wideIntegerMod is MOD of integers whose first operand is wider than the
// result (the second operand's type): the remainder is computed in the
// first operand's type, then narrowed (it fits: its magnitude is below the
// second operand's).
func wideIntegerMod(ta, tb, ret *types.DataType) (Kernel, error) {
	wide := ta.WithNullable(true)
	var f func(a, b *Vec, n int, t *types.DataType) (*Vec, error)
	switch wide.Root {
	case types.SmallInt:
		f = intArith[int16]("%")
	case types.Integer:
		f = intArith[int32]("%")
	case types.BigInt:
		f = intArith[int64]("%")
	default:
		return nil, fmt.Errorf("no kernel for %s %% %s", ta, tb)
	}
	widen, err := castKernel(tb, wide, false)
	if err != nil {
		return nil, err
	}
	narrow, err := castKernel(wide, ret, false)
	if err != nil {
		return nil, err
	}
	return func(ctx *Ctx, args []*Vec, n int) (*Vec, error) {
		b, err := widen(ctx, []*Vec{args[1]}, n)
		if err != nil {
			return nil, err
		}
		v, err := f(args[0], b, n, wide)
		if err != nil {
			return nil, err
		}
		return narrow(ctx, []*Vec{v}, n)
	}, nil
}

var pow10 = func() []*big.Int {
	out := make([]*big.Int, 80)
	out[0] = big.NewInt(1)
	for i := 1; i < len(out); i++ {
		out[i] = new(big.Int).Mul(out[i-1], big.NewInt(10))
	}
	return out
}()

// decimalArith computes decimal + - * / % with exact integer arithmetic on
// the unscaled values, rounding HALF_UP to the result scale; a result that
// does not fit the result precision is NULL (Flink's DecimalData overflow).
func decimalArith(op string, ta, tb, ret *types.DataType) Kernel {
	s1, s2, rs, rp := int32(ta.Scale), int32(tb.Scale), int32(ret.Scale), int32(ret.Precision)
	fast := op == "+" || op == "-"
	return func(_ *Ctx, args []*Vec, n int) (*Vec, error) {
		a, b := args[0], args[1]
		if a.IsNullConst() || b.IsNullConst() {
			return ConstVec(nil, ret), nil
		}
		av, ac := fixedOf[decimal128.Num](a)
		bv, bc := fixedOf[decimal128.Num](b)
		res := make([]decimal128.Num, n)
		valid := andValidity(n, a, b)
		if op == "*" && s1+s2 == rs && rp >= 19 && a.Const != b.Const {
			// a column times a constant (Nexmark q1's 0.908 * price)
			xs, c := av, bc
			if a.Const {
				xs, c = bv, ac
			}
			if mulConstColumn(res, xs[:n], c) {
				return ArrVec(vector.FromValues(types.ToArrow(ret), res, valid, -1), ret), nil
			}
		}
		if a.Const && b.Const {
			n = 1
			res = res[:0]
			res = append(res, decimal128.Num{})
		}
		for i := 0; i < n; i++ {
			if valid != nil && !vector.BitIsSet(valid, i) {
				continue
			}
			x, y := ac, bc
			if !a.Const {
				x = av[i]
			}
			if !b.Const {
				y = bv[i]
			}
			var r decimal128.Num
			ok := true
			if fast {
				x = x.IncreaseScaleBy(rs - s1)
				y = y.IncreaseScaleBy(rs - s2)
				if op == "+" {
					r = x.Add(y)
				} else {
					r = x.Sub(y)
				}
			} else if p, fits := mulSmall(op, x, y, s1+s2 == rs); fits {
				r = p
			} else {
				var err error
				r, ok, err = decimalSlow(op, x, y, s1, s2, rs)
				if err != nil {
					return nil, err
				}
			}
			if !ok || !r.FitsInPrecision(rp) {
				if valid == nil {
					valid = vector.AllValid(len(res))
				}
				vector.ClearBit(valid, i)
				continue
			}
			res[i] = r
		}
		if a.Const && b.Const {
			if valid != nil && !vector.BitIsSet(valid, 0) {
				return ConstVec(nil, ret), nil
			}
			return ConstVec(types.Decimal{Unscaled: res[0], Scale: rs}, ret), nil
		}
		return ArrVec(vector.FromValues(types.ToArrow(ret), res, valid, -1), ret), nil
	}
}

// mulConstColumn sets res[i] = xs[i] * c at the scale s1+s2, when c and
// every xs[i] (NULL slots included) are int64s whose products are too;
// those are below 2^63 < 10^19, so they fit any precision >= 19. It
// reports false, with res partly set, when a value is bigger.
func mulConstColumn(res, xs []decimal128.Num, c decimal128.Num) bool {
	if !fitsInt64(c) {
		return false
	}
	y := int64(c.LowBits())
	uy := uint64(y)
	if y < 0 {
		uy = uint64(-y)
	}
	res = res[:len(xs)]
	for i, x := range xs {
		lo, hi := int64(x.LowBits()), x.HighBits()
		if hi != lo>>63 || lo == math.MinInt64 {
			return false
		}
		ux := uint64(lo)
		if lo < 0 {
			ux = uint64(-lo)
		}
		ph, pl := bits.Mul64(ux, uy)
		if ph != 0 || pl >= 1<<63 {
			return false
		}
		res[i] = decimal128.FromI64(lo * y)
	}
	return true
}

// mulSmall multiplies two decimals whose unscaled values and product fit
// in int64 when the product keeps the scale s1+s2 (exact: no rounding).
func mulSmall(op string, x, y decimal128.Num, sameScale bool) (decimal128.Num, bool) {
	if op != "*" || !sameScale || !fitsInt64(x) || !fitsInt64(y) {
		return decimal128.Num{}, false
	}
	a, b := int64(x.LowBits()), int64(y.LowBits())
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = uint64(-a)
	}
	if b < 0 {
		ub = uint64(-b)
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || lo >= 1<<63 {
		return decimal128.Num{}, false
	}
	return decimal128.FromI64(a * b), true
}

// fitsInt64 reports whether a decimal's unscaled value is an int64 (and
// not MinInt64, so that its negation is one too).
func fitsInt64(x decimal128.Num) bool {
	lo, hi := int64(x.LowBits()), x.HighBits()
	return (hi == 0 && lo >= 0) || (hi == -1 && lo < 0 && lo != math.MinInt64)
}

func decimalSlow(op string, x, y decimal128.Num, s1, s2, rs int32) (decimal128.Num, bool, error) {
	bx, by := x.BigInt(), y.BigInt()
	var num, den *big.Int
	switch op {
	case "*":
		// x*y has scale s1+s2
		num = new(big.Int).Mul(bx, by)
		den = big.NewInt(1)
		shift := int(s1 + s2 - rs)
		if shift > 0 {
			den = pow10[shift]
		} else if shift < 0 {
			num.Mul(num, pow10[-shift])
		}
	case "/":
		if by.Sign() == 0 {
			return decimal128.Num{}, false, &EvalError{Func: "/", Msg: "division by zero"}
		}
		// (bx/10^s1)/(by/10^s2) * 10^rs = bx*10^(s2+rs) / (by*10^s1)
		num = new(big.Int).Mul(bx, pow10[int(s2+rs)])
		den = new(big.Int).Mul(by, pow10[int(s1)])
	case "%":
		if by.Sign() == 0 {
			return decimal128.Num{}, false, &EvalError{Func: "MOD", Msg: "division by zero"}
		}
		// align scales, remainder keeps the sign of the dividend
		ax := new(big.Int).Mul(bx, pow10[int(rs-s1)])
		ay := new(big.Int).Mul(by, pow10[int(rs-s2)])
		r := new(big.Int).Rem(ax, ay)
		if r.BitLen() > 126 {
			return decimal128.Num{}, false, nil
		}
		return decimal128.FromBigInt(r), true, nil
	}
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	rem.Abs(rem).Lsh(rem, 1)
	if rem.Cmp(new(big.Int).Abs(den)) >= 0 {
		if (num.Sign() < 0) != (den.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if q.BitLen() > 126 {
		return decimal128.Num{}, false, nil
	}
	return decimal128.FromBigInt(q), true, nil
}

// datetimeArith handles datetime ± interval, interval ± interval and
// interval * / numeric, row by row on Go values.
func datetimeArith(op string, ta, tb, ret *types.DataType) (Kernel, error) {
	isTS := func(t *types.DataType) bool { return t.Root == types.TimestampRoot || t.Root == types.TimestampLTZRoot }
	if (op == "+" || op == "-") && isTS(ta) && isTS(ret) && tb.Root == types.IntervalDayTimeRoot &&
		types.TimestampUnit(ta.Precision) == types.TimestampUnit(ret.Precision) {
		// typed fast path: a timestamp column plus or minus a constant
		// day-time interval (the WATERMARK expression ts - INTERVAL ...)
		perMs := types.UnitsPerSecond(types.TimestampUnit(ta.Precision)) / 1000
		slow := func(args []*Vec, n int) (*Vec, error) {
			return rowWise(args, n, ret, false, func(v []any) (any, error) {
				return datetimeOp(op, v[0], v[1], ret)
			})
		}
		return func(_ *Ctx, args []*Vec, n int) (*Vec, error) {
			d, ok := args[1].Val.(time.Duration)
			if args[0].Const || !args[1].Const || !ok || perMs == 0 {
				return slow(args, n)
			}
			delta := d.Milliseconds() * perMs
			if op == "-" {
				delta = -delta
			}
			in := vector.Values[int64](args[0].Arr)
			out := make([]int64, len(in))
			for i, x := range in {
				out[i] = x + delta
				if (delta > 0) != (out[i] > x) && delta != 0 {
					// left the int64 range (a TIMESTAMP(7..9) past 1677 or
					// 2262): the row-wise path fails with the range
					return slow(args, n)
				}
			}
			return ArrVec(vector.FromValues(types.ToArrow(ret), out, vector.Validity(args[0].Arr), args[0].Arr.NullN()), ret), nil
		}, nil
	}
	return func(_ *Ctx, args []*Vec, n int) (*Vec, error) {
		return rowWise(args, n, ret, false, func(v []any) (any, error) {
			return datetimeOp(op, v[0], v[1], ret)
		})
	}, nil
}

// MaxIntervalMillis is the largest INTERVAL DAY TO SECOND magnitude in
// milliseconds: Riffle holds such a value as a time.Duration (±106,751
// days), and arithmetic that leaves that range fails instead of wrapping.
const MaxIntervalMillis = math.MaxInt64 / int64(time.Millisecond)

func intervalOverflow(family string) error {
	if family == "YEAR TO MONTH" {
		return &EvalError{Msg: "INTERVAL YEAR TO MONTH overflow: the result exceeds 2147483647 months"}
	}
	return &EvalError{Msg: fmt.Sprintf("INTERVAL DAY TO SECOND overflow: the result exceeds the ±%d days Riffle holds", MaxIntervalMillis/86_400_000)}
}

// addIntervalMillis adds two day-time intervals in milliseconds.
func addIntervalMillis(a, b int64) (any, error) {
	s := a + b
	if (s > a) != (b > 0) || s > MaxIntervalMillis || s < -MaxIntervalMillis {
		return nil, intervalOverflow("DAY TO SECOND")
	}
	return time.Duration(s) * time.Millisecond, nil
}

// scaleInterval multiplies or divides an interval's count (months or
// milliseconds) by a number: exact for integers, through float64
// otherwise (truncated toward zero, as Flink's long conversion does);
// a result beyond limit fails.
func scaleInterval(op string, v int64, y any, limit int64, mk func(int64) any) (any, error) {
	family := "DAY TO SECOND"
	if limit == math.MaxInt32 {
		family = "YEAR TO MONTH"
	}
	if n, ok := y.(int64); ok || isIntValue(y) {
		if !ok {
			n, _ = toInt64(y)
		}
		switch op {
		case "*":
			r := new(big.Int).Mul(big.NewInt(v), big.NewInt(n))
			if !r.IsInt64() || r.Int64() > limit || r.Int64() < -limit {
				return nil, intervalOverflow(family)
			}
			return mk(r.Int64()), nil
		case "/":
			if n == 0 {
				return nil, &EvalError{Func: "/", Msg: "division by zero"}
			}
			return mk(v / n), nil
		}
	}
	f, ok := toFloat(y)
	if !ok || (op != "*" && op != "/") {
		return nil, fmt.Errorf("unsupported operands for %s: interval and %T", op, y)
	}
	var r float64
	if op == "*" {
		r = float64(v) * f
	} else {
		if f == 0 {
			return nil, &EvalError{Func: "/", Msg: "division by zero"}
		}
		r = float64(v) / f
	}
	if math.IsNaN(r) || math.Abs(r) > float64(limit) {
		return nil, intervalOverflow(family)
	}
	return mk(int64(r)), nil
}

func isIntValue(v any) bool {
	switch v.(type) {
	case int8, int16, int32, int64:
		return true
	}
	return false
}

func datetimeOp(op string, x, y any, ret *types.DataType) (any, error) {
	sign := 1
	if op == "-" {
		sign = -1
	}
	switch a := x.(type) {
	case time.Time:
		switch d := y.(type) {
		case time.Duration:
			return a.Add(time.Duration(sign) * d), nil
		case types.Months:
			return addMonths(a, sign*int(d)), nil
		}
	case types.Date:
		switch d := y.(type) {
		case time.Duration:
			t := a.Time().Add(time.Duration(sign) * d)
			return types.Date(floorDiv(t.Unix(), 86400)), nil
		case types.Months:
			t := addMonths(a.Time(), sign*int(d))
			return types.Date(floorDiv(t.Unix(), 86400)), nil
		}
	case types.LocalTime:
		if d, ok := y.(time.Duration); ok {
			day := int64(24 * time.Hour)
			ns := (int64(a) + int64(sign)*int64(d)) % day
			if ns < 0 {
				ns += day
			}
			return types.LocalTime(ns), nil
		}
	case time.Duration:
		switch d := y.(type) {
		case time.Duration:
			return addIntervalMillis(a.Milliseconds(), int64(sign)*d.Milliseconds())
		case time.Time, types.Date:
			return datetimeOp(op, d, a, ret)
		default:
			return scaleInterval(op, a.Milliseconds(), y, MaxIntervalMillis, func(ms int64) any {
				return time.Duration(ms) * time.Millisecond
			})
		}
	case types.Months:
		switch d := y.(type) {
		case types.Months:
			m := int64(a) + int64(sign)*int64(d)
			if m > math.MaxInt32 || m < math.MinInt32 {
				return nil, intervalOverflow("YEAR TO MONTH")
			}
			return types.Months(m), nil
		case time.Time, types.Date:
			return datetimeOp(op, d, a, ret)
		default:
			return scaleInterval(op, int64(a), y, math.MaxInt32, func(m int64) any { return types.Months(m) })
		}
	default:
		// numeric * interval
		if op == "*" {
			return datetimeOp(op, y, x, ret)
		}
	}
	return nil, fmt.Errorf("unsupported operands for %s: %T and %T", op, x, y)
}

// fuseDecimalTimesInt compiles c = DECIMAL literal * CAST(integer AS
// DECIMAL(p, 0)) (either order; Nexmark q1's 0.908 * price) into one loop
// over the integers, without the DECIMAL(p, 0) column in between: each
// product of int64s that fits int64 is exact at the literal's scale and
// below 10^19, so it fits c's precision (>= 19). A batch holding a bigger
// product, or a constant operand, goes to generic, the evaluator of c as
// written. Any other call returns generic itself.
func fuseDecimalTimesInt(c *Call, generic Evaluator) (Evaluator, error) {
	if c.Fn == nil || c.Fn.Name != "*" || len(c.Args) != 2 || c.T.Root != types.DecimalRoot || c.T.Precision < 19 {
		return generic, nil
	}
	var lit *Literal
	var cast *Call
	for _, a := range c.Args {
		switch x := a.(type) {
		case *Literal:
			lit = x
		case *Call:
			if x.Name == "CAST" && len(x.Args) == 1 {
				cast = x
			}
		}
	}
	if lit == nil || cast == nil || lit.T.Root != types.DecimalRoot || lit.T.Scale != c.T.Scale {
		return generic, nil
	}
	d, ok := lit.Value.(types.Decimal)
	if !ok || int(d.Scale) != lit.T.Scale || !fitsInt64(d.Unscaled) {
		return generic, nil
	}
	in := cast.Args[0]
	ct := cast.T
	if ct.Root != types.DecimalRoot || ct.Scale != 0 || !IsDeterministic(in) {
		return generic, nil
	}
	y := int64(d.Unscaled.LowBits())
	switch in.Type().Root {
	case types.Integer:
		return timesIntColumn[int32](c, in, ct, y, generic)
	case types.BigInt:
		return timesIntColumn[int64](c, in, ct, y, generic)
	}
	return generic, nil
}

func timesIntColumn[T int32 | int64](c *Call, in Expr, ct *types.DataType, y int64, generic Evaluator) (Evaluator, error) {
	var zero T
	if intDigits[unsafe.Sizeof(zero)] > ct.Precision {
		return generic, nil // the cast itself may overflow
	}
	inner, err := Compile(in)
	if err != nil {
		return nil, err
	}
	ret := c.T
	uy := uint64(y)
	if y < 0 {
		uy = uint64(-y)
	}
	return guard(c.Name, func(ctx *Ctx, b *types.Batch) (*Vec, error) {
		v, err := inner(ctx, b)
		if err != nil {
			return nil, err
		}
		if v.Const {
			return generic(ctx, b)
		}
		n := b.Len
		xs := vector.Values[T](v.Arr)[:n]
		res := make([]decimal128.Num, n)
		for i, x := range xs {
			ux := uint64(int64(x))
			if x < 0 {
				ux = uint64(-int64(x))
			}
			hi, lo := bits.Mul64(ux, uy)
			if hi != 0 || lo >= 1<<63 {
				return generic(ctx, b)
			}
			res[i] = decimal128.FromI64(int64(x) * y)
		}
		return ArrVec(vector.FromValues(types.ToArrow(ret), res, validityOf(v, n), -1), ret), nil
	}), nil
}
