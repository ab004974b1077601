package json

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/types"
)

// DefaultBatchRows is the batch size used when a caller passes maxRows <= 0.
const DefaultBatchRows = 8192

// Decoder reads JSON Lines streams into batches of the projected columns.
// It is immutable and may be shared by readers running in parallel.
type Decoder struct {
	opts  Options
	names []string
	types []*types.DataType
	// uses, when not nil, says how the job reads each column
	// (connector.FormatContext.Uses): nullable CHAR/VARCHAR values nobody
	// reads are left NULL (any JSON value converts to a string, so
	// skipping one hides no error).
	uses []*connector.FieldUse
}

// NewDecoder builds a decoder producing the named columns (looked up by
// name in each object).
func NewDecoder(opts Options, names []string, ts []*types.DataType) (*Decoder, error) {
	for _, t := range ts {
		if err := checkType(t); err != nil {
			return nil, err
		}
	}
	return &Decoder{opts: opts, names: names, types: ts}, nil
}

// checkType rejects types the json format does not support.
func checkType(t *types.DataType) error {
	switch t.Root {
	case types.VariantRoot:
		// as Flink 2.3's json format, which reads and writes no VARIANT
		return fmt.Errorf("Unsupported type: VARIANT (the json format reads and writes no VARIANT column; read a STRING column and call PARSE_JSON)")
	case types.Raw, types.Symbol, types.Descriptor, types.Invalid:
		return fmt.Errorf("the json format does not support type %s", t)
	case types.MapRoot, types.MultisetRoot:
		k := t.Key
		if t.Root == types.MultisetRoot {
			k = t.Elem
		}
		if !k.IsString() {
			return fmt.Errorf("JSON format doesn't support non-string as key type of map. The type is: %s", t)
		}
		if t.Root == types.MapRoot {
			return checkType(t.Value)
		}
	case types.ArrayRoot:
		return checkType(t.Elem)
	case types.RowRoot:
		for _, f := range t.Fields {
			if err := checkType(f.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// NewReader starts reading one stream; name is the file name in errors.
func (d *Decoder) NewReader(r io.Reader, name string, maxRows int) connector.BatchReader {
	return d.newReader(r, name, maxRows)
}

func (d *Decoder) newReader(r io.Reader, name string, maxRows int) *Reader {
	if maxRows <= 0 {
		maxRows = DefaultBatchRows
	}
	rd := &Reader{d: d, r: r, name: name, maxRows: maxRows, buf: make([]byte, 256<<10)}
	rd.st = &state{opts: &d.opts}
	rt := types.RowType()
	for i, n := range d.names {
		rt.Fields = append(rt.Fields, types.NewField(n, d.types[i]))
	}
	rd.top = newRowConv(rt, nil, rd.st, "")
	for i, t := range d.types {
		u := connector.WholeUse
		if d.uses != nil {
			u = d.uses[i]
		}
		if skippable(t, u) {
			c := columns.NewNulls(t)
			rd.cols = append(rd.cols, c)
			rd.top.fields[i] = skipConv{c}
			continue
		}
		c := columns.MustNew(t, maxRows)
		rd.cols = append(rd.cols, c)
		rd.top.fields[i] = newConv(t, c, rd.st, d.names[i], u)
	}
	rd.top.linkSubs()
	return rd
}

// state is shared by the converters of one reader.
type state struct {
	opts      *Options
	line      []byte
	scratch   []byte
	fieldErrs int64
}

// fieldError is a value that does not convert, at a byte offset.
type fieldError struct {
	path string
	off  int
	msg  string
}

func (e *fieldError) Error() string { return e.msg }

// Reader reads one JSON Lines stream; it implements connector.BatchReader.
type Reader struct {
	d       *Decoder
	r       io.Reader
	name    string
	maxRows int

	buf      []byte
	base     int64 // offset in the stream of buf[0]
	pos, end int
	eof      bool
	lineNo   int64

	st   *state
	top  *rowConv
	cols []columns.Column

	skipped int64
	err     error
}

// SkippedRows counts lines skipped because of json.ignore-parse-errors.
func (r *Reader) SkippedRows() int64 { return r.skipped }

// NulledFields counts fields set to NULL because of json.ignore-parse-errors.
func (r *Reader) NulledFields() int64 { return r.st.fieldErrs }

// nextLine returns the next line without its terminator, or io.EOF.
func (r *Reader) nextLine() ([]byte, error) {
	for {
		if i := bytes.IndexByte(r.buf[r.pos:r.end], '\n'); i >= 0 {
			line := r.buf[r.pos : r.pos+i]
			r.pos += i + 1
			r.lineNo++
			return line, nil
		}
		if r.eof {
			if r.pos < r.end {
				line := r.buf[r.pos:r.end]
				r.pos = r.end
				r.lineNo++
				return line, nil
			}
			return nil, io.EOF
		}
		if r.pos > 0 {
			copy(r.buf, r.buf[r.pos:r.end])
			r.end -= r.pos
			r.base += int64(r.pos)
			r.pos = 0
		}
		if r.end == len(r.buf) {
			nb := make([]byte, 2*len(r.buf))
			copy(nb, r.buf[:r.end])
			r.buf = nb
		}
		m, err := r.r.Read(r.buf[r.end:])
		r.end += m
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			return nil, fmt.Errorf("reading %s: %w", r.name, err)
		}
	}
}

func (r *Reader) dataError(col int, field, msg string) *connector.DataError {
	return &connector.DataError{File: r.name, Line: r.lineNo, Column: col, Field: field, Msg: msg}
}

// Next returns the next batch, io.EOF at the end, or a *connector.DataError.
func (r *Reader) Next() (*types.Batch, error) {
	if r.err != nil {
		return nil, r.err
	}
	n := 0
	for n < r.maxRows {
		line, err := r.nextLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err
			return nil, err
		}
		if r.lineNo == 1 && len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
			line = line[3:]
		}
		i := skipWS(line, 0)
		if i == len(line) {
			continue // blank line
		}
		ok, err := r.decodeLine(line, i)
		if err != nil {
			r.err = err
			return nil, err
		}
		if ok {
			n++
		}
	}
	if n == 0 {
		r.err = io.EOF
		return nil, io.EOF
	}
	out := make([]arrow.Array, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.Build()
	}
	return types.NewBatch(out, nil, n), nil
}

// decodeLine decodes one object; false when the line was skipped.
func (r *Reader) decodeLine(line []byte, i int) (bool, error) {
	st := r.st
	st.line = line
	o := r.d.opts
	rowErr := func(off int, msg string) (bool, error) {
		if o.IgnoreParseErrors {
			r.skipped++
			return false, nil
		}
		return false, r.dataError(off+1, "", msg)
	}
	if !utf8.Valid(line) {
		off := 0
		for off < len(line) {
			c, n := utf8.DecodeRune(line[off:])
			if c == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return rowErr(off, fmt.Sprintf("invalid UTF-8 byte 0x%02X", line[off]))
	}
	if line[i] != '{' {
		return rowErr(i, "expected a JSON object")
	}
	end, err := r.top.collect(line, i, 0)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return rowErr(se.off, "malformed JSON: "+se.msg)
		}
		return false, err
	}
	if j := skipWS(line, end); j != len(line) {
		return rowErr(j, "malformed JSON: unexpected text after the object")
	}
	if err := r.top.emitFields(); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return false, r.dataError(fe.off+1, fe.path, fe.msg)
		}
		return false, err
	}
	return true, nil
}

