package json

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/types"
)

// Encoder writes batches as JSON Lines, one object per row with the
// columns as fields in order, as Flink's RowDataToJsonConverters does:
// BOOLEAN true/false; integers; FLOAT/DOUBLE as Java's toString ("1.0E10";
// NaN and Infinity as the strings "NaN", "Infinity", as Jackson writes
// them); DECIMAL with its exact digits (Java BigDecimal.toString, or plain
// digits with json.encode.decimal-as-plain-number); strings escaped as
// Jackson does; BYTES as base64; DATE "yyyy-MM-dd"; TIME "HH:mm:ss[.f]";
// TIMESTAMP per json.timestamp-format.standard, with the fraction's
// trailing zeros dropped ("2024-01-31 12:00:00.123"); TIMESTAMP_LTZ the
// same in UTC followed by 'Z'; ARRAY as an array; MAP and MULTISET as
// objects (json.map-null-key.* for NULL keys); ROW as an object; NULL as
// null (or left out with json.encode.ignore-null-fields).
type Encoder struct {
	opts  Options
	names []string
	types []*types.DataType
	keys  [][]byte
}

// NewEncoder builds an encoder for the named columns.
func NewEncoder(opts Options, names []string, ts []*types.DataType) (*Encoder, error) {
	for _, t := range ts {
		if err := checkType(t); err != nil {
			return nil, err
		}
	}
	e := &Encoder{opts: opts, names: names, types: ts}
	for _, n := range names {
		e.keys = append(e.keys, append(AppendString(nil, n), ':'))
	}
	return e, nil
}

// NewWriter starts writing one stream.
func (e *Encoder) NewWriter(w io.Writer) connector.BatchWriter {
	return &Writer{e: e, w: w, buf: make([]byte, 0, 64<<10)}
}

// AppendRow appends row i of the columns as one JSON object (without a
// line break): the hot path for callers that frame rows themselves.
func (e *Encoder) AppendRow(dst []byte, cols []arrow.Array, i int) ([]byte, error) {
	dst = append(dst, '{')
	first := true
	for c, col := range cols {
		if col.IsNull(i) && e.opts.IgnoreNullFields {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, e.keys[c]...)
		var err error
		if dst, err = e.appendValue(dst, col, i, e.types[c]); err != nil {
			return dst, fmt.Errorf("column %s: %w", types.QuoteIdent(e.names[c]), err)
		}
	}
	return append(dst, '}'), nil
}

// Writer writes batches to one stream; it implements connector.BatchWriter.
type Writer struct {
	e   *Encoder
	w   io.Writer
	buf []byte
	err error
}

// Write appends one line per row (row kinds are not written).
func (w *Writer) Write(b *types.Batch) error {
	if w.err != nil {
		return w.err
	}
	if len(b.Cols) != len(w.e.types) {
		return fmt.Errorf("json: batch has %d columns, the encoder %d", len(b.Cols), len(w.e.types))
	}
	for i := 0; i < b.Len; i++ {
		var err error
		if w.buf, err = w.e.AppendRow(w.buf, b.Cols, i); err != nil {
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

func (e *Encoder) appendValue(dst []byte, col arrow.Array, i int, t *types.DataType) ([]byte, error) {
	if col.IsNull(i) {
		return append(dst, "null"...), nil
	}
	switch a := col.(type) {
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i)), nil
	case *array.Int8:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), nil
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), nil
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10), nil
	case *array.Float32:
		return appendFloat(dst, float64(a.Value(i)), 32), nil
	case *array.Float64:
		return appendFloat(dst, a.Value(i), 64), nil
	case *array.Decimal128:
		return textconv.AppendDecimal(dst, a.Value(i), int32(t.Scale), !e.opts.DecimalPlain, e.opts.DecimalPlain), nil
	case *array.String:
		return AppendString(dst, a.Value(i)), nil
	case *array.Binary:
		return appendBase64(dst, a.Value(i)), nil
	case *array.Date32:
		dst = append(dst, '"')
		return append(textconv.AppendDate(dst, int64(a.Value(i))), '"'), nil
	case *array.Time32:
		dst = append(dst, '"')
		return append(textconv.AppendTime(dst, int64(a.Value(i))*1_000_000), '"'), nil
	case *array.Time64:
		dst = append(dst, '"')
		return append(textconv.AppendTime(dst, int64(a.Value(i))), '"'), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		sec, nanos := textconv.SplitUnits(int64(a.Value(i)), types.UnitsPerSecond(unit))
		sep := byte(' ')
		if e.opts.ISO8601 {
			sep = 'T'
		}
		dst = append(dst, '"')
		dst = textconv.AppendTimestamp(dst, sec, nanos, sep)
		if t.Root == types.TimestampLTZRoot {
			dst = append(dst, 'Z')
		}
		return append(dst, '"'), nil
	case *array.MonthInterval:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), nil
	case *array.Duration:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		dst = append(dst, '[')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = e.appendValue(dst, vals, j, t.Elem); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *array.Map:
		vt := t.Value
		if t.Root == types.MultisetRoot {
			vt = types.IntType()
		}
		start, end := a.ValueOffsets(i)
		keys := a.Keys().(*array.String)
		items := a.Items()
		dst = append(dst, '{')
		first := true
		for j := int(start); j < int(end); j++ {
			var k string
			if keys.IsNull(j) {
				switch e.opts.MapNullKeyMode {
				case MapNullKeyDrop:
					continue
				case MapNullKeyLiteral:
					k = e.opts.MapNullKeyLiteral
				default:
					return dst, fmt.Errorf("JSON format doesn't support to serialize map data with null keys. You can drop null key entries or encode null in literals by specifying map-null-key.mode option")
				}
			} else {
				k = keys.Value(j)
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = e.appendValue(dst, items, j, vt); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case *array.Struct:
		dst = append(dst, '{')
		first := true
		for f := 0; f < a.NumField(); f++ {
			fc := a.Field(f)
			if fc.IsNull(i) && e.opts.IgnoreNullFields {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = AppendString(dst, t.Fields[f].Name)
			dst = append(dst, ':')
			var err error
			if dst, err = e.appendValue(dst, fc, i, t.Fields[f].Type); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case *array.Null:
		return append(dst, "null"...), nil
	}
	return dst, fmt.Errorf("json: cannot encode %s", col.DataType())
}

func appendFloat(dst []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		dst = append(dst, '"')
		return append(textconv.AppendDoubleJava(dst, f, bits), '"')
	}
	return textconv.AppendDoubleJava(dst, f, bits)
}
