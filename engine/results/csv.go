package results

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	csvformat "github.com/riffle-sql/riffle/engine/connector/format/csv"
	"github.com/riffle-sql/riffle/engine/types"
)

// QuotePolicy says which CSV fields are quoted.
type QuotePolicy uint8

// The quote policies.
const (
	// QuoteAsNeeded quotes a field that contains the delimiter, the quote
	// character, CR or LF, and a value equal to the NULL text (so with the
	// default empty NULL text an empty string is written as "" and a NULL
	// as nothing, and the two stay apart).
	QuoteAsNeeded QuotePolicy = iota
	// QuoteAll quotes every field, numbers and NULLs included (a NULL is the
	// quoted NULL text, so it can no longer be told from a string equal to
	// the NULL text; QuoteAllButNulls keeps them apart).
	QuoteAll
	// QuoteAllButNulls quotes every value and writes NULL as the bare NULL text.
	QuoteAllButNulls
	// QuoteNever writes every field bare. A field that would need quotes
	// (delimiter, quote character, CR or LF; or a value equal to the NULL
	// text) fails the export instead of producing an ambiguous file: set
	// ReplaceNewlines or use another policy.
	QuoteNever
)

var quotePolicyNames = [...]string{"as-needed", "all", "all-but-nulls", "never"}

func (p QuotePolicy) String() string {
	if int(p) < len(quotePolicyNames) {
		return quotePolicyNames[p]
	}
	return fmt.Sprintf("QuotePolicy(%d)", p)
}

