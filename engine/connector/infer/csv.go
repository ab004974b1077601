package infer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/csv"
	"github.com/riffle-sql/riffle/engine/types"
)

// sniffBytes is how much of the start of a file the delimiter and header
// detection look at.
const sniffBytes = 256 << 10

// delimiters are the candidates, in order of preference.
var delimiters = []byte{',', '\t', ';', '|'}

// CSV infers a table for a CSV file.
func CSV(path string, opts Options) (*Result, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	head, all, err := readHead(path, sniffBytes)
	if err != nil {
		return nil, err
	}
	r := &Result{Path: path, Format: "csv", Name: TableName(path)}
	switch {
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}), bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return nil, fmt.Errorf("%w: %s is UTF-16 text; Riffle reads UTF-8: convert it first (for example iconv -f UTF-16 -t UTF-8)", ErrUnsupported, path)
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		head = head[3:]
		r.note("The file starts with a UTF-8 byte order mark; the csv format skips it.")
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%w: %s has no data (it is empty or blank)", ErrUnsupported, path)
	}
	if bytes.Count(head, []byte{0}) > len(head)/10 {
		return nil, fmt.Errorf("%w: %s looks binary (many NUL bytes), not like CSV text", ErrUnsupported, path)
	}
	delim, sample := sniffDelimiter(head, all)
	r.Delimiter = delim
	if len(sample) == 0 {
		return nil, fmt.Errorf("%w: %s has no records", ErrUnsupported, path)
	}
	first := sample[0]
	r.Header = looksLikeHeader(first, sample[1:])
	ncols := len(first)
	if !r.Header {
		ncols = modeCount(sample)
	}
	names := make([]string, ncols)
	if r.Header {
		names = cleanNames(first, r)
	} else {
		for i := range names {
			names[i] = "column_" + strconv.Itoa(i+1)
		}
		r.note("The first line looks like data, not like a header: the columns are named column_1 to column_%d.", ncols)
	}
	r.Options = []Option{{"connector", "filesystem"}, {"path", path}, {"format", "csv"}}
	if delim != ',' {
		d := string(delim)
		if delim == '\t' {
			d = `\t`
		}
		r.setOption("csv.field-delimiter", d)
	}
	if r.Header {
		r.setOption("csv.ignore-first-line", "true")
	}

	// Pass 1: read every field as STRING with the engine's decoder and
	// collect what the values could be.
	strTypes := make([]*types.DataType, ncols)
	for i := range strTypes {
		strTypes[i] = types.StringType()
	}
	var stats []*textStats
	for attempt := 0; ; attempt++ {
		stats = make([]*textStats, ncols)
		for i := range stats {
			stats[i] = newTextStats()
		}
		n, complete, skipped, err := r.decodeCSV(names, strTypes, opts, func(b *types.Batch) {
			for c, col := range b.Cols {
				s := col.(*array.String)
				for i := 0; i < b.Len; i++ {
					if s.IsNull(i) {
						stats[c].add("")
					} else {
						stats[c].add(s.Value(i))
					}
				}
			}
		})
		if err == nil {
			r.Records, r.Complete, r.Skipped = n, complete, skipped
			break
		}
		var de *connector.DataError
		if !errors.As(err, &de) || attempt > 2 {
			return nil, err
		}
		switch {
		case strings.Contains(de.Msg, "invalid UTF-8") && !r.hasOption("csv.invalid-utf8"):
			r.setOption("csv.invalid-utf8", "replace")
			r.note("The file is not valid UTF-8 (line %d: %s). It is read with 'csv.invalid-utf8' = 'replace': invalid bytes become U+FFFD. If it is in another encoding (Latin-1, Windows-1252, Mac Roman), convert it to UTF-8 for the right characters.", de.Line, strings.SplitN(de.Msg, " (", 2)[0])
		case !r.hasOption("csv.ignore-parse-errors"):
			r.setOption("csv.ignore-parse-errors", "true")
			r.note("Some records are malformed (line %d: %s). With 'csv.ignore-parse-errors' = 'true', records with too many fields or broken quoting are skipped and short records are padded with NULLs.", de.Line, de.Msg)
		default:
			return nil, err
		}
	}
	if ncols == 1 && r.Skipped > 0 {
		return nil, fmt.Errorf("%w: %s does not look like a table: its lines have different numbers of fields with every delimiter tried (comma, tab, semicolon, bar)", ErrUnsupported, path)
	}
	if r.Records == 0 {
		if r.Skipped > 0 {
			return nil, fmt.Errorf("%w: %s has a header but every data record is malformed (%d skipped; they have more fields than the header's %d)", ErrUnsupported, path, r.Skipped, ncols)
		}
		return nil, fmt.Errorf("%w: %s has a header but no data records", ErrUnsupported, path)
	}
	if r.Skipped > 0 {
		r.note("%d malformed record(s) are skipped.", r.Skipped)
	}
	if !r.Complete {
		r.note("Types were inferred from the first %d records (%d MB of the file).", r.Records, opts.MaxBytes>>20)
	}
	r.Columns = make([]Column, ncols)
	for i := range names {
		c := Column{Name: names[i], Nulls: stats[i].empty, Example: stats[i].example}
		if r.Header && i < len(first) {
			c.Header = first[i]
		}
		c.Type, c.Note = stats[i].csvType()
		r.Columns[i] = c
	}
	// Pass 2: read the file with the proposed types; a column whose values
	// the decoder rejects falls back to STRING.
	if err := r.verify(opts); err != nil {
		return nil, err
	}
	r.rowtimeFromStats(stats)
	return r, nil
}

