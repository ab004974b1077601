package results

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// vec is one column of one chunk: values of a single logical type stored
// compactly (typed slices, string bytes in one buffer, a null bitmap).
// All vectors of a column share a colSpec; i and j index rows of a chunk.
type vec interface {
	len() int
	isNull(i int) bool
	appendNull()
	// appendValue appends a Go value of the column's type (see
	// engine/types/values.go); nil appends NULL.
	appendValue(v any) error
	// appendFrom appends row j of o, a vector of the same column.
	appendFrom(o vec, j int)
	value(i int) any
	hash(h *maphash.Hash, i int)
	// equal compares non-NULL row i with non-NULL row j of o.
	equal(i int, o vec, j int) bool
	// compare orders non-NULL rows (sorting).
	compare(i int, o vec, j int) int
	appendText(dst []byte, i int, f *Formatter) []byte
	// seal trims spare capacity once the chunk is full.
	seal()
	// clone copies the vector (a private copy of a chunk still written to).
	clone() vec
	// reset empties the vector, keeping its memory (staging chunks).
	reset()
	bytes() int // approximate heap bytes held
}

// colSpec describes a column and creates its vectors.
type colSpec struct {
	name  string
	typ   *types.DataType
	mk    func(capacity int) vec
	store storeKind // the vectors' storage, for AddRecord's fast paths
}

// storeKind names how a column is stored (see newColSpec).
type storeKind uint8

const (
	storeAny storeKind = iota
	storeBool
	storeInt8
	storeInt16
	storeInt32
	storeInt64
	storeFloat32
	storeFloat64
	storeDecimal
	storeDate
	storeTime
	storeTsMicros
	storeTsNanos
	storeMonths
	storeDuration
	storeBytes
)

// bitmap is a growable bitset.
type bitmap []uint64

