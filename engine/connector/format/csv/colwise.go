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

// span is a field's bytes buf[start:end] in the read buffer.
type span struct{ start, end int32 }

// maxSpanBuf bounds the read buffer's size for pending records (offsets
// are int32).
const maxSpanBuf = 1 << 31

// pendingRows are the records tokenized and not yet parsed.
type pendingRows struct {
	spans [][]span // per output column (only the eager ones are used)
	line  []int64  // per record, its physical line
}

// spansParser is a parser with a loop over many fields.
type spansParser interface {
	// parseSpans appends the values of the fields buf[s.start:s.end] of
	// sp in order, as parse would, and stops before the first field that
	// is empty (unless the column is text) or does not parse, appending
	// nothing for it. It returns the number of fields appended.
	parseSpans(buf []byte, sp []span) int
}

// parseSpans is p.parseSpans, or parse called per field.
func parseSpans(p parser, buf []byte, sp []span) int {
	if q, ok := p.(spansParser); ok {
		return q.parseSpans(buf, sp)
	}
	for k, s := range sp {
		b := buf[s.start:s.end]
		if len(b) == 0 || p.parse(b) != nil {
			return k
		}
	}
	return len(sp)
}

// pendRecord keeps the record just tokenized by scanWords for flushPending
// and reports true, or reports false when emit must take it (another
// number of fields, or bytes that are not ASCII and not valid UTF-8).
func (r *Reader) pendRecord() bool {
	if r.nfields != len(r.d.allTypes) || r.recEnd >= maxSpanBuf {
		return false
	}
	if r.recEnd > r.asciiEnd {
		r.asciiEnd = asciiPrefix(r.buf[:r.end], r.asciiEnd)
		if r.recEnd > r.asciiEnd && !utf8.Valid(r.buf[r.recStartOff:r.recEnd]) {
			return false
		}
	}
	p := &r.pend
	for _, j := range r.eager {
		ref := &r.refs[r.d.proj[j]]
		p.spans[j] = append(p.spans[j], span{int32(ref.start), int32(ref.end)})
	}
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
		sp := p.spans[j][:limit]
		ps := r.parsers[j]
		k := parseSpans(ps, buf, sp)
		for k < len(sp) {
			s := sp[k]
			if err := r.ctx.value(ps, r.d.outTypes[j], buf[s.start:s.end], false); err != nil {
				first = r.dataError(p.line[k], r.d.proj[j]+1, err.Error())
				limit = k
				break
			}
			k++
			k += parseSpans(ps, buf, sp[k:])
		}
	}
	for j := range p.spans {
		p.spans[j] = p.spans[j][:0]
	}
	p.line = p.line[:0]
	return first
}

func (p *intParser[T]) parseSpans(buf []byte, sp []span) int {
	for k, s := range sp {
		v, ok := textconv.ParseInt(buf[s.start:s.end], p.bits)
		if !ok {
			return k
		}
		p.c.Append(T(v))
	}
	return len(sp)
}

func (p *float64Parser) parseSpans(buf []byte, sp []span) int {
	for k, s := range sp {
		v, ok := textconv.ParseFloat(buf[s.start:s.end], 64)
		if !ok {
			return k
		}
		p.c.Append(v)
	}
	return len(sp)
}

func (p *stringParser) parseSpans(buf []byte, sp []span) int {
	for _, s := range sp {
		p.c.Append(buf[s.start:s.end])
	}
	return len(sp)
}

func (p *timestampParser) parseSpans(buf []byte, sp []span) int {
	for k, s := range sp {
		b := buf[s.start:s.end]
		if p.parseSameDate(b) {
			continue
		}
		if len(b) == 0 || p.parse(b) != nil {
			return k
		}
	}
	return len(sp)
}
