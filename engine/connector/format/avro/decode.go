package avro

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

// cursor reads Avro binary data. Errors are sticky: after the first one,
// reads return zero values and the record is dropped by the caller.
type cursor struct {
	b   []byte
	i   int
	err error
}

var errShort = errors.New("unexpected end of the Avro data")

func (c *cursor) fail(err error) {
	if c.err == nil {
		c.err = err
	}
	c.i = len(c.b)
}

// long reads a zigzag varint.
func (c *cursor) long() int64 {
	b, i := c.b, c.i
	var u uint64
	var s uint
	for {
		if i >= len(b) {
			c.fail(errShort)
			return 0
		}
		x := b[i]
		i++
		if s == 63 && x > 1 {
			c.fail(errors.New("malformed Avro long (more than 64 bits)"))
			return 0
		}
		u |= uint64(x&0x7f) << s
		if x < 0x80 {
			break
		}
		s += 7
	}
	c.i = i
	return int64(u>>1) ^ -int64(u&1)
}

func (c *cursor) int() int32 {
	v := c.long()
	if v != int64(int32(v)) {
		c.fail(errors.New("malformed Avro int (more than 32 bits)"))
		return 0
	}
	return int32(v)
}

// bytes returns the next length-prefixed value (aliasing the input).
func (c *cursor) bytes() []byte {
	n := c.long()
	if n < 0 || n > int64(len(c.b)-c.i) {
		if c.err == nil {
			if n < 0 {
				c.fail(fmt.Errorf("malformed Avro data: negative length %d", n))
			} else {
				c.fail(errShort)
			}
		}
		return nil
	}
	v := c.b[c.i : c.i+int(n)]
	c.i += int(n)
	return v
}

func (c *cursor) fixed(n int) []byte {
	if len(c.b)-c.i < n {
		c.fail(errShort)
		return nil
	}
	v := c.b[c.i : c.i+n]
	c.i += n
	return v
}

// blockCount reads an array or map block header: the item count (0 at the
// end); a negative count is followed by the block's byte size.
func (c *cursor) blockCount() int64 {
	n := c.long()
	if n < 0 {
		n = -n
		c.long()
	}
	if n < 0 || n > int64(len(c.b)-c.i) {
		// Every item takes at least one byte in the schemas Flink derives.
		c.fail(fmt.Errorf("malformed Avro data: block of %d items in %d bytes", n, len(c.b)-c.i))
		return 0
	}
	return n
}

// reader appends one value of its column from the cursor.
type reader interface {
	read(c *cursor)
	appendNull()
}

// nullable reads the union ["null", T].
type nullable struct {
	r    reader
	path string
}

func (n *nullable) read(c *cursor) {
	switch c.long() {
	case 0:
		n.r.appendNull()
	case 1:
		n.r.read(c)
	default:
		if c.err == nil {
			c.fail(fmt.Errorf("column %s: union index out of range (the schema is [\"null\", ...])", types.QuoteIdent(n.path)))
		}
		n.r.appendNull()
	}
}
func (n *nullable) appendNull() { n.r.appendNull() }

type boolReader struct{ c *columns.Bool }

func (r boolReader) read(c *cursor) {
	b := c.fixed(1)
	r.c.Append(len(b) == 1 && b[0] != 0)
}
func (r boolReader) appendNull() { r.c.AppendNull() }

type intReader[T int8 | int16 | int32] struct{ c *columns.Fixed[T] }

// read truncates as Flink's AvroToRowDataConverters does (byteValue, shortValue).
func (r intReader[T]) read(c *cursor) { r.c.Append(T(c.int())) }
func (r intReader[T]) appendNull()    { r.c.AppendNull() }

type longReader struct{ c *columns.Fixed[int64] }

func (r longReader) read(c *cursor) { r.c.Append(c.long()) }
func (r longReader) appendNull()    { r.c.AppendNull() }

type floatReader struct{ c *columns.Fixed[float32] }