func (b bitmap) get(i int) bool { return i>>6 < len(b) && b[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b *bitmap) set(i int) {
	for i>>6 >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[i>>6] |= 1 << (uint(i) & 63)
}

func (b bitmap) clear(i int) {
	if i>>6 < len(b) {
		b[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// selectNth returns the index of the n-th (0-based) set bit.
func (b bitmap) selectNth(n int) int {
	for w, word := range b {
		c := bits.OnesCount64(word)
		if n < c {
			for ; ; n-- {
				t := bits.TrailingZeros64(word)
				if n == 0 {
					return w<<6 + t
				}
				word &= word - 1
			}
		}
		n -= c
	}
	return -1
}

// ---- fixed-width vectors ----------------------------------------------------

// codec adapts a fixed-width storage type T to a logical type.
type codec[T any] struct {
	from func(v any, t *types.DataType) (T, bool)
	to   func(x T) any
	text func(dst []byte, x T, t *types.DataType, f *Formatter) []byte
	hash func(h *maphash.Hash, x T)
	cmp  func(a, b T) int
	eq   func(a, b T) bool
	size int
}

type fixedVec[T any] struct {
	vals  []T
	nulls bitmap // nil while the vector has no NULL
	c     *codec[T]
	t     *types.DataType
}

func (v *fixedVec[T]) len() int          { return len(v.vals) }
func (v *fixedVec[T]) isNull(i int) bool { return v.nulls.get(i) }
func (v *fixedVec[T]) appendNull() {
	v.nulls.set(len(v.vals))
	var zero T
	v.vals = append(v.vals, zero)
}

func (v *fixedVec[T]) appendValue(x any) error {
	if x == nil {
		v.appendNull()
		return nil
	}
	val, ok := v.c.from(x, v.t)
	if !ok {
		return fmt.Errorf("value %v (%T) does not fit column type %s", x, x, v.t)
	}
	v.vals = append(v.vals, val)
	return nil
}

func (v *fixedVec[T]) appendFrom(o vec, j int) {
	src := o.(*fixedVec[T])
	if src.nulls.get(j) {
		v.appendNull()
		return
	}
	v.vals = append(v.vals, src.vals[j])
}

func (v *fixedVec[T]) value(i int) any {
	if v.nulls.get(i) {
		return nil
	}
	return v.c.to(v.vals[i])
}
func (v *fixedVec[T]) hash(h *maphash.Hash, i int) { v.c.hash(h, v.vals[i]) }
func (v *fixedVec[T]) equal(i int, o vec, j int) bool {
	return v.c.eq(v.vals[i], o.(*fixedVec[T]).vals[j])
}
func (v *fixedVec[T]) compare(i int, o vec, j int) int {
	return v.c.cmp(v.vals[i], o.(*fixedVec[T]).vals[j])
}
func (v *fixedVec[T]) appendText(dst []byte, i int, f *Formatter) []byte {
	return v.c.text(dst, v.vals[i], v.t, f)
}
func (v *fixedVec[T]) seal()  {}
func (v *fixedVec[T]) reset() { v.vals, v.nulls = v.vals[:0], v.nulls[:0] }
func (v *fixedVec[T]) clone() vec {
	return &fixedVec[T]{vals: slices.Clone(v.vals), nulls: slices.Clone(v.nulls), c: v.c, t: v.t}
}
func (v *fixedVec[T]) bytes() int { return cap(v.vals)*v.c.size + cap(v.nulls)*8 }

func newFixed[T any](c *codec[T], t *types.DataType) func(int) vec {
	return func(capacity int) vec { return &fixedVec[T]{vals: make([]T, 0, capacity), c: c, t: t} }
}

func hashU64(h *maphash.Hash, x uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], x)
	h.Write(b[:])
}

func eqOf[T comparable](a, b T) bool { return a == b }

func intCodec[T int8 | int16 | int32 | int64](size int) *codec[T] {
	return &codec[T]{
		from: func(v any, _ *types.DataType) (T, bool) {
			i, ok := asInt64(v)
			return T(i), ok
		},
		to: func(x T) any { return x },
		text: func(dst []byte, x T, _ *types.DataType, _ *Formatter) []byte {
			return appendInt(dst, int64(x))
		},
		hash: func(h *maphash.Hash, x T) { hashU64(h, uint64(x)) },
		cmp:  cmp.Compare[T],
		eq:   eqOf[T],
		size: size,
	}
}

func appendInt(dst []byte, i int64) []byte {
	if i >= 0 && i < 10 {
		return append(dst, byte('0'+i))
	}
	var buf [20]byte
	n := len(buf)
	u := uint64(i)
	if i < 0 {
		u = uint64(-i)
	}
	for u >= 10 {
		n--
		buf[n] = byte('0' + u%10)
		u /= 10
	}
	n--
	buf[n] = byte('0' + u)
	if i < 0 {
		n--
		buf[n] = '-'
	}
	return append(dst, buf[n:]...)
}

var (
	int8Codec  = intCodec[int8](1)
	int16Codec = intCodec[int16](2)
	int32Codec = intCodec[int32](4)
	int64Codec = intCodec[int64](8)

	boolCodec = &codec[bool]{
		from: func(v any, _ *types.DataType) (bool, bool) { b, ok := v.(bool); return b, ok },
		to:   func(x bool) any { return x },
		text: func(dst []byte, x bool, _ *types.DataType, _ *Formatter) []byte { return appendBool(dst, x) },
		hash: func(h *maphash.Hash, x bool) {
			if x {
				h.WriteByte(1)
			} else {
				h.WriteByte(0)
			}
		},
		cmp: func(a, b bool) int {
			switch {
			case a == b:
				return 0
			case !a:
				return -1
			}
			return 1
		},
		eq:   eqOf[bool],
		size: 1,
	}

	// Floats: equality and hashing treat NaN as equal to NaN and -0.0 as
	// 0.0 (types.ValuesEqual); ordering is Java's Double.compare (-0.0 <
	// 0.0, NaN last), as Flink sorts.
	float32Codec = &codec[float32]{
		from: func(v any, _ *types.DataType) (float32, bool) {
			switch x := v.(type) {
			case float32:
				return x, true
			case float64:
				return float32(x), true
			}
			return 0, false
		},
		to: func(x float32) any { return x },
		text: func(dst []byte, x float32, _ *types.DataType, _ *Formatter) []byte {
			return append(dst, types.FormatFloatJava(x)...)
		},
		hash: func(h *maphash.Hash, x float32) { hashU64(h, canonFloat(float64(x))) },
		cmp:  func(a, b float32) int { return javaCompare(float64(a), float64(b)) },
		eq:   func(a, b float32) bool { return a == b || (a != a && b != b) },
		size: 4,
	}
	float64Codec = &codec[float64]{
		from: func(v any, _ *types.DataType) (float64, bool) {
			switch x := v.(type) {
			case float64:
				return x, true
			case float32:
				return float64(x), true
			}
			return 0, false
		},
		to: func(x float64) any { return x },
		text: func(dst []byte, x float64, _ *types.DataType, _ *Formatter) []byte {
			return append(dst, types.FormatDoubleJava(x)...)
		},
		hash: func(h *maphash.Hash, x float64) { hashU64(h, canonFloat(x)) },
		cmp:  javaCompare,
		eq:   func(a, b float64) bool { return a == b || (a != a && b != b) },
		size: 8,
	}

	// decimalCodec's "to" needs the scale; newColSpec sets it per column.
	decimalCodec = &codec[decimal128.Num]{
		from: func(v any, t *types.DataType) (decimal128.Num, bool) {
			d, ok := v.(types.Decimal)
			if !ok {
				return decimal128.Num{}, false
			}
			if d.Scale != int32(t.Scale) {
				r, err := d.Rescale(int32(t.Scale), 0)
				if err != nil {
					return decimal128.Num{}, false
				}
				d = r
			}
			return d.Unscaled, true
		},
		text: func(dst []byte, x decimal128.Num, t *types.DataType, _ *Formatter) []byte {
			return append(dst, x.ToString(int32(t.Scale))...)
		},
		hash: func(h *maphash.Hash, x decimal128.Num) {
			hashU64(h, uint64(x.HighBits()))
			hashU64(h, x.LowBits())
		},
		cmp:  func(a, b decimal128.Num) int { return a.Cmp(b) },
		eq:   func(a, b decimal128.Num) bool { return a == b },
		size: 16,
	}

	dateCodec = &codec[int32]{
		from: func(v any, _ *types.DataType) (int32, bool) {
			switch d := v.(type) {
			case types.Date:
				return int32(d), true
			case int32:
				return d, true
			}
			return 0, false
		},
		to: func(x int32) any { return types.Date(x) },
		text: func(dst []byte, x int32, _ *types.DataType, _ *Formatter) []byte {
			return append(dst, types.FormatDate(x)...)
		},
		hash: int32Codec.hash, cmp: int32Codec.cmp, eq: eqOf[int32], size: 4,
	}

	timeCodec = &codec[int64]{
		from: func(v any, _ *types.DataType) (int64, bool) {
			lt, ok := v.(types.LocalTime)
			return int64(lt), ok
		},
		to: func(x int64) any { return types.LocalTime(x) },
		text: func(dst []byte, x int64, t *types.DataType, _ *Formatter) []byte {
			return appendTime(dst, x, t.Precision)
		},
		hash: int64Codec.hash, cmp: int64Codec.cmp, eq: eqOf[int64], size: 8,
	}

	monthsCodec = &codec[int32]{
		from: func(v any, _ *types.DataType) (int32, bool) {
			switch m := v.(type) {
			case types.Months:
				return int32(m), true
			case int32:
				return m, true
			}
			return 0, false
		},
		to: func(x int32) any { return types.Months(x) },
		text: func(dst []byte, x int32, _ *types.DataType, _ *Formatter) []byte {
			return append(dst, types.FormatIntervalMonths(x)...)
		},
		hash: int32Codec.hash, cmp: int32Codec.cmp, eq: eqOf[int32], size: 4,
	}

	durationCodec = &codec[int64]{
		from: func(v any, _ *types.DataType) (int64, bool) {
			d, ok := v.(time.Duration)
			return int64(d), ok
		},
		to: func(x int64) any { return time.Duration(x) },
		text: func(dst []byte, x int64, _ *types.DataType, _ *Formatter) []byte {
			return append(dst, types.FormatIntervalMillis(time.Duration(x))...)
		},
		hash: int64Codec.hash, cmp: int64Codec.cmp, eq: eqOf[int64], size: 8,
	}
)

func canonFloat(x float64) uint64 {
	switch {
	case x == 0:
		return 0
	case x != x:
		return 0x7ff8000000000001
	}
	return math.Float64bits(x)
}

// javaCompare orders like Java's Double.compare: -0.0 < 0.0, NaN greatest.
func javaCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	// Numerically equal: -0.0 sorts before 0.0.
	sa, sb := math.Signbit(a), math.Signbit(b)
	switch {
	case sa == sb:
		return 0
	case sa:
		return -1
	}
	return 1
}

// Timestamps up to microsecond precision are stored as microseconds since
// the epoch in 8 bytes (this covers years 0000..9999 and beyond); TIMESTAMP(7..9)
// keeps seconds and nanoseconds.
func tsMicrosCodec(ltz bool) *codec[int64] {
	return &codec[int64]{
		from: func(v any, _ *types.DataType) (int64, bool) {
			t, ok := v.(time.Time)
			if !ok {
				return 0, false
			}
			return t.Unix()*1e6 + int64(t.Nanosecond()/1000), true
		},
		to: func(x int64) any { return time.UnixMicro(x).UTC() },
		text: func(dst []byte, x int64, t *types.DataType, f *Formatter) []byte {
			tm := time.UnixMicro(x).UTC()
			if ltz {
				tm = tm.In(f.loc())
			}
			return appendTimestamp(dst, tm, t.Precision)
		},
		hash: int64Codec.hash, cmp: int64Codec.cmp, eq: eqOf[int64], size: 8,
	}
}

type secNanos struct {
	sec  int64
	nsec int32
}

func tsNanosCodec(ltz bool) *codec[secNanos] {
	return &codec[secNanos]{
		from: func(v any, _ *types.DataType) (secNanos, bool) {
			t, ok := v.(time.Time)
			return secNanos{t.Unix(), int32(t.Nanosecond())}, ok
		},
		to: func(x secNanos) any { return time.Unix(x.sec, int64(x.nsec)).UTC() },
		text: func(dst []byte, x secNanos, t *types.DataType, f *Formatter) []byte {
			tm := time.Unix(x.sec, int64(x.nsec)).UTC()
			if ltz {
				tm = tm.In(f.loc())
			}
			return appendTimestamp(dst, tm, t.Precision)
		},
		hash: func(h *maphash.Hash, x secNanos) { hashU64(h, uint64(x.sec)); hashU64(h, uint64(x.nsec)) },
		cmp: func(a, b secNanos) int {
			if c := cmp.Compare(a.sec, b.sec); c != 0 {
				return c
			}
			return cmp.Compare(a.nsec, b.nsec)
		},
		eq:   eqOf[secNanos],
		size: 16,
	}
}

// ---- variable-width vectors (strings, binary) --------------------------------

type bytesVec struct {
	data   []byte
	offs   []uint32 // end offset of each row
	nulls  bitmap
	binary bool // BINARY/VARBINARY: values are []byte, shown as hex
}

func (v *bytesVec) len() int          { return len(v.offs) }
func (v *bytesVec) isNull(i int) bool { return v.nulls.get(i) }
func (v *bytesVec) appendNull() {
	v.nulls.set(len(v.offs))
	v.offs = append(v.offs, uint32(len(v.data)))
}

func (v *bytesVec) appendValue(x any) error {
	switch s := x.(type) {
	case nil:
		v.appendNull()
	case string:
		v.data = append(v.data, s...)
		v.offs = append(v.offs, uint32(len(v.data)))
	case []byte:
		v.data = append(v.data, s...)
		v.offs = append(v.offs, uint32(len(v.data)))
	default:
		return fmt.Errorf("value %v (%T) does not fit a string column", x, x)
	}
	return nil
}

func (v *bytesVec) appendBytes(s string) {
	v.data = append(v.data, s...)
	v.offs = append(v.offs, uint32(len(v.data)))
}

func (v *bytesVec) appendRaw(b []byte) {
	v.data = append(v.data, b...)
	v.offs = append(v.offs, uint32(len(v.data)))
}

func (v *bytesVec) at(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = v.offs[i-1]
	}
	return v.data[start:v.offs[i]]
}

