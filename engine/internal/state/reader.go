package state

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// Error is the failure of a Reader: the byte offset in the snapshot where
// it stopped and what it expected there.
type Error struct {
	Offset int    // byte offset from the start of the snapshot
	Msg    string // what was expected and what was found
}

func (e *Error) Error() string {
	return fmt.Sprintf("state snapshot: at byte %d: %s", e.Offset, e.Msg)
}

// Reader reads a snapshot written by a Writer, in the same order. The
// first failure (truncated data, an impossible length, a value out of
// range) is kept: every later read returns a zero value and Err returns
// that failure, so a decoder can read on and check Err once. A Reader
// never panics and never allocates more than a small multiple of the
// snapshot's size, whatever the bytes say.
type Reader struct {
	buf []byte
	off int
	err error
}

// NewReader reads data.
func NewReader(data []byte) *Reader { return &Reader{buf: data} }

// Err returns the first failure, nil if none.
func (r *Reader) Err() error { return r.err }

// Offset is the number of bytes read.
func (r *Reader) Offset() int { return r.off }

// Remaining is the number of bytes not read yet.
func (r *Reader) Remaining() int { return len(r.buf) - r.off }

// Failf records a failure at the current offset (a decoder's check of
// what it read: an id out of range, an unknown tag) unless one is already
// recorded.
func (r *Reader) Failf(format string, args ...any) {
	if r.err == nil {
		r.err = &Error{Offset: r.off, Msg: fmt.Sprintf(format, args...)}
	}
}

// FailAt records a failure at offset off (where a value found wrong
// started) unless one is already recorded.
func (r *Reader) FailAt(off int, format string, args ...any) { r.failAt(off, format, args...) }

