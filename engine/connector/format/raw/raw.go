// Package raw implements Flink's 'raw' format (RawFormatFactory): a table
// of exactly one physical column whose value is the whole message.
//
// Options (keys as written in a table's WITH clause):
//
//	raw.charset     UTF-8       the charset of a string column (Java names:
//	                            UTF-8, ISO-8859-1, US-ASCII, UTF-16BE, windows-1252, GBK, ...)
//	raw.endianness  big-endian  byte order of numeric columns: big-endian | little-endian
//
// Column types (RawFormatFactory): CHAR, VARCHAR, STRING (the bytes decoded
// in raw.charset; invalid sequences become U+FFFD, as Java's String
// constructor does), BINARY, VARBINARY, BYTES (the bytes as they are),
// BOOLEAN (1 byte, non-zero is TRUE), TINYINT (1 byte), SMALLINT (2),
// INT (4), BIGINT (8), FLOAT (4, IEEE 754), DOUBLE (8). CHAR(n) and
// BINARY(n) are neither padded nor truncated, as in Flink. A numeric
// message of another size fails with Flink's message ("Size of data
// received for deserializing INT type is not 4."). The raw format has no
// ignore-parse-errors option.
//
// NULL: on a message connector a NULL value is a null message (a Kafka
// tombstone) and back (RawFormatSerializationSchema returns null).
//
// Files: Flink reads a DeserializationSchema format on the filesystem
// connector line by line (DeserializationSchemaAdapter: '\n' ends a
// record, a '\r' before it is dropped) and writes each value followed by
// '\n' (SerializationSchemaAdapter); Riffle does the same. A NULL value is
// written as an empty line (Flink fails on it).
package raw

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"

	"github.com/riffle-sql/riffle/engine/connector"
	csvformat "github.com/riffle-sql/riffle/engine/connector/format/csv"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/connector/internal/pending"
	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'format' value of this format.
const Identifier = "raw"

// Option keys (without the "raw." prefix).
const (
	OptCharset    = "charset"
	OptEndianness = "endianness"
)

func init() { connector.RegisterFormat(Factory{}) }

// Factory is the 'raw' format factory.
type Factory struct{}

// Identifier returns "raw".
func (Factory) Identifier() string { return Identifier }

var optionList = []connector.Option{
	{Key: OptCharset, Default: "UTF-8", Kind: "string", Description: "Defines the string charset."},
	{Key: OptEndianness, Default: "big-endian", Kind: "enum", Values: []string{"big-endian", "little-endian"}, Description: "Defines the endianness for bytes of numeric values."},
}

// Options lists the raw.* options (without the prefix).
func (Factory) Options() []connector.Option { return append([]connector.Option(nil), optionList...) }

// Options are the parsed raw.* options and the column.
type Options struct {
	// Charset decodes and encodes string columns; nil for UTF-8.
	Charset   encoding.Encoding
	BigEndian bool
}

// ParseOptions validates the raw.* options (keys without the prefix).
func ParseOptions(opts map[string]string) (Options, error) {
	o := Options{BigEndian: true}
	for k := range opts {
		if k != OptCharset && k != OptEndianness {
			return o, fmt.Errorf("unsupported option 'raw.%s' for format 'raw'; supported options are: raw.charset, raw.endianness", k)
		}
	}
	if cs, ok := opts[OptCharset]; ok {
		norm := strings.ToUpper(strings.TrimSpace(cs))
		if norm != "UTF-8" && norm != "UTF8" {
			enc, err := ianaindex.IANA.Encoding(cs)
			if err != nil || enc == nil {
				return o, fmt.Errorf("Unsupported 'raw.charset' name: %s.", cs)
			}
			o.Charset = enc
		}
	}
	switch e := opts[OptEndianness]; e {
	case "", "big-endian":
	case "little-endian":
		o.BigEndian = false
	default:
		return o, fmt.Errorf("Unsupported endianness name: %s. Valid values of 'raw.endianness' option are 'big-endian' and 'little-endian'.", e)
	}
	return o, nil
}

// size is the byte size of a numeric column, 0 for strings and binaries.
func size(t *types.DataType) int {
	switch t.Root {
	case types.Boolean, types.TinyInt:
		return 1
	case types.SmallInt:
		return 2
	case types.Integer, types.Float:
		return 4
	case types.BigInt, types.Double:
		return 8
	}
	return 0
}

// checkColumns enforces one physical column of a supported type.
func checkColumns(names []string, ts []*types.DataType) error {
	if len(ts) != 1 {
		return fmt.Errorf("The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [%s]", strings.Join(columnList(names, ts), ", "))
	}
	switch ts[0].Root {
	case types.Char, types.VarChar, types.Binary, types.VarBinary,
		types.Boolean, types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double:
		return nil
	}
	return fmt.Errorf("The 'raw' format doesn't supports '%s' as column type.", ts[0].StringNoNull())
}

