package csv

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

// DefaultBatchRows is the batch size used when a caller passes maxRows <= 0.
const DefaultBatchRows = 8192

// Decoder reads CSV streams into batches of the projected columns. It is
// immutable and may be shared by readers running in parallel.
type Decoder struct {
	opts     Options
	allNames []string
	allTypes []*types.DataType
	proj     []int // output column -> file field
	outTypes []*types.DataType
}

// NewDecoder builds a decoder for a table whose file fields are allTypes
// (named allNames) and whose output columns are the fields listed in proj
// (nil means all, in order). It rejects types the csv format cannot read.
func NewDecoder(opts Options, allNames []string, allTypes []*types.DataType, proj []int) (*Decoder, error) {
	if proj == nil {
		proj = make([]int, len(allTypes))
		for i := range proj {
			proj[i] = i
		}
	}
	d := &Decoder{opts: opts, allNames: allNames, allTypes: allTypes, proj: proj}
	for _, p := range proj {
		if p < 0 || p >= len(allTypes) {
			return nil, fmt.Errorf("csv: projection index %d out of range", p)
		}
		d.outTypes = append(d.outTypes, allTypes[p])
	}
	for _, t := range allTypes {
		if err := checkType(t, false); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// checkType rejects types Flink's csv format does not support.
func checkType(t *types.DataType, nested bool) error {
	switch t.Root {
	case types.MapRoot, types.MultisetRoot, types.Raw, types.Symbol, types.Descriptor, types.Invalid, types.VariantRoot:
		return fmt.Errorf("the csv format does not support type %s", t)
	case types.ArrayRoot, types.RowRoot:
		if nested {
			return fmt.Errorf("the csv format does not support nested type %s inside an ARRAY or ROW", t)
		}
		if t.Root == types.ArrayRoot {
			return checkType(t.Elem, true)
		}
		for _, f := range t.Fields {
			if err := checkType(f.Type, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// Types lists the output column types.
func (d *Decoder) Types() []*types.DataType { return d.outTypes }

// NewReader starts reading one stream; name is the file name in errors.
func (d *Decoder) NewReader(r io.Reader, name string, maxRows int) connector.BatchReader {
	return d.newReader(r, name, maxRows)
}

func (d *Decoder) newReader(r io.Reader, name string, maxRows int) *Reader {
	return d.newReaderBuf(r, name, maxRows, make([]byte, 256<<10))
}

// newReaderBuf starts a reader whose read buffer is buf.
func (d *Decoder) newReaderBuf(r io.Reader, name string, maxRows int, buf []byte) *Reader {
	if maxRows <= 0 {
		maxRows = DefaultBatchRows
	}
	rd := &Reader{
		d: d, r: r, name: name, maxRows: maxRows, line: 1,
		buf:    buf,
		wanted: make([]bool, len(d.allTypes)),
		refs:   make([]fieldRef, len(d.allTypes)),
		bounds: make([]int32, len(d.allTypes)+1),
		ctx: &valueCtx{ignore: d.opts.IgnoreParseErrs, nullLit: []byte(d.opts.NullLiteral),
			hasNullLit: d.opts.HasNullLiteral, arrayDelim: d.opts.ArrayDelimiter},
	}
	for _, p := range d.proj {
		rd.wanted[p] = true
	}
	rd.builders = takeBuilders(d.outTypes, maxRows)
	for i, t := range d.outTypes {
		var col columns.Column
		if rd.builders != nil {
			col = rd.builders.cols[i]
		} else {
			col = columns.MustNew(t, maxRows)
		}
		p, err := newParser(t, col, rd.ctx, false)
		if err != nil {
			rd.err = err
			return rd
		}
		rd.cols = append(rd.cols, col)
		rd.parsers = append(rd.parsers, p)
		rd.text = append(rd.text, t.IsString())
		rd.eager = append(rd.eager, len(rd.eager))
	}
	var special [256]bool
	special[d.opts.Delimiter] = true
	special['\n'] = true
	special['\r'] = true
	if d.opts.EscapeEnabled {
		special[d.opts.Escape] = true
	}
	rd.special = special
	rd.wordDelim = everyByte(d.opts.Delimiter)
	rd.wordEsc = rd.wordDelim
	rd.wordQuote, rd.wordStopEsc = wordNewline, wordNewline
	if d.opts.EscapeEnabled {
		rd.wordEsc = everyByte(d.opts.Escape)
		rd.wordStopEsc = rd.wordEsc
	}
	if d.opts.QuoteEnabled {
		rd.wordQuote = everyByte(d.opts.Quote)
	}
	var qspecial [256]bool
	qspecial[d.opts.Quote] = true
	qspecial['\n'] = true
	qspecial['\r'] = true
	if d.opts.EscapeEnabled {
		qspecial[d.opts.Escape] = true
	}
	rd.qspecial = qspecial
	rd.colwise = !d.opts.HasNullLiteral && !d.opts.ReplaceBadUTF8
	return rd
}

// fieldRef locates one field of the current record: bytes [start, end) of
// the read buffer, or of the scratch buffer when the field needed
// unescaping.
type fieldRef struct {
	start, end int
	scratch    bool
	quoted     bool
	line       int64
}

// Reader reads the batches of one CSV stream. It implements
// connector.BatchReader.
type Reader struct {
	d       *Decoder
	r       io.Reader
	name    string
	maxRows int

	buf      []byte
	base     int64 // offset in the stream of buf[0]
	pos, end int
	eof      bool
	started  bool
	line     int64 // physical line of buf[pos]
	records  int64 // records read (including a skipped header)
	special  [256]bool
	qspecial [256]bool
	// wordDelim, wordEsc: the field delimiter and the escape character
	// (the delimiter again when escaping is off) in every byte of a word,
	// for skipPlain.
	wordDelim, wordEsc uint64
	// wordStop: the quote and escape characters (the newline in place of
	// a disabled one), which send a record to the byte-wise scanner.
	wordQuote, wordStopEsc uint64
	// asciiEnd: buf[:asciiEnd] is known to hold only ASCII bytes, so the
	// records in it need no UTF-8 validation.
	asciiEnd int
	// byteScanOnly turns the word-at-a-time fast path off (tests compare
	// both paths).
	byteScanOnly bool

	wanted []bool
	refs   []fieldRef
	// bounds: the field boundaries scanWords found: field f of the record
	// is buf[bounds[f]+1 : bounds[f+1]] (fields past the table's not kept)
	bounds []int32
	// boundsOnly: scan leaves a scanWords record in bounds (refs not set)
	boundsOnly bool
	// recASCII: the record scanWords just tokenized is ASCII
	recASCII    bool
	nfields     int
	recLine     int64
	recEnd      int
	recStartOff int
	scratch     []byte

	cols    []columns.Column
	parsers []parser
	// builders: cols as a set that goes back to builderSets at the end
	// (nil when the types cannot be reused)
	builders *builderSet
	text     []bool
	ctx      *valueCtx
	// eager lists the output columns emit parses as each record is read:
	// all of them, or with a row filter those not deferred (late.go).
	eager []int

	// colwise: plain records are parsed a column at a time (colwise.go);
	// wordRec: scanWords tokenized the current record.
	colwise, wordRec bool
	pend             pendingRows

	late lateState

	skipped int64
	badUTF8 int64
	err     error

	// stops: the bytes TrackStopBytes asked about; stopSeen: a record or
	// skipped line read held one; stopUnknown: bytes were passed over
	// unread (a record skipped by ignore-parse-errors)
	stops                 []byte
	stopSeen, stopUnknown bool
}

// TrackStopBytes makes the reader note whether the bytes it reads hold
// one of stops (each the quote or the escape character, when enabled:
// the bytes that send a record to the byte-wise scanner), as part of its
// parse: records that scanWords takes hold none; the others, and the
// blank or comment lines between records, are searched. It returns false
// (and tracks nothing) when a stop byte is not one of those.
func (r *Reader) TrackStopBytes(stops []byte) bool {
	o := &r.d.opts
	for _, b := range stops {
		if !(o.QuoteEnabled && b == o.Quote) && !(o.EscapeEnabled && b == o.Escape) {
			return false
		}
	}
	r.stops = append([]byte{}, stops...) // non-nil even when empty: tracking
	return true
}

// StopFree reports that the reader tracks stop bytes (TrackStopBytes)
// and that every byte it has read so far is known to hold none.
func (r *Reader) StopFree() bool {
	return r.stops != nil && !r.stopSeen && !r.stopUnknown
}

// noteStops records whether b holds a tracked stop byte.
func (r *Reader) noteStops(b []byte) {
	for _, c := range r.stops {
		if bytes.IndexByte(b, c) >= 0 {
			r.stopSeen = true
			return
		}
	}
}

// SkippedRows counts rows skipped because of csv.ignore-parse-errors.
func (r *Reader) SkippedRows() int64 { return r.skipped }

// NulledFields counts fields set to NULL because of csv.ignore-parse-errors.
func (r *Reader) NulledFields() int64 { return r.ctx.fieldErrs }

// ReplacedInvalidUTF8 counts fields whose invalid UTF-8 was replaced
// (csv.invalid-utf8 = 'replace').
func (r *Reader) ReplacedInvalidUTF8() int64 { return r.badUTF8 }

// Next returns the next batch of up to maxRows rows, io.EOF at the end, or
// a *connector.DataError for bad input.
func (r *Reader) Next() (*types.Batch, error) {
	for {
		if r.err != nil {
			return nil, r.err
		}
		b, err := r.nextBatch()
		if err != nil {
			r.err = err
			return nil, err
		}
		if b != nil {
			return b, nil
		}
		// every row of the batch failed the row filter: read on
	}
}

// nextBatch reads the next batch: nil when a row filter dropped all its
// rows, io.EOF at the end.
func (r *Reader) nextBatch() (*types.Batch, error) {
	n := 0
	r.late.start()
	for n < r.maxRows {
		r.boundsOnly = r.colwise
		ok, err := r.nextRecord()
		r.boundsOnly = false
		if err == errBatchFull {
			break
		}
		if err != nil {
			if ferr := r.flushPending(); ferr != nil {
				return nil, ferr // an earlier record's
			}
			return nil, err
		}
		if !ok {
			break
		}
		r.records++
		if r.records == 1 && r.d.opts.IgnoreFirstLine {
			continue
		}
		if r.colwise && r.wordRec {
			if r.pendRecord() {
				n++
				if len(r.pend.line) == pendMax {
					if err := r.flushPending(); err != nil {
						return nil, err
					}
				}
				continue
			}
			r.refsFromBounds()
		}
		if err := r.flushPending(); err != nil {
			return nil, err
		}
		added, err := r.emit()
		if err != nil {
			return nil, err
		}
		if added {
			n++
		}
	}
	if err := r.flushPending(); err != nil {
		return nil, err
	}
	if n == 0 {
		r.giveBuilders()
		return nil, io.EOF
	}
	if r.late.filter != nil {
		return r.filterBatch(n)
	}
	out := make([]arrow.Array, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.Build()
	}
	return types.NewBatch(out, nil, n), nil
}

func (r *Reader) dataError(line int64, col int, msg string) *connector.DataError {
	e := &connector.DataError{File: r.name, Line: line, Column: col, Msg: msg}
	if col > 0 && col <= len(r.d.allNames) {
		e.Field = r.d.allNames[col-1]
	}
	return e
}

// fill reads more input, keeping buf[keep:end].
func (r *Reader) fill(keep int) error {
	if keep > 0 {
		copy(r.buf, r.buf[keep:r.end])
		r.end -= keep
		r.pos -= keep
		r.base += int64(keep)
		r.asciiEnd = max(r.asciiEnd-keep, 0)
	}
	if r.end == len(r.buf) {
		nb := make([]byte, 2*len(r.buf))
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	for {
		m, err := r.r.Read(r.buf[r.end:])
		r.end += m
		if err == io.EOF {
			r.eof = true
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", r.name, err)
		}
		if m > 0 {
			return nil
		}
	}
}

// start handles the byte order mark.
func (r *Reader) start() error {
	for r.end < 3 && !r.eof {
		if err := r.fill(0); err != nil {
			return err
		}
	}
	b := r.buf[:r.end]
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		r.pos = 3
	case len(b) >= 2 && ((b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE)):
		return r.dataError(1, 0, "the file starts with a UTF-16 byte order mark; the csv format reads UTF-8 only (convert the file, e.g. with iconv -f UTF-16 -t UTF-8)")
	}
	r.started = true
	return nil
}

var errNeedMore = errors.New("need more input")

// nextRecord tokenizes the next record into refs; false at the end.
func (r *Reader) nextRecord() (bool, error) {
	if !r.started {
		if err := r.start(); err != nil {
			return false, err
		}
	}
	for {
		err := r.scan()
		if err == nil {
			return true, nil
		}
		if err == io.EOF {
			return false, nil
		}
		if err == errSkipped {
			continue
		}
		if err != errNeedMore {
			return false, err
		}
		if r.eof {
			return false, fmt.Errorf("csv: internal error: incomplete record at end of input")
		}
		keep := r.pos
		if r.late.hold >= 0 {
			// the batch's records wait for the row filter (late.go)
			held := int(r.late.hold - r.base)
			if r.pos-held >= len(r.buf)/2 {
				return false, errBatchFull
			}
			keep = held
		}
		// the pending records' field positions are in the buffer
		if err := r.flushPending(); err != nil {
			return false, err
		}
		if err := r.fill(keep); err != nil {
			return false, err
		}
	}
}

// scan tokenizes one record starting at r.pos. It returns errNeedMore when
// the buffer ends before the record does (the caller reads more and calls
// again; nothing is consumed), io.EOF at the end of input, or a DataError.
func (r *Reader) scan() error {
	buf := r.buf[:r.end]
	o := &r.d.opts
	i := r.pos
	line := r.line
	from := i // for noteStops: the bytes from here to the record's end
	// Skip blank and comment lines.
	for {
		if i >= len(buf) {
			if !r.eof {
				return errNeedMore
			}
			if r.stops != nil {
				r.noteStops(buf[from:i])
			}
			r.pos, r.line = i, line
			return io.EOF
		}
		c := buf[i]
		if c == '\n' {
			i++
			line++
			continue
		}
		if c == '\r' {
			if i+1 >= len(buf) && !r.eof {
				return errNeedMore
			}
			i++
			if i < len(buf) && buf[i] == '\n' {
				i++
			}
			line++
			continue
		}
		if c == '#' && o.AllowComments {
			j := i
			for j < len(buf) && buf[j] != '\n' && buf[j] != '\r' {
				j++
			}
			if j >= len(buf) {
				if !r.eof {
					return errNeedMore
				}
				if r.stops != nil {
					r.noteStops(buf[from:j])
				}
				r.pos, r.line = j, line
				return io.EOF
			}
			i = j
			continue
		}
		break
	}
	r.pos, r.line = i, line // blank lines are consumed even if we need more
	if r.stops != nil && o.AllowComments && i > from {
		r.noteStops(buf[from:i]) // comment lines (blank ones hold only line breaks)
	}
	if !r.byteScanOnly && r.scanWords(buf, i, line) {
		r.wordRec = true
		if !r.boundsOnly {
			r.refsFromBounds()
		}
		return nil
	}
	r.wordRec = false
	recStart := i
	r.recLine = line
	r.scratch = r.scratch[:0]
	nf := 0
	nwant := len(r.wanted)
	for {
		fieldLine := line
		var ref fieldRef
		if o.QuoteEnabled && i < len(buf) && buf[i] == o.Quote {
			i++
			segStart := i
			plain := true // no doubled quotes or escapes: the value is a slice of buf
			scratchStart := len(r.scratch)
			for {
				for i < len(buf) && !r.qspecial[buf[i]] {
					i++
				}
				if i >= len(buf) {
					if !r.eof {
						return errNeedMore
					}
					return r.badRecord(len(buf), line, r.dataError(fieldLine, nf+1, "unterminated quoted field (the closing quote is missing)"))
				}
				c := buf[i]
				switch {
				case c == o.Quote:
					if i+1 >= len(buf) && !r.eof {
						return errNeedMore
					}
					if i+1 < len(buf) && buf[i+1] == o.Quote {
						if plain {
							plain = false
							r.scratch = append(r.scratch, buf[segStart:i+1]...)
						} else {
							r.scratch = append(r.scratch, buf[segStart:i+1]...)
						}
						i += 2
						segStart = i
						continue
					}
					// Closing quote.
					if plain {
						ref = fieldRef{start: segStart, end: i, quoted: true, line: fieldLine}
					} else {
						r.scratch = append(r.scratch, buf[segStart:i]...)
						ref = fieldRef{start: scratchStart, end: len(r.scratch), scratch: true, quoted: true, line: fieldLine}
					}
					i++
				case o.EscapeEnabled && c == o.Escape:
					if i+1 >= len(buf) {
						if !r.eof {
							return errNeedMore
						}
						return r.badRecord(len(buf), line, r.dataError(fieldLine, nf+1, "unterminated quoted field (ends with the escape character)"))
					}
					plain = false
					r.scratch = append(r.scratch, buf[segStart:i]...)
					r.scratch = append(r.scratch, unescapeChar(buf[i+1]))
					if buf[i+1] == '\n' || (buf[i+1] == '\r' && (i+2 >= len(buf) || buf[i+2] != '\n')) {
						line++
					}
					i += 2
					segStart = i
					continue
				case c == '\n':
					line++
					i++
					continue
				default: // '\r'
					if i+1 >= len(buf) && !r.eof {
						return errNeedMore
					}
					if i+1 >= len(buf) || buf[i+1] != '\n' {
						line++
					}
					i++
					continue
				}
				break
			}
			// After the closing quote: a delimiter, a line break or the end.
			if i < len(buf) {
				if c := buf[i]; c != o.Delimiter && c != '\n' && c != '\r' {
					return r.badRecord(i, line, r.dataError(line, nf+1, fmt.Sprintf("expected the field delimiter %q or the end of the line after the closing quote, found %q", o.Delimiter, c)))
				}
			} else if !r.eof {
				return errNeedMore
			}
		} else {
			start := i
			i = r.skipPlain(buf, i)
			if i < len(buf) && o.EscapeEnabled && buf[i] == o.Escape {
				// Slow path: unescape into scratch.
				scratchStart := len(r.scratch)
				seg := start
				for {
					for i < len(buf) && !r.special[buf[i]] {
						i++
					}
					if i < len(buf) && buf[i] == o.Escape {
						if i+1 >= len(buf) {
							if !r.eof {
								return errNeedMore
							}
							r.scratch = append(r.scratch, buf[seg:i]...)
							i++
							seg = i
							break
						}
						r.scratch = append(r.scratch, buf[seg:i]...)
						r.scratch = append(r.scratch, unescapeChar(buf[i+1]))
						if buf[i+1] == '\n' || (buf[i+1] == '\r' && (i+2 >= len(buf) || buf[i+2] != '\n')) {
							line++
						}
						i += 2
						seg = i
						continue
					}
					break
				}
				r.scratch = append(r.scratch, buf[seg:i]...)
				ref = fieldRef{start: scratchStart, end: len(r.scratch), scratch: true, line: fieldLine}
			} else {
				ref = fieldRef{start: start, end: i, line: fieldLine}
			}
		}
		if nf < nwant && r.wanted[nf] {
			r.refs[nf] = ref
		}
		nf++
		// Field terminator.
		if i >= len(buf) {
			if !r.eof {
				return errNeedMore
			}
			break
		}
		c := buf[i]
		if c == o.Delimiter {
			i++
			if i >= len(buf) && !r.eof {
				return errNeedMore
			}
			continue
		}
		if c == '\n' {
			i++
			line++
			break
		}
		// '\r'
		if i+1 >= len(buf) && !r.eof {
			return errNeedMore
		}
		i++
		if i < len(buf) && buf[i] == '\n' {
			i++
		}
		line++
		break
	}
	r.nfields = nf
	r.recEnd = i
	r.pos, r.line = i, line
	r.recStartOff = recStart
	if r.stops != nil {
		r.noteStops(buf[recStart:i])
	}
	return nil
}

// errSkipped reports a malformed record skipped by ignore-parse-errors.
var errSkipped = errors.New("record skipped")

// badRecord handles a record that cannot be tokenized: with
// csv.ignore-parse-errors it is skipped up to the end of the physical line
// at offset from (and counted); otherwise err is returned.
func (r *Reader) badRecord(from int, line int64, err *connector.DataError) error {
	if !r.d.opts.IgnoreParseErrs {
		return err
	}
	r.stopUnknown = true
	buf := r.buf[:r.end]
	i := from
	for i < len(buf) && buf[i] != '\n' && buf[i] != '\r' {
		i++
	}
	if i >= len(buf) && !r.eof {
		return errNeedMore
	}
	if i < len(buf) {
		if buf[i] == '\r' && i+1 < len(buf) && buf[i+1] == '\n' {
			i++
		}
		i++
		line++
	}
	r.pos, r.line = i, line
	r.skipped++
	return errSkipped
}

// unescapeChar maps the character after an escape character as Jackson's
// CSV decoder does.
func unescapeChar(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case '0':
		return 0
	}
	return c
}

func (r *Reader) bytesOf(ref fieldRef) []byte {
	if ref.scratch {
		return r.scratch[ref.start:ref.end]
	}
	return r.buf[ref.start:ref.end]
}

// asciiAhead bounds how far before and past a record emit's search for
// bytes that are not ASCII reaches (done once, for the records after it).
const asciiAhead = 64 << 10

// emit converts the tokenized record into column values. It returns false
// when the row was skipped (csv.ignore-parse-errors).
func (r *Reader) emit() (bool, error) {
	o := &r.d.opts
	ncols := len(r.d.allTypes)
	raw := r.buf[r.recStartOff:r.recEnd]
	if r.recEnd > r.asciiEnd && r.recStartOff-r.asciiEnd <= asciiAhead {
		// the known ASCII prefix grows past the record, by at most
		// asciiAhead bytes; a record further on (the last of a buffer that
		// holds a whole byte range, NewBytesReaderAt, after records
		// scanWords took) is checked alone below
		r.asciiEnd = asciiPrefix(r.buf[:min(r.end, r.recEnd+asciiAhead)], r.asciiEnd)
	}
	if r.recEnd > r.asciiEnd && !utf8.Valid(raw) && !o.ReplaceBadUTF8 {
		off := firstInvalidUTF8(raw)
		field, line := r.locate(off)
		if o.IgnoreParseErrs {
			r.skipped++
			return false, nil
		}
		return false, r.dataError(line, field, fmt.Sprintf("invalid UTF-8 byte 0x%02X (the file is not UTF-8; set 'csv.invalid-utf8' = 'replace' to read it with U+FFFD replacement characters)", raw[off]))
	}
	if r.nfields != ncols {
		if r.nfields > ncols || !o.IgnoreParseErrs {
			if o.IgnoreParseErrs {
				r.skipped++
				return false, nil
			}
			col := 0
			if r.nfields > ncols {
				col = ncols + 1
			}
			return false, r.dataError(r.recLine, col, fmt.Sprintf("row has %d fields, expected %d", r.nfields, ncols))
		}
	}
	hasNull := o.HasNullLiteral
	for _, j := range r.eager {
		p := r.parsers[j]
		fi := r.d.proj[j]
		if fi >= r.nfields {
			p.appendNull()
			continue
		}
		ref := &r.refs[fi]
		var b []byte
		if ref.scratch {
			b = r.scratch[ref.start:ref.end]
		} else {
			b = r.buf[ref.start:ref.end]
		}
		text := r.text[j]
		// Fast path: a non-empty value that is not the null literal.
		if len(b) > 0 && !hasNull && !(text && o.ReplaceBadUTF8) {
			if err := p.parse(b); err == nil {
				continue
			}
		}
		if text && o.ReplaceBadUTF8 && !utf8.Valid(b) {
			b = replaceInvalid(b)
			r.badUTF8++
		}
		if err := r.ctx.value(p, r.d.outTypes[j], b, ref.quoted); err != nil {
			return false, r.dataError(ref.line, fi+1, err.Error())
		}
	}
	if r.late.filter != nil {
		r.late.add(r.base+int64(r.recStartOff), r.recLine)
	}
	return true, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

func replaceInvalid(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			out = append(out, "\uFFFD"...)
			i++
			continue
		}
		out = append(out, b[i:i+n]...)
		i += n
	}
	return out
}

// locate finds the field (1-based) and physical line of byte offset off in
// the current record by re-scanning it (error path only).
func (r *Reader) locate(off int) (int, int64) {
	o := &r.d.opts
	raw := r.buf[r.recStartOff:r.recEnd]
	field, line := 1, r.recLine
	inQuotes := false
	for i := 0; i < off && i < len(raw); i++ {
		c := raw[i]
		switch {
		case o.EscapeEnabled && c == o.Escape:
			i++
		case o.QuoteEnabled && c == o.Quote:
			inQuotes = !inQuotes
		case c == o.Delimiter && !inQuotes:
			field++
		case c == '\n':
			line++
		case c == '\r':
			if i+1 >= len(raw) || raw[i+1] != '\n' {
				line++
			}
		}
	}
	return field, line
}