func (r *Result) hasOption(k string) bool { _, ok := r.Option(k); return ok }

// verify decodes the sample with the proposed types, demoting columns the
// decoder rejects to STRING.
func (r *Result) verify(opts Options) error {
	names := make([]string, len(r.Columns))
	for i, c := range r.Columns {
		names[i] = c.Name
	}
	for range len(r.Columns) + 1 {
		ts := make([]*types.DataType, len(r.Columns))
		for i, c := range r.Columns {
			ts[i] = c.Type
		}
		var err error
		if r.Format == "csv" {
			_, _, _, err = r.decodeCSV(names, ts, opts, nil)
		} else {
			_, _, err = r.decodeJSON(names, ts, opts, nil)
		}
		if err == nil {
			return nil
		}
		var de *connector.DataError
		if !errors.As(err, &de) {
			return err
		}
		i := columnOf(r.Columns, de)
		if i < 0 || r.Columns[i].Type.IsString() {
			return fmt.Errorf("the proposed table does not read %s: %w", r.Path, err)
		}
		r.note("Column %s was read as %s from the sample, but line %d has a value that is not (%s): it is STRING.", r.Columns[i].Name, r.Columns[i].Type, de.Line, de.Msg)
		r.Columns[i].Type = types.StringType()
		r.Columns[i].Note = ""
	}
	return fmt.Errorf("the proposed table does not read %s", r.Path)
}

// columnOf finds the column a decoder error names (nested JSON fields
// name their top-level column first).
func columnOf(cols []Column, de *connector.DataError) int {
	field := de.Field
	for i, c := range cols {
		if c.Name == field || strings.HasPrefix(field, c.Name+".") {
			return i
		}
	}
	return -1
}

// decodeCSV reads up to opts.MaxBytes of the file with the engine's csv
// decoder and the result's options.
func (r *Result) decodeCSV(names []string, ts []*types.DataType, opts Options, fn func(*types.Batch)) (n int64, complete bool, skipped int64, err error) {
	fo := map[string]string{}
	for _, o := range r.Options {
		if strings.HasPrefix(o.Key, "csv.") {
			fo[strings.TrimPrefix(o.Key, "csv.")] = o.Value
		}
	}
	po, err := csv.ParseOptions(fo)
	if err != nil {
		return 0, false, 0, err
	}
	proj := make([]int, len(names))
	for i := range proj {
		proj[i] = i
	}
	dec, err := csv.NewDecoder(po, names, ts, proj)
	if err != nil {
		return 0, false, 0, err
	}
	f, err := os.Open(r.Path)
	if err != nil {
		return 0, false, 0, err
	}
	defer f.Close()
	in, complete, err := limited(f, opts.MaxBytes)
	if err != nil {
		return 0, false, 0, err
	}
	br := dec.NewReader(in, r.Path, 0)
	for {
		b, err := br.Next()
		if err == io.EOF {
			return n, complete, br.SkippedRows(), nil
		}
		if err != nil {
			return n, complete, 0, err
		}
		n += int64(b.Len)
		if fn != nil {
			fn(b)
		}
	}
}

