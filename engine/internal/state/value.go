package state

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
)

// Typed SQL values: the Go values engine/types documents for each root
// (values.go there). After the presence byte a value is written as
//
//	BOOLEAN                    Bool
//	TINYINT                    Uint8 (two's complement)
//	SMALLINT, INT, BIGINT      Varint
//	FLOAT, DOUBLE              Float32, Float64
//	DECIMAL                    Varint scale, Int64 high and Uint64 low word
//	CHAR, VARCHAR              String
//	BINARY, VARBINARY, RAW     Bytes
//	DATE                       Varint days since 1970-01-01
//	TIME                       Varint nanoseconds since midnight
//	TIMESTAMP, TIMESTAMP_LTZ   Varint epoch seconds, Uvarint nanoseconds (read back in UTC)
//	INTERVAL YEAR TO MONTH     Varint months
//	INTERVAL DAY TO SECOND     Varint nanoseconds
//	ARRAY                      Count, then each element (Value of the element type)
//	MAP, MULTISET              Count, then each key and value (a MULTISET's values are INT)
//	ROW                        Uint8 RowKind, Count, then each field (Value of the field type)
//
// A NULL type holds only NULL; SYMBOL and DESCRIPTOR values are not state.

// Value writes v, a Go value of logical type t (nil is NULL). A value that
// is not of t's Go type is recorded as the writer's error.
func (w *Writer) Value(v any, t *types.DataType) {
	if v == nil {
		w.Uint8(0)
		return
	}
	w.Uint8(1)
	w.value(v, t)
}

func (w *Writer) value(v any, t *types.DataType) {
	ok := true
	switch t.Root {
	case types.Boolean:
		var x bool
		if x, ok = v.(bool); ok {
			w.Bool(x)
		}
	case types.TinyInt:
		var x int8
		if x, ok = v.(int8); ok {
			w.Uint8(uint8(x))
		}
	case types.SmallInt:
		var x int16
		if x, ok = v.(int16); ok {
			w.Varint(int64(x))
		}
	case types.Integer:
		var x int32
		if x, ok = v.(int32); ok {
			w.Varint(int64(x))
		}
	case types.BigInt:
		var x int64
		if x, ok = v.(int64); ok {
			w.Varint(x)
		}
	case types.Float:
		var x float32
		if x, ok = v.(float32); ok {
			w.Float32(x)
		}
	case types.Double:
		var x float64
		if x, ok = v.(float64); ok {
			w.Float64(x)
		}
	case types.DecimalRoot:
		var x types.Decimal
		if x, ok = v.(types.Decimal); ok {
			w.Decimal(x)
		}
	case types.Char, types.VarChar:
		var x string
		if x, ok = v.(string); ok {
			w.String(x)
		}
	case types.VariantRoot:
		var x types.Variant
		if x, ok = v.(types.Variant); ok {
			w.String(string(x))
		}
	case types.Binary, types.VarBinary, types.Raw:
		var x []byte
		if x, ok = v.([]byte); ok {
			w.Bytes(x)
		}
	case types.DateRoot:
		var x types.Date
		if x, ok = v.(types.Date); ok {
			w.Varint(int64(x))
		}
	case types.TimeRoot:
		var x types.LocalTime
		if x, ok = v.(types.LocalTime); ok {
			w.Varint(int64(x))
		}
	case types.TimestampRoot, types.TimestampLTZRoot:
		var x time.Time
		if x, ok = v.(time.Time); ok {
			w.Time(x)
		}
	case types.IntervalYearMonthRoot:
		var x types.Months
		if x, ok = v.(types.Months); ok {
			w.Varint(int64(x))
		}
	case types.IntervalDayTimeRoot:
		var x time.Duration
		if x, ok = v.(time.Duration); ok {
			w.Varint(int64(x))
		}
	case types.ArrayRoot:
		var x []any
		if x, ok = v.([]any); ok {
			w.Count(len(x))
			for _, e := range x {
				w.Value(e, t.Elem)
			}
		}
	case types.MapRoot, types.MultisetRoot:
		var x *types.Map
		if x, ok = v.(*types.Map); ok && len(x.Keys) == len(x.Values) {
			kt, vt := mapTypes(t)
			w.Count(len(x.Keys))
			for i := range x.Keys {
				w.Value(x.Keys[i], kt)
				w.Value(x.Values[i], vt)
			}
		} else {
			ok = false
		}
	case types.RowRoot:
		var x *types.Row
		if x, ok = v.(*types.Row); ok && len(x.Values) <= len(t.Fields) {
			w.Uint8(uint8(x.Kind))
			w.Count(len(x.Values))
			for i, f := range x.Values {
				w.Value(f, t.Fields[i].Type)
			}
		} else {
			ok = false
		}
	default:
		w.failf("values of type %s cannot be saved in a snapshot", t)
		return
	}
	if !ok {
		w.failf("value %v (%T) is not of type %s", v, v, t)
	}
}

