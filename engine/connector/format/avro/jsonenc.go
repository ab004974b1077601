package avro

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/types"
)

// Avro's JSON encoding ('avro.encoding' = 'json'), as Flink writes it with
// Avro's JsonEncoder: a record is an object with every field; a nullable
// value is null or {"<branch>": value}, the branch being the Avro type name
// ("string", "long", "bytes" for DECIMAL, "int" for DATE, "array", "map",
// the full record name for a nested ROW such as
// "org.apache.flink.avro.generated.record_addr"); BYTES and DECIMAL are
// strings of the code points U+0000..U+00FF, one per byte; FLOAT and DOUBLE
// are Java's toString, NaN and the infinities strings. Checked against
// Flink 2.3.0's AvroRowDataSerializationSchema/DeserializationSchema with
// AvroEncoding.JSON (avro_json_test.go).

// branchName is the union branch name of a non-null type.
func branchName(t *types.DataType, name string) string {
	switch t.Root {
	case types.Boolean:
		return "boolean"
	case types.TinyInt, types.SmallInt, types.Integer, types.DateRoot, types.TimeRoot:
		return "int"
	case types.BigInt, types.TimestampRoot, types.TimestampLTZRoot:
		return "long"
	case types.Float:
		return "float"
	case types.Double:
		return "double"
	case types.Char, types.VarChar:
		return "string"
	case types.Binary, types.VarBinary, types.DecimalRoot:
		return "bytes"
	case types.ArrayRoot:
		return "array"
	case types.MapRoot, types.MultisetRoot:
		return "map"
	case types.RowRoot:
		return name
	}
	return "null"
}

// jsonWriter appends the JSON encoding of arr[i].
type jsonWriter func(dst []byte, arr arrow.Array, i int) ([]byte, error)

func appendLatin1(dst []byte, b []byte) []byte {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return json.AppendString(dst, sb.String())
}

func appendJavaFloat(dst []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		dst = append(dst, '"')
		dst = textconv.AppendDoubleJava(dst, f, bits)
		return append(dst, '"')
	}
	return textconv.AppendDoubleJava(dst, f, bits)
}

func decimalBytes(n decimal128.Num) []byte {
	b := appendDecimal(nil, n)
	c := cursor{b: b}
	return c.bytes()
}

func newJSONWriter(t *types.DataType, name, path string) jsonWriter {
	w := baseJSONWriter(t, name, path)
	if t.Nullable && t.Root != types.Null {
		open := append(append([]byte{'{'}, json.AppendString(nil, branchName(t, name))...), ':')
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			if arr.IsNull(i) {
				return append(dst, "null"...), nil
			}
			dst, err := w(append(dst, open...), arr, i)
			return append(dst, '}'), err
		}
	}
	return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
		if arr.IsNull(i) {
			return dst, fmt.Errorf("column %s: NULL in a NOT NULL column", types.QuoteIdent(path))
		}
		return w(dst, arr, i)
	}
}

