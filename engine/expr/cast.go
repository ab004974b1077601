package expr

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// CAST and TRY_CAST, following Flink's cast rules (flink-table-planner
// functions/casting): numeric narrowing wraps like Java, DECIMAL overflow
// gives NULL, invalid strings fail the job (CAST) or give NULL (TRY_CAST),
// BOOLEAN casts to 'TRUE'/'FALSE', timestamps format with their precision.

var castFn = &Function{
	Name: "CAST", Category: "Type conversion", MinArgs: 1, MaxArgs: 1,
	Signatures: []string{"CAST(value AS type)"},
	Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
		return castKernel(args[0], ret, false)
	},
}

var tryCastFn = &Function{
	Name: "TRY_CAST", Category: "Type conversion", MinArgs: 1, MaxArgs: 1,
	Signatures: []string{"TRY_CAST(value AS type)"},
	Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
		return castKernel(args[0], ret, true)
	},
}

func init() {
	Builtins.Register(castFn)
	Builtins.Register(tryCastFn)
}

// NewCast builds CAST(e AS t) (TRY_CAST when try is set). It fails when
// Flink does not support the cast, with Flink's message.
func NewCast(e Expr, t *types.DataType, try bool) (Expr, error) {
	from := e.Type()
	variant := from.Root == types.VariantRoot || t.Root == types.VariantRoot
	if !CanCast(from, t) || (variant && from.Root != types.Null) {
		// Flink 2.3 refuses every CAST of a VARIANT, even to VARIANT
		return nil, typeErrorf("Cast function cannot convert value of type %s to type %s", calciteName(from), calciteName(t))
	}
	fn, name := castFn, "CAST"
	res := t.WithNullable(from.Nullable)
	if try {
		fn, name = tryCastFn, "TRY_CAST"
		res = t.WithNullable(true)
	}
	if !try && castMayFail(from, t) {
		// a failing cast of a NOT NULL value still fails, so keep nullability
		res = t.WithNullable(from.Nullable)
	}
	return &Call{Name: name, Fn: fn, Args: []Expr{e}, T: res}, nil
}

// ImplicitCast wraps e in a CAST to t keeping e's nullability; the binder
// uses it after type inference asked for a coercion.
func ImplicitCast(e Expr, t *types.DataType) Expr {
	if e.Type().Equals(t.WithNullable(e.Type().Nullable)) {
		return e
	}
	if l, ok := e.(*Literal); ok && l.T.Root != types.TimestampLTZRoot && t.Root != types.TimestampLTZRoot {
		// (casts involving TIMESTAMP_LTZ depend on the session time zone;
		// the binder folds them)
		if v, err := CastValue(l.Value, l.T, t, time.UTC); err == nil {
			return &Literal{Value: v, T: t.WithNullable(l.T.Nullable || v == nil)}
		}
	}
	return &Call{Name: "CAST", Fn: castFn, Args: []Expr{e}, T: t.WithNullable(e.Type().Nullable)}
}

func castMayFail(from, to *types.DataType) bool { return from.IsString() && !to.IsString() }