func (v *bytesVec) appendFrom(o vec, j int) {
	src := o.(*bytesVec)
	if src.nulls.get(j) {
		v.appendNull()
		return
	}
	v.data = append(v.data, src.at(j)...)
	v.offs = append(v.offs, uint32(len(v.data)))
}

func (v *bytesVec) value(i int) any {
	if v.nulls.get(i) {
		return nil
	}
	if v.binary {
		return bytes.Clone(v.at(i))
	}
	return string(v.at(i))
}
func (v *bytesVec) hash(h *maphash.Hash, i int) {
	b := v.at(i)
	hashU64(h, uint64(len(b)))
	h.Write(b)
}
func (v *bytesVec) equal(i int, o vec, j int) bool {
	return bytes.Equal(v.at(i), o.(*bytesVec).at(j))
}
func (v *bytesVec) compare(i int, o vec, j int) int {
	return bytes.Compare(v.at(i), o.(*bytesVec).at(j))
}
func (v *bytesVec) appendText(dst []byte, i int, _ *Formatter) []byte {
	if v.binary {
		return expr.AppendBinaryLiteral(dst, v.at(i))
	}
	return append(dst, v.at(i)...)
}
func (v *bytesVec) seal() {
	if cap(v.data) > len(v.data)+len(v.data)/8 {
		v.data = append([]byte(nil), v.data...)
	}
}
func (v *bytesVec) bytes() int { return cap(v.data) + cap(v.offs)*4 + cap(v.nulls)*8 }
func (v *bytesVec) reset()     { v.data, v.offs, v.nulls = v.data[:0], v.offs[:0], v.nulls[:0] }
func (v *bytesVec) clone() vec {
	return &bytesVec{data: slices.Clone(v.data), offs: slices.Clone(v.offs), nulls: slices.Clone(v.nulls), binary: v.binary}
}