// conv converts one JSON value into a column.
type conv interface {
	// convert appends the value of a non-null span or returns an error.
	convert(s span) error
	appendNull()
}

// value handles NULL and conversion errors around conv.convert.
func (st *state) value(c conv, s span, path string) error {
	if s.kind == 'n' {
		c.appendNull()
		return nil
	}
	if err := c.convert(s); err != nil {
		if st.opts.IgnoreParseErrors {
			st.fieldErrs++
			c.appendNull()
			return nil
		}
		var fe *fieldError
		if errors.As(err, &fe) {
			return err
		}
		return &fieldError{path: path, off: s.start, msg: err.Error()}
	}
	return nil
}

// text returns the content of a string span (unescaped into scratch when
// needed; valid until the next call).
func (st *state) text(s span) ([]byte, error) {
	raw := st.line[s.start+1 : s.end-1]
	if !s.esc {
		return raw, nil
	}
	var err error
	st.scratch, err = unescape(st.scratch[:0], raw)
	return st.scratch, err
}

// raw returns the text of a scalar span as written (numbers, booleans) or
// the content of a string.
func (st *state) scalarText(s span) ([]byte, error) {
	if s.kind == '"' {
		return st.text(s)
	}
	return st.line[s.start:s.end], nil
}

func mismatch(s span, t *types.DataType) error {
	what := map[byte]string{'"': "a string", '0': "a number", 't': "a boolean", 'f': "a boolean", '{': "an object", '[': "an array"}[s.kind]
	return fmt.Errorf("cannot convert %s to %s", what, t.StringNoNull())
}

