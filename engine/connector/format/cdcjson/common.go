// Package cdcjson implements Flink's changelog JSON formats:
// 'debezium-json' (DebeziumJsonFormatFactory), 'canal-json'
// (CanalJsonFormatFactory) and 'maxwell-json' (MaxwellJsonFormatFactory).
// Each message (or, on the filesystem connector, each line) is one change
// event envelope; the rows inside are decoded with the json format's
// converters (JsonToRowDataConverters) and come out as +I, -U/+U or -D
// rows. The encoders write Flink's envelopes: an update is written as a
// delete of the old row and an insert of the new one, as Flink's
// serializers do.
//
// Common options (prefixed with the format name, e.g.
// 'debezium-json.ignore-parse-errors'):
//
//	ignore-parse-errors             false  skip (and count) an envelope that cannot be decoded;
//	                                       a field that does not convert becomes NULL
//	timestamp-format.standard       SQL    SQL | ISO-8601, as the json format
//	map-null-key.mode               FAIL   FAIL | DROP | LITERAL (encoding), as the json format
//	map-null-key.literal            null
//	encode.decimal-as-plain-number  false
//	encode.ignore-null-fields       false  leave NULL fields (and the null "before"/"after") out
//
// Format-specific options and metadata are documented on each factory.
// Every behaviour (rows, kinds, error cases, metadata values, encoded
// bytes) was checked against Flink 2.3.0's DebeziumJsonDeserializationSchema,
// CanalJsonDeserializationSchema, MaxwellJsonDeserializationSchema and their
// serializers (jshell over Flink's jars); see the tests.
package cdcjson

import (
	"bufio"
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/connector/internal/pending"
	"github.com/riffle-sql/riffle/engine/types"
)

// Shared option keys (without the format prefix).
const (
	OptIgnoreParseErrors = "ignore-parse-errors"
	OptTimestampFormat   = "timestamp-format.standard"
	OptMapNullKeyMode    = "map-null-key.mode"
	OptMapNullKeyLiteral = "map-null-key.literal"
	OptDecimalPlain      = "encode.decimal-as-plain-number"
	OptIgnoreNullFields  = "encode.ignore-null-fields"
)

var commonOptions = []connector.Option{
	{Key: OptIgnoreParseErrors, Default: "false", Kind: "bool", Description: "Skip fields and rows with parse errors instead of failing; fields are set to null in case of errors."},
	{Key: OptTimestampFormat, Default: "SQL", Kind: "enum", Values: []string{"SQL", "ISO-8601"}, Description: "Timestamp format of input and output: SQL or ISO-8601."},
	{Key: OptMapNullKeyMode, Default: "FAIL", Kind: "enum", Values: []string{"FAIL", "DROP", "LITERAL"}, Description: "How to encode a MAP entry with a null key."},
	{Key: OptMapNullKeyLiteral, Default: "null", Kind: "string", Description: "The key literal when 'map-null-key.mode' is LITERAL."},
	{Key: OptDecimalPlain, Default: "false", Kind: "bool", Description: "Encode all decimals as plain numbers instead of possible scientific notation."},
	{Key: OptIgnoreNullFields, Default: "false", Kind: "bool", Description: "Leave null fields out when encoding."},
}

// parseOptions validates the options of format id: the common ones into
// json.Options, the extra ones (known keys) returned as they are.
func parseOptions(id string, opts map[string]string, extra []connector.Option) (json.Options, map[string]string, error) {
	all := append(append([]connector.Option(nil), commonOptions...), extra...)
	known := map[string]bool{}
	for _, o := range all {
		known[o.Key] = true
	}
	jopts := map[string]string{}
	rest := map[string]string{}
	for k, v := range opts {
		if !known[k] {
			var keys []string
			for _, o := range all {
				keys = append(keys, id+"."+o.Key)
			}
			return json.Options{}, nil, fmt.Errorf("unsupported option '%s.%s' for format '%s'; supported options are: %s", id, k, id, strings.Join(keys, ", "))
		}
		isCommon := false
		for _, o := range commonOptions {
			if o.Key == k {
				isCommon = true
			}
		}
		if isCommon {
			jopts[k] = v
		} else {
			rest[k] = v
		}
	}
	o, err := json.ParseOptions(jopts)
	if err != nil {
		// json.ParseOptions names its own prefix.
		return o, nil, errors.New(strings.ReplaceAll(err.Error(), "'json.", "'"+id+"."))
	}
	return o, rest, nil
}