// mapTypes returns the key and value types of a MAP or MULTISET.
func mapTypes(t *types.DataType) (k, v *types.DataType) {
	if t.Root == types.MultisetRoot {
		return t.Elem, types.IntType()
	}
	return t.Key, t.Value
}

// Decimal writes a decimal's scale and 128-bit unscaled value.
func (w *Writer) Decimal(d types.Decimal) {
	w.Varint(int64(d.Scale))
	w.Int64(d.Unscaled.HighBits())
	w.Uint64(d.Unscaled.LowBits())
}

// Time writes an instant as epoch seconds and nanoseconds.
func (w *Writer) Time(t time.Time) {
	w.Varint(t.Unix())
	w.Uvarint(uint64(t.Nanosecond()))
}

// Value reads a value of logical type t written by Writer.Value (nil for
// NULL).
func (r *Reader) Value(t *types.DataType) any {
	off := r.off
	switch p := r.Uint8(); {
	case r.err != nil || p == 0:
		return nil
	case p != 1:
		r.failAt(off, "want a value's presence byte (0 or 1), found %d", p)
		return nil
	}
	return r.value(t)
}

func (r *Reader) value(t *types.DataType) any {
	var v any
	switch t.Root {
	case types.Boolean:
		v = r.Bool()
	case types.TinyInt:
		v = int8(r.Uint8())
	case types.SmallInt:
		v = int16(r.ranged(math.MinInt16, math.MaxInt16, "SMALLINT"))
	case types.Integer:
		v = int32(r.ranged(math.MinInt32, math.MaxInt32, "INT"))
	case types.BigInt:
		v = r.Varint()
	case types.Float:
		v = r.Float32()
	case types.Double:
		v = r.Float64()
	case types.DecimalRoot:
		v = r.Decimal()
	case types.Char, types.VarChar:
		v = r.String()
	case types.VariantRoot:
		x, err := types.VariantFromBytes([]byte(r.String()))
		if err != nil {
			r.Failf("%v", err)
		}
		v = x
	case types.Binary, types.VarBinary, types.Raw:
		v = r.Bytes()
	case types.DateRoot:
		v = types.Date(r.ranged(math.MinInt32, math.MaxInt32, "DATE"))
	case types.TimeRoot:
		v = types.LocalTime(r.Varint())
	case types.TimestampRoot, types.TimestampLTZRoot:
		v = r.Time()
	case types.IntervalYearMonthRoot:
		v = types.Months(r.ranged(math.MinInt32, math.MaxInt32, "INTERVAL YEAR TO MONTH"))
	case types.IntervalDayTimeRoot:
		v = time.Duration(r.Varint())
	case types.ArrayRoot:
		n := r.Count(1)
		out := make([]any, n)
		for i := range out {
			out[i] = r.Value(t.Elem)
		}
		v = out
	case types.MapRoot, types.MultisetRoot:
		kt, vt := mapTypes(t)
		n := r.Count(2)
		m := &types.Map{Keys: make([]any, n), Values: make([]any, n)}
		for i := 0; i < n; i++ {
			m.Keys[i] = r.Value(kt)
			m.Values[i] = r.Value(vt)
		}
		v = m
	case types.RowRoot:
		off := r.off
		kind := types.RowKind(r.Uint8())
		if kind > types.Delete {
			r.failAt(off, "want a row kind (0 to 3), found %d", kind)
		}
		off = r.off
		n := r.Count(1)
		if n > len(t.Fields) {
			r.failAt(off, "want a row of at most %d fields (%s), found %d", len(t.Fields), t, n)
			n = 0
		}
		row := &types.Row{Kind: kind, Values: make([]any, n), Names: make([]string, n)}
		for i := 0; i < n; i++ {
			row.Values[i] = r.Value(t.Fields[i].Type)
			row.Names[i] = t.Fields[i].Name
		}
		v = row
	default:
		r.Failf("values of type %s are not state", t)
	}
	if r.err != nil {
		return nil
	}
	return v
}

// ranged reads a varint that must lie in [lo, hi].
func (r *Reader) ranged(lo, hi int64, what string) int64 {
	off := r.off
	v := r.Varint()
	if v < lo || v > hi {
		r.failAt(off, "want a %s value, found %d (out of range)", what, v)
		return 0
	}
	return v
}