func cannot(b []byte, t *types.DataType) error {
	s := string(b)
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return fmt.Errorf("cannot parse %q as %s", s, t.StringNoNull())
}

// skippable reports whether a value of type t read as u (nil: by nobody)
// may be left NULL: a nullable CHAR/VARCHAR nobody reads, which no JSON
// value fails to convert to.
func skippable(t *types.DataType, u *connector.FieldUse) bool {
	return u == nil && t.Nullable && (t.Root == types.Char || t.Root == types.VarChar)
}

// skipConv appends NULL for a value nobody reads (Decoder.uses).
type skipConv struct{ c *columns.Nulls }

func (c skipConv) convert(span) error { c.c.AppendNull(); return nil }
func (c skipConv) appendNull()        { c.c.AppendNull() }

// newConv builds the converter of a value of type t into col; use is how
// the job reads the value (connector.FieldUse).
func newConv(t *types.DataType, col columns.Column, st *state, path string, use *connector.FieldUse) conv {
	switch t.Root {
	case types.Boolean:
		return &boolConv{col.(*columns.Bool), st, t}
	case types.TinyInt:
		return &intConv[int8]{col.(*columns.Fixed[int8]), st, t, 8}
	case types.SmallInt:
		return &intConv[int16]{col.(*columns.Fixed[int16]), st, t, 16}
	case types.Integer, types.IntervalYearMonthRoot:
		return &intConv[int32]{col.(*columns.Fixed[int32]), st, t, 32}
	case types.BigInt, types.IntervalDayTimeRoot:
		return &intConv[int64]{col.(*columns.Fixed[int64]), st, t, 64}
	case types.Float:
		return &floatConv[float32]{col.(*columns.Fixed[float32]), st, t, 32}
	case types.Double:
		return &floatConv[float64]{col.(*columns.Fixed[float64]), st, t, 64}
	case types.DecimalRoot:
		return &decimalConv{col.(*columns.Decimal), st, t}
	case types.Char, types.VarChar:
		return &stringConv{col.(*columns.Bytes), st}
	case types.Binary, types.VarBinary:
		return &bytesConv{col.(*columns.Bytes), st, t}
	case types.DateRoot:
		return &dateConv{col.(*columns.Fixed[int32]), st, t}
	case types.TimeRoot:
		return &timeConv{col, st, t}
	case types.TimestampRoot, types.TimestampLTZRoot:
		return &timestampConv{c: col.(*columns.Fixed[int64]), st: st, t: t, units: types.UnitsPerSecond(types.TimestampUnit(t.Precision))}
	case types.ArrayRoot:
		l := col.(*columns.List)
		return &arrayConv{l: l, st: st, t: t, elem: newConv(t.Elem, l.Elem, st, path+"[]", connector.WholeUse), path: path}
	case types.MapRoot, types.MultisetRoot:
		m := col.(*columns.Map)
		vt := t.Value
		if t.Root == types.MultisetRoot {
			vt = types.IntType()
		}
		return &mapConv{m: m, st: st, t: t, key: m.Keys.(*columns.Bytes), val: newConv(vt, m.Items, st, path+"{}", connector.WholeUse), path: path}
	case types.RowRoot:
		rc := newRowConv(t, col.(*columns.Struct), st, path)
		for i, f := range t.Fields {
			fu := use.Field(i)
			if skippable(f.Type, fu) {
				c := columns.NewNulls(f.Type)
				rc.s.Fields[i] = c
				rc.fields[i] = skipConv{c}
				continue
			}
			rc.fields[i] = newConv(f.Type, rc.s.Fields[i], st, joinPath(path, f.Name), fu)
		}
		rc.linkSubs()
		return rc
	case types.Null:
		return nullConv{col}
	}
	panic(fmt.Sprintf("json: unsupported type %s", t))
}

func joinPath(p, name string) string {
	if p == "" {
		return name
	}
	return p + "." + name
}

type boolConv struct {
	c  *columns.Bool
	st *state
	t  *types.DataType
}

func (c *boolConv) convert(s span) error {
	switch s.kind {
	case 't':
		c.c.Append(true)
	case 'f':
		c.c.Append(false)
	case '"':
		b, err := c.st.text(s)
		if err != nil {
			return err
		}
		v, ok := textconv.ParseBool(b)
		if !ok {
			return cannot(b, c.t)
		}
		c.c.Append(v)
	default:
		return mismatch(s, c.t)
	}
	return nil
}
func (c *boolConv) appendNull() { c.c.AppendNull() }

