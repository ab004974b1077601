package table

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
	"golang.org/x/text/width"
)

// The tableau layout of Flink's SQL Client: right-aligned cells, "<NULL>"
// for NULL, values longer than the maximum column width (default 30)
// truncated with "...". Streaming query results start with an "op" column
// and are printed as they arrive with widths derived from the column types,
// ending with "Received a total of N rows"; other results are buffered,
// sized to their content and end with "N rows in set" (or "Empty set").

// TableauOptions controls PrintTableau.
type TableauOptions struct {
	// Streaming prints a streaming query's changelog: an "op" column with
	// each row's RowKind, widths derived from the column types, rows
	// written as they arrive and the footer "Received a total of N rows".
	// Otherwise rows are buffered, columns sized to their content, and the
	// footer is "N rows in set" (or "Empty set").
	Streaming bool
	// MaxColumnWidth truncates longer values with "..."
	// (sql-client.display.max-column-width); 0 means 30, and 1 or 2 act
	// as 3, the width of "...".
	MaxColumnWidth int
	// Zone renders TIMESTAMP_LTZ values (table.local-time-zone); nil means
	// time.Local.
	Zone *time.Location
	// NullAsEmpty prints NULL as an empty cell instead of "<NULL>", as
	// Flink's SQL Client does for results that are not queries (DESCRIBE,
	// SHOW COLUMNS, DESCRIBE CATALOG: TableauStyle's printNullAsEmpty).
	NullAsEmpty bool
}

// PrintTableau writes rows in the tableau layout of Flink's SQL Client. It
// reads rows until the end (or an error) but does not close them.
func PrintTableau(w io.Writer, schema *TableSchema, rows Rows, opts TableauOptions) error {
	mw := opts.MaxColumnWidth
	if mw <= 0 {
		mw = 30
	}
	// a value cut to fit ends in "...", so a column that cuts one is at
	// least that wide: Flink's TableauStyle writes "..." into a column of
	// width 1 or 2 and so shifts that row's borders past the others'
	mw = max(mw, len(truncatedFlag))
	zone := opts.Zone
	if zone == nil {
		zone = time.Local
	}
	names := make([]string, len(schema.names))
	for i, n := range schema.names {
		names[i] = validText(n)
	}
	p := &tableauPrinter{names: names, types: schema.types, streaming: opts.Streaming, maxWidth: mw, zone: zone, nullAsEmpty: opts.NullAsEmpty}
	return p.print(w, rows)
}

type tableauPrinter struct {
	names       []string
	types       []*types.DataType
	streaming   bool
	maxWidth    int
	zone        *time.Location
	nullAsEmpty bool
}

// FormatCell renders one value as the SQL Client shows it (NULL as
// "<NULL>"). The text is valid UTF-8: each byte of a string (or of a
// string inside an ARRAY, MAP or ROW) that is not part of a UTF-8 sequence
// is shown as U+FFFD, as --format csv and json and the gateway's JSON
// write it, and as Flink shows the Java string it decoded from such bytes.
func FormatCell(v any, t *types.DataType, zone *time.Location) string {
	if v == nil {
		return "<NULL>"
	}
	return validText(expr.FormatSQL(v, t, zone))
}

// validText returns s with each byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD (one for each byte, as encoding/json and
// the CSV writers do; strings.ToValidUTF8 would replace a run by one); s
// itself when it is valid.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func (p *tableauPrinter) cell(v any, t *types.DataType) string {
	if v == nil && p.nullAsEmpty {
		return ""
	}
	return FormatCell(v, t, p.zone)
}

// fit cuts a cell that is wider than its column to the column's width,
// ending in "..." (Flink's TableauStyle.printTableauRow): only variable
// width columns (strings, DOUBLE, arrays, ...) can be narrower than their
// values, a TIMESTAMP or BOOLEAN column is as wide as its type needs.
func fit(s string, width int) string {
	if DisplayWidth(s) > width {
		return truncateToWidth(s, max(width-len(truncatedFlag), 0)) + truncatedFlag
	}
	return s
}

// truncatedFlag ends a cut cell (TableauStyle's COLUMN_TRUNCATED_FLAG).
const truncatedFlag = "..."

// DisplayWidth is the number of terminal columns a string takes, as
// Flink's TableauStyle.getStringDisplayWidth counts them: East Asian wide
// and full-width characters (Unicode's East_Asian_Width W and F) take two,
// every other character one.
func DisplayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// truncateToWidth keeps the longest prefix of s that fits in w columns,
// padded on the left to exactly w columns when a wide character did not
// fit (Flink's TableauStyle.truncateString).
func truncateToWidth(s string, w int) string {
	used, end := 0, 0
	for end < len(s) {
		// the byte length of what was read, not of the rune: an invalid
		// byte reads as U+FFFD (3 bytes) but is one
		r, n := utf8.DecodeRuneInString(s[end:])
		rw := runeWidth(r)
		if used+rw > w {
			break
		}
		used += rw
		end += n
	}
	return strings.Repeat(" ", w-used) + s[:end]
}

// StreamingColumnWidthBound caps the width streaming output gives a
// column of a variable-width type (strings, DOUBLE, arrays, ...), which
// Flink sizes at the maximum column width: a width of 2^31 - 1, which
// users set to mean "never cut", would pad every row to gigabytes (Flink's
// TableauStyle overflows the int it adds the border to). 1,024 columns are
// wider than any terminal line (a 3840-pixel 4K screen at a 6-pixel font
// cell shows 640). The bound only pads: values are cut at the maximum
// column width, so a longer one is shown whole and shifts its row's
// borders past the others'.
const StreamingColumnWidthBound = 1024

