package runtime

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

var hashSeed = maphash.MakeSeed()

// shortHashSeed is what HashColumn mixes a string of up to 7 bytes with:
// the process's seed as a word.
var shortHashSeed = maphash.String(hashSeed, "short strings")

func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h *= 0xbf58476d1ce4e5b9
	return h ^ (h >> 31)
}

// HashColumn mixes the hash of each row of arr into hashes (len = rows).
// NULL hashes to a fixed value.
func HashColumn(arr arrow.Array, hashes []uint64) {
	n := arr.Len()
	const nullHash = 0x51ed270b
	switch arr.DataType().ID() {
	case arrow.INT8:
		v := vector.Values[int8](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(hashes[i], uint64(v[i]))
		}
	case arrow.INT16:
		v := vector.Values[int16](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(hashes[i], uint64(v[i]))
		}
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		v := vector.Values[int32](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(hashes[i], uint64(v[i]))
		}
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		v := vector.Values[int64](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(hashes[i], uint64(v[i]))
		}
	case arrow.FLOAT32:
		v := vector.Values[float32](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(hashes[i], uint64(math.Float32bits(v[i])))
		}
	case arrow.FLOAT64:
		v := vector.Values[float64](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(hashes[i], math.Float64bits(v[i]))
		}
	case arrow.DECIMAL128:
		v := vector.Values[decimal128.Num](arr)
		for i := 0; i < n; i++ {
			hashes[i] = mix(mix(hashes[i], v[i].LowBits()), uint64(v[i].HighBits()))
		}
	case arrow.STRING, arrow.BINARY:
		offs, data := vector.StringData(arr)
		for i := 0; i < n; i++ {
			var v uint64
			if k, short := shortKey(offs, data, i); short {
				// up to 7 bytes (codes, short names): the bytes and the
				// length as one word, mixed with the seed, without a
				// maphash call per row
				v = mix(k, shortHashSeed)
			} else {
				v = maphash.Bytes(hashSeed, data[offs[i]:offs[i+1]])
			}
			hashes[i] = mix(hashes[i], v)
		}
	case arrow.BOOL:
		b := arr.(*array.Boolean)
		for i := 0; i < n; i++ {
			var x uint64
			if b.Value(i) {
				x = 1
			}
			hashes[i] = mix(hashes[i], x)
		}
	default:
		// nested: hash the encoded key
		var buf []byte
		for i := 0; i < n; i++ {
			buf = AppendKey(buf[:0], arr, i)
			hashes[i] = mix(hashes[i], maphash.Bytes(hashSeed, buf))
		}
	}
	if arr.NullN() > 0 {
		for i := 0; i < n; i++ {
			if arr.IsNull(i) {
				hashes[i] = mix(hashes[i], nullHash)
			}
		}
	}
}

// AppendKey appends a self-delimiting binary encoding of row i of arr to
// buf. Equal values encode equally, so encoded keys can be compared and
// used as map keys (GROUP BY, DISTINCT, join keys). NULL has its own code.
func AppendKey(buf []byte, arr arrow.Array, i int) []byte {
	if arr.IsNull(i) {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	switch a := arr.(type) {
	case *array.Int8:
		return append(buf, byte(a.Value(i)))
	case *array.Int16:
		return binary.LittleEndian.AppendUint16(buf, uint16(a.Value(i)))
	case *array.Int32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i)))
	case *array.Date32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i)))
	case *array.Time32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i)))
	case *array.MonthInterval:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i)))
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Timestamp:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Time64:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Duration:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Float32:
		f := a.Value(i)
		if f == 0 {
			f = 0 // -0.0 == 0.0
		}
		return binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
	case *array.Float64:
		f := a.Value(i)
		if f == 0 {
			f = 0
		}
		return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
	case *array.Decimal128:
		v := a.Value(i)
		buf = binary.LittleEndian.AppendUint64(buf, v.LowBits())
		return binary.LittleEndian.AppendUint64(buf, uint64(v.HighBits()))
	case *array.String:
		s := a.Value(i)
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		return append(buf, s...)
	case *array.Binary:
		s := a.Value(i)
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		return append(buf, s...)
	case *array.Boolean:
		if a.Value(i) {
			return append(buf, 1)
		}
		return append(buf, 0)
	case *array.List:
		start, end := a.ValueOffsets(i)
		buf = binary.AppendUvarint(buf, uint64(end-start))
		for j := start; j < end; j++ {
			buf = AppendKey(buf, a.ListValues(), int(j))
		}
		return buf
	case *array.Map:
		start, end := a.ValueOffsets(i)
		buf = binary.AppendUvarint(buf, uint64(end-start))
		for j := start; j < end; j++ {
			buf = AppendKey(buf, a.Keys(), int(j))
			buf = AppendKey(buf, a.Items(), int(j))
		}
		return buf
	case *array.Struct:
		for f := 0; f < a.NumField(); f++ {
			buf = AppendKey(buf, a.Field(f), i)
		}
		return buf
	case *array.Null:
		return buf
	}
	panic("runtime.AppendKey: unsupported array " + arr.DataType().String())
}

// AppendRowKey encodes the key columns of row i.
func AppendRowKey(buf []byte, b *types.Batch, cols []int, i int) []byte {
	for _, c := range cols {
		buf = AppendKey(buf, b.Cols[c], i)
	}
	return buf
}