type intConv[T int8 | int16 | int32 | int64] struct {
	c    *columns.Fixed[T]
	st   *state
	t    *types.DataType
	bits int
}

func (c *intConv[T]) convert(s span) error {
	if s.kind != '0' && s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.scalarText(s)
	if err != nil {
		return err
	}
	if v, ok := textconv.ParseInt(b, c.bits); ok {
		c.c.Append(T(v))
		return nil
	}
	if s.kind == '0' && c.bits >= 32 {
		// Jackson's asInt/asLong truncate a fractional number in range.
		if f, ok := textconv.ParseFloat(b, 64); ok {
			lim := math.Ldexp(1, c.bits-1)
			if f >= -lim && f < lim {
				c.c.Append(T(f))
				return nil
			}
		}
	}
	return cannot(b, c.t)
}
func (c *intConv[T]) appendNull() { c.c.AppendNull() }

type floatConv[T float32 | float64] struct {
	c    *columns.Fixed[T]
	st   *state
	t    *types.DataType
	bits int
}

func (c *floatConv[T]) convert(s span) error {
	if s.kind != '0' && s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.scalarText(s)
	if err != nil {
		return err
	}
	v, ok := textconv.ParseFloat(b, c.bits)
	if !ok {
		return cannot(b, c.t)
	}
	c.c.Append(T(v))
	return nil
}
func (c *floatConv[T]) appendNull() { c.c.AppendNull() }

type decimalConv struct {
	c  *columns.Decimal
	st *state
	t  *types.DataType
}

func (c *decimalConv) convert(s span) error {
	if s.kind != '0' && s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.scalarText(s)
	if err != nil {
		return err
	}
	v, err := textconv.ParseDecimal(b, c.t.Precision, c.t.Scale)
	if err != nil {
		if err.Error() == "not a number" {
			return cannot(b, c.t)
		}
		return fmt.Errorf("value %s does not fit %s", b, c.t.StringNoNull())
	}
	c.c.Append(v)
	return nil
}
func (c *decimalConv) appendNull() { c.c.AppendNull() }

type stringConv struct {
	c  *columns.Bytes
	st *state
}

func (c *stringConv) convert(s span) error {
	switch s.kind {
	case '"':
		b, err := c.st.text(s)
		if err != nil {
			return err
		}
		c.c.Append(b)
	case '{', '[':
		c.c.Commit(compact(c.c.Extend(), c.st.line[s.start:s.end]))
	default:
		c.c.Append(c.st.line[s.start:s.end])
	}
	return nil
}
func (c *stringConv) appendNull() { c.c.AppendNull() }

type bytesConv struct {
	c  *columns.Bytes
	st *state
	t  *types.DataType
}

func (c *bytesConv) convert(s span) error {
	if s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.text(s)
	if err != nil {
		return err
	}
	enc := base64.StdEncoding
	if len(b)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	out := make([]byte, enc.DecodedLen(len(b)))
	n, err := enc.Decode(out, b)
	if err != nil {
		return fmt.Errorf("cannot decode BYTES: invalid base64")
	}
	c.c.Append(out[:n])
	return nil
}
func (c *bytesConv) appendNull() { c.c.AppendNull() }

type dateConv struct {
	c  *columns.Fixed[int32]
	st *state
	t  *types.DataType
}

func (c *dateConv) convert(s span) error {
	if s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.text(s)
	if err != nil {
		return err
	}
	d, ok := textconv.ParseDateISO(b)
	if !ok {
		return cannot(b, c.t)
	}
	c.c.Append(d)
	return nil
}
func (c *dateConv) appendNull() { c.c.AppendNull() }

type timeConv struct {
	c  columns.Column
	st *state
	t  *types.DataType
}

func (c *timeConv) convert(s span) error {
	if s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.text(s)
	if err != nil {
		return err
	}
	n, ok := textconv.ParseTime(b, false)
	if !ok {
		return cannot(b, c.t)
	}
	n = textconv.TruncNanos(n, c.t.Precision)
	if c.t.Precision <= 3 {
		c.c.(*columns.Fixed[int32]).Append(int32(n / 1_000_000))
	} else {
		c.c.(*columns.Fixed[int64]).Append(n)
	}
	return nil
}
func (c *timeConv) appendNull() { c.c.AppendNull() }

type timestampConv struct {
	c     *columns.Fixed[int64]
	st    *state
	t     *types.DataType
	units int64
}

