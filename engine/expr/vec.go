package expr

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Vec is an evaluated column: an Arrow array of the batch's length, or a
// constant (Const set, Val holding the Go value, nil = NULL) standing for
// that value in every row.
type Vec struct {
	Arr   arrow.Array
	Const bool
	Val   any
	T     *types.DataType
}

// ConstVec builds a constant column.
func ConstVec(v any, t *types.DataType) *Vec { return &Vec{Const: true, Val: v, T: t} }

// ArrVec wraps an array.
func ArrVec(a arrow.Array, t *types.DataType) *Vec { return &Vec{Arr: a, T: t} }

// IsNullConst reports a constant NULL.
func (v *Vec) IsNullConst() bool { return v.Const && v.Val == nil }

// Null reports whether row i is NULL.
func (v *Vec) Null(i int) bool {
	if v.Const {
		return v.Val == nil
	}
	return v.Arr.IsNull(i)
}

// HasNulls reports whether any row may be NULL.
func (v *Vec) HasNulls() bool {
	if v.Const {
		return v.Val == nil
	}
	return v.Arr.NullN() > 0
}

// Value returns row i as a Go value (slow path).
func (v *Vec) Value(i int) any {
	if v.Const {
		return v.Val
	}
	return types.ValueAt(v.Arr, i, v.T)
}

// Materialize returns the column as an array of n rows (constants are
// broadcast).
func (v *Vec) Materialize(n int) arrow.Array {
	if !v.Const {
		return v.Arr
	}
	if v.Val == nil {
		return vector.NullArray(types.ToArrow(v.T), n)
	}
	switch v.T.Root {
	case types.BigInt:
		vals := make([]int64, n)
		c := v.Val.(int64)
		for i := range vals {
			vals[i] = c
		}
		return vector.FromValues(arrow.PrimitiveTypes.Int64, vals, nil, 0)
	case types.Integer:
		vals := make([]int32, n)
		c := v.Val.(int32)
		for i := range vals {
			vals[i] = c
		}
		return vector.FromValues(arrow.PrimitiveTypes.Int32, vals, nil, 0)
	}
	b := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(v.T))
	b.Reserve(n)
	for i := 0; i < n; i++ {
		types.AppendValue(b, v.Val, v.T)
	}
	return b.NewArray()
}

// validity of the first n rows: nil means all valid; for a NULL constant an
// all-zero bitmap.
func validityOf(v *Vec, n int) []byte {
	if v.Const {
		if v.Val == nil {
			return make([]byte, (n+7)/8)
		}
		return nil
	}
	return vector.Validity(v.Arr)
}

// andValidity combines the validity of several columns (nil = all valid).
func andValidity(n int, vs ...*Vec) []byte {
	var out []byte
	for _, v := range vs {
		if !v.HasNulls() {
			continue
		}
		b := validityOf(v, n)
		if out == nil {
			out = b
			continue
		}
		for i := range out {
			out[i] &= b[i]
		}
	}
	return out
}

// Fixed-width typed access. fixedOf returns the values slice (nil for a
// constant) and the constant value in the column's physical form.
func fixedOf[T vector.Fixed](v *Vec) ([]T, T) {
	var c T
	if v.Const {
		if v.Val != nil {
			c = constFixed[T](v.Val, v.T)
		}
		return nil, c
	}
	return vector.Values[T](v.Arr), c
}

// constFixed converts a constant Go value of logical type t to the
// physical representation of its Arrow column (see types.ToArrow).
func constFixed[T vector.Fixed](val any, t *types.DataType) T {
	var out any
	switch x := val.(type) {
	case int8, int16, int32, int64, float32, float64, decimal128.Num:
		out = x
	case types.Decimal:
		if t != nil && t.Root == types.DecimalRoot && x.Scale != int32(t.Scale) {
			if r, err := x.Rescale(int32(t.Scale), 0); err == nil {
				x = r
			}
		}
		out = x.Unscaled
	case types.Date:
		out = int32(x)
	case types.Months:
		out = int32(x)
	case time.Duration:
		out = int64(x / time.Millisecond)
	case types.LocalTime:
		if t != nil && t.Precision <= 3 {
			out = int32(int64(x) / 1_000_000)
		} else {
			out = int64(x)
		}
	case time.Time:
		p := 3
		if t != nil {
			p = t.Precision
		}
		out = types.TimeToUnits(x, types.TimestampUnit(p))
	default:
		panic(fmt.Sprintf("expr: unsupported constant %T for fixed access", val))
	}
	if r, ok := out.(T); ok {
		return r
	}
	panic(fmt.Sprintf("expr: constant %T has wrong physical type", out))
}

// strAccess gives zero-copy access to a string/binary column or constant.
type strAccess struct {
	offs    []int32
	data    []byte
	c       string
	isConst bool
}

func strOf(v *Vec) strAccess {
	if v.Const {
		s := ""
		switch x := v.Val.(type) {
		case string:
			s = x
		case []byte:
			s = string(x)
		}
		return strAccess{c: s, isConst: true}
	}
	o, d := vector.StringData(v.Arr)
	return strAccess{offs: o, data: d}
}

func (s *strAccess) at(i int) string {
	if s.isConst {
		return s.c
	}
	return vector.UnsafeString(s.data[s.offs[i]:s.offs[i+1]])
}

func (s *strAccess) bytesAt(i int) []byte {
	if s.isConst {
		return []byte(s.c)
	}
	return s.data[s.offs[i]:s.offs[i+1]]
}

// boolAccess reads a BOOLEAN column or constant.
type boolAccess struct {
	arr     *array.Boolean
	c       bool
	isConst bool
}

func boolOf(v *Vec) boolAccess {
	if v.Const {
		b, _ := v.Val.(bool)
		return boolAccess{c: b, isConst: true}
	}
	return boolAccess{arr: v.Arr.(*array.Boolean)}
}

func (b *boolAccess) at(i int) bool {
	if b.isConst {
		return b.c
	}
	return b.arr.Value(i)
}