// ---- any other type: boxed Go values ------------------------------------------

// anyVec keeps ARRAY, MAP, MULTISET, ROW, RAW and other values as they
// came. Hashing uses the display text, equality types.ValuesEqual, so two
// equal MAPs whose entries are in a different order hash differently and
// are not matched by a retraction (Flink compares MapData binary too).
type anyVec struct {
	vals []any
	t    *types.DataType
}

func (v *anyVec) len() int          { return len(v.vals) }
func (v *anyVec) isNull(i int) bool { return v.vals[i] == nil }
func (v *anyVec) appendNull()       { v.vals = append(v.vals, nil) }
func (v *anyVec) appendValue(x any) error {
	v.vals = append(v.vals, x)
	return nil
}
func (v *anyVec) appendFrom(o vec, j int) { v.vals = append(v.vals, o.(*anyVec).vals[j]) }
func (v *anyVec) value(i int) any         { return v.vals[i] }
func (v *anyVec) hash(h *maphash.Hash, i int) {
	h.Write(Formatter{}.AppendFormat(nil, v.vals[i], v.t))
}
func (v *anyVec) equal(i int, o vec, j int) bool {
	return types.ValuesEqual(v.vals[i], o.(*anyVec).vals[j])
}
func (v *anyVec) compare(i int, o vec, j int) int {
	return strings.Compare(Format(v.vals[i], v.t), Format(o.(*anyVec).vals[j], v.t))
}
func (v *anyVec) appendText(dst []byte, i int, f *Formatter) []byte {
	return f.AppendFormat(dst, v.vals[i], v.t)
}
func (v *anyVec) seal()      {}
func (v *anyVec) bytes() int { return cap(v.vals) * 16 }
func (v *anyVec) clone() vec { return &anyVec{vals: slices.Clone(v.vals), t: v.t} }
func (v *anyVec) reset() {
	clear(v.vals)
	v.vals = v.vals[:0]
}