// columnList renders columns as Flink's Column.toString: "`a` STRING".
func columnList(names []string, ts []*types.DataType) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = types.QuoteIdent(n) + " " + ts[i].String()
	}
	return out
}

// codec converts between one column value and its bytes.
type codec struct {
	o   Options
	t   *types.DataType
	n   int
	ord binary.ByteOrder
	buf []byte
}

func newCodec(ctx *connector.FormatContext) (*codec, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	if err := checkColumns(ctx.Names, ctx.Types); err != nil {
		return nil, err
	}
	c := &codec{o: o, t: ctx.Types[0], n: size(ctx.Types[0]), ord: binary.ByteOrder(binary.BigEndian)}
	if !o.BigEndian {
		c.ord = binary.LittleEndian
	}
	return c, nil
}

// appendValue appends the value of msg to col (RawFormatDeserializationSchema).
func (c *codec) appendValue(col columns.Column, msg []byte) error {
	if c.n > 0 && len(msg) != c.n {
		return fmt.Errorf("Size of data received for deserializing %s type is not %d.", c.t.StringNoNull(), c.n)
	}
	switch col := col.(type) {
	case *columns.Bool:
		col.Append(msg[0] != 0)
	case *columns.Fixed[int8]:
		col.Append(int8(msg[0]))
	case *columns.Fixed[int16]:
		col.Append(int16(c.ord.Uint16(msg)))
	case *columns.Fixed[int32]:
		col.Append(int32(c.ord.Uint32(msg)))
	case *columns.Fixed[int64]:
		col.Append(int64(c.ord.Uint64(msg)))
	case *columns.Fixed[float32]:
		col.Append(math.Float32frombits(c.ord.Uint32(msg)))
	case *columns.Fixed[float64]:
		col.Append(math.Float64frombits(c.ord.Uint64(msg)))
	case *columns.Bytes:
		if !c.t.IsString() {
			col.Append(msg)
			return nil
		}
		if c.o.Charset != nil {
			out, err := c.o.Charset.NewDecoder().Bytes(msg)
			if err != nil {
				return fmt.Errorf("cannot decode the message in raw.charset: %v", err)
			}
			msg = out
		}
		if utf8.Valid(msg) {
			col.Append(msg)
		} else {
			// one U+FFFD for each byte that is not UTF-8, as the csv
			// format writes them
			col.Append(csvformat.AppendValidUTF8(nil, msg))
		}
	default:
		return fmt.Errorf("'raw' format currently doesn't support type: %s", c.t)
	}
	return nil
}

// appendBytes appends the encoding of arr[i] to dst; null reports NULL.
func (c *codec) appendBytes(dst []byte, arr arrow.Array, i int) (out []byte, null bool, err error) {
	if arr.IsNull(i) {
		return dst, true, nil
	}
	var tmp [8]byte
	switch a := arr.(type) {
	case *array.Boolean:
		if a.Value(i) {
			return append(dst, 1), false, nil
		}
		return append(dst, 0), false, nil
	case *array.Int8:
		return append(dst, byte(a.Value(i))), false, nil
	case *array.Int16:
		c.ord.PutUint16(tmp[:], uint16(a.Value(i)))
		return append(dst, tmp[:2]...), false, nil
	case *array.Int32:
		c.ord.PutUint32(tmp[:], uint32(a.Value(i)))
		return append(dst, tmp[:4]...), false, nil
	case *array.Int64:
		c.ord.PutUint64(tmp[:], uint64(a.Value(i)))
		return append(dst, tmp[:8]...), false, nil
	case *array.Float32:
		c.ord.PutUint32(tmp[:], math.Float32bits(a.Value(i)))
		return append(dst, tmp[:4]...), false, nil
	case *array.Float64:
		c.ord.PutUint64(tmp[:], math.Float64bits(a.Value(i)))
		return append(dst, tmp[:8]...), false, nil
	case *array.String:
		s := a.Value(i)
		if c.o.Charset != nil {
			enc, err := c.o.Charset.NewEncoder().String(s)
			if err != nil {
				return dst, false, fmt.Errorf("cannot encode %q in raw.charset: %v", s, err)
			}
			s = enc
		}
		return append(dst, s...), false, nil
	case *array.Binary:
		return append(dst, a.Value(i)...), false, nil
	}
	return dst, false, fmt.Errorf("raw: unsupported array %T", arr)
}

