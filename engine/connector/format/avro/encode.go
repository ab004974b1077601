package avro

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
)

func appendLong(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

func appendBytes(dst, b []byte) []byte {
	dst = appendLong(dst, int64(len(b)))
	return append(dst, b...)
}

// appendDecimal writes the minimal big-endian two's complement bytes of n
// (Java's BigInteger.toByteArray, as Flink's RowDataToAvroConverters).
func appendDecimal(dst []byte, n decimal128.Num) []byte {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(buf[8:], n.LowBits())
	i := 0
	for i < 15 {
		if buf[i] == 0 && buf[i+1]&0x80 == 0 || buf[i] == 0xff && buf[i+1]&0x80 != 0 {
			i++
			continue
		}
		break
	}
	return appendBytes(dst, buf[i:])
}

// writer encodes the value at one index of an array.
type writer func(dst []byte, arr arrow.Array, i int) ([]byte, error)

func newWriter(t *types.DataType, path string) writer {
	w := baseWriter(t, path)
	if t.Nullable && t.Root != types.Null {
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			if arr.IsNull(i) {
				return append(dst, 0), nil
			}
			return w(append(dst, 2), arr, i) // zigzag 1
		}
	}
	return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
		if arr.IsNull(i) {
			return dst, fmt.Errorf("column %s: NULL in a NOT NULL column", types.QuoteIdent(path))
		}
		return w(dst, arr, i)
	}
}

func baseWriter(t *types.DataType, path string) writer {
	switch t.Root {
	case types.Null:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) { return dst, nil }
	case types.Boolean:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			if arr.(*array.Boolean).Value(i) {
				return append(dst, 1), nil
			}
			return append(dst, 0), nil
		}
	case types.TinyInt:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, int64(arr.(*array.Int8).Value(i))), nil
		}
	case types.SmallInt:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, int64(arr.(*array.Int16).Value(i))), nil
		}
	case types.Integer:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, int64(arr.(*array.Int32).Value(i))), nil
		}
	case types.DateRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, int64(arr.(*array.Date32).Value(i))), nil
		}
	case types.TimeRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, int64(arr.(*array.Time32).Value(i))), nil
		}
	case types.BigInt:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, arr.(*array.Int64).Value(i)), nil
		}
	case types.TimestampRoot, types.TimestampLTZRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLong(dst, int64(arr.(*array.Timestamp).Value(i))), nil
		}
	case types.Float:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return binary.LittleEndian.AppendUint32(dst, math.Float32bits(arr.(*array.Float32).Value(i))), nil
		}
	case types.Double:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return binary.LittleEndian.AppendUint64(dst, math.Float64bits(arr.(*array.Float64).Value(i))), nil
		}
	case types.Char, types.VarChar:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			s := arr.(*array.String).Value(i)
			dst = appendLong(dst, int64(len(s)))
			return append(dst, s...), nil
		}
	case types.Binary, types.VarBinary:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			switch a := arr.(type) {
			case *array.Binary:
				return appendBytes(dst, a.Value(i)), nil
			case *array.FixedSizeBinary:
				return appendBytes(dst, a.Value(i)), nil
			}
			return dst, fmt.Errorf("column %s: unexpected array %T", types.QuoteIdent(path), arr)
		}
	case types.DecimalRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendDecimal(dst, arr.(*array.Decimal128).Value(i)), nil
		}
	case types.ArrayRoot:
		elem := newWriter(t.Elem, path)
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			l := arr.(*array.List)
			from, to := l.ValueOffsets(i)
			var err error
			if to > from {
				dst = appendLong(dst, to-from)
				values := l.ListValues()
				for j := from; j < to; j++ {
					if dst, err = elem(dst, values, int(j)); err != nil {
						return dst, err
					}
				}
			}
			return append(dst, 0), nil
		}
	case types.MapRoot, types.MultisetRoot:
		vt := t.Value
		if t.Root == types.MultisetRoot {
			vt = types.IntType() // ["null", "int"] as Flink derives it
		}
		val := newWriter(vt, path)
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			m := arr.(*array.Map)
			from, to := m.ValueOffsets(i)
			var err error
			if to > from {
				dst = appendLong(dst, to-from)
				keys, items := m.Keys().(*array.String), m.Items()
				for j := from; j < to; j++ {
					k := keys.Value(int(j))
					dst = appendLong(dst, int64(len(k)))
					dst = append(dst, k...)
					if dst, err = val(dst, items, int(j)); err != nil {
						return dst, err
					}
				}
			}
			return append(dst, 0), nil
		}
	case types.RowRoot:
		fields := make([]writer, len(t.Fields))
		for k, f := range t.Fields {
			fields[k] = newWriter(f.Type, path+"."+f.Name)
		}
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			s := arr.(*array.Struct)
			var err error
			for k, w := range fields {
				if dst, err = w(dst, s.Field(k), i); err != nil {
					return dst, err
				}
			}
			return dst, nil
		}
	}
	return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
		return dst, unsupported(t)
	}
}