func (c *timestampConv) convert(s span) error {
	if s.kind != '"' {
		return mismatch(s, c.t)
	}
	b, err := c.st.text(s)
	if err != nil {
		return err
	}
	o := c.st.opts
	ltz := c.t.Root == types.TimestampLTZRoot
	var sec int64
	var nanos int32
	var ok bool
	if o.ISO8601 {
		sec, nanos, ok = textconv.ParseTimestamp(b, 'T', ltz, true)
	} else {
		sec, nanos, ok = textconv.ParseTimestamp(b, ' ', ltz, false)
	}
	if !ok {
		if bytes.HasPrefix(b, []byte("0000-00-00")) && o.ZeroTimestampNull {
			c.c.AppendNull()
			return nil
		}
		std := "SQL"
		if o.ISO8601 {
			std = "ISO-8601"
		}
		return fmt.Errorf("%v (timestamp-format.standard is %s)", cannot(b, c.t), std)
	}
	n := textconv.TruncNanos(int64(nanos), c.t.Precision)
	v, fits := textconv.EpochUnits(sec, n, c.units)
	if !fits {
		// TIMESTAMP(7..9) holds int64 nanoseconds: never wrap to a wrong date
		if err := types.CheckTimestampRange(time.Unix(sec, n).UTC(), c.t); err != nil {
			return err
		}
		return fmt.Errorf("%v: out of range", cannot(b, c.t))
	}
	c.c.Append(v)
	return nil
}
func (c *timestampConv) appendNull() { c.c.AppendNull() }

type nullConv struct{ c columns.Column }

func (c nullConv) convert(s span) error { c.c.AppendNull(); return nil }
func (c nullConv) appendNull()          { c.c.AppendNull() }

type arrayConv struct {
	l    *columns.List
	st   *state
	t    *types.DataType
	elem conv
	path string
}

func (c *arrayConv) convert(s span) error {
	if s.kind != '[' {
		return mismatch(s, c.t)
	}
	b := c.st.line
	j := skipWS(b, s.start+1)
	if b[j] != ']' {
		for {
			v, _ := scanValue(b, j, 0)
			if err := c.st.value(c.elem, v, c.path); err != nil {
				return err
			}
			j = skipWS(b, v.end)
			if b[j] == ']' {
				break
			}
			j = skipWS(b, j+1)
		}
	}
	c.l.Append()
	return nil
}
func (c *arrayConv) appendNull() { c.l.AppendNull() }

type mapConv struct {
	m    *columns.Map
	st   *state
	t    *types.DataType
	key  *columns.Bytes
	val  conv
	path string
}

func (c *mapConv) convert(s span) error {
	if s.kind != '{' {
		return mismatch(s, c.t)
	}
	b := c.st.line
	j := skipWS(b, s.start+1)
	if b[j] != '}' {
		for {
			kend, esc, _ := scanString(b, j)
			k, err := c.st.text(span{start: j, end: kend, kind: '"', esc: esc})
			if err != nil {
				return err
			}
			c.key.Append(k)
			j = skipWS(b, kend)
			j = skipWS(b, j+1)
			v, _ := scanValue(b, j, 0)
			if err := c.st.value(c.val, v, c.path); err != nil {
				return err
			}
			j = skipWS(b, v.end)
			if b[j] == '}' {
				break
			}
			j = skipWS(b, j+1)
		}
	}
	c.m.Append()
	return nil
}
func (c *mapConv) appendNull() { c.m.AppendNull() }

// rowConv matches object fields by name.
//
// The object of a ROW field (sub) is collected while its parent object is
// scanned, so each message is scanned once: collected then tells convert
// that the slots already hold the current object's fields.
type rowConv struct {
	s      *columns.Struct
	st     *state
	t      *types.DataType
	path   string
	index  map[string]int
	fields []conv
	slots  []span
	names  []string
	// first marks the fields whose name no earlier field has: only those
	// may match by position (next, the field after the last matched).
	first []bool
	// plain marks the names without '"', '\\' or control characters:
	// their JSON text is the name's bytes between quotes.
	plain     []bool
	sub       []*rowConv
	collected bool
}

