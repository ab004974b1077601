// Package state is the binary codec of operator state snapshots (issue 16:
// checkpoints and savepoints). A Writer appends numbers, strings, byte
// strings and typed SQL values to a buffer; a Reader reads them back in
// the same order and, on truncated or corrupt input, stops with an *Error
// naming the byte offset and what it expected instead of panicking.
//
// A snapshot starts with a header (Writer.Header, Reader.Header): the
// magic "RFST", the kind of the operator that wrote it and its format
// version, so that the bytes of another operator kind or of a format this
// build does not read are refused with a clear error.
//
// Encodings (all integers little-endian):
//
//	Uvarint, Varint      encoding/binary's unsigned and zig-zag varints
//	Uint8 … Uint64       fixed width; Float32/Float64 their IEEE 754 bits
//	Bool                 one byte, 0 or 1
//	Bytes, String        a uvarint length, then the bytes
//	BigInt               a sign byte (0, 1 positive, 2 negative), then Bytes
//	                     of the magnitude (big-endian)
//	Value(v, t)          a presence byte (0 NULL, 1 a value), then the value
//	                     in the form of its type's root (see value.go)
//	Any(v)               a tag byte naming the Go type, then the value
package state

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// Magic starts every snapshot written with Header.
const Magic = "RFST"

// Writer builds a snapshot: an append-only buffer. Methods that can fail
// (Value, Any, with a Go value they cannot encode) record the first error,
// which Err returns; later writes still append but the snapshot is then
// unusable.
type Writer struct {
	buf []byte
	err error
}

// NewWriter returns a writer whose buffer starts with capacity size bytes.
func NewWriter(size int) *Writer { return &Writer{buf: make([]byte, 0, size)} }

// Data returns the bytes written so far (the writer's buffer, not a copy).
func (w *Writer) Data() []byte { return w.buf }

// Len is the number of bytes written.
func (w *Writer) Len() int { return len(w.buf) }

// Err returns the first error of a write, nil if none.
func (w *Writer) Err() error { return w.err }

// Fail records err as the writer's error unless one is already recorded.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Reset empties the buffer and forgets the error, keeping the capacity.
func (w *Writer) Reset() { w.buf, w.err = w.buf[:0], nil }

// Raw appends b as it is (bytes another Writer encoded).
func (w *Writer) Raw(b []byte) { w.buf = append(w.buf, b...) }

// Header writes the magic, the operator kind and its format version.
func (w *Writer) Header(kind string, version uint32) {
	w.buf = append(w.buf, Magic...)
	w.String(kind)
	w.Uvarint(uint64(version))
}

// Uvarint appends an unsigned varint.
func (w *Writer) Uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

// Varint appends a signed (zig-zag) varint.
func (w *Writer) Varint(v int64) { w.buf = binary.AppendVarint(w.buf, v) }

// Count appends a non-negative count or length (a uvarint).
func (w *Writer) Count(n int) { w.Uvarint(uint64(n)) }

// Uint8 appends one byte.
func (w *Writer) Uint8(v uint8) { w.buf = append(w.buf, v) }

// Uint16 appends 2 bytes.
func (w *Writer) Uint16(v uint16) { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }

// Uint32 appends 4 bytes.
func (w *Writer) Uint32(v uint32) { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }

// Uint64 appends 8 bytes.
func (w *Writer) Uint64(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }

// Int64 appends 8 bytes (two's complement).
func (w *Writer) Int64(v int64) { w.Uint64(uint64(v)) }

// Float32 appends the 4 bytes of v's IEEE 754 bits.
func (w *Writer) Float32(v float32) { w.Uint32(math.Float32bits(v)) }

// Float64 appends the 8 bytes of v's IEEE 754 bits.
func (w *Writer) Float64(v float64) { w.Uint64(math.Float64bits(v)) }

// Bool appends 1 for true, 0 for false.
func (w *Writer) Bool(v bool) {
	if v {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

// Bytes appends a length and the bytes.
func (w *Writer) Bytes(b []byte) {
	w.Count(len(b))
	w.buf = append(w.buf, b...)
}

// String appends a length and the string's bytes.
func (w *Writer) String(s string) {
	w.Count(len(s))
	w.buf = append(w.buf, s...)
}

// BigInt appends a big integer (nil is written as 0).
func (w *Writer) BigInt(v *big.Int) {
	switch {
	case v == nil || v.Sign() == 0:
		w.Uint8(0)
		return
	case v.Sign() > 0:
		w.Uint8(1)
	default:
		w.Uint8(2)
	}
	w.Bytes(v.Bytes())
}

// BigRat appends a rational number as its numerator and denominator.
func (w *Writer) BigRat(v *big.Rat) {
	if v == nil {
		v = new(big.Rat)
	}
	w.BigInt(v.Num())
	w.BigInt(v.Denom())
}

// Int64s appends a count and the values as varints.
func (w *Writer) Int64s(vs []int64) {
	w.Count(len(vs))
	for _, v := range vs {
		w.Varint(v)
	}
}

// Int32s appends a count and the values as varints.
func (w *Writer) Int32s(vs []int32) {
	w.Count(len(vs))
	for _, v := range vs {
		w.Varint(int64(v))
	}
}

// Float64s appends a count and the values, 8 bytes each.
func (w *Writer) Float64s(vs []float64) {
	w.Count(len(vs))
	for _, v := range vs {
		w.Float64(v)
	}
}

// Bools appends a count and the values as a bitmap (bit i of byte i/8).
func (w *Writer) Bools(vs []bool) {
	w.Count(len(vs))
	var b byte
	for i, v := range vs {
		if v {
			b |= 1 << (i % 8)
		}
		if i%8 == 7 {
			w.buf = append(w.buf, b)
			b = 0
		}
	}
	if len(vs)%8 != 0 {
		w.buf = append(w.buf, b)
	}
}

func (w *Writer) failf(format string, args ...any) {
	w.Fail(fmt.Errorf("state: "+format, args...))
}