// failAt records a failure at offset off.
func (r *Reader) failAt(off int, format string, args ...any) {
	if r.err == nil {
		r.err = &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
}

// Done checks that the whole snapshot was read and returns Err.
func (r *Reader) Done() error {
	if r.err == nil && r.off != len(r.buf) {
		r.Failf("%d bytes left over after the end of the state (a snapshot of another shape?)", len(r.buf)-r.off)
	}
	return r.err
}

// take returns the next n bytes, or nil (recording a failure) when fewer
// are left.
func (r *Reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf)-r.off {
		r.Failf("want %d bytes of %s, %d left (truncated snapshot)", n, what, len(r.buf)-r.off)
		return nil
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b
}

// Header reads a header and checks it names kind at version: a snapshot
// of another operator kind or format version is refused.
func (r *Reader) Header(kind string, version uint32) {
	start := r.off
	m := r.take(len(Magic), "the magic "+Magic)
	if r.err != nil {
		return
	}
	if string(m) != Magic {
		r.failAt(start, "not a Riffle state snapshot (no %q magic; found %q)", Magic, m)
		return
	}
	got := r.String()
	v := r.Uvarint()
	switch {
	case r.err != nil:
	case got != kind:
		r.failAt(start, "a snapshot of a %s, not of a %s", printable(got), kind)
	case v != uint64(version):
		r.failAt(start, "%s snapshot of format version %d; this build reads version %d", kind, v, version)
	}
}

// printable quotes a name read from a snapshot when it is not plain.
func printable(s string) string {
	for _, c := range s {
		if c < ' ' || c > '~' {
			return fmt.Sprintf("%q", s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf[r.off:])
	if n <= 0 {
		if n == 0 {
			r.Failf("want a uvarint, found the end of the snapshot (truncated)")
		} else {
			r.Failf("want a uvarint, found one over 64 bits")
		}
		return 0
	}
	r.off += n
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.buf[r.off:])
	if n <= 0 {
		if n == 0 {
			r.Failf("want a varint, found the end of the snapshot (truncated)")
		} else {
			r.Failf("want a varint, found one over 64 bits")
		}
		return 0
	}
	r.off += n
	return v
}

// Int32 reads a signed varint that must fit 32 bits.
func (r *Reader) Int32() int32 {
	off := r.off
	v := r.Varint()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.failAt(off, "want a 32-bit integer, found %d", v)
		return 0
	}
	return int32(v)
}

// Count reads a count of elements that take at least minSize bytes each
// (at least 1 is assumed): a count the remaining bytes cannot hold is a
// failure, so a corrupt count never makes a decoder allocate much.
func (r *Reader) Count(minSize int) int {
	off := r.off
	v := r.Uvarint()
	if r.err != nil {
		return 0
	}
	minSize = max(minSize, 1)
	if v > uint64(len(r.buf)-r.off)/uint64(minSize) {
		r.failAt(off, "want a count of at most %d elements (%d bytes left), found %d", (len(r.buf)-r.off)/minSize, len(r.buf)-r.off, v)
		return 0
	}
	return int(v)
}

// Uint8 reads one byte.
func (r *Reader) Uint8() uint8 {
	b := r.take(1, "a byte")
	if b == nil {
		return 0
	}
	return b[0]
}

// Uint16 reads 2 bytes.
func (r *Reader) Uint16() uint16 {
	b := r.take(2, "a uint16")
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

// Uint32 reads 4 bytes.
func (r *Reader) Uint32() uint32 {
	b := r.take(4, "a uint32")
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// Uint64 reads 8 bytes.
func (r *Reader) Uint64() uint64 {
	b := r.take(8, "a uint64")
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// Int64 reads 8 bytes (two's complement).
func (r *Reader) Int64() int64 { return int64(r.Uint64()) }

// Float32 reads 4 bytes of IEEE 754 bits.
func (r *Reader) Float32() float32 { return math.Float32frombits(r.Uint32()) }

// Float64 reads 8 bytes of IEEE 754 bits.
func (r *Reader) Float64() float64 { return math.Float64frombits(r.Uint64()) }

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool() bool {
	off := r.off
	switch b := r.Uint8(); b {
	case 0:
		return false
	case 1:
		return true
	default:
		r.failAt(off, "want a boolean (0 or 1), found %d", b)
	}
	return false
}

// Bytes reads a length and that many bytes, copied.
func (r *Reader) Bytes() []byte {
	n := r.Count(1)
	b := r.take(n, "a byte string")
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// Raw reads n bytes written with Writer.Raw, copied.
func (r *Reader) Raw(n int) []byte {
	b := r.take(n, "raw bytes")
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// String reads a length and that many bytes as a string.
func (r *Reader) String() string {
	n := r.Count(1)
	return string(r.take(n, "a string"))
}

// BigInt reads a big integer.
func (r *Reader) BigInt() *big.Int {
	off := r.off
	sign := r.Uint8()
	v := new(big.Int)
	switch sign {
	case 0:
		return v
	case 1, 2:
	default:
		r.failAt(off, "want a big integer's sign (0, 1 or 2), found %d", sign)
		return v
	}
	n := r.Count(1)
	b := r.take(n, "a big integer")
	v.SetBytes(b)
	if sign == 2 {
		v.Neg(v)
	}
	return v
}

// BigRat reads a rational number; a zero denominator is a failure.
func (r *Reader) BigRat() *big.Rat {
	num := r.BigInt()
	off := r.off
	den := r.BigInt()
	if r.err != nil {
		return new(big.Rat)
	}
	if den.Sign() == 0 {
		r.failAt(off, "want a rational's denominator, found 0")
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(num, den)
}

// Int64s reads a count and that many varints.
func (r *Reader) Int64s() []int64 {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = r.Varint()
	}
	return out
}

// Int32s reads a count and that many 32-bit varints.
func (r *Reader) Int32s() []int32 {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = r.Int32()
	}
	return out
}

// Float64s reads a count and that many 8-byte floats.
func (r *Reader) Float64s() []float64 {
	n := r.Count(8)
	if n == 0 {
		return nil
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = r.Float64()
	}
	return out
}

// Bools reads a count and a bitmap of that many booleans.
func (r *Reader) Bools() []bool {
	off := r.off
	v := r.Uvarint()
	if r.err != nil {
		return nil
	}
	if v > uint64(len(r.buf)-r.off)*8 {
		r.failAt(off, "want a bitmap of at most %d booleans, found a count of %d", (len(r.buf)-r.off)*8, v)
		return nil
	}
	n := int(v)
	bits := r.take((n+7)/8, "a bitmap")
	if bits == nil || n == 0 {
		return nil
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = bits[i/8]&(1<<(i%8)) != 0
	}
	return out
}