func newRowConv(t *types.DataType, s *columns.Struct, st *state, path string) *rowConv {
	rc := &rowConv{s: s, st: st, t: t, path: path, index: map[string]int{}, fields: make([]conv, len(t.Fields)),
		slots: make([]span, len(t.Fields)), first: make([]bool, len(t.Fields)), plain: make([]bool, len(t.Fields)),
		sub: make([]*rowConv, len(t.Fields))}
	for i, f := range t.Fields {
		rc.plain[i] = !strings.ContainsFunc(f.Name, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 })
		if _, dup := rc.index[f.Name]; !dup {
			rc.index[f.Name] = i
			rc.first[i] = true
		}
		rc.names = append(rc.names, joinPath(path, f.Name))
	}
	return rc
}

// linkSubs records the converters of ROW fields, once fields are set.
func (c *rowConv) linkSubs() {
	for i, f := range c.fields {
		if r, ok := f.(*rowConv); ok {
			c.sub[i] = r
		}
	}
}

// collect scans the object at b[i], at nesting depth depth (validating
// it), and records the span of each wanted field, collecting the objects
// of ROW fields into their converters; it returns the offset after the
// object.
func (c *rowConv) collect(b []byte, i int, depth int) (int, error) {
	for k := range c.slots {
		c.slots[k] = span{}
		if r := c.sub[k]; r != nil {
			r.collected = false
		}
	}
	next := 0
	j := skipWS(b, i+1)
	if j < len(b) && b[j] == '}' {
		return j + 1, nil
	}
	for {
		if j >= len(b) || b[j] != '"' {
			return 0, synErr(j, "expected a field name in double quotes")
		}
		// fields mostly come in the declared order: try the next one
		// first, on the raw bytes when its name needs no escape
		idx, kend := -1, 0
		if next < len(c.first) && c.first[next] && c.plain[next] {
			name := c.t.Fields[next].Name
			if e := j + 1 + len(name); e < len(b) && b[e] == '"' && string(b[j+1:e]) == name {
				idx, kend = next, e+1
			}
		}
		if idx < 0 {
			var esc bool
			var err error
			kend, esc, err = scanString(b, j)
			if err != nil {
				return 0, err
			}
			key := b[j+1 : kend-1]
			if esc {
				key, _ = unescape(nil, key)
			}
			if next < len(c.first) && c.first[next] && string(key) == c.t.Fields[next].Name {
				idx = next
			} else if k, ok := c.index[string(key)]; ok {
				idx = k
			}
		}
		j = skipWS(b, kend)
		if j >= len(b) || b[j] != ':' {
			return 0, synErr(j, "expected ':' after a field name")
		}
		j = skipWS(b, j+1)
		var v span
		if idx >= 0 && c.sub[idx] != nil && j < len(b) && b[j] == '{' {
			r := c.sub[idx]
			end, err := r.collect(b, j, depth+1)
			if err != nil {
				return 0, err
			}
			r.collected = true
			v = span{start: j, end: end, kind: '{'}
		} else {
			var err error
			if v, err = scanValue(b, j, depth+1); err != nil {
				return 0, err
			}
		}
		if idx >= 0 {
			c.slots[idx] = v
			next = idx + 1
		}
		j = skipWS(b, v.end)
		if j < len(b) && b[j] == ',' {
			j = skipWS(b, j+1)
			continue
		}
		if j < len(b) && b[j] == '}' {
			return j + 1, nil
		}
		return 0, synErr(j, "expected ',' or '}' in an object")
	}
}

// emitFields converts the collected fields.
func (c *rowConv) emitFields() error {
	for k, f := range c.fields {
		s := c.slots[k]
		if s.kind == 0 {
			if c.st.opts.FailOnMissingField {
				return &fieldError{path: c.names[k], off: 0, msg: fmt.Sprintf("could not find field with name '%s'", c.t.Fields[k].Name)}
			}
			f.appendNull()
			continue
		}
		if err := c.st.value(f, s, c.names[k]); err != nil {
			return err
		}
	}
	return nil
}

func (c *rowConv) convert(s span) error {
	if s.kind != '{' {
		return mismatch(s, c.t)
	}
	// Every ROW type has its own converter, and the values of one (the
	// elements of an ARRAY<ROW>) are converted one after the other, so the
	// slots are free to reuse.
	if c.collected {
		c.collected = false
	} else if _, err := c.collect(c.st.line, s.start, 0); err != nil {
		return err
	}
	c.s.SyncFields() // the NULL rows before this one
	if err := c.emitFields(); err != nil {
		return err
	}
	c.s.Append()
	return nil
}

// appendNull leaves the fields' NULLs pending (columns.Struct.SyncFields):
// a Nexmark event fills one of three ROWs, and runs of NULL ROWs then cost
// one append per field.
func (c *rowConv) appendNull() { c.s.AppendNullDeferred() }