// Decimal reads a decimal written by Writer.Decimal.
func (r *Reader) Decimal() types.Decimal {
	off := r.off
	scale := r.Varint()
	hi := r.Int64()
	lo := r.Uint64()
	if scale < -types.MaxDecimalPrecision || scale > types.MaxDecimalPrecision {
		r.failAt(off, "want a decimal scale, found %d", scale)
		return types.Decimal{}
	}
	return types.Decimal{Unscaled: decimal128.New(hi, lo), Scale: int32(scale)}
}

// Time reads an instant written by Writer.Time, in UTC.
func (r *Reader) Time() time.Time {
	sec := r.Varint()
	off := r.off
	ns := r.Uvarint()
	if ns >= 1e9 {
		r.failAt(off, "want nanoseconds below 10^9, found %d", ns)
		return time.Time{}
	}
	return time.Unix(sec, int64(ns)).UTC()
}

// Tags of Any, one per Go type.
const (
	tagNil byte = iota
	tagBool
	tagInt8
	tagInt16
	tagInt32
	tagInt64
	tagInt
	tagUint64
	tagFloat32
	tagFloat64
	tagString
	tagBytes
	tagDecimal
	tagDate
	tagLocalTime
	tagTime
	tagMonths
	tagDuration
	tagList
	tagMap
	tagRow
	// tagPointer + the tag of a bool, number or string: a pointer to it
	tagPointer byte = 0x80
)

// maxAnyDepth bounds the nesting of lists, maps and rows read by Any.
const maxAnyDepth = 64

// Any writes a Go value whose SQL type is not known (a user-defined
// aggregate function's accumulator): nil, bool, int8 … int64, int,
// uint64, float32, float64, string, []byte, and the SQL values Decimal,
// Date, LocalTime, time.Time, Months, time.Duration, []any, *Map, *Row of
// these, or a pointer to a bool, number or string. Another Go type is
// recorded as the writer's error.
func (w *Writer) Any(v any) {
	if ok := w.anyPointer(v); ok {
		return
	}
	switch x := v.(type) {
	case nil:
		w.Uint8(tagNil)
	case bool:
		w.Uint8(tagBool)
		w.Bool(x)
	case int8:
		w.Uint8(tagInt8)
		w.Varint(int64(x))
	case int16:
		w.Uint8(tagInt16)
		w.Varint(int64(x))
	case int32:
		w.Uint8(tagInt32)
		w.Varint(int64(x))
	case int64:
		w.Uint8(tagInt64)
		w.Varint(x)
	case int:
		w.Uint8(tagInt)
		w.Varint(int64(x))
	case uint64:
		w.Uint8(tagUint64)
		w.Uvarint(x)
	case float32:
		w.Uint8(tagFloat32)
		w.Float32(x)
	case float64:
		w.Uint8(tagFloat64)
		w.Float64(x)
	case string:
		w.Uint8(tagString)
		w.String(x)
	case []byte:
		w.Uint8(tagBytes)
		w.Bytes(x)
	case types.Decimal:
		w.Uint8(tagDecimal)
		w.Decimal(x)
	case types.Date:
		w.Uint8(tagDate)
		w.Varint(int64(x))
	case types.LocalTime:
		w.Uint8(tagLocalTime)
		w.Varint(int64(x))
	case time.Time:
		w.Uint8(tagTime)
		w.Time(x)
	case types.Months:
		w.Uint8(tagMonths)
		w.Varint(int64(x))
	case time.Duration:
		w.Uint8(tagDuration)
		w.Varint(int64(x))
	case []any:
		w.Uint8(tagList)
		w.Count(len(x))
		for _, e := range x {
			w.Any(e)
		}
	case *types.Map:
		if x == nil || len(x.Keys) != len(x.Values) {
			w.failf("map %v has %d keys and %d values", x, len(x.Keys), len(x.Values))
			return
		}
		w.Uint8(tagMap)
		w.Count(len(x.Keys))
		for i := range x.Keys {
			w.Any(x.Keys[i])
			w.Any(x.Values[i])
		}
	case *types.Row:
		if x == nil {
			w.failf("nil *types.Row cannot be saved")
			return
		}
		w.Uint8(tagRow)
		w.Uint8(uint8(x.Kind))
		w.Count(len(x.Values))
		for _, e := range x.Values {
			w.Any(e)
		}
		w.Count(len(x.Names))
		for _, n := range x.Names {
			w.String(n)
		}
	default:
		w.failf("a value of Go type %T cannot be saved in a snapshot", v)
	}
}