func (r floatReader) read(c *cursor) {
	b := c.fixed(4)
	if b == nil {
		r.c.Append(0)
		return
	}
	r.c.Append(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}
func (r floatReader) appendNull() { r.c.AppendNull() }

type doubleReader struct{ c *columns.Fixed[float64] }

func (r doubleReader) read(c *cursor) {
	b := c.fixed(8)
	if b == nil {
		r.c.Append(0)
		return
	}
	r.c.Append(math.Float64frombits(binary.LittleEndian.Uint64(b)))
}
func (r doubleReader) appendNull() { r.c.AppendNull() }

type bytesReader struct{ c *columns.Bytes }

func (r bytesReader) read(c *cursor) { r.c.Append(c.bytes()) }
func (r bytesReader) appendNull()    { r.c.AppendNull() }

type decimalReader struct {
	c    *columns.Decimal
	t    *types.DataType
	path string
}

func (r decimalReader) read(c *cursor) {
	b := c.bytes()
	n, ok := decimalFromBytes(b)
	if !ok || !n.FitsInPrecision(int32(r.t.Precision)) {
		if c.err == nil {
			c.fail(fmt.Errorf("column %s: the value does not fit %s", types.QuoteIdent(r.path), r.t.StringNoNull()))
		}
		r.c.Append(decimal128.Num{})
		return
	}
	r.c.Append(n)
}
func (r decimalReader) appendNull() { r.c.AppendNull() }

// decimalFromBytes reads a big-endian two's complement integer.
func decimalFromBytes(b []byte) (decimal128.Num, bool) {
	if len(b) == 0 {
		return decimal128.Num{}, true
	}
	neg := b[0]&0x80 != 0
	if len(b) > 16 {
		// Only sign extension may come before the last 16 bytes.
		ext := byte(0)
		if neg {
			ext = 0xff
		}
		for _, x := range b[:len(b)-16] {
			if x != ext {
				return decimal128.Num{}, false
			}
		}
		b = b[len(b)-16:]
		if (b[0]&0x80 != 0) != neg {
			return decimal128.Num{}, false
		}
	}
	var buf [16]byte
	if neg {
		for i := range buf {
			buf[i] = 0xff
		}
	}
	copy(buf[16-len(b):], b)
	return decimal128.New(int64(binary.BigEndian.Uint64(buf[:8])), binary.BigEndian.Uint64(buf[8:])), true
}

type listReader struct {
	l    *columns.List
	elem reader
}

func (r listReader) read(c *cursor) {
	for {
		n := c.blockCount()
		if n == 0 {
			break
		}
		for ; n > 0; n-- {
			r.elem.read(c)
		}
	}
	r.l.Append()
}
func (r listReader) appendNull() { r.l.AppendNull() }

type mapReader struct {
	m   *columns.Map
	key *columns.Bytes
	val reader
}

func (r mapReader) read(c *cursor) {
	for {
		n := c.blockCount()
		if n == 0 {
			break
		}
		for ; n > 0; n-- {
			r.key.Append(c.bytes())
			r.val.read(c)
		}
	}
	r.m.Append()
}
func (r mapReader) appendNull() { r.m.AppendNull() }

type structReader struct {
	s      *columns.Struct
	fields []reader
}

func (r structReader) read(c *cursor) {
	for _, f := range r.fields {
		f.read(c)
	}
	r.s.Append()
}
func (r structReader) appendNull() { r.s.AppendNull() }

type nullReader struct{ c columns.Column }

func (r nullReader) read(c *cursor) { r.c.AppendNull() }
func (r nullReader) appendNull()    { r.c.AppendNull() }

// newReader builds the reader of type t into col (schema per Schema).
func newReader(t *types.DataType, col columns.Column, path string) reader {
	r := baseReader(t, col, path)
	if t.Nullable && t.Root != types.Null {
		return &nullable{r: r, path: path}
	}
	return r
}

func baseReader(t *types.DataType, col columns.Column, path string) reader {
	switch t.Root {
	case types.Boolean:
		return boolReader{col.(*columns.Bool)}
	case types.TinyInt:
		return intReader[int8]{col.(*columns.Fixed[int8])}
	case types.SmallInt:
		return intReader[int16]{col.(*columns.Fixed[int16])}
	case types.Integer, types.DateRoot, types.TimeRoot:
		return intReader[int32]{col.(*columns.Fixed[int32])}
	case types.BigInt, types.TimestampRoot, types.TimestampLTZRoot:
		return longReader{col.(*columns.Fixed[int64])}
	case types.Float:
		return floatReader{col.(*columns.Fixed[float32])}
	case types.Double:
		return doubleReader{col.(*columns.Fixed[float64])}
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		return bytesReader{col.(*columns.Bytes)}
	case types.DecimalRoot:
		return decimalReader{col.(*columns.Decimal), t, path}
	case types.ArrayRoot:
		l := col.(*columns.List)
		return listReader{l, newReader(t.Elem, l.Elem, path)}
	case types.MapRoot, types.MultisetRoot:
		m := col.(*columns.Map)
		vt := t.Value
		if t.Root == types.MultisetRoot {
			vt = types.IntType() // ["null", "int"] as Flink derives it
		}
		return mapReader{m, m.Keys.(*columns.Bytes), newReader(vt, m.Items, path)}
	case types.RowRoot:
		s := col.(*columns.Struct)
		r := structReader{s: s}
		for i, f := range t.Fields {
			r.fields = append(r.fields, newReader(f.Type, s.Fields[i], path+"."+f.Name))
		}
		return r
	}
	return nullReader{col}
}