// CreateMessageDecoder builds a decoder of whole messages into the column.
func (Factory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	c, err := newCodec(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := pending.New(ctx.Types, 1024)
	if err != nil {
		return nil, err
	}
	return &messageDecoder{c: c, rows: rows}, nil
}

type messageDecoder struct {
	c    *codec
	rows *pending.Rows
}

// Decode appends the message as the column's value. Message connectors do
// not pass null messages; a connector that does gets a NULL value (Flink's
// RawFormatDeserializationSchema).
func (m *messageDecoder) Decode(msg []byte) (int, error) {
	col := m.rows.Cols[0]
	if msg == nil {
		col.AppendNull()
	} else if err := m.c.appendValue(col, msg); err != nil {
		return 0, err
	}
	m.rows.Commit(types.Insert)
	return 1, nil
}

func (m *messageDecoder) Flush() *types.Batch { return m.rows.Flush() }
func (m *messageDecoder) SkippedRows() int64  { return 0 }

// CreateMessageEncoder builds an encoder of the column's value.
func (Factory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	c, err := newCodec(ctx)
	if err != nil {
		return nil, err
	}
	return &messageEncoder{c}, nil
}

type messageEncoder struct{ c *codec }

// Encode appends the value's bytes; a NULL value gives a nil result (no
// message body: a tombstone on Kafka), as RawFormatSerializationSchema
// returns null. An empty string gives an empty, non-nil message.
func (m *messageEncoder) Encode(dst []byte, b *types.Batch, i int) ([]byte, error) {
	if len(b.Cols) != 1 {
		return nil, fmt.Errorf("raw: batch has %d columns, the encoder 1", len(b.Cols))
	}
	out, null, err := m.c.appendBytes(dst, b.Cols[0], i)
	if err != nil || null {
		return nil, err
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

// CreateDecoder builds a file decoder: one value per line.
func (Factory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	c, err := newCodec(ctx)
	if err != nil {
		return nil, err
	}
	return &fileDecoder{ctx: ctx, o: c.o}, nil
}

type fileDecoder struct {
	ctx *connector.FormatContext
	o   Options
}

// NewReader reads one file, line by line.
func (d *fileDecoder) NewReader(r io.Reader, name string, maxRows int) connector.BatchReader {
	if maxRows <= 0 {
		maxRows = 8192
	}
	c, _ := newCodec(d.ctx)
	rows, _ := pending.New(d.ctx.Types, maxRows)
	return &fileReader{c: c, rows: rows, br: bufio.NewReaderSize(r, 64<<10), name: name, max: maxRows}
}

type fileReader struct {
	c    *codec
	rows *pending.Rows
	br   *bufio.Reader
	name string
	max  int
	line int64
	off  int64 // offset in the stream of the next unread line
	done bool
	err  error
}

func (r *fileReader) SkippedRows() int64 { return 0 }

// Next returns up to maxRows lines' values.
func (r *fileReader) Next() (*types.Batch, error) {
	if r.err != nil {
		return nil, r.err
	}
	for !r.done && r.rows.Len() < r.max {
		line, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err == io.EOF {
			r.done = true
			if len(line) == 0 {
				break
			}
		} else if err != nil {
			r.err = fmt.Errorf("reading %s: %w", r.name, err)
			return nil, r.err
		}
		r.line++
		r.off += int64(len(line))
		line = trimEOL(line)
		if err := r.c.appendValue(r.rows.Cols[0], line); err != nil {
			r.err = &connector.DataError{File: r.name, Line: r.line, Msg: err.Error()}
			return nil, r.err
		}
		r.rows.Commit(types.Insert)
	}
	if r.rows.Len() == 0 {
		r.err = io.EOF
		return nil, io.EOF
	}
	return r.rows.Flush(), nil
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// CreateEncoder builds a file encoder: each value followed by '\n'.
func (Factory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	c, err := newCodec(ctx)
	if err != nil {
		return nil, err
	}
	return &fileEncoder{c}, nil
}

type fileEncoder struct{ c *codec }

func (e *fileEncoder) NewWriter(w io.Writer) connector.BatchWriter {
	return &fileWriter{c: e.c, w: w}
}

type fileWriter struct {
	c   *codec
	w   io.Writer
	buf []byte
}

// Write appends one line per row.
func (w *fileWriter) Write(b *types.Batch) error {
	for i := 0; i < b.Len; i++ {
		var err error
		if w.buf, _, err = w.c.appendBytes(w.buf, b.Cols[0], i); err != nil {
			return err
		}
		w.buf = append(w.buf, '\n')
		if len(w.buf) >= 48<<10 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Flush writes buffered bytes through.
func (w *fileWriter) Flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.w.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}
