package csv

import (
	"encoding/base64"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/types"
)

// Encoder writes batches as CSV text: one record per row, fields in
// column order, '\n' line ends, and no header (unless the Riffle extension
// csv.ignore-first-line is set, so that files read back). A field is
// quoted when it contains the delimiter, the quote or escape character or
// a line break (RFC 4180; quotes inside are doubled, escape characters are
// escaped). An empty string, an empty BYTES or ARRAY value and a string
// equal to the null literal are written quoted ("") to tell them from
// NULL, which is written as the null literal or as an empty field. Values are
// formatted as Flink's RowDataToCsvConverters does (see the package doc).
type Encoder struct {
	opts  Options
	fw    FieldWriter // quoting and escaping, from opts
	names []string
	types []*types.DataType
}

// NewEncoder builds an encoder for columns of the given names and types.
func NewEncoder(opts Options, names []string, ts []*types.DataType) (*Encoder, error) {
	for _, t := range ts {
		if err := checkType(t, false); err != nil {
			return nil, err
		}
	}
	return &Encoder{opts: opts, fw: opts.FieldWriter(), names: names, types: ts}, nil
}

// NewWriter starts writing one stream.
func (e *Encoder) NewWriter(w io.Writer) connector.BatchWriter {
	return &Writer{e: e, w: w, buf: make([]byte, 0, 64<<10), header: e.opts.IgnoreFirstLine}
}

// Writer writes batches to one stream; it implements connector.BatchWriter.
type Writer struct {
	e      *Encoder
	w      io.Writer
	buf    []byte
	tmp    []byte
	header bool
	err    error
}

// Write appends the rows of b (their row kinds are not written).
func (w *Writer) Write(b *types.Batch) error {
	if w.err != nil {
		return w.err
	}
	if len(b.Cols) != len(w.e.types) {
		return fmt.Errorf("csv: batch has %d columns, the encoder %d", len(b.Cols), len(w.e.types))
	}
	if w.header {
		w.header = false
		for i, n := range w.e.names {
			if i > 0 {
				w.buf = append(w.buf, w.e.opts.Delimiter)
			}
			w.buf = w.appendText(w.buf, []byte(n), true)
		}
		w.buf = append(w.buf, '\n')
	}
	for row := 0; row < b.Len; row++ {
		w.buf = w.appendRow(w.buf, b.Cols, row)
		w.buf = append(w.buf, '\n')
		if len(w.buf) >= 48<<10 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) appendRow(dst []byte, cols []arrow.Array, row int) []byte {
	for c, col := range cols {
		if c > 0 {
			dst = append(dst, w.e.opts.Delimiter)
		}
		dst = w.appendField(dst, col, row, w.e.types[c])
	}
	return dst
}

// AppendRow appends row i of the columns as one CSV record (without the
// line break): the hot path for callers that frame rows themselves, such
// as a CLI printing an 'op' column first. It is not safe for concurrent
// use with the same Writer.
func (w *Writer) AppendRow(dst []byte, cols []arrow.Array, i int) []byte {
	return w.appendRow(dst, cols, i)
}

// Flush writes buffered bytes through to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf) > 0 {
		if _, err := w.w.Write(w.buf); err != nil {
			w.err = err
			return err
		}
		w.buf = w.buf[:0]
	}
	return nil
}

func (w *Writer) appendNull(dst []byte) []byte {
	if w.e.opts.HasNullLiteral {
		return w.appendText(dst, []byte(w.e.opts.NullLiteral), false)
	}
	return dst
}

// appendField formats one top-level field.
func (w *Writer) appendField(dst []byte, col arrow.Array, row int, t *types.DataType) []byte {
	if col.IsNull(row) {
		return w.appendNull(dst)
	}
	switch t.Root {
	case types.Char, types.VarChar:
		v := col.(*array.String).Value(row)
		if w.e.opts.HasNullLiteral && v == w.e.opts.NullLiteral && w.e.opts.QuoteEnabled {
			return append(append(append(dst, w.e.opts.Quote), v...), w.e.opts.Quote)
		}
		return w.appendText(dst, []byte(v), true)
	case types.ArrayRoot, types.RowRoot:
		w.tmp = w.appendNested(w.tmp[:0], col, row, t)
		return w.appendText(dst, w.tmp, t.Root == types.ArrayRoot)
	case types.Binary, types.VarBinary:
		if len(col.(*array.Binary).Value(row)) == 0 {
			return w.appendText(dst, nil, true)
		}
	}
	return w.appendScalar(dst, col, row, t)
}