func baseJSONWriter(t *types.DataType, name, path string) jsonWriter {
	switch t.Root {
	case types.Null:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) { return append(dst, "null"...), nil }
	case types.Boolean:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendBool(dst, arr.(*array.Boolean).Value(i)), nil
		}
	case types.TinyInt:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, int64(arr.(*array.Int8).Value(i)), 10), nil
		}
	case types.SmallInt:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, int64(arr.(*array.Int16).Value(i)), 10), nil
		}
	case types.Integer:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, int64(arr.(*array.Int32).Value(i)), 10), nil
		}
	case types.DateRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, int64(arr.(*array.Date32).Value(i)), 10), nil
		}
	case types.TimeRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, int64(arr.(*array.Time32).Value(i)), 10), nil
		}
	case types.BigInt:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, arr.(*array.Int64).Value(i), 10), nil
		}
	case types.TimestampRoot, types.TimestampLTZRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return strconv.AppendInt(dst, int64(arr.(*array.Timestamp).Value(i)), 10), nil
		}
	case types.Float:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendJavaFloat(dst, float64(arr.(*array.Float32).Value(i)), 32), nil
		}
	case types.Double:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendJavaFloat(dst, arr.(*array.Float64).Value(i), 64), nil
		}
	case types.Char, types.VarChar:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return json.AppendString(dst, arr.(*array.String).Value(i)), nil
		}
	case types.Binary, types.VarBinary:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			switch a := arr.(type) {
			case *array.Binary:
				return appendLatin1(dst, a.Value(i)), nil
			case *array.FixedSizeBinary:
				return appendLatin1(dst, a.Value(i)), nil
			}
			return dst, fmt.Errorf("column %s: unexpected array %T", types.QuoteIdent(path), arr)
		}
	case types.DecimalRoot:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			return appendLatin1(dst, decimalBytes(arr.(*array.Decimal128).Value(i))), nil
		}
	case types.ArrayRoot:
		elem := newJSONWriter(t.Elem, name, path)
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			l := arr.(*array.List)
			from, to := l.ValueOffsets(i)
			dst = append(dst, '[')
			var err error
			for j := from; j < to; j++ {
				if j > from {
					dst = append(dst, ',')
				}
				if dst, err = elem(dst, l.ListValues(), int(j)); err != nil {
					return dst, err
				}
			}
			return append(dst, ']'), nil
		}
	case types.MapRoot, types.MultisetRoot:
		vt := t.Value
		if t.Root == types.MultisetRoot {
			vt = types.IntType()
		}
		val := newJSONWriter(vt, name, path)
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			m := arr.(*array.Map)
			from, to := m.ValueOffsets(i)
			keys := m.Keys().(*array.String)
			dst = append(dst, '{')
			var err error
			for j := from; j < to; j++ {
				if j > from {
					dst = append(dst, ',')
				}
				dst = json.AppendString(dst, keys.Value(int(j)))
				dst = append(dst, ':')
				if dst, err = val(dst, m.Items(), int(j)); err != nil {
					return dst, err
				}
			}
			return append(dst, '}'), nil
		}
	case types.RowRoot:
		fields := make([]jsonWriter, len(t.Fields))
		keys := make([][]byte, len(t.Fields))
		for k, f := range t.Fields {
			fields[k] = newJSONWriter(f.Type, name+"_"+f.Name, path+"."+f.Name)
			keys[k] = append(json.AppendString(nil, f.Name), ':')
		}
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			s := arr.(*array.Struct)
			dst = append(dst, '{')
			var err error
			for k, w := range fields {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, keys[k]...)
				if dst, err = w(dst, s.Field(k), i); err != nil {
					return dst, err
				}
			}
			return append(dst, '}'), nil
		}
	}
	return func(dst []byte, arr arrow.Array, i int) ([]byte, error) { return dst, unsupported(t) }
}

// jsonRecordWriter encodes whole rows.
type jsonRecordWriter struct {
	fields []jsonWriter
	keys   [][]byte
}

func newJSONRecordWriter(names []string, ts []*types.DataType) *jsonRecordWriter {
	w := &jsonRecordWriter{}
	for i, n := range names {
		w.fields = append(w.fields, newJSONWriter(ts[i], RecordName+"_"+n, n))
		w.keys = append(w.keys, append(json.AppendString(nil, n), ':'))
	}
	return w
}