// newColSpec picks the storage for a column type.
func newColSpec(name string, t *types.DataType) colSpec {
	s := colSpec{name: name, typ: t}
	switch t.Root {
	case types.Boolean:
		s.mk, s.store = newFixed(boolCodec, t), storeBool
	case types.TinyInt:
		s.mk, s.store = newFixed(int8Codec, t), storeInt8
	case types.SmallInt:
		s.mk, s.store = newFixed(int16Codec, t), storeInt16
	case types.Integer:
		s.mk, s.store = newFixed(int32Codec, t), storeInt32
	case types.BigInt:
		s.mk, s.store = newFixed(int64Codec, t), storeInt64
	case types.Float:
		s.mk, s.store = newFixed(float32Codec, t), storeFloat32
	case types.Double:
		s.mk, s.store = newFixed(float64Codec, t), storeFloat64
	case types.DecimalRoot:
		c := *decimalCodec
		scale := int32(t.Scale)
		c.to = func(x decimal128.Num) any { return types.Decimal{Unscaled: x, Scale: scale} }
		s.mk, s.store = newFixed(&c, t), storeDecimal
	case types.DateRoot:
		s.mk, s.store = newFixed(dateCodec, t), storeDate
	case types.TimeRoot:
		s.mk, s.store = newFixed(timeCodec, t), storeTime
	case types.TimestampRoot, types.TimestampLTZRoot:
		ltz := t.Root == types.TimestampLTZRoot
		if t.Precision <= 6 {
			s.mk, s.store = newFixed(tsMicrosCodec(ltz), t), storeTsMicros
		} else {
			s.mk, s.store = newFixed(tsNanosCodec(ltz), t), storeTsNanos
		}
	case types.IntervalYearMonthRoot:
		s.mk, s.store = newFixed(monthsCodec, t), storeMonths
	case types.IntervalDayTimeRoot:
		s.mk, s.store = newFixed(durationCodec, t), storeDuration
	case types.Char, types.VarChar:
		s.store = storeBytes
		s.mk = func(capacity int) vec { return &bytesVec{offs: make([]uint32, 0, capacity)} }
	case types.Binary, types.VarBinary:
		s.store = storeBytes
		s.mk = func(capacity int) vec { return &bytesVec{offs: make([]uint32, 0, capacity), binary: true} }
	default:
		s.mk = func(capacity int) vec { return &anyVec{vals: make([]any, 0, capacity), t: t} }
	}
	return s
}