// ParseQuotePolicy parses the names String returns.
func ParseQuotePolicy(s string) (QuotePolicy, error) {
	for i, n := range quotePolicyNames {
		if s == n {
			return QuotePolicy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown quote policy %q", s)
}

// CSVOptions configure CSV output (RFC 4180 by default).
type CSVOptions struct {
	Delimiter rune        // field separator; 0 = ','
	Quote     rune        // quote character, doubled inside quoted fields; 0 = '"'
	Header    bool        // write the column names first
	Policy    QuotePolicy // which fields are quoted
	NullText  string      // how NULL is written; default empty
	CRLF      bool        // end lines with CR LF instead of LF
	BOM       bool        // start the file with the UTF-8 byte order mark
	// ReplaceNewlines, when set, replaces every line break in a value
	// (CR LF, lone LF, lone CR) by NewlineReplacement, for tools that
	// cannot read quoted line breaks.
	ReplaceNewlines    bool
	NewlineReplacement string
	// DecimalSeparator replaces '.' in FLOAT, DOUBLE and DECIMAL values;
	// 0 = '.'. Other numbers and all dates are written exactly as the grid
	// shows them, never with digit grouping.
	DecimalSeparator rune
	// QuoteEdgeSpaces quotes, under QuoteAsNeeded, a value that starts or
	// ends with a space or a tab (riffle sql --format csv does, so that
	// readers that trim fields keep them).
	QuoteEdgeSpaces bool
}

// DefaultCSVOptions are RFC 4180 with a header row: comma, double quotes
// as needed, LF, no BOM, NULL as an empty field.
func DefaultCSVOptions() CSVOptions { return CSVOptions{Header: true} }

func (o *CSVOptions) normalize() error {
	if o.Delimiter == 0 {
		o.Delimiter = ','
	}
	if o.Quote == 0 {
		o.Quote = '"'
	}
	if o.DecimalSeparator == 0 {
		o.DecimalSeparator = '.'
	}
	bad := func(r rune) bool { return r == '\r' || r == '\n' || r == utf8.RuneError || !utf8.ValidRune(r) }
	switch {
	case bad(o.Delimiter):
		return fmt.Errorf("csv: invalid delimiter %q", o.Delimiter)
	case bad(o.Quote):
		return fmt.Errorf("csv: invalid quote character %q", o.Quote)
	case o.Delimiter == o.Quote:
		return errors.New("csv: the delimiter and the quote character must differ")
	case o.Policy > QuoteNever:
		return fmt.Errorf("csv: invalid quote policy %d", o.Policy)
	case strings.ContainsAny(o.NullText, "\r\n") || strings.ContainsRune(o.NullText, o.Delimiter) ||
		strings.ContainsRune(o.NullText, o.Quote):
		return fmt.Errorf("csv: the NULL text %q contains the delimiter, the quote character or a line break", o.NullText)
	case o.ReplaceNewlines && strings.ContainsAny(o.NewlineReplacement, "\r\n"):
		return errors.New("csv: the newline replacement contains a line break")
	}
	return nil
}

// csvEncoder turns cells into CSV lines: the export's options (quote
// policy, NULL text, newline replacement, decimal separator) on top of the
// shared field writer (csvformat.FieldWriter) that also writes the csv
// format's and riffle sql's CSV.
type csvEncoder struct {
	o        CSVOptions
	fw       csvformat.FieldWriter
	delim    []byte
	eol      string
	decimals []bool // per column: apply DecimalSeparator
	tmp      []byte
	utf8buf  []byte
}

func newCSVEncoder(o CSVOptions, cols []Column) (*csvEncoder, error) {
	if err := o.normalize(); err != nil {
		return nil, err
	}
	e := &csvEncoder{
		o:     o,
		fw:    csvformat.FieldWriter{Delimiter: string(o.Delimiter), Quote: string(o.Quote), NullText: o.NullText, QuoteEdgeSpaces: o.QuoteEdgeSpaces},
		delim: utf8.AppendRune(nil, o.Delimiter),
		eol:   "\n",
	}
	if o.CRLF {
		e.eol = "\r\n"
	}
	e.decimals = make([]bool, len(cols))
	if o.DecimalSeparator != '.' {
		for i, c := range cols {
			r := c.Type.Root
			e.decimals[i] = r == types.Float || r == types.Double || r == types.DecimalRoot
		}
	}
	return e, nil
}

// errNeedsQuotes reports a field that QuoteNever cannot write.
type errNeedsQuotes struct {
	row, col int
	why      string
}

func (e *errNeedsQuotes) Error() string {
	return fmt.Sprintf("csv: row %d, column %d %s, which needs quotes, but the quote policy is 'never'", e.row, e.col+1, e.why)
}

// appendField appends one field (without delimiter). row is for errors.
// Each byte of val that is not part of a valid UTF-8 sequence is written
// as U+FFFD, so the file is valid UTF-8 (as the JSON export and riffle
// sql's outputs write it).
func (e *csvEncoder) appendField(dst, val []byte, null bool, row, col int) ([]byte, error) {
	if null {
		return e.fw.AppendNull(dst, e.o.Policy == QuoteAll), nil
	}
	if !utf8.Valid(val) {
		e.utf8buf = csvformat.AppendValidUTF8(e.utf8buf[:0], val)
		val = e.utf8buf
	}
	if e.o.ReplaceNewlines && bytes.ContainsAny(val, "\r\n") {
		val = e.replaceNewlines(val)
	}
	if col >= 0 && col < len(e.decimals) && e.decimals[col] {
		val = bytes.ReplaceAll(val, []byte{'.'}, utf8.AppendRune(nil, e.o.DecimalSeparator))
	}
	switch e.o.Policy {
	case QuoteAll, QuoteAllButNulls:
		return e.fw.AppendQuoted(dst, val), nil
	case QuoteNever:
		if e.fw.NeedsQuotes(val) {
			return dst, &errNeedsQuotes{row, col, "contains the delimiter, the quote character or a line break"}
		}
		if string(val) == e.o.NullText {
			return dst, &errNeedsQuotes{row, col, fmt.Sprintf("equals the NULL text %q", e.o.NullText)}
		}
		return append(dst, val...), nil
	}
	// as needed: a value equal to the NULL text is quoted too
	return e.fw.AppendField(dst, val, string(val) == e.o.NullText), nil
}

func (e *csvEncoder) replaceNewlines(val []byte) []byte {
	out := e.tmp[:0]
	for i := 0; i < len(val); i++ {
		switch c := val[i]; c {
		case '\r':
			if i+1 < len(val) && val[i+1] == '\n' {
				i++
			}
			out = append(out, e.o.NewlineReplacement...)
		case '\n':
			out = append(out, e.o.NewlineReplacement...)
		default:
			out = append(out, c)
		}
	}
	e.tmp = out
	return out
}

// CSVWriter writes CSV one record at a time with CSVOptions: Riffle's one
// CSV writer (the workbench's export and Run to CSV file through WriteCSV,
// riffle sql --format csv), on the field writer the csv format shares
// (csvformat.FieldWriter). Output is valid UTF-8: each byte of a value that
// is not part of a UTF-8 sequence is written as U+FFFD.
type CSVWriter struct {
	enc  *csvEncoder
	bw   *bufio.Writer
	line []byte
	rows int // data records written
}

// NewCSVWriter starts CSV for columns cols on w: the byte order mark and
// the header row when opts ask for them (buffered: call Flush). It fails
// for invalid options.
func NewCSVWriter(w io.Writer, cols []Column, opts CSVOptions) (*CSVWriter, error) {
	enc, err := newCSVEncoder(opts, cols)
	if err != nil {
		return nil, err
	}
	cw := &CSVWriter{enc: enc, bw: bufio.NewWriterSize(w, 256<<10)}
	if enc.o.BOM {
		cw.bw.WriteString("\uFEFF")
	}
	if enc.o.Header {
		for c, col := range cols {
			if c > 0 {
				cw.line = append(cw.line, enc.delim...)
			}
			if cw.line, err = enc.appendField(cw.line, []byte(col.Name), false, 0, -1); err != nil {
				return nil, err
			}
		}
		cw.line = append(cw.line, enc.eol...)
		cw.bw.Write(cw.line)
	}
	return cw, nil
}

// Write writes one record: the text of each cell, NULL where nulls[i] is
// set (nulls may be nil). It fails when a value cannot be written under
// the quote policy (QuoteNever), naming its row and column, or when w
// fails.
func (cw *CSVWriter) Write(cells [][]byte, nulls []bool) error {
	cw.rows++
	line := cw.line[:0]
	var err error
	for c, cell := range cells {
		if c > 0 {
			line = append(line, cw.enc.delim...)
		}
		if line, err = cw.enc.appendField(line, cell, nulls != nil && nulls[c], cw.rows, c); err != nil {
			return err
		}
	}
	line = append(line, cw.enc.eol...)
	cw.line = line
	_, err = cw.bw.Write(line)
	return err
}

// Flush writes the buffered records to w.
func (cw *CSVWriter) Flush() error { return cw.bw.Flush() }

// WriteCSV writes rows to w as CSV and returns the number of data rows
// written. progress, if not nil, is called every few thousand rows and at
// the end with (rows written, total rows). It stops with ctx.Err() when
// ctx is cancelled.
func WriteCSV(ctx context.Context, w io.Writer, rows Rows, opts CSVOptions, progress func(written, total int)) (int, error) {
	cols := rows.Columns()
	cw, err := NewCSVWriter(w, cols, opts)
	if err != nil {
		return 0, err
	}
	cells := make([][]byte, len(cols))
	nulls := make([]bool, len(cols))
	ends := make([]int, len(cols))
	var buf []byte
	total := rows.Len()
	for r := 0; r < total; r++ {
		if r&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return r, err
			}
			if progress != nil && r&8191 == 0 && r > 0 {
				progress(r, total)
			}
		}
		// the cells of a row share one buffer
		buf = buf[:0]
		for c := range cols {
			buf, nulls[c] = rows.AppendText(buf, r, c)
			ends[c] = len(buf)
		}
		start := 0
		for c, end := range ends {
			cells[c] = buf[start:end]
			start = end
		}
		if err := cw.Write(cells, nulls); err != nil {
			return r, err
		}
	}
	if err := cw.Flush(); err != nil {
		return total, err
	}
	if progress != nil {
		progress(total, total)
	}
	return total, nil
}

// ExportCSV writes rows to the file path atomically: the CSV goes to a
// temporary file in the same folder, which is synced and renamed over path
// only when complete. On an error or cancellation the temporary file is
// removed and path is left as it was.
func ExportCSV(ctx context.Context, rows Rows, path string, opts CSVOptions, progress func(written, total int)) error {
	return WriteFileAtomic(ctx, path, func(w io.Writer) error {
		_, err := WriteCSV(ctx, w, rows, opts, progress)
		return err
	})
}
