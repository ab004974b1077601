// Package vector has Riffle's low-level column kernels over Arrow arrays:
// typed views of value buffers, building arrays from Go slices without
// copying, gathering rows by index (filter/take), concatenation and
// validity-bitmap helpers. The hot loops of the engine use these instead
// of arrow-go's compute package, whose per-call overhead is several
// microseconds (see notes/engine.md §5.1).
package vector

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Fixed is the set of Go types stored in fixed-width Arrow value buffers.
type Fixed interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | decimal128.Num
}

// Values returns the value buffer of a fixed-width array as a []T of
// length arr.Len(), honouring the array's offset. T must match the
// array's physical width (int32 for Int32/Date32/Time32/MonthInterval,
// int64 for Int64/Timestamp/Duration/Time64, decimal128.Num for Decimal128).
// The slice aliases the array's memory: do not modify it.
func Values[T Fixed](arr arrow.Array) []T {
	d := arr.Data()
	bufs := d.Buffers()
	if len(bufs) < 2 || bufs[1] == nil || arr.Len() == 0 {
		return nil
	}
	b := bufs[1].Bytes()
	var zero T
	size := int(unsafe.Sizeof(zero))
	total := len(b) / size
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), total)
	return all[d.Offset() : d.Offset()+arr.Len()]
}

// bytesOf reinterprets a slice's memory as bytes.
func bytesOf[T Fixed](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(zero)))
}

// FromValues builds a fixed-width array of Arrow type dt from vals without
// copying. valid is a validity bitmap (bit i set = row i not null) or nil
// when every row is valid; nulls is its count of unset bits (-1 = unknown,
// computed lazily by Arrow).
func FromValues[T Fixed](dt arrow.DataType, vals []T, valid []byte, nulls int) arrow.Array {
	var vb *memory.Buffer
	if valid != nil {
		vb = memory.NewBufferBytes(valid)
		if nulls < 0 {
			nulls = len(vals) - bitutil.CountSetBits(valid, 0, len(vals))
		}
		if nulls == 0 {
			vb = nil
		}
	} else {
		nulls = 0
	}
	data := array.NewData(dt, len(vals), []*memory.Buffer{vb, memory.NewBufferBytes(bytesOf(vals))}, nil, nulls, 0)
	return array.MakeFromData(data)
}

