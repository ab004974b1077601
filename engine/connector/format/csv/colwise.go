package csv

import (
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
)

// Column-at-a-time parsing of plain records. A record the word-at-a-time
// tokenizer took (no quote, no escape, one physical line), with the
// expected number of fields and valid UTF-8, is not parsed as it is read:
// the positions of its fields in the read buffer are kept (pending), and
// the pending records' fields are parsed a column at a time, in one loop
// per column without a call through the parser interface per field,
// before the buffer moves (a fill), before any other record is parsed,
// and at the end of the batch. Each field goes through the same parse and
// valueCtx.value calls as in emit, so values, NULLs, counts and errors
// are the same; of several bad fields, the one reported is the first in
// row order and, within the row, in column order, as emit reports it.
// Off with a null literal or csv.invalid-utf8 = 'replace' (emit's slower
// per-field path).

// maxSpanBuf bounds the read buffer's size for scanWords (its field
// boundaries are int32).
const maxSpanBuf = 1 << 31

// pendMax records at most are pending: their bytes are still in the
// core's first-level cache when their columns are parsed.
const pendMax = 256

// pendingRows are the records tokenized and not yet parsed.
type pendingRows struct {
	// bounds holds each record's field boundaries (Reader.bounds), one
	// record after the other
	bounds []int32
	line   []int64 // per record, its physical line
}

// fieldCol is one field of the pending records: record k's is
// buf[b[k*stride+f]+1 : b[k*stride+f+1]].
type fieldCol struct {
	b         []int32
	stride, f int
}

// spansParser is a parser with a loop over many fields.
type spansParser interface {
	// parseFields appends the values of fields k, k+1, ... n-1 of c in
	// order, as parse would, and stops before the first field that is
	// empty (unless the column is text) or does not parse, appending
	// nothing for it. It returns the index of that field, or n.
	parseFields(buf []byte, c fieldCol, k, n int) int
}

// parseFields is p.parseFields, or parse called per field.
func parseFields(p parser, buf []byte, c fieldCol, k, n int) int {
	if q, ok := p.(spansParser); ok {
		return q.parseFields(buf, c, k, n)
	}
	for o := k*c.stride + c.f; k < n; k, o = k+1, o+c.stride {
		b := buf[c.b[o]+1 : c.b[o+1]]
		if len(b) == 0 || p.parse(b) != nil {
			return k
		}
	}
	return n
}

// pendRecord keeps the record just tokenized by scanWords for flushPending
// and reports true, or reports false when emit must take it (another
// number of fields, or bytes that are not ASCII and not valid UTF-8).
func (r *Reader) pendRecord() bool {
	if r.nfields != len(r.d.allTypes) {
		return false
	}
	if !r.recASCII && !utf8.Valid(r.buf[r.recStartOff:r.recEnd]) {
		return false
	}
	p := &r.pend
	p.bounds = append(p.bounds, r.bounds...)
	p.line = append(p.line, r.recLine)
	if r.late.filter != nil {
		r.late.add(r.base+int64(r.recStartOff), r.recLine)
	}
	return true
}

// flushPending parses the pending records' eager columns into the
// columns, a column at a time, and forgets them. An error is that of the
// first bad field in row order (then in column order).
func (r *Reader) flushPending() error {
	p := &r.pend
	n := len(p.line)
	if n == 0 {
		return nil
	}
	buf := r.buf
	limit := n // rows at or after the first error's are not parsed
	var first error
	for _, j := range r.eager {
		c := fieldCol{b: p.bounds, stride: len(r.bounds), f: r.d.proj[j]}
		ps := r.parsers[j]
		k := parseFields(ps, buf, c, 0, limit)
		for k < limit {
			o := k*c.stride + c.f
			if err := r.ctx.value(ps, r.d.outTypes[j], buf[c.b[o]+1:c.b[o+1]], false); err != nil {
				first = r.dataError(p.line[k], c.f+1, err.Error())
				limit = k
				break
			}
			k = parseFields(ps, buf, c, k+1, limit)
		}
	}
	p.bounds = p.bounds[:0]
	p.line = p.line[:0]
	return first
}

func (p *intParser[T]) parseFields(buf []byte, c fieldCol, k, n int) int {
	for o := k*c.stride + c.f; k < n; k, o = k+1, o+c.stride {
		v, ok := textconv.ParseInt(buf[c.b[o]+1:c.b[o+1]], p.bits)
		if !ok {
			return k
		}
		p.c.Append(T(v))
	}
	return n
}

func (p *float64Parser) parseFields(buf []byte, c fieldCol, k, n int) int {
	for o := k*c.stride + c.f; k < n; k, o = k+1, o+c.stride {
		v, ok := textconv.ParseFloat(buf[c.b[o]+1:c.b[o+1]], 64)
		if !ok {
			return k
		}
		p.c.Append(v)
	}
	return n
}

func (p *stringParser) parseFields(buf []byte, c fieldCol, k, n int) int {
	for o := k*c.stride + c.f; k < n; k, o = k+1, o+c.stride {
		p.c.Append(buf[c.b[o]+1 : c.b[o+1]])
	}
	return n
}

func (p *timestampParser) parseFields(buf []byte, c fieldCol, k, n int) int {
	for o := k*c.stride + c.f; k < n; k, o = k+1, o+c.stride {
		b := buf[c.b[o]+1 : c.b[o+1]]
		if p.parseSameDate(b) {
			continue
		}
		if len(b) == 0 || p.parse(b) != nil {
			return k
		}
	}
	return n
}