// typeWidth is the display width Flink derives from a type for streaming
// output (TableauStyle.columnWidthsByType): variable-width types get the
// maximum column width (at most StreamingColumnWidthBound), and every
// column is at least as wide as "<NULL>" unless NULL prints empty.
func typeWidth(t *types.DataType, maxWidth int, nullAsEmpty bool) int {
	w := fixedTypeWidth(t, min(maxWidth, StreamingColumnWidthBound))
	if !nullAsEmpty {
		w = max(w, len("<NULL>"))
	}
	return w
}

func fixedTypeWidth(t *types.DataType, maxWidth int) int {
	switch t.Root {
	case types.Boolean:
		return 5
	case types.TinyInt:
		return 4
	case types.SmallInt:
		return 6
	case types.Integer:
		return 11
	case types.BigInt:
		return 20
	case types.DecimalRoot:
		return t.Precision + 2
	case types.DateRoot:
		return 10
	case types.TimeRoot:
		if t.Precision > 0 {
			return 9 + t.Precision
		}
		return 8
	case types.TimestampRoot, types.TimestampLTZRoot:
		// yyyy-MM-dd HH:mm:ss, then the fraction in steps of 3 digits
		switch {
		case t.Precision == 0:
			return 19
		case t.Precision <= 3:
			return 23
		case t.Precision <= 6:
			return 26
		}
		return 29
	}
	return maxWidth
}

func (p *tableauPrinter) print(w io.Writer, it Rows) error {
	names := p.names
	ts := p.types
	if p.streaming {
		widths := make([]int, len(names)+1)
		widths[0] = 2
		// cuts are the widths values are cut at: a column's width, or the
		// maximum width where StreamingColumnWidthBound narrowed it
		cuts := make([]int, len(names)+1)
		cuts[0] = 2
		for i, n := range names {
			widths[i+1] = max(typeWidth(ts[i], p.maxWidth, p.nullAsEmpty), DisplayWidth(n))
			cuts[i+1] = widths[i+1]
			if p.maxWidth > StreamingColumnWidthBound && fixedTypeWidth(ts[i], p.maxWidth) == p.maxWidth {
				cuts[i+1] = max(widths[i+1], p.maxWidth)
			}
		}
		sep := separator(widths)
		header := append([]string{"op"}, names...)
		if _, err := fmt.Fprint(w, sep+line(widths, header)+sep); err != nil {
			return err
		}
		n := 0
		for it.Next() {
			r := it.Row()
			cells := make([]string, len(names)+1)
			cells[0] = r.Kind.ShortString()
			for i, v := range r.Values {
				cells[i+1] = fit(p.cell(v, ts[i]), cuts[i+1])
			}
			if _, err := fmt.Fprint(w, line(widths, cells)); err != nil {
				return err
			}
			n++
		}
		if err := it.Err(); err != nil {
			if n > 0 {
				fmt.Fprint(w, sep)
			}
			return &PrintInterruptedError{Rows: n, Err: err}
		}
		_, err := fmt.Fprintf(w, "%sReceived a total of %d %s\n", sep, n, plural(n, "row", "rows"))
		return err
	}
	var rows [][]string
	for it.Next() {
		r := it.Row()
		cells := make([]string, len(names))
		for i, v := range r.Values {
			cells[i] = p.cell(v, ts[i])
		}
		rows = append(rows, cells)
	}
	if err := it.Err(); err != nil {
		return err
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "Empty set")
		return err
	}
	widths := make([]int, len(names))
	for i, n := range names {
		widths[i] = DisplayWidth(n)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], DisplayWidth(c))
		}
	}
	// Flink's columnWidthsByContent caps every column, names included, at
	// the maximum width
	for i := range widths {
		widths[i] = min(widths[i], p.maxWidth)
	}
	fitAll := func(cells []string) []string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = fit(c, widths[i])
		}
		return out
	}
	sep := separator(widths)
	var b strings.Builder
	b.WriteString(sep)
	b.WriteString(line(widths, fitAll(names)))
	b.WriteString(sep)
	for _, r := range rows {
		b.WriteString(line(widths, fitAll(r)))
	}
	b.WriteString(sep)
	fmt.Fprintf(&b, "%d %s in set\n", len(rows), plural(len(rows), "row", "rows"))
	_, err := io.WriteString(w, b.String())
	return err
}

// plural follows Flink's PrintUtils: "row" unless more than one.
func plural(n int, one, many string) string {
	if n > 1 {
		return many
	}
	return one
}

func separator(widths []int) string {
	var b strings.Builder
	b.WriteByte('+')
	for _, w := range widths {
		b.WriteString(strings.Repeat("-", w+2))
		b.WriteByte('+')
	}
	b.WriteByte('\n')
	return b.String()
}

func line(widths []int, cells []string) string {
	var b strings.Builder
	b.WriteByte('|')
	for i, c := range cells {
		pad := widths[i] - DisplayWidth(c)
		b.WriteByte(' ')
		if pad > 0 {
			b.WriteString(strings.Repeat(" ", pad))
		}
		b.WriteString(c)
		b.WriteString(" |")
	}
	b.WriteByte('\n')
	return b.String()
}
