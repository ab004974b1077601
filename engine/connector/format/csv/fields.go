package csv

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/types"
)

// parser appends the value of one field text to its column.
type parser interface {
	// parse appends the value of a non-empty, non-null field; on failure it
	// appends nothing and returns an error explaining why.
	parse(b []byte) error
	appendNull()
	// isText reports CHAR/VARCHAR (an empty field is "", not NULL).
	isText() bool
}

// errSyntax is the reason of a text that is not a value of the type.
var errSyntax = errors.New("syntax")

// valueError is a field (or array element) that does not parse.
type valueError struct {
	t      *types.DataType
	text   string
	reason error
}

func (e *valueError) Error() string {
	var typ string
	if e.t != nil {
		typ = e.t.StringNoNull()
	}
	msg := fmt.Sprintf("cannot parse %s as %s", quoteText(e.text), typ)
	if e.reason != nil && e.reason != errSyntax {
		msg += ": " + e.reason.Error()
	}
	return msg
}

// quoteText shows offending text in messages, shortened when long.
func quoteText(s string) string {
	const max = 80
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

// valueCtx holds the settings all parsers of a reader share.
type valueCtx struct {
	ignore     bool
	nullLit    []byte
	hasNullLit bool
	arrayDelim byte
	fieldErrs  int64 // fields set to NULL because they did not parse
}

// value appends one field or element: the null literal (unquoted) and
// (for non-text types) the empty text are NULL, except that a quoted empty field ("") is
// the empty value of BYTES and ARRAY columns; a text that does not parse
// is NULL when errors are ignored and an error otherwise.
func (c *valueCtx) value(p parser, t *types.DataType, b []byte, quoted bool) error {
	if c.hasNullLit && !quoted && bytes.Equal(b, c.nullLit) {
		p.appendNull()
		return nil
	}
	if len(b) == 0 && !p.isText() && !(quoted && hasEmptyValue(t)) {
		p.appendNull()
		return nil
	}
	if err := p.parse(b); err != nil {
		if c.ignore {
			c.fieldErrs++
			p.appendNull()
			return nil
		}
		var ve *valueError
		if errors.As(err, &ve) {
			return err
		}
		return &valueError{t: t, text: string(b), reason: err}
	}
	return nil
}

// hasEmptyValue reports types with an empty value other than NULL.
func hasEmptyValue(t *types.DataType) bool {
	return t.IsBinary() || t.Root == types.ArrayRoot
}

// newParser builds the parser of a column type; nested says the type is
// inside an ARRAY or ROW (where Flink allows only scalars).
func newParser(t *types.DataType, col columns.Column, ctx *valueCtx, nested bool) (parser, error) {
	switch t.Root {
	case types.Boolean:
		return &boolParser{col.(*columns.Bool)}, nil
	case types.TinyInt:
		return &intParser[int8]{col.(*columns.Fixed[int8]), 8}, nil
	case types.SmallInt:
		return &intParser[int16]{col.(*columns.Fixed[int16]), 16}, nil
	case types.Integer, types.IntervalYearMonthRoot:
		return &intParser[int32]{col.(*columns.Fixed[int32]), 32}, nil
	case types.BigInt, types.IntervalDayTimeRoot:
		return &intParser[int64]{col.(*columns.Fixed[int64]), 64}, nil
	case types.Float:
		return &float32Parser{col.(*columns.Fixed[float32])}, nil
	case types.Double:
		return &float64Parser{col.(*columns.Fixed[float64])}, nil
	case types.DecimalRoot:
		return &decimalParser{col.(*columns.Decimal), t.Precision, t.Scale}, nil
	case types.Char, types.VarChar:
		return &stringParser{col.(*columns.Bytes)}, nil
	case types.Binary, types.VarBinary:
		return &bytesParser{col.(*columns.Bytes)}, nil
	case types.DateRoot:
		return &dateParser{col.(*columns.Fixed[int32])}, nil
	case types.TimeRoot:
		if t.Precision <= 3 {
			return &time32Parser{col.(*columns.Fixed[int32]), t.Precision}, nil
		}
		return &time64Parser{col.(*columns.Fixed[int64]), t.Precision}, nil
	case types.TimestampRoot, types.TimestampLTZRoot:
		return &timestampParser{c: col.(*columns.Fixed[int64]), precision: t.Precision,
			units: types.UnitsPerSecond(types.TimestampUnit(t.Precision)), z: t.Root == types.TimestampLTZRoot}, nil
	case types.Null:
		return nullParser{col}, nil
	case types.ArrayRoot:
		if nested {
			return nil, fmt.Errorf("the csv format does not support nested type %s inside an ARRAY or ROW", t)
		}
		l := col.(*columns.List)
		elem, err := newParser(t.Elem, l.Elem, ctx, true)
		if err != nil {
			return nil, err
		}
		return &listParser{l: l, elem: elem, elemType: t.Elem, ctx: ctx}, nil
	case types.RowRoot:
		if nested {
			return nil, fmt.Errorf("the csv format does not support nested type %s inside an ARRAY or ROW", t)
		}
		s := col.(*columns.Struct)
		rp := &rowParser{s: s, t: t, ctx: ctx}
		for i, f := range t.Fields {
			p, err := newParser(f.Type, s.Fields[i], ctx, true)
			if err != nil {
				return nil, err
			}
			rp.fields = append(rp.fields, p)
		}
		return rp, nil
	}
	return nil, fmt.Errorf("unsupported type: %s", t)
}

type boolParser struct{ c *columns.Bool }

func (p *boolParser) parse(b []byte) error {
	v, ok := textconv.ParseBool(b)
	if !ok {
		return errSyntax
	}
	p.c.Append(v)
	return nil
}
func (p *boolParser) appendNull()  { p.c.AppendNull() }
func (p *boolParser) isText() bool { return false }

type intParser[T int8 | int16 | int32 | int64] struct {
	c    *columns.Fixed[T]
	bits int
}

func (p *intParser[T]) parse(b []byte) error {
	v, ok := textconv.ParseInt(b, p.bits)
	if !ok {
		return errSyntax
	}
	p.c.Append(T(v))
	return nil
}
func (p *intParser[T]) appendNull()  { p.c.AppendNull() }
func (p *intParser[T]) isText() bool { return false }

type float32Parser struct{ c *columns.Fixed[float32] }

func (p *float32Parser) parse(b []byte) error {
	v, ok := textconv.ParseFloat(b, 32)
	if !ok {
		return errSyntax
	}
	p.c.Append(float32(v))
	return nil
}
func (p *float32Parser) appendNull()  { p.c.AppendNull() }
func (p *float32Parser) isText() bool { return false }

type float64Parser struct{ c *columns.Fixed[float64] }

func (p *float64Parser) parse(b []byte) error {
	v, ok := textconv.ParseFloat(b, 64)
	if !ok {
		return errSyntax
	}
	p.c.Append(v)
	return nil
}
func (p *float64Parser) appendNull()  { p.c.AppendNull() }
func (p *float64Parser) isText() bool { return false }

type decimalParser struct {
	c                *columns.Decimal
	precision, scale int
}

func (p *decimalParser) parse(b []byte) error {
	v, err := textconv.ParseDecimal(b, p.precision, p.scale)
	if err != nil {
		if err.Error() == "not a number" {
			return errSyntax
		}
		return fmt.Errorf("value does not fit DECIMAL(%d, %d)", p.precision, p.scale)
	}
	p.c.Append(v)
	return nil
}
func (p *decimalParser) appendNull()  { p.c.AppendNull() }
func (p *decimalParser) isText() bool { return false }

type stringParser struct{ c *columns.Bytes }

func (p *stringParser) parse(b []byte) error { p.c.Append(b); return nil }
func (p *stringParser) appendNull()          { p.c.AppendNull() }
func (p *stringParser) isText() bool         { return true }

type bytesParser struct{ c *columns.Bytes }

func (p *bytesParser) parse(b []byte) error {
	data := p.c.Extend()
	n := len(data)
	enc := base64.StdEncoding
	if len(b)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	need := enc.DecodedLen(len(b))
	if cap(data)-n < need {
		grown := make([]byte, n, 2*cap(data)+need)
		copy(grown, data)
		data = grown
	}
	m, err := enc.Decode(data[n:n+need], b)
	if err != nil {
		return fmt.Errorf("invalid base64")
	}
	p.c.Commit(data[:n+m])
	return nil
}
func (p *bytesParser) appendNull()  { p.c.AppendNull() }
func (p *bytesParser) isText() bool { return false }

type dateParser struct{ c *columns.Fixed[int32] }

func (p *dateParser) parse(b []byte) error {
	d, ok := textconv.ParseDateSQL(b)
	if !ok {
		return errSyntax
	}
	p.c.Append(d)
	return nil
}
func (p *dateParser) appendNull()  { p.c.AppendNull() }
func (p *dateParser) isText() bool { return false }

type time32Parser struct {
	c         *columns.Fixed[int32]
	precision int
}

func (p *time32Parser) parse(b []byte) error {
	n, ok := textconv.ParseTime(b, true)
	if !ok {
		return errSyntax
	}
	p.c.Append(int32(textconv.TruncNanos(n, p.precision) / 1_000_000))
	return nil
}
func (p *time32Parser) appendNull()  { p.c.AppendNull() }
func (p *time32Parser) isText() bool { return false }

type time64Parser struct {
	c         *columns.Fixed[int64]
	precision int
}

func (p *time64Parser) parse(b []byte) error {
	n, ok := textconv.ParseTime(b, true)
	if !ok {
		return errSyntax
	}
	p.c.Append(textconv.TruncNanos(n, p.precision))
	return nil
}
func (p *time64Parser) appendNull()  { p.c.AppendNull() }
func (p *time64Parser) isText() bool { return false }

type timestampParser struct {
	c         *columns.Fixed[int64]
	precision int
	units     int64
	z         bool
	// The last "yyyy-MM-dd " prefix of a 19-byte value and its epoch
	// second at midnight: rows of a file often share the date.
	lastDate     [11]byte
	lastMidnight int64
	haveDate     bool
}

// parseSameDate is the fast path for "yyyy-MM-dd HH:mm:ss" whose date is
// the previous such value's: only the time of day is parsed.
func (p *timestampParser) parseSameDate(b []byte) bool {
	if len(b) != 19 || !p.haveDate || [11]byte(b[:11]) != p.lastDate || b[13] != ':' || b[16] != ':' {
		return false
	}
	h0, h1, i0, i1, s0, s1 := b[11]-'0', b[12]-'0', b[14]-'0', b[15]-'0', b[17]-'0', b[18]-'0'
	if h0 > 9 || h1 > 9 || i0 > 9 || i1 > 9 || s0 > 9 || s1 > 9 {
		return false
	}
	h, mi, sec := int64(h0)*10+int64(h1), int64(i0)*10+int64(i1), int64(s0)*10+int64(s1)
	if h > 23 || mi > 59 || sec > 59 {
		return false
	}
	p.c.Append((p.lastMidnight + h*3600 + mi*60 + sec) * p.units)
	return true
}

func (p *timestampParser) parse(b []byte) error {
	if p.parseSameDate(b) {
		return nil
	}
	sec, nanos, ok := textconv.ParseTimestamp(b, ' ', p.z, false)
	if ok && !p.z && nanos == 0 && len(b) == 19 && sec > -8e9 && sec < 8e9 {
		// Remember the date for the next rows (8e9 s keeps sec*1e9 in an int64).
		p.lastDate = [11]byte(b[:11])
		p.lastMidnight = sec - sec%86400
		if sec%86400 < 0 {
			p.lastMidnight -= 86400
		}
		p.haveDate = true
	}
	if !ok {
		t := textconv.TrimJava(b)
		if len(t) == len(b) {
			return errSyntax
		}
		if sec, nanos, ok = textconv.ParseTimestamp(t, ' ', p.z, false); !ok {
			return errSyntax
		}
	}
	n := textconv.TruncNanos(int64(nanos), p.precision)
	v, fits := textconv.EpochUnits(sec, n, p.units)
	if !fits {
		// TIMESTAMP(7..9) holds int64 nanoseconds: never wrap to a wrong date
		if err := types.CheckTimestampRange(time.Unix(sec, n).UTC(), types.TimestampType(p.precision)); err != nil {
			return err
		}
		return fmt.Errorf("timestamp out of range")
	}
	p.c.Append(v)
	return nil
}
func (p *timestampParser) appendNull()  { p.c.AppendNull() }
func (p *timestampParser) isText() bool { return false }

type nullParser struct{ c columns.Column }

func (p nullParser) parse(b []byte) error { p.c.AppendNull(); return nil }
func (p nullParser) appendNull()          { p.c.AppendNull() }
func (p nullParser) isText() bool         { return false }

type listParser struct {
	l        *columns.List
	elem     parser
	elemType *types.DataType
	ctx      *valueCtx
}

func (p *listParser) parse(b []byte) error {
	for len(b) > 0 {
		i := bytes.IndexByte(b, p.ctx.arrayDelim)
		part := b
		if i >= 0 {
			part = b[:i]
		}
		if err := p.ctx.value(p.elem, p.elemType, part, false); err != nil {
			return err
		}
		if i < 0 {
			break
		}
		b = b[i+1:]
	}
	p.l.Append()
	return nil
}
func (p *listParser) appendNull()  { p.l.AppendNull() }
func (p *listParser) isText() bool { return false }

type rowParser struct {
	s      *columns.Struct
	t      *types.DataType
	fields []parser
	ctx    *valueCtx
}

func (p *rowParser) parse(b []byte) error {
	n := bytes.Count(b, []byte{p.ctx.arrayDelim}) + 1
	if n != len(p.fields) && !p.ctx.ignore {
		return fmt.Errorf("row length mismatch: %d fields expected but was %d", len(p.fields), n)
	}
	for i, f := range p.fields {
		if i >= n {
			f.appendNull()
			continue
		}
		j := bytes.IndexByte(b, p.ctx.arrayDelim)
		part := b
		if j >= 0 {
			part = b[:j]
			b = b[j+1:]
		}
		if err := p.ctx.value(f, p.t.Fields[i].Type, part, false); err != nil {
			return err
		}
	}
	p.s.Append()
	return nil
}
func (p *rowParser) appendNull()  { p.s.AppendNull() }
func (p *rowParser) isText() bool { return false }