// anyPointer writes a non-nil pointer to a bool, number or string.
func (w *Writer) anyPointer(v any) bool {
	var inner any
	switch p := v.(type) {
	case *bool:
		if p != nil {
			inner = *p
		}
	case *int8:
		if p != nil {
			inner = *p
		}
	case *int16:
		if p != nil {
			inner = *p
		}
	case *int32:
		if p != nil {
			inner = *p
		}
	case *int64:
		if p != nil {
			inner = *p
		}
	case *int:
		if p != nil {
			inner = *p
		}
	case *uint64:
		if p != nil {
			inner = *p
		}
	case *float32:
		if p != nil {
			inner = *p
		}
	case *float64:
		if p != nil {
			inner = *p
		}
	case *string:
		if p != nil {
			inner = *p
		}
	default:
		return false
	}
	if inner == nil {
		w.failf("a nil %T cannot be saved in a snapshot", v)
		return true
	}
	start := len(w.buf)
	w.Any(inner)
	w.buf[start] |= tagPointer
	return true
}

// Any reads a value written by Writer.Any.
func (r *Reader) Any() any { return r.anyAt(0) }

func (r *Reader) anyAt(depth int) any {
	off := r.off
	tag := r.Uint8()
	if r.err != nil {
		return nil
	}
	if tag&tagPointer != 0 {
		return r.pointer(tag&^tagPointer, off)
	}
	var v any
	switch tag {
	case tagNil:
		return nil
	case tagBool:
		v = r.Bool()
	case tagInt8:
		v = int8(r.ranged(math.MinInt8, math.MaxInt8, "TINYINT"))
	case tagInt16:
		v = int16(r.ranged(math.MinInt16, math.MaxInt16, "SMALLINT"))
	case tagInt32:
		v = int32(r.ranged(math.MinInt32, math.MaxInt32, "INT"))
	case tagInt64:
		v = r.Varint()
	case tagInt:
		v = int(r.Varint())
	case tagUint64:
		v = r.Uvarint()
	case tagFloat32:
		v = r.Float32()
	case tagFloat64:
		v = r.Float64()
	case tagString:
		v = r.String()
	case tagBytes:
		v = r.Bytes()
	case tagDecimal:
		v = r.Decimal()
	case tagDate:
		v = types.Date(r.ranged(math.MinInt32, math.MaxInt32, "DATE"))
	case tagLocalTime:
		v = types.LocalTime(r.Varint())
	case tagTime:
		v = r.Time()
	case tagMonths:
		v = types.Months(r.ranged(math.MinInt32, math.MaxInt32, "INTERVAL YEAR TO MONTH"))
	case tagDuration:
		v = time.Duration(r.Varint())
	case tagList, tagMap, tagRow:
		if depth >= maxAnyDepth {
			r.failAt(off, "values nested deeper than %d levels", maxAnyDepth)
			return nil
		}
		v = r.nested(tag, depth)
	default:
		r.failAt(off, "want a value's type tag, found %d", tag)
	}
	if r.err != nil {
		return nil
	}
	return v
}

func (r *Reader) nested(tag byte, depth int) any {
	switch tag {
	case tagList:
		n := r.Count(1)
		out := make([]any, n)
		for i := range out {
			out[i] = r.anyAt(depth + 1)
		}
		return out
	case tagMap:
		n := r.Count(2)
		m := &types.Map{Keys: make([]any, n), Values: make([]any, n)}
		for i := 0; i < n; i++ {
			m.Keys[i] = r.anyAt(depth + 1)
			m.Values[i] = r.anyAt(depth + 1)
		}
		return m
	}
	off := r.off
	kind := types.RowKind(r.Uint8())
	if kind > types.Delete {
		r.failAt(off, "want a row kind (0 to 3), found %d", kind)
	}
	n := r.Count(1)
	row := &types.Row{Kind: kind, Values: make([]any, n)}
	for i := range row.Values {
		row.Values[i] = r.anyAt(depth + 1)
	}
	if names := r.Count(1); names > 0 {
		row.Names = make([]string, names)
		for i := range row.Names {
			row.Names[i] = r.String()
		}
	}
	return row
}

// pointer reads the value of a pointer whose inner tag is tag.
func (r *Reader) pointer(tag byte, off int) any {
	switch tag {
	case tagBool:
		return ptr(r.Bool())
	case tagInt8:
		return ptr(int8(r.ranged(math.MinInt8, math.MaxInt8, "int8")))
	case tagInt16:
		return ptr(int16(r.ranged(math.MinInt16, math.MaxInt16, "int16")))
	case tagInt32:
		return ptr(int32(r.ranged(math.MinInt32, math.MaxInt32, "int32")))
	case tagInt64:
		return ptr(r.Varint())
	case tagInt:
		return ptr(int(r.Varint()))
	case tagUint64:
		return ptr(r.Uvarint())
	case tagFloat32:
		return ptr(r.Float32())
	case tagFloat64:
		return ptr(r.Float64())
	case tagString:
		return ptr(r.String())
	}
	r.failAt(off, "want the type tag of a pointer's value, found %d", tag|tagPointer)
	return nil
}

func ptr[T any](v T) *T { return &v }