// appendNested joins ARRAY elements or ROW fields with the array delimiter.
func (w *Writer) appendNested(dst []byte, col arrow.Array, row int, t *types.DataType) []byte {
	if t.Root == types.ArrayRoot {
		l := col.(*array.List)
		start, end := l.ValueOffsets(row)
		vals := l.ListValues()
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, w.e.opts.ArrayDelimiter)
			}
			dst = w.appendElem(dst, vals, j, t.Elem)
		}
		return dst
	}
	s := col.(*array.Struct)
	for f := 0; f < s.NumField(); f++ {
		if f > 0 {
			dst = append(dst, w.e.opts.ArrayDelimiter)
		}
		dst = w.appendElem(dst, s.Field(f), row, t.Fields[f].Type)
	}
	return dst
}

func (w *Writer) appendElem(dst []byte, col arrow.Array, row int, t *types.DataType) []byte {
	if col.IsNull(row) {
		if w.e.opts.HasNullLiteral {
			return append(dst, w.e.opts.NullLiteral...)
		}
		return dst
	}
	if t.IsString() {
		return append(dst, col.(*array.String).Value(row)...)
	}
	return w.appendScalar(dst, col, row, t)
}

// appendScalar formats a non-null scalar that never needs quoting.
func (w *Writer) appendScalar(dst []byte, col arrow.Array, row int, t *types.DataType) []byte {
	switch a := col.(type) {
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(row))
	case *array.Int8:
		return strconv.AppendInt(dst, int64(a.Value(row)), 10)
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(row)), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(row)), 10)
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(row), 10)
	case *array.Float32:
		return textconv.AppendDoubleJava(dst, float64(a.Value(row)), 32)
	case *array.Float64:
		return textconv.AppendDoubleJava(dst, a.Value(row), 64)
	case *array.Decimal128:
		return textconv.AppendDecimal(dst, a.Value(row), int32(t.Scale), true, !w.e.opts.WriteBigDecSci)
	case *array.String:
		return append(dst, a.Value(row)...)
	case *array.Binary:
		v := a.Value(row)
		n := len(dst)
		need := base64.StdEncoding.EncodedLen(len(v))
		dst = append(dst, make([]byte, need)...)
		base64.StdEncoding.Encode(dst[n:], v)
		return dst
	case *array.Date32:
		return textconv.AppendDate(dst, int64(a.Value(row)))
	case *array.Time32:
		return textconv.AppendTime(dst, int64(a.Value(row))*1_000_000)
	case *array.Time64:
		return textconv.AppendTime(dst, int64(a.Value(row)))
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		sec, nanos := textconv.SplitUnits(int64(a.Value(row)), types.UnitsPerSecond(unit))
		dst = textconv.AppendTimestamp(dst, sec, nanos, ' ')
		if t.Root == types.TimestampLTZRoot {
			dst = append(dst, 'Z')
		}
		return dst
	case *array.MonthInterval:
		return strconv.AppendInt(dst, int64(a.Value(row)), 10)
	case *array.Duration:
		return strconv.AppendInt(dst, int64(a.Value(row)), 10)
	}
	return fmt.Appendf(dst, "%v", types.ValueAt(col, row, t))
}

// appendText writes a field, quoting it when needed (the shared
// FieldWriter's rules); emptyQuoted writes the empty string as "" (strings)
// rather than as nothing.
func (w *Writer) appendText(dst []byte, s []byte, emptyQuoted bool) []byte {
	return w.e.fw.AppendField(dst, s, emptyQuoted && len(s) == 0)
}