// CanCast reports whether Flink supports CAST(from AS to).
func CanCast(from, to *types.DataType) bool {
	if from.Root == types.Null {
		return true
	}
	if from.EqualsIgnoreNull(to) {
		return true
	}
	if from.Root == types.VariantRoot || to.Root == types.VariantRoot {
		// Flink 2.3 casts neither from nor to VARIANT (PARSE_JSON builds one)
		return false
	}
	f, t := from, to
	switch {
	case t.IsString():
		return true
	case f.IsString():
		return t.IsNumeric() || t.Root == types.Boolean || t.IsDatetime() || t.IsBinary()
	case f.IsNumeric() && t.IsNumeric():
		return true
	case f.Root == types.Boolean && (t.IsNumeric() || t.Root == types.Boolean):
		return true
	case f.IsNumeric() && t.Root == types.Boolean:
		return true
	case f.IsBinary() && t.IsBinary():
		return true
	case f.Root == types.DateRoot && t.IsTimestamp():
		return true
	case f.IsTimestamp() && (t.Root == types.DateRoot || t.Root == types.TimeRoot || t.IsTimestamp()):
		return true
	case f.Root == types.TimeRoot && (t.Root == types.TimeRoot || t.IsTimestamp()):
		return true
	case f.IsIntegral() && t.Root == types.TimestampLTZRoot, f.Root == types.TimestampLTZRoot && t.IsIntegral():
		return true
	case f.Root == types.IntervalDayTimeRoot && t.Root == types.IntervalDayTimeRoot,
		f.Root == types.IntervalYearMonthRoot && t.Root == types.IntervalYearMonthRoot:
		return true
	case f.IsInterval() && t.IsIntegral(), f.IsIntegral() && t.IsInterval():
		return true
	case f.Root == types.ArrayRoot && t.Root == types.ArrayRoot:
		return CanCast(f.Elem, t.Elem)
	case f.Root == types.MultisetRoot && t.Root == types.MultisetRoot:
		return CanCast(f.Elem, t.Elem)
	case f.Root == types.MapRoot && t.Root == types.MapRoot:
		return CanCast(f.Key, t.Key) && CanCast(f.Value, t.Value)
	case f.Root == types.RowRoot && t.Root == types.RowRoot:
		if len(f.Fields) != len(t.Fields) {
			return false
		}
		for i := range f.Fields {
			if !CanCast(f.Fields[i].Type, t.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	return false
}

// SupportsImplicitCast reports whether Flink casts from to to implicitly
// (widening within a family; CHAR to VARCHAR; any type to a common type).
func SupportsImplicitCast(from, to *types.DataType) bool {
	if from.Root == types.Null || from.EqualsIgnoreNull(to) {
		return true
	}
	switch {
	case from.IsString() && to.IsString():
		return true
	case from.IsBinary() && to.IsBinary():
		return true
	case from.IsNumeric() && to.IsNumeric():
		return true
	case from.IsTimestamp() && to.IsTimestamp():
		return true
	case from.Root == types.DateRoot && to.IsTimestamp():
		return true
	case from.Root == types.TimeRoot && to.Root == types.TimeRoot:
		return true
	// constructed types, as Flink's LogicalTypeCasts.supportsConstructedCasting:
	// children cast implicitly, ROW field names do not matter
	case from.Root == types.RowRoot && to.Root == types.RowRoot:
		if len(from.Fields) != len(to.Fields) {
			return false
		}
		for i := range from.Fields {
			if !SupportsImplicitCast(from.Fields[i].Type, to.Fields[i].Type) {
				return false
			}
		}
		return true
	case from.Root == types.ArrayRoot && to.Root == types.ArrayRoot,
		from.Root == types.MultisetRoot && to.Root == types.MultisetRoot:
		return SupportsImplicitCast(from.Elem, to.Elem)
	case from.Root == types.MapRoot && to.Root == types.MapRoot:
		return SupportsImplicitCast(from.Key, to.Key) && SupportsImplicitCast(from.Value, to.Value)
	}
	ct := types.CommonType(from, to)
	return ct != nil && ct.EqualsIgnoreNull(to)
}

func castKernel(from, to *types.DataType, try bool) (Kernel, error) {
	if fast := fastCast(from, to); fast != nil {
		return fast, nil
	}
	return func(ctx *Ctx, args []*Vec, n int) (*Vec, error) {
		zone := time.UTC
		if ctx != nil && ctx.Zone != nil {
			zone = ctx.Zone
		}
		return rowWise(args, n, to, false, func(vals []any) (any, error) {
			v, err := CastValue(vals[0], from, to, zone)
			if err != nil {
				if try {
					return nil, nil
				}
				return nil, &EvalError{Func: "CAST", Msg: err.Error()}
			}
			return v, nil
		})
	}, nil
}

// fastCast returns a typed kernel for common numeric casts, or nil.
func fastCast(from, to *types.DataType) Kernel {
	if from.EqualsIgnoreNull(to) || (from.IsString() && to.Root == types.VarChar && to.Length == types.MaxLength) {
		return func(_ *Ctx, args []*Vec, n int) (*Vec, error) {
			v := *args[0]
			v.T = to
			return &v, nil
		}
	}
	type conv = func(*Vec, int) *Vec
	var k conv
	switch from.Root {
	case types.TinyInt:
		k = numFrom[int8](to)
	case types.SmallInt:
		k = numFrom[int16](to)
	case types.Integer:
		k = numFrom[int32](to)
	case types.BigInt:
		k = numFrom[int64](to)
	case types.Float:
		if to.IsIntegral() {
			return nil
		}
		k = numFrom[float32](to)
	case types.Double:
		if to.IsIntegral() {
			return nil
		}
		k = numFrom[float64](to)
	case types.DecimalRoot:
		if to.Root == types.DecimalRoot {
			k = decimalRescale(from, to)
		}
	}
	if k == nil {
		return nil
	}
	return func(_ *Ctx, args []*Vec, n int) (*Vec, error) { return k(args[0], n), nil }
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// convertFixed converts a column of fixed-width numbers with Go's
// conversion R(x), element by element in one loop (unaryFixed without a
// call per value). NULL elements stay NULL.
func convertFixed[A, R number](a *Vec, n int, out *types.DataType) *Vec {
	if a.Const {
		return unaryFixed(a, n, out, func(x A) R { return R(x) })
	}
	av := vector.Values[A](a.Arr)[:n]
	res := make([]R, n)
	for i, x := range av {
		res[i] = R(x)
	}
	return ArrVec(vector.FromValues(types.ToArrow(out), res, validityOf(a, n), -1), out)
}

func numFrom[A number](to *types.DataType) func(*Vec, int) *Vec {
	switch to.Root {
	case types.TinyInt:
		return func(a *Vec, n int) *Vec { return convertFixed[A, int8](a, n, to) }
	case types.SmallInt:
		return func(a *Vec, n int) *Vec { return convertFixed[A, int16](a, n, to) }
	case types.Integer:
		return func(a *Vec, n int) *Vec { return convertFixed[A, int32](a, n, to) }
	case types.BigInt:
		return func(a *Vec, n int) *Vec { return convertFixed[A, int64](a, n, to) }
	case types.Float:
		return func(a *Vec, n int) *Vec { return convertFixed[A, float32](a, n, to) }
	case types.Double:
		return func(a *Vec, n int) *Vec { return convertFixed[A, float64](a, n, to) }
	case types.DecimalRoot:
		var zero A
		if _, isFloat := any(zero).(float64); isFloat {
			return nil
		}
		if _, isFloat := any(zero).(float32); isFloat {
			return nil
		}
		// integer -> decimal: multiply by 10^scale, NULL when it overflows
		p, s := to.Precision, to.Scale
		mult := decimal128.GetScaleMultiplier(s)
		return func(a *Vec, n int) *Vec {
			if a.Const {
				if a.Val == nil {
					return ConstVec(nil, to)
				}
				_, c := fixedOf[A](a)
				d := decimal128.FromI64(int64(c)).Mul(mult)
				if !d.FitsInPrecision(int32(p)) {
					return ConstVec(nil, to)
				}
				return ConstVec(types.Decimal{Unscaled: d, Scale: int32(s)}, to)
			}
			av := vector.Values[A](a.Arr)
			res := make([]decimal128.Num, n)
			valid := validityOf(a, n)
			if s <= 19 && intDigits[unsafe.Sizeof(zero)]+s <= p {
				// every value of A times 10^s fits: no check per row
				// (BIGINT -> DECIMAL(19, 0) for one)
				if s == 0 {
					for i := range res {
						res[i] = decimal128.FromI64(int64(av[i]))
					}
				} else {
					m := mult.LowBits()
					for i := range res {
						res[i] = mulInt64ByPow10(int64(av[i]), m)
					}
				}
				return ArrVec(vector.FromValues(types.ToArrow(to), res, valid, -1), to)
			}
			for i := range res {
				d := decimal128.FromI64(int64(av[i])).Mul(mult)
				if !d.FitsInPrecision(int32(p)) {
					if valid == nil {
						valid = vector.AllValid(n)
					}
					vector.ClearBit(valid, i)
					continue
				}
				res[i] = d
			}
			return ArrVec(vector.FromValues(types.ToArrow(to), res, valid, -1), to)
		}
	}
	return nil
}

// decimalRescale casts a DECIMAL(p1, s1) column to DECIMAL(p2, s2) on
// the 128-bit unscaled values in one loop, as CastValue does through
// big.Rat: a larger scale multiplies by 10^(s2-s1), a smaller one divides
// rounding HALF_UP (BigDecimal.setScale), and a value with more than p2
// digits becomes NULL (Flink's DecimalData overflow). When every DECIMAL(p1,
// s1) value fits (p1 - s1 + s2 <= p2 and no rounding) there is no check
// per row: Nexmark q1's DECIMAL(22, 3) product into DECIMAL(23, 3).
func decimalRescale(from, to *types.DataType) func(*Vec, int) *Vec {
	p1, s1 := int32(from.Precision), int32(from.Scale)
	p2, s2 := int32(to.Precision), int32(to.Scale)
	return func(a *Vec, n int) *Vec {
		if a.Const {
			if a.Val == nil {
				return ConstVec(nil, to)
			}
			v, err := CastValue(a.Val, from, to, time.UTC)
			if err != nil {
				v = nil
			}
			return ConstVec(v, to)
		}
		av := vector.Values[decimal128.Num](a.Arr)[:n]
		valid := validityOf(a, n)
		res := make([]decimal128.Num, n)
		switch {
		case s2 >= s1 && p1-s1+s2 <= p2:
			// every value fits: widen, and scale up exactly
			if s2 == s1 {
				copy(res, av)
			} else {
				m := decimal128.GetScaleMultiplier(int(s2 - s1))
				for i, x := range av {
					res[i] = x.Mul(m)
				}
			}
		default:
			for i, x := range av {
				if valid != nil && !vector.BitIsSet(valid, i) {
					continue
				}
				var r decimal128.Num
				ok := true
				switch {
				case s2 == s1:
					r = x
				case s2 > s1:
					// no 128-bit overflow: |x| < 10^(38-(s2-s1))
					if ok = 38-(s2-s1) >= 1 && x.FitsInPrecision(38-(s2-s1)) || x == (decimal128.Num{}); ok {
						r = x.Mul(decimal128.GetScaleMultiplier(int(s2 - s1)))
					}
				default:
					r = reduceScaleHalfUp(x, s1-s2)
				}
				if !ok || !r.FitsInPrecision(p2) {
					if valid == nil {
						valid = vector.AllValid(n)
					}
					vector.ClearBit(valid, i)
					continue
				}
				res[i] = r
			}
		}
		return ArrVec(vector.FromValues(types.ToArrow(to), res, valid, -1), to)
	}
}

// reduceScaleHalfUp divides x by 10^by rounding HALF_UP (away from zero
// on a remainder of at least half), without big.Int when x is an int64.
func reduceScaleHalfUp(x decimal128.Num, by int32) decimal128.Num {
	if by > 18 || !fitsInt64(x) {
		return x.ReduceScaleBy(by, true)
	}
	v := int64(x.LowBits())
	d := int64(decimal128.GetScaleMultiplier(int(by)).LowBits())
	q, r := v/d, v%d
	if r < 0 {
		r = -r
	}
	if r >= d-r {
		if v < 0 {
			q--
		} else {
			q++
		}
	}
	return decimal128.FromI64(q)
}

// intDigits is the number of decimal digits of the largest magnitude of a
// signed integer of each size in bytes.
var intDigits = map[uintptr]int{1: 3, 2: 5, 4: 10, 8: 19}

// mulInt64ByPow10 is x * m exactly, for m = 10^s <= 10^19 (the product
// needs at most 128 bits).
func mulInt64ByPow10(x int64, m uint64) decimal128.Num {
	ux := uint64(x)
	if x < 0 {
		ux = uint64(-x)
	}
	hi, lo := bits.Mul64(ux, m)
	d := decimal128.New(int64(hi), lo)
	if x < 0 {
		d = d.Negate()
	}
	return d
}

// CastValue casts one Go value of type from to type to (nil stays nil).
// zone is the session time zone for TIMESTAMP_LTZ conversions. Decimal
// overflow yields nil (NULL), as in Flink; unparsable strings are errors.
// A TIMESTAMP(7..9) result outside 1677-09-21..2262-04-11 (Riffle's int64
// nanoseconds, see types.CheckTimestampRange) is an error where Flink
// would succeed: CAST fails, TRY_CAST gives NULL, never a wrapped date.
func CastValue(v any, from, to *types.DataType, zone *time.Location) (any, error) {
	out, err := castValue(v, from, to, zone)
	if err != nil {
		return nil, err
	}
	if t, ok := out.(time.Time); ok {
		if err := types.CheckTimestampRange(t, to); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func castValue(v any, from, to *types.DataType, zone *time.Location) (any, error) {
	if v == nil {
		return nil, nil
	}
	if from.EqualsIgnoreNull(to) {
		return v, nil
	}
	if x, ok := v.(types.Variant); ok && to.IsString() {
		// not a user's CAST (CanCast refuses it): the JSON functions read
		// a VARIANT document as its JSON text
		return x.String(), nil
	}
	switch {
	case to.IsString():
		s, err := CastToString(v, from, zone)
		if err != nil {
			return nil, err
		}
		return fitString(s, from, to), nil
	case to.IsBinary():
		var b []byte
		switch x := v.(type) {
		case string:
			b = []byte(x)
		case []byte:
			b = x
		default:
			return nil, fmt.Errorf("cannot cast %s to %s", from, to)
		}
		if to.Root == types.Binary && len(b) < to.Length {
			b = append(append([]byte(nil), b...), make([]byte, to.Length-len(b))...)
		} else if len(b) > to.Length {
			b = b[:to.Length]
		}
		return b, nil
	}
	if s, ok := v.(string); ok {
		return castFromString(strings.TrimSpace(s), to, zone)
	}
	switch to.Root {
	case types.Boolean:
		switch x := v.(type) {
		case bool:
			return x, nil
		default:
			f, ok := toFloat(v)
			if !ok {
				return nil, fmt.Errorf("cannot cast %s to BOOLEAN", from)
			}
			return f != 0, nil
		}
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		return castToIntegral(v, from, to, zone)
	case types.Float, types.Double:
		var f float64
		switch x := v.(type) {
		case bool:
			if x {
				f = 1
			}
		default:
			var ok bool
			if f, ok = toFloat(v); !ok {
				return nil, fmt.Errorf("cannot cast %s to %s", from, to)
			}
		}
		if to.Root == types.Float {
			return float32(f), nil
		}
		return f, nil
	case types.DecimalRoot:
		var r *big.Rat
		switch x := v.(type) {
		case bool:
			r = big.NewRat(0, 1)
			if x {
				r = big.NewRat(1, 1)
			}
		case types.Decimal:
			r = x.Rat()
		case float32, float64:
			f, _ := toFloat(v)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, nil
			}
			r, _ = new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
		default:
			i, ok := toInt64(v)
			if !ok {
				return nil, fmt.Errorf("cannot cast %s to %s", from, to)
			}
			r = new(big.Rat).SetInt64(i)
		}
		d, err := types.DecimalFromRat(r, int32(to.Scale))
		if err != nil || !d.Unscaled.FitsInPrecision(int32(to.Precision)) {
			return nil, nil
		}
		return d, nil
	case types.DateRoot:
		if t, ok := v.(time.Time); ok {
			if from.Root == types.TimestampLTZRoot {
				t = wallClock(t, zone)
			}
			return types.Date(floorDiv(t.Unix(), 86400)), nil
		}
	case types.TimeRoot:
		switch x := v.(type) {
		case time.Time:
			if from.Root == types.TimestampLTZRoot {
				x = wallClock(x, zone)
			}
			ns := int64(x.Hour()*3600+x.Minute()*60+x.Second())*1e9 + int64(x.Nanosecond())
			return types.LocalTime(truncNanos(ns, to.Precision)), nil
		case types.LocalTime:
			return types.LocalTime(truncNanos(int64(x), to.Precision)), nil
		}
	case types.TimestampRoot, types.TimestampLTZRoot:
		switch x := v.(type) {
		case types.Date:
			t := x.Time()
			if to.Root == types.TimestampLTZRoot {
				t = fromWallClock(t, zone)
			}
			return t, nil
		case types.LocalTime:
			t := time.Unix(0, int64(x)).UTC()
			return t, nil
		case time.Time:
			t := x
			if from.Root == types.TimestampRoot && to.Root == types.TimestampLTZRoot {
				t = fromWallClock(t, zone)
			} else if from.Root == types.TimestampLTZRoot && to.Root == types.TimestampRoot {
				t = wallClock(t, zone)
			}
			return types.TruncateTime(t, to.Precision), nil
		default:
			if i, ok := toInt64(v); ok && to.Root == types.TimestampLTZRoot {
				return time.Unix(i, 0).UTC(), nil
			}
		}
	case types.IntervalDayTimeRoot, types.IntervalYearMonthRoot:
		switch x := v.(type) {
		case time.Duration, types.Months:
			return x, nil
		default:
			i, ok := toInt64(v)
			if ok {
				if to.Root == types.IntervalYearMonthRoot {
					if i > math.MaxInt32 || i < math.MinInt32 {
						return nil, intervalOverflow("YEAR TO MONTH")
					}
					return types.Months(i), nil
				}
				if i > MaxIntervalMillis || i < -MaxIntervalMillis {
					return nil, intervalOverflow("DAY TO SECOND")
				}
				return time.Duration(i) * time.Millisecond, nil
			}
		}
	case types.ArrayRoot, types.MultisetRoot:
		if l, ok := v.([]any); ok {
			out := make([]any, len(l))
			for i, e := range l {
				c, err := CastValue(e, from.Elem, to.Elem, zone)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
		if m, ok := v.(*types.Map); ok {
			out := &types.Map{Values: m.Values}
			for _, k := range m.Keys {
				c, err := CastValue(k, from.Elem, to.Elem, zone)
				if err != nil {
					return nil, err
				}
				out.Keys = append(out.Keys, c)
			}
			return out, nil
		}
	case types.MapRoot:
		if m, ok := v.(*types.Map); ok {
			out := &types.Map{}
			for i := range m.Keys {
				k, err := CastValue(m.Keys[i], from.Key, to.Key, zone)
				if err != nil {
					return nil, err
				}
				val, err := CastValue(m.Values[i], from.Value, to.Value, zone)
				if err != nil {
					return nil, err
				}
				out.Keys = append(out.Keys, k)
				out.Values = append(out.Values, val)
			}
			return out, nil
		}
	case types.RowRoot:
		if r, ok := v.(*types.Row); ok {
			out := &types.Row{Kind: types.Insert, Values: make([]any, len(to.Fields))}
			for i := range to.Fields {
				c, err := CastValue(r.Values[i], from.Fields[i].Type, to.Fields[i].Type, zone)
				if err != nil {
					return nil, err
				}
				out.Values[i] = c
				out.Names = append(out.Names, to.Fields[i].Name)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("cannot cast %s to %s", from, to)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func truncNanos(ns int64, p int) int64 {
	unit := int64(1)
	for i := p; i < 9; i++ {
		unit *= 10
	}
	return ns - ns%unit
}

// wallClock converts an instant to its wall-clock time in zone, returned
// as a UTC time.Time (the TIMESTAMP representation).
func wallClock(t time.Time, zone *time.Location) time.Time {
	l := t.In(zone)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// fromWallClock interprets a wall-clock time (stored as UTC) in zone and
// returns the instant.
func fromWallClock(t time.Time, zone *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), zone).UTC()
}

// NumberAsFloat64 converts a numeric Go value (int8, int16, int32, int64,
// float32, float64, types.Decimal) to float64; ok is false for any other
// value, NULL included.
func NumberAsFloat64(v any) (f float64, ok bool) {
	return toFloat(v)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	case types.Decimal:
		return x.Float64(), true
	}
	return 0, false
}

func toInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case time.Duration:
		return x.Milliseconds(), true
	case types.Months:
		return int64(x), true
	}
	return 0, false
}

func castToIntegral(v any, from, to *types.DataType, zone *time.Location) (any, error) {
	var i int64
	switch x := v.(type) {
	case float32:
		i = javaF2L(float64(x), to)
	case float64:
		i = javaF2L(x, to)
	case types.Decimal:
		// BigDecimal.longValue(): truncate toward zero
		q := new(big.Int).Quo(x.Unscaled.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Scale)), nil))
		i = q.Int64()
	case time.Time:
		i = x.Unix()
	default:
		var ok bool
		if i, ok = toInt64(v); !ok {
			return nil, fmt.Errorf("cannot cast %s to %s", from, to)
		}
	}
	return narrowInt(i, to), nil
}

// javaF2L mirrors Java's saturating (long)/(int) casts of a double.
func javaF2L(f float64, to *types.DataType) int64 {
	if math.IsNaN(f) {
		return 0
	}
	lo, hi := float64(math.MinInt64), float64(math.MaxInt64)
	if to.Root != types.BigInt {
		lo, hi = math.MinInt32, math.MaxInt32
	}
	if f <= lo {
		return int64(lo)
	}
	if f >= hi {
		if to.Root == types.BigInt {
			return math.MaxInt64
		}
		return math.MaxInt32
	}
	return int64(f)
}

func narrowInt(i int64, to *types.DataType) any {
	switch to.Root {
	case types.TinyInt:
		return int8(i)
	case types.SmallInt:
		return int16(i)
	case types.Integer:
		return int32(i)
	}
	return i
}

// castFromString parses a (trimmed) string as Flink's string-to-X cast
// rules do (CastRulesTest): integers accept a fraction that is cut off
// ('1.234' → 1) but fail out of range; DATE accepts a bare year ('123' →
// 0123-01-01) and ignores a time part; TIME accepts 'H', 'H:m' and
// 'H:m:s.fff' (milliseconds kept) but not a date; TIMESTAMP needs a date.
func castFromString(s string, to *types.DataType, zone *time.Location) (any, error) {
	bad := func() error { return fmt.Errorf("cannot cast '%s' to %s", s, to.WithNullable(true)) }
	switch to.Root {
	case types.Boolean:
		b, err := types.ParseBool(s)
		if err != nil {
			return nil, bad()
		}
		return b, nil
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		i, ok := parseJavaInteger(s, to)
		if !ok {
			return nil, bad()
		}
		return narrowInt(i, to), nil
	case types.Float, types.Double:
		f, ok := parseJavaFloat(s)
		if !ok {
			return nil, bad()
		}
		if to.Root == types.Float {
			return float32(f), nil
		}
		return f, nil
	case types.DecimalRoot:
		d, err := types.ParseDecimal(s)
		if err != nil {
			return nil, bad()
		}
		d2, err := types.DecimalFromRat(d.Rat(), int32(to.Scale))
		if err != nil || !d2.Unscaled.FitsInPrecision(int32(to.Precision)) {
			return nil, nil // overflow: NULL, as DecimalData.fromBigDecimal
		}
		return d2, nil
	case types.DateRoot:
		if d, err := types.ParseDate(s); err == nil {
			return d, nil
		}
		if y, err := strconv.Atoi(s); err == nil && y >= 0 && y <= 9999 {
			return types.DateOf(y, time.January, 1), nil
		}
		t, err := types.ParseTimestamp(s)
		if err != nil {
			return nil, bad()
		}
		return types.Date(floorDiv(t.Unix(), 86400)), nil
	case types.TimeRoot:
		str := s
		if h, err := strconv.Atoi(s); err == nil && h >= 0 && h <= 23 {
			str = s + ":00"
		}
		t, err := types.ParseTime(str)
		if err != nil {
			return nil, bad()
		}
		return types.LocalTime(truncNanos(int64(t), min(to.Precision, 3))), nil
	case types.TimestampRoot, types.TimestampLTZRoot:
		t, err := types.ParseTimestamp(s)
		if err != nil {
			return nil, bad()
		}
		t = types.TruncateTime(t, to.Precision)
		if to.Root == types.TimestampLTZRoot {
			t = fromWallClock(t, zone)
		}
		return t, nil
	}
	return nil, fmt.Errorf("cannot cast STRING to %s", to)
}

// parseJavaInteger parses an optionally signed integer, allowing and
// dropping a fractional part of digits (Flink's BinaryStringDataUtil.toLong
// and friends); it fails on anything else or a value out of the type's range.
func parseJavaInteger(s string, to *types.DataType) (int64, bool) {
	intPart := s
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart = s[:i]
		for _, c := range s[i+1:] {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
		if intPart == "" || intPart == "-" || intPart == "+" {
			if i+1 == len(s) {
				return 0, false
			}
			intPart += "0"
		}
	}
	bits := map[types.TypeRoot]int{types.TinyInt: 8, types.SmallInt: 16, types.Integer: 32, types.BigInt: 64}[to.Root]
	v, err := strconv.ParseInt(intPart, 10, bits)
	return v, err == nil
}

// parseJavaFloat parses like Java's Double.parseDouble: decimal and
// exponent forms, NaN, Infinity, an optional f/F/d/D suffix.
func parseJavaFloat(s string) (float64, bool) {
	switch s {
	case "NaN", "+NaN", "-NaN":
		return math.NaN(), true
	case "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	t := strings.TrimRight(s, "fFdD")
	if t == "" || strings.ContainsAny(t, "iInN_xX") {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return f, true // ±Inf or 0, as Java rounds
		}
		return 0, false
	}
	return f, true
}

// fitString applies the CHAR(n) padding and CHAR(n)/VARCHAR(n) truncation
// of a cast result (CharVarCharTrimPadCastRule, Flink 1.15+). A source
// whose declared length already fits is not trimmed (CastRulesTest: "we
// assume that the input length is respected").
func fitString(s string, from, to *types.DataType) string {
	if to.Length >= types.MaxLength {
		return s
	}
	if from != nil && from.IsString() && from.Length <= to.Length && to.Root == types.VarChar {
		return s
	}
	n := utf8.RuneCountInString(s)
	if n > to.Length {
		r := []rune(s)
		return string(r[:to.Length])
	}
	if to.Root == types.Char && n < to.Length {
		return s + strings.Repeat(" ", to.Length-n)
	}
	return s
}