// limited returns the file, or its first max bytes cut after the last
// line break, and whether that is the whole file.
func limited(f *os.File, max int64) (io.Reader, bool, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if st.Size() <= max {
		return f, true, nil
	}
	buf := make([]byte, max)
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, false, err
	}
	if i := bytes.LastIndexByte(buf, '\n'); i > 0 {
		buf = buf[:i+1]
	}
	return bytes.NewReader(buf), false, nil
}

// csvType chooses the column type from the value statistics.
func (s *textStats) csvType() (*types.DataType, string) {
	vals := s.n - s.empty
	switch {
	case vals == 0:
		return types.StringType(), "always empty: STRING"
	case s.boolOK:
		return types.BooleanType(), ""
	case s.intOK && !s.leadingZero:
		if s.bigInt {
			return types.BigIntType(), "integers beyond 2^53: BIGINT keeps them exact (DOUBLE would round them)"
		}
		return types.BigIntType(), ""
	case s.numOK && !s.leadingZero:
		if !s.hasExp && len(s.scales) == 1 {
			for scale := range s.scales {
				if scale >= 1 && scale <= 2 {
					p := max(10, s.intDigits+scale+2)
					return types.DecimalType(min(p, types.MaxDecimalPrecision), scale), fmt.Sprintf("every value has %d decimal place(s): DECIMAL keeps them exact", scale)
				}
			}
		}
		return types.DoubleType(), ""
	case s.dateOK:
		return types.DateType(), ""
	case s.tsOK:
		return types.TimestampType(s.tsPrec), ""
	case s.ltzOK:
		return types.TimestampLTZType(s.tsPrec), "timestamps with a trailing Z (UTC): TIMESTAMP_LTZ"
	case s.isoOK || s.isoZOK:
		return types.StringType(), "ISO-8601 timestamps with 'T': the csv format reads 'yyyy-MM-dd HH:mm:ss', so they stay STRING (convert them in a query)"
	case s.otherTime != "":
		return types.StringType(), fmt.Sprintf("timestamps written %s: the csv format reads 'yyyy-MM-dd HH:mm:ss', so they stay STRING (convert them in a query)", s.otherTime)
	case s.intOK || s.numOK:
		return types.StringType(), "numbers with leading zeros (codes): STRING keeps the zeros"
	}
	if nn := s.nullLikes(); nn != "" {
		return types.StringType(), fmt.Sprintf("numbers mixed with %s: STRING keeps them as text; set 'csv.null-literal' to read them as NULL", nn)
	}
	return types.StringType(), ""
}

// nullLikes lists the non-numeric values of a mostly numeric column when
// they are few (NA, N/A, -), or "".
func (s *textStats) nullLikes() string {
	if s.numeric == 0 || len(s.nonNumeric) == 0 || len(s.nonNumeric) > 3 || s.nonNumeric["\x00more"] > 0 {
		return ""
	}
	var vals []string
	var count int64
	for v, n := range s.nonNumeric {
		vals = append(vals, "'"+v+"'")
		count += n
	}
	if count >= s.numeric {
		return "" // not a few odd values: a text column
	}
	sort.Strings(vals)
	return strings.Join(vals, ", ")
}

// sniffDelimiter splits the head of the file with each candidate and picks
// the delimiter that gives a consistent field count above 1.
func sniffDelimiter(head []byte, all bool) (byte, [][]string) {
	best, bestScore := byte(','), -1.0
	var bestRecs [][]string
	for _, d := range delimiters {
		recs := splitRecords(head, d, 200, all)
		if len(recs) == 0 {
			continue
		}
		counts := map[int]int{}
		for _, r := range recs {
			counts[len(r)]++
		}
		mode, modeN := 0, 0
		for k, n := range counts {
			if n > modeN || (n == modeN && k > mode) {
				mode, modeN = k, n
			}
		}
		score := 0.0
		if mode > 1 {
			score = float64(modeN)/float64(len(recs))*1000 + float64(min(mode, 100))
		}
		if score > bestScore {
			best, bestScore, bestRecs = d, score, recs
		}
	}
	return best, bestRecs
}