// Encode appends row i as one JSON object (without the line break Avro's
// JsonEncoder puts before every record but the first it writes).
func (w *jsonRecordWriter) Encode(dst []byte, b *types.Batch, i int) ([]byte, error) {
	if len(b.Cols) != len(w.fields) {
		return nil, fmt.Errorf("avro: batch has %d columns, the encoder %d", len(b.Cols), len(w.fields))
	}
	dst = append(dst, '{')
	var err error
	for k, f := range w.fields {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, w.keys[k]...)
		if dst, err = f(dst, b.Cols[k], i); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// decoding --------------------------------------------------------------------

// jsonValue appends the value of raw (Avro JSON of type t) to col.
func jsonValue(raw stdjson.RawMessage, t *types.DataType, name, path string, col columns.Column) error {
	raw = bytes.TrimSpace(raw)
	if t.Nullable && t.Root != types.Null {
		if string(raw) == "null" {
			col.AppendNull()
			return nil
		}
		var u map[string]stdjson.RawMessage
		if len(raw) == 0 || raw[0] != '{' || stdjson.Unmarshal(raw, &u) != nil || len(u) != 1 {
			return fmt.Errorf("column %s: expected null or a union branch {\"%s\": ...}", types.QuoteIdent(path), branchName(t, name))
		}
		want := branchName(t, name)
		inner, ok := u[want]
		if !ok {
			for k := range u {
				return fmt.Errorf("column %s: unknown union branch %s (expected %s)", types.QuoteIdent(path), k, want)
			}
		}
		raw = bytes.TrimSpace(inner)
	}
	bad := func(what string) error {
		s := string(raw)
		if len(s) > 60 {
			s = s[:60] + "..."
		}
		return fmt.Errorf("column %s: expected %s, got %s", types.QuoteIdent(path), what, s)
	}
	switch c := col.(type) {
	case *columns.Null:
		c.AppendNull()
	case *columns.Bool:
		var v bool
		if stdjson.Unmarshal(raw, &v) != nil {
			return bad("a boolean")
		}
		c.Append(v)
	case *columns.Fixed[int8]:
		v, err := strconv.ParseInt(string(raw), 10, 32)
		if err != nil {
			return bad("an int")
		}
		c.Append(int8(v))
	case *columns.Fixed[int16]:
		v, err := strconv.ParseInt(string(raw), 10, 32)
		if err != nil {
			return bad("an int")
		}
		c.Append(int16(v))
	case *columns.Fixed[int32]:
		v, err := strconv.ParseInt(string(raw), 10, 32)
		if err != nil {
			return bad("an int")
		}
		c.Append(int32(v))
	case *columns.Fixed[int64]:
		v, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return bad("a long")
		}
		c.Append(v)
	case *columns.Fixed[float32]:
		f, err := jsonFloat(raw, 32)
		if err != nil {
			return bad("a float")
		}
		c.Append(float32(f))
	case *columns.Fixed[float64]:
		f, err := jsonFloat(raw, 64)
		if err != nil {
			return bad("a double")
		}
		c.Append(f)
	case *columns.Bytes:
		var s string
		if stdjson.Unmarshal(raw, &s) != nil {
			return bad("a string")
		}
		if t.IsString() {
			c.AppendString(s)
			return nil
		}
		b, ok := latin1(s)
		if !ok {
			return bad("bytes (code points up to U+00FF)")
		}
		c.Append(b)
	case *columns.Decimal:
		var s string
		if stdjson.Unmarshal(raw, &s) != nil {
			return bad("bytes")
		}
		b, ok := latin1(s)
		n, fits := decimalFromBytes(b)
		if !ok || !fits || !n.FitsInPrecision(int32(t.Precision)) {
			return fmt.Errorf("column %s: the value does not fit %s", types.QuoteIdent(path), t.StringNoNull())
		}
		c.Append(n)
	case *columns.List:
		var items []stdjson.RawMessage
		if stdjson.Unmarshal(raw, &items) != nil {
			return bad("an array")
		}
		for _, it := range items {
			if err := jsonValue(it, t.Elem, name, path, c.Elem); err != nil {
				return err
			}
		}
		c.Append()
	case *columns.Map:
		vt := t.Value
		if t.Root == types.MultisetRoot {
			vt = types.IntType()
		}
		keys, vals, err := orderedObject(raw)
		if err != nil {
			return bad("a map")
		}
		for k := range keys {
			c.Keys.(*columns.Bytes).AppendString(keys[k])
			if err := jsonValue(vals[k], vt, name, path, c.Items); err != nil {
				return err
			}
		}
		c.Append()
	case *columns.Struct:
		var m map[string]stdjson.RawMessage
		if len(raw) == 0 || raw[0] != '{' || stdjson.Unmarshal(raw, &m) != nil {
			return bad("a record")
		}
		for k, f := range t.Fields {
			v, ok := m[f.Name]
			if !ok {
				return fmt.Errorf("column %s: missing (Avro's JSON encoding has every field)", types.QuoteIdent(path+"."+f.Name))
			}
			if err := jsonValue(v, f.Type, name+"_"+f.Name, path+"."+f.Name, c.Fields[k]); err != nil {
				return err
			}
		}
		c.Append()
	default:
		return unsupported(t)
	}
	return nil
}

func jsonFloat(raw []byte, bits int) (float64, error) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := stdjson.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
		switch s {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
		return 0, errors.New("not a number")
	}
	return strconv.ParseFloat(string(raw), bits)
}

func latin1(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return nil, false
		}
		out = append(out, byte(r))
	}
	return out, true
}

func orderedObject(raw []byte) ([]string, []stdjson.RawMessage, error) {
	dec := stdjson.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != stdjson.Delim('{') {
		return nil, nil, errors.New("not an object")
	}
	var keys []string
	var vals []stdjson.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v stdjson.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, tok.(string))
		vals = append(vals, v)
	}
	return keys, vals, nil
}

// jsonRecordReader decodes Avro JSON messages.
type jsonRecordReader struct {
	c    *Codec
	rows *RecordReader
}

// Decode decodes one message holding one record object.
func (r *jsonRecordReader) Decode(msg []byte) (int, error) {
	var m map[string]stdjson.RawMessage
	if err := stdjson.Unmarshal(msg, &m); err != nil || m == nil {
		return 0, errors.New("failed to deserialize Avro record: not a JSON object")
	}
	rows := r.rows.Rows
	for k, n := range r.c.Names {
		v, ok := m[n]
		if !ok {
			rows.Rollback()
			return 0, fmt.Errorf("failed to deserialize Avro record: column %s: missing (Avro's JSON encoding has every field)", types.QuoteIdent(n))
		}
		if err := jsonValue(v, r.c.Types[k], RecordName+"_"+n, n, rows.Cols[k]); err != nil {
			rows.Rollback()
			return 0, fmt.Errorf("failed to deserialize Avro record: %w", err)
		}
	}
	rows.Commit(types.Insert)
	return 1, nil
}

func (r *jsonRecordReader) Flush() *types.Batch { return r.rows.Flush() }
func (r *jsonRecordReader) SkippedRows() int64  { return 0 }