// Bools builds a Boolean array from Go bools and an optional validity bitmap.
func Bools(vals []bool, valid []byte) arrow.Array {
	bits := make([]byte, bitutil.BytesForBits(int64(len(vals))))
	for i, v := range vals {
		if v {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return BoolsFromBits(bits, len(vals), valid)
}

// BoolsFromBits builds a Boolean array from a value bitmap.
func BoolsFromBits(bits []byte, n int, valid []byte) arrow.Array {
	var vb *memory.Buffer
	nulls := 0
	if valid != nil {
		nulls = n - bitutil.CountSetBits(valid, 0, n)
		if nulls > 0 {
			vb = memory.NewBufferBytes(valid)
		}
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{vb, memory.NewBufferBytes(bits)}, nil, nulls, 0)
	return array.MakeFromData(data)
}

// Validity returns a fresh validity bitmap of arr for rows [0, n) with the
// array's offset normalised to 0, or nil when arr has no nulls.
func Validity(arr arrow.Array) []byte {
	if arr.NullN() == 0 {
		return nil
	}
	n := arr.Len()
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	d := arr.Data()
	src := d.Buffers()[0]
	if src == nil {
		if arr.DataType().ID() == arrow.NULL {
			return out // all null
		}
		return nil
	}
	off := d.Offset()
	if off%8 == 0 {
		copy(out, src.Bytes()[off/8:])
		// clear trailing bits beyond n
		if n%8 != 0 {
			out[len(out)-1] &= byte(1<<(n%8)) - 1
		}
		return out
	}
	for i := 0; i < n; i++ {
		if bitutil.BitIsSet(src.Bytes(), off+i) {
			out[i>>3] |= 1 << (i & 7)
		}
	}
	return out
}

// AndValidity combines validity bitmaps of several arrays of length n:
// the result has a bit set where every input is valid; nil when no input
// has nulls.
func AndValidity(n int, arrs ...arrow.Array) []byte {
	var out []byte
	for _, a := range arrs {
		if a == nil || a.NullN() == 0 {
			continue
		}
		v := Validity(a)
		if out == nil {
			out = v
			continue
		}
		for i := range out {
			out[i] &= v[i]
		}
	}
	return out
}

// AllValid returns a bitmap with the first n bits set.
func AllValid(n int) []byte {
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := range out {
		out[i] = 0xff
	}
	if n%8 != 0 {
		out[len(out)-1] = byte(1<<(n%8)) - 1
	}
	return out
}

// SetBit sets bit i; ClearBit clears it; BitIsSet tests it.
func SetBit(b []byte, i int)        { b[i>>3] |= 1 << (i & 7) }
func ClearBit(b []byte, i int)      { b[i>>3] &^= 1 << (i & 7) }
func BitIsSet(b []byte, i int) bool { return b[i>>3]&(1<<(i&7)) != 0 }

// NullArray returns an all-NULL array of Arrow type dt and length n.
func NullArray(dt arrow.DataType, n int) arrow.Array {
	return array.MakeArrayOfNull(memory.DefaultAllocator, dt, n)
}

// StringData returns the offsets and data bytes of a String or Binary
// array: offsets has Len()+1 entries (already shifted by the array
// offset) and indexes data, the whole value buffer, so element i is
// data[offsets[i]:offsets[i+1]] also for sliced arrays. (arrow-go's
// ValueBytes trims the buffer to the slice, which does not match the
// absolute offsets of a slice that does not start at byte 0.)
func StringData(arr arrow.Array) (offsets []int32, data []byte) {
	switch a := arr.(type) {
	case *array.String:
		return a.ValueOffsets(), valueBuffer(a.Data())
	case *array.Binary:
		return a.ValueOffsets(), valueBuffer(a.Data())
	}
	panic("vector.StringData: not a string or binary array")
}

func valueBuffer(d arrow.ArrayData) []byte {
	bufs := d.Buffers()
	if len(bufs) < 3 || bufs[2] == nil {
		return nil
	}
	return bufs[2].Bytes()
}

// BytesAt returns element i of a String/Binary array as a byte slice
// aliasing the array's memory.
func BytesAt(offsets []int32, data []byte, i int) []byte {
	return data[offsets[i]:offsets[i+1]]
}

// UnsafeString views bytes as a string without copying. The bytes must
// not change while the string is in use (Arrow buffers never do).
func UnsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// StringsFrom builds a String (or Binary, when binary is set) array from
// offsets and data, without copying.
func StringsFrom(offsets []int32, data []byte, valid []byte, binary bool) arrow.Array {
	n := len(offsets) - 1
	nulls := 0
	var vb *memory.Buffer
	if valid != nil {
		nulls = n - bitutil.CountSetBits(valid, 0, n)
		if nulls > 0 {
			vb = memory.NewBufferBytes(valid)
		}
	}
	dt := arrow.DataType(arrow.BinaryTypes.String)
	if binary {
		dt = arrow.BinaryTypes.Binary
	}
	data2 := array.NewData(dt, n, []*memory.Buffer{vb, memory.NewBufferBytes(bytesOf(offsets)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	return array.MakeFromData(data2)
}

// StringBuilder accumulates strings into offsets+data without per-value
// allocation.
type StringBuilder struct {
	Offsets []int32
	Data    []byte
	valid   []byte
	n       int
	hasNull bool
}

// NewStringBuilder reserves room for n values of about avg bytes each.
func NewStringBuilder(n, avg int) *StringBuilder {
	sb := &StringBuilder{Offsets: make([]int32, 1, n+1), Data: make([]byte, 0, n*avg)}
	return sb
}

func (sb *StringBuilder) grow() {
	if sb.n%8 == 0 {
		sb.valid = append(sb.valid, 0)
	}
}

// AppendString appends a value.
func (sb *StringBuilder) AppendString(s string) {
	sb.grow()
	sb.valid[sb.n>>3] |= 1 << (sb.n & 7)
	sb.Data = append(sb.Data, s...)
	sb.Offsets = append(sb.Offsets, int32(len(sb.Data)))
	sb.n++
}

// AppendBytes appends a value.
func (sb *StringBuilder) AppendBytes(b []byte) {
	sb.grow()
	sb.valid[sb.n>>3] |= 1 << (sb.n & 7)
	sb.Data = append(sb.Data, b...)
	sb.Offsets = append(sb.Offsets, int32(len(sb.Data)))
	sb.n++
}

// AppendNull appends NULL.
func (sb *StringBuilder) AppendNull() {
	sb.grow()
	sb.hasNull = true
	sb.Offsets = append(sb.Offsets, int32(len(sb.Data)))
	sb.n++
}

// Len is the number of appended values.
func (sb *StringBuilder) Len() int { return sb.n }

// Finish builds the array (String, or Binary when binary is set).
func (sb *StringBuilder) Finish(binary bool) arrow.Array {
	var valid []byte
	if sb.hasNull {
		valid = sb.valid
	}
	return StringsFrom(sb.Offsets, sb.Data, valid, binary)
}

// MaskNulls returns arr with the rows where mask is NULL set to NULL too
// (arr and mask have the same length; a ROW's NULL rows make its fields
// NULL). The values are shared, only the validity bitmap is new.
func MaskNulls(arr, mask arrow.Array) arrow.Array {
	if mask.NullN() == 0 {
		return arr
	}
	n := arr.Len()
	if arr.DataType().ID() == arrow.NULL {
		return arr
	}
	valid := AndValidity(n, arr, mask)
	d := arr.Data()
	off := d.Offset()
	// the new bitmap must line up with the data's offset
	bits := valid
	if off != 0 {
		bits = make([]byte, bitutil.BytesForBits(int64(off+n)))
		for i := 0; i < n; i++ {
			if valid[i>>3]&(1<<(i&7)) != 0 {
				bitutil.SetBit(bits, off+i)
			}
		}
	}
	bufs := append([]*memory.Buffer(nil), d.Buffers()...)
	bufs[0] = memory.NewBufferBytes(bits)
	nd := array.NewData(d.DataType(), n, bufs, d.Children(), n-bitutil.CountSetBits(valid, 0, n), off)
	return array.MakeFromData(nd)
}