// splitRecords splits CSV text into records with the engine's rules
// (quotes '"', records end at LF, CRLF or a lone CR, blank lines are
// skipped). When the text is not the whole file the last, possibly cut,
// record is dropped.
func splitRecords(text []byte, delim byte, max int, all bool) [][]string {
	var recs [][]string
	var rec []string
	var field []byte
	inQuotes, quoted, blank := false, false, true
	endRecord := func() {
		if blank && len(rec) == 0 && len(field) == 0 && !quoted {
			return
		}
		rec = append(rec, string(field))
		recs = append(recs, rec)
		rec, field, quoted, blank = nil, nil, false, true
	}
	for i := 0; i < len(text) && len(recs) < max; i++ {
		c := text[i]
		if inQuotes {
			if c == '"' {
				if i+1 < len(text) && text[i+1] == '"' {
					field = append(field, '"')
					i++
				} else {
					inQuotes = false
				}
			} else {
				field = append(field, c)
			}
			continue
		}
		switch c {
		case '"':
			if len(field) == 0 {
				inQuotes, quoted, blank = true, true, false
			} else {
				field = append(field, c)
			}
		case delim:
			rec = append(rec, string(field))
			field, quoted, blank = nil, false, false
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			endRecord()
		case '\n':
			endRecord()
		default:
			field = append(field, c)
			blank = false
		}
	}
	if len(recs) < max && (len(rec) > 0 || len(field) > 0) {
		if all && !inQuotes {
			endRecord()
		}
	}
	return recs
}

// modeCount is the most common field count of the records.
func modeCount(recs [][]string) int {
	counts := map[int]int{}
	mode := 0
	for _, r := range recs {
		counts[len(r)]++
		if counts[len(r)] > counts[mode] || (counts[len(r)] == counts[mode] && len(r) > mode) {
			mode = len(r)
		}
	}
	return mode
}

// looksLikeHeader votes per column: a typed column (numbers, dates,
// booleans in the rows below) whose first value is not of that type votes
// for a header; one whose first value is votes against. Without typed
// columns the first line is a header unless it repeats a later value in
// every column.
func looksLikeHeader(first []string, rest [][]string) bool {
	if len(rest) == 0 {
		// a single line: a header unless it is all numbers
		for _, f := range first {
			if !isDecimal(strings.TrimSpace(f)) {
				return true
			}
		}
		return false
	}
	votes := 0
	for j, h := range first {
		s := newTextStats()
		for _, r := range rest {
			if j < len(r) {
				s.add(r[j])
			}
		}
		if s.n-s.empty == 0 {
			continue
		}
		typed, t := false, types.StringType()
		if ct, _ := s.csvType(); !ct.IsString() {
			typed, t = true, ct
		}
		if !typed {
			continue
		}
		hs := newTextStats()
		hs.add(h)
		ht, _ := hs.csvType()
		if h == "" || !sameKind(ht, t) {
			votes++
		} else {
			votes--
		}
	}
	return votes >= 0
}

func sameKind(a, b *types.DataType) bool {
	if a.IsNumeric() && b.IsNumeric() {
		return true
	}
	return a.Root == b.Root
}

// cleanName replaces each run of control characters and line breaks
// (with the spaces around them) by one space and trims the ends.
func cleanName(h string) string {
	h = strings.TrimPrefix(h, "\ufeff")
	var b strings.Builder
	pending := false // a control run is open
	var spaces strings.Builder
	for _, c := range h {
		switch {
		case c < 0x20 || c == 0x7f:
			pending = true
			spaces.Reset()
		case c == ' ':
			spaces.WriteRune(c)
		default:
			if pending {
				b.WriteByte(' ')
				pending = false
				spaces.Reset()
			} else {
				b.WriteString(spaces.String())
				spaces.Reset()
			}
			b.WriteRune(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// cleanNames turns header fields into column names: control characters
// and line breaks become spaces, surrounding space is trimmed, empty names
// become column_N and duplicates get a _2, _3 suffix.
func cleanNames(header []string, r *Result) []string {
	out := make([]string, len(header))
	used := map[string]bool{}
	for i, h := range header {
		name := cleanName(h)
		if name != h && name != "" {
			r.note("Header field %d %q contains line breaks or control characters: the column is named %q.", i+1, h, name)
		}
		if name == "" {
			name = "column_" + strconv.Itoa(i+1)
			r.note("Header field %d is empty: the column is named %s.", i+1, name)
		}
		if used[name] {
			base := name
			for k := 2; used[name]; k++ {
				name = base + "_" + strconv.Itoa(k)
			}
			r.note("The header names %q twice: the second column is named %q.", base, name)
		}
		used[name] = true
		out[i] = name
	}
	return out
}