func boolOption(id string, opts map[string]string, key string) (bool, error) {
	v, ok := opts[key]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("unrecognized option for boolean: %s. Expected either true or false(case insensitive) for option '%s.%s'", v, id, key)
}

// quote renders a message for an error (cut after 300 bytes).
func quote(msg []byte) string {
	const max = 300
	if len(msg) > max {
		return fmt.Sprintf("'%s...' (%d bytes)", msg[:max], len(msg))
	}
	return "'" + string(msg) + "'"
}

// isNull reports a missing or JSON null value.
func isNull(raw stdjson.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// envelope decoding -------------------------------------------------------

// metaField is one metadata key a decoder can append.
type metaField struct {
	key string
	t   *types.DataType
}

// value converters for metadata (Flink reads them with the json format's
// converters: STRING takes a string's text, another scalar's text, an
// object's compact JSON).

func textOf(raw stdjson.RawMessage) (any, error) {
	if isNull(raw) {
		return nil, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := stdjson.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return s, nil
	case '{', '[':
		var b bytes.Buffer
		if err := stdjson.Compact(&b, raw); err != nil {
			return nil, err
		}
		return b.String(), nil
	}
	return string(raw), nil
}

func longOf(raw stdjson.RawMessage) (int64, bool, error) {
	if isNull(raw) {
		return 0, false, nil
	}
	s := string(raw)
	if raw[0] == '"' {
		if err := stdjson.Unmarshal(raw, &s); err != nil {
			return 0, false, err
		}
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("cannot parse %s as BIGINT", raw)
	}
	return v, true, nil
}

// millisOf reads epoch milliseconds (times scale) as a TIMESTAMP_LTZ(3).
func millisOf(raw stdjson.RawMessage, scale int64) (any, error) {
	v, ok, err := longOf(raw)
	if err != nil || !ok {
		return nil, err
	}
	return time.UnixMilli(v * scale).UTC(), nil
}

func stringArrayOf(raw stdjson.RawMessage) (any, error) {
	if isNull(raw) {
		return nil, nil
	}
	var items []stdjson.RawMessage
	if err := stdjson.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("expected an array: %s", raw)
	}
	out := make([]any, len(items))
	for i, it := range items {
		v, err := textOf(it)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// objectOf reads a JSON object keeping its key order.
func objectOf(raw stdjson.RawMessage) ([]string, []stdjson.RawMessage, error) {
	dec := stdjson.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != stdjson.Delim('{') {
		return nil, nil, fmt.Errorf("expected an object: %s", raw)
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

func stringMapOf(raw stdjson.RawMessage) (any, error) {
	if isNull(raw) {
		return nil, nil
	}
	keys, vals, err := objectOf(raw)
	if err != nil {
		return nil, err
	}
	m := &types.Map{}
	for i, k := range keys {
		v, err := textOf(vals[i])
		if err != nil {
			return nil, err
		}
		m.Keys = append(m.Keys, k)
		m.Values = append(m.Values, v)
	}
	return m, nil
}

func intMapOf(raw stdjson.RawMessage) (any, error) {
	if isNull(raw) {
		return nil, nil
	}
	keys, vals, err := objectOf(raw)
	if err != nil {
		return nil, err
	}
	m := &types.Map{}
	for i, k := range keys {
		var v any
		n, ok, err := longOf(vals[i])
		if err != nil {
			return nil, err
		}
		if ok {
			v = int32(n)
		}
		m.Keys = append(m.Keys, k)
		m.Values = append(m.Values, v)
	}
	return m, nil
}

// keysAnywhere collects every object key at any depth of raw, as Jackson's
// JsonNode.findValue searches (Flink's canal and maxwell decoders ask
// "old".findValue(column) to tell changed columns).
func keysAnywhere(raw stdjson.RawMessage) map[string]bool {
	var v any
	_ = stdjson.Unmarshal(raw, &v)
	keys := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				keys[k] = true
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return keys
}

// mergeObjects returns an object with the fields of after overridden by
// those of old (the json decoder keeps the last of duplicate keys), used
// to build the row before an update.
func mergeObjects(after, old stdjson.RawMessage) []byte {
	a := bytes.TrimSpace(after)
	o := bytes.TrimSpace(old)
	ai := bytes.TrimSpace(a[1 : len(a)-1])
	oi := bytes.TrimSpace(o[1 : len(o)-1])
	out := make([]byte, 0, len(a)+len(o)+2)
	out = append(out, '{')
	out = append(out, ai...)
	if len(ai) > 0 && len(oi) > 0 {
		out = append(out, ',')
	}
	out = append(out, oi...)
	return append(out, '}')
}

// rowDecoder is the shared machinery of the three decoders: the physical
// columns (decoded by the json format), the metadata columns, pending rows.
type rowDecoder struct {
	obj     *json.ObjectReader
	rows    *pending.Rows
	meta    []metaField
	all     map[string]*types.DataType
	nphys   int
	ignore  bool
	skipped int64
	metaVal []any // per message, in meta order
}

func newRowDecoder(ctx *connector.FormatContext, o json.Options, readable []metaField) (*rowDecoder, error) {
	d, err := json.NewDecoder(o, ctx.Names, ctx.Types)
	if err != nil {
		return nil, err
	}
	obj := d.NewObjectReader(1024)
	rd := &rowDecoder{obj: obj, rows: &pending.Rows{Cols: obj.Columns()}, nphys: len(ctx.Names), ignore: o.IgnoreParseErrors, all: map[string]*types.DataType{}}
	for _, m := range readable {
		rd.all[m.key] = m.t
	}
	return rd, nil
}

// ReadableMetadata lists the format's metadata keys and types.
func (d *rowDecoder) ReadableMetadata() map[string]*types.DataType {
	out := map[string]*types.DataType{}
	for k, t := range d.all {
		out[k] = t
	}
	return out
}

// SetMetadata selects the metadata keys appended after the physical columns.
func (d *rowDecoder) SetMetadata(keys []string) error {
	if len(d.rows.Cols) != d.nphys || d.rows.Len() > 0 {
		return errors.New("SetMetadata must be called once, before the first Decode")
	}
	for _, k := range keys {
		t, ok := d.all[k]
		if !ok {
			var known []string
			for k := range d.all {
				known = append(known, k)
			}
			return fmt.Errorf("unknown metadata key '%s'; available keys: %s", k, strings.Join(known, ", "))
		}
		col, err := columns.New(t, 1024)
		if err != nil {
			return err
		}
		d.meta = append(d.meta, metaField{k, t})
		d.rows.Cols = append(d.rows.Cols, col)
	}
	d.metaVal = make([]any, len(d.meta))
	return nil
}

func (d *rowDecoder) Flush() *types.Batch { return d.rows.Flush() }
func (d *rowDecoder) SkippedRows() int64  { return d.skipped }

// emit decodes one row object and appends the message's metadata; it
// returns false when the json decoder skipped the object (ignore mode).
func (d *rowDecoder) emit(obj []byte, kind types.RowKind) (bool, error) {
	ok, err := d.obj.Decode(obj)
	if err != nil || !ok {
		return false, err
	}
	for i, v := range d.metaVal {
		if err := columns.AppendValue(d.rows.Cols[d.nphys+i], v); err != nil {
			return false, fmt.Errorf("metadata '%s': %v", d.meta[i].key, err)
		}
	}
	d.rows.Commit(kind)
	return true, nil
}

// fail rolls back the message's rows and reports err, or skips the
// message with ignore-parse-errors.
func (d *rowDecoder) fail(mark int, err error) (int, error) {
	d.rows.RollbackTo(mark)
	if d.ignore {
		d.skipped++
		return 0, nil
	}
	return 0, err
}

// line decoding (filesystem) -----------------------------------------------

// lineDecoder reads one envelope per line with a message decoder.
type lineDecoder struct {
	newDecoder func() (connector.MessageDecoder, error)
}

func (l lineDecoder) NewReader(r io.Reader, name string, maxRows int) connector.BatchReader {
	if maxRows <= 0 {
		maxRows = 8192
	}
	d, err := l.newDecoder()
	return &lineReader{d: d, err: err, br: bufio.NewReaderSize(r, 256<<10), name: name, max: maxRows}
}

type lineReader struct {
	d      connector.MessageDecoder
	br     *bufio.Reader
	name   string
	max    int
	line   int64
	off    int64 // offset in the stream of the next unread line
	n      int
	done   bool
	err    error
	buffer []byte
}

func (r *lineReader) SkippedRows() int64 {
	if r.d == nil {
		return 0
	}
	return r.d.SkippedRows()
}

// Next decodes lines until maxRows rows are pending or the input ends.
func (r *lineReader) Next() (*types.Batch, error) {
	if r.err != nil {
		return nil, r.err
	}
	for !r.done && r.n < r.max {
		line, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			r.buffer = append(r.buffer[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.br.ReadSlice('\n')
				r.buffer = append(r.buffer, line...)
			}
			line = r.buffer
		}
		if err == io.EOF {
			r.done = true
		} else if err != nil {
			r.err = fmt.Errorf("reading %s: %w", r.name, err)
			return nil, r.err
		}
		r.line++
		size := int64(len(line))
		r.off += size
		if r.line == 1 && bytes.HasPrefix(line, []byte("\xEF\xBB\xBF")) {
			line = line[3:]
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n, err := r.d.Decode(bytes.TrimRight(line, "\r\n"))
		if err != nil {
			r.err = &connector.DataError{File: r.name, Line: r.line, Msg: err.Error()}
			// The position stays at the bad line (Offset).
			r.off -= size
			r.line--
			if r.n > 0 {
				// The rows before the bad line first, the error next.
				r.n = 0
				return r.d.Flush(), nil
			}
			return nil, r.err
		}
		r.n += n
	}
	if r.n == 0 {
		r.err = io.EOF
		return nil, io.EOF
	}
	r.n = 0
	return r.d.Flush(), nil
}

// regex helpers ---------------------------------------------------------------

// fullMatch compiles a Java regular expression matched against the whole
// string (Matcher.matches).
func fullMatch(option, expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil, fmt.Errorf("option '%s': invalid regular expression '%s': %v", option, expr, err)
	}
	return re, nil
}

// retractMode is the changelog mode of the three formats, decoding and
// encoding (Flink's factories declare INSERT, UPDATE_BEFORE, UPDATE_AFTER,
// DELETE for both).
var retractMode = types.RetractMode

// encoding ------------------------------------------------------------------

// envelopeEncoder encodes the row as a JSON object and wraps it in the
// format's envelope for the row's kind.
// newEnvelopeEncoder encodes rows of ctx's columns as JSON objects that
// wrap puts into the format's envelope.
func newEnvelopeEncoder(o json.Options, ctx *connector.FormatContext, wrap func(dst, obj []byte, kind types.RowKind, ignoreNull bool) []byte) (connector.MessageEncoder, error) {
	e, err := json.NewEncoder(o, ctx.Names, ctx.Types)
	if err != nil {
		return nil, err
	}
	return &envelopeEncoder{e: e, ignoreNull: o.IgnoreNullFields, wrap: wrap}, nil
}

// linesOf is the file encoder of a message encoder: one envelope per line.
func linesOf(me connector.MessageEncoder, err error) (connector.Encoder, error) {
	if err != nil {
		return nil, err
	}
	return lineEncoder{me}, nil
}

type envelopeEncoder struct {
	e          *json.Encoder
	ignoreNull bool
	wrap       func(dst, obj []byte, kind types.RowKind, ignoreNull bool) []byte
	obj        []byte
}

func (m *envelopeEncoder) Encode(dst []byte, b *types.Batch, i int) ([]byte, error) {
	var err error
	if m.obj, err = m.e.AppendRow(m.obj[:0], b.Cols, i); err != nil {
		return nil, err
	}
	return m.wrap(dst, m.obj, b.Kind(i), m.ignoreNull), nil
}

// lineEncoder writes one envelope per line (Flink's
// SerializationSchemaAdapter on the filesystem connector).
type lineEncoder struct{ me connector.MessageEncoder }

func (l lineEncoder) NewWriter(w io.Writer) connector.BatchWriter {
	return &lineWriter{me: l.me, w: w}
}

type lineWriter struct {
	me  connector.MessageEncoder
	w   io.Writer
	buf []byte
}

func (lw *lineWriter) Write(b *types.Batch) error {
	for i := 0; i < b.Len; i++ {
		out, err := lw.me.Encode(lw.buf, b, i)
		if err != nil {
			return err
		}
		lw.buf = append(out, '\n')
		if len(lw.buf) >= 48<<10 {
			if err := lw.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (lw *lineWriter) Flush() error {
	if len(lw.buf) == 0 {
		return nil
	}
	_, err := lw.w.Write(lw.buf)
	lw.buf = lw.buf[:0]
	return err
}
