package expr

import (
	"errors"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Generic typed loops used by kernels. Each handles the array/constant
// combinations of its inputs and propagates NULL (any NULL input gives a
// NULL output).

// unaryFixed maps a fixed-width column through f.
func unaryFixed[A, R vector.Fixed](a *Vec, n int, out *types.DataType, f func(A) R) *Vec {
	if a.Const {
		if a.Val == nil {
			return ConstVec(nil, out)
		}
		_, ac := fixedOf[A](a)
		return ConstVec(fixedToValue(f(ac), out), out)
	}
	av := vector.Values[A](a.Arr)
	res := make([]R, n)
	for i := range res {
		res[i] = f(av[i])
	}
	return ArrVec(vector.FromValues(types.ToArrow(out), res, validityOf(a, n), -1), out)
}

// binaryFixed combines two fixed-width columns through f.
func binaryFixed[A, B, R vector.Fixed](a, b *Vec, n int, out *types.DataType, f func(A, B) R) *Vec {
	if a.IsNullConst() || b.IsNullConst() {
		return ConstVec(nil, out)
	}
	if a.Const && b.Const {
		_, ac := fixedOf[A](a)
		_, bc := fixedOf[B](b)
		return ConstVec(fixedToValue(f(ac, bc), out), out)
	}
	res := make([]R, n)
	av, ac := fixedOf[A](a)
	bv, bc := fixedOf[B](b)
	switch {
	case a.Const:
		for i := range res {
			res[i] = f(ac, bv[i])
		}
	case b.Const:
		for i := range res {
			res[i] = f(av[i], bc)
		}
	default:
		bv = bv[:len(av)]
		for i := range res {
			res[i] = f(av[i], bv[i])
		}
	}
	return ArrVec(vector.FromValues(types.ToArrow(out), res, andValidity(n, a, b), -1), out)
}

// binaryFixedErr is binaryFixed for functions that can fail on valid rows
// (integer division by zero); rows that are NULL are not evaluated.
func binaryFixedErr[A, B, R vector.Fixed](a, b *Vec, n int, out *types.DataType, f func(A, B) (R, error)) (*Vec, error) {
	if a.IsNullConst() || b.IsNullConst() {
		return ConstVec(nil, out), nil
	}
	if a.Const && b.Const {
		_, ac := fixedOf[A](a)
		_, bc := fixedOf[B](b)
		r, err := f(ac, bc)
		if err != nil {
			return nil, err
		}
		return ConstVec(fixedToValue(r, out), out), nil
	}
	res := make([]R, n)
	valid := andValidity(n, a, b)
	av, ac := fixedOf[A](a)
	bv, bc := fixedOf[B](b)
	for i := range res {
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
		r, err := f(x, y)
		if err != nil {
			return nil, err
		}
		res[i] = r
	}
	return ArrVec(vector.FromValues(types.ToArrow(out), res, valid, -1), out), nil
}

// compareFixed evaluates a comparison of two fixed-width columns.
func compareFixed[T vector.Fixed](a, b *Vec, n int, f func(T, T) bool) *Vec {
	out := types.BooleanType()
	if a.IsNullConst() || b.IsNullConst() {
		return ConstVec(nil, out)
	}
	if a.Const && b.Const {
		_, ac := fixedOf[T](a)
		_, bc := fixedOf[T](b)
		return ConstVec(f(ac, bc), out)
	}
	bits := make([]byte, (n+7)/8)
	av, ac := fixedOf[T](a)
	bv, bc := fixedOf[T](b)
	switch {
	case a.Const:
		for i := 0; i < n; i++ {
			if f(ac, bv[i]) {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	case b.Const:
		for i := 0; i < n; i++ {
			if f(av[i], bc) {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	default:
		for i := 0; i < n; i++ {
			if f(av[i], bv[i]) {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
	}
	return ArrVec(vector.BoolsFromBits(bits, n, andValidity(n, a, b)), out)
}

// mapString maps a string column (or constant) through f, producing a
// string column.
func mapString(a *Vec, n int, out *types.DataType, f func(string) string) *Vec {
	if a.Const {
		if a.Val == nil {
			return ConstVec(nil, out)
		}
		return ConstVec(f(a.Val.(string)), out)
	}
	s := strOf(a)
	sb := vector.NewStringBuilder(n, 16)
	for i := 0; i < n; i++ {
		if a.Arr.IsNull(i) {
			sb.AppendNull()
			continue
		}
		sb.AppendString(f(s.at(i)))
	}
	return ArrVec(sb.Finish(false), out)
}

// rowWise evaluates f row by row over Go values (slow path for rare
// functions and nested types): NULL arguments give NULL unless nullSafe.
func rowWise(args []*Vec, n int, out *types.DataType, nullSafe bool, f func(vals []any) (any, error)) (*Vec, error) {
	allConst := true
	for _, a := range args {
		if !a.Const {
			allConst = false
		}
	}
	vals := make([]any, len(args))
	eval := func(i int) (any, error) {
		for j, a := range args {
			vals[j] = a.Value(i)
			if vals[j] == nil && !nullSafe {
				return nil, nil
			}
		}
		return f(vals)
	}
	if allConst {
		v, err := eval(0)
		if err != nil {
			return nil, err
		}
		return ConstVec(v, out), nil
	}
	bb := types.NewBatchBuilder([]*types.DataType{out})
	row := make([]any, 1)
	for i := 0; i < n; i++ {
		v, err := eval(i)
		if err != nil {
			return nil, err
		}
		row[0] = v
		if err := bb.Append(types.Insert, row); err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u // the value's own error, without "field 0"
			}
			return nil, err
		}
	}
	return ArrVec(bb.Build().Cols[0], out), nil
}

// fixedToValue converts a physical value back to the Go value convention of
// type t (used for constant results).
func fixedToValue[T vector.Fixed](v T, t *types.DataType) any {
	x := any(v)
	switch t.Root {
	case types.DecimalRoot:
		return types.Decimal{Unscaled: x.(decimal128.Num), Scale: int32(t.Scale)}
	case types.DateRoot:
		return types.Date(x.(int32))
	case types.TimeRoot:
		if t.Precision <= 3 {
			return types.LocalTime(int64(x.(int32)) * 1_000_000)
		}
		return types.LocalTime(x.(int64))
	case types.TimestampRoot, types.TimestampLTZRoot:
		return types.TimeFromUnits(x.(int64), types.TimestampUnit(t.Precision))
	case types.IntervalYearMonthRoot:
		return types.Months(x.(int32))
	case types.IntervalDayTimeRoot:
		return time.Duration(x.(int64)) * time.Millisecond
	}
	return x
}

// arrowType is a shorthand.
func arrowType(t *types.DataType) arrow.DataType { return types.ToArrow(t) }
