package authoring

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// FormatRange is the editor's Ctrl+Shift+F: it formats the selection
// [selStart, selEnd) of script when it is not empty, else the statement
// under the cursor, with sql.FormatSQL. It returns the byte range to
// replace and its new text. Formatting never changes meaning: the result
// parses to the same statements (FormatSQL's guarantee, which the tests
// check on the parser's corpus). A statement's terminating ";" is left as
// it was: a selection without a final ";" gets none. The error is the
// parser's (*sql.Error, with positions in the whole script) when the text
// does not parse; nothing is to be replaced then.
func FormatRange(script string, selStart, selEnd, cursor int) (start, end int, text string, err error) {
	if selStart > selEnd {
		selStart, selEnd = selEnd, selStart
	}
	selStart = max(0, min(selStart, len(script)))
	selEnd = max(0, min(selEnd, len(script)))
	if selStart < selEnd && strings.TrimSpace(script[selStart:selEnd]) != "" {
		piece := script[selStart:selEnd]
		// report errors with positions in the whole script
		for _, sp := range sql.SplitStatements(piece) {
			at := posAt(script, selStart+sp.Start.Offset)
			if _, err := sql.ParseAt(sp.Text, at); err != nil {
				return 0, 0, "", err
			}
		}
		out, err := sql.FormatSQL(piece)
		if err != nil {
			return 0, 0, "", err
		}
		trimmed := strings.TrimRight(piece, " \t\r\n")
		if !strings.HasSuffix(trimmed, ";") {
			out = strings.TrimSuffix(out, "\n")
			out = strings.TrimSuffix(out, ";")
		} else {
			out = strings.TrimSuffix(out, "\n")
		}
		// keep the whitespace around the selection
		lead := piece[:len(piece)-len(strings.TrimLeft(piece, " \t\r\n"))]
		trail := piece[len(trimmed):]
		return selStart, selEnd, lead + out + trail, nil
	}
	sp, ok := sql.StatementAt(script, cursor)
	if !ok {
		return cursor, cursor, "", nil
	}
	if _, err := sp.Parse(); err != nil {
		return 0, 0, "", err
	}
	out, err := sql.FormatSQL(sp.Text)
	if err != nil {
		return 0, 0, "", err
	}
	return sp.Start.Offset, sp.End, strings.TrimSuffix(out, ";\n"), nil
}

// posAt computes the line and column of a byte offset.
func posAt(s string, off int) sql.Pos {
	p := sql.Pos{Line: 1, Column: 1, Offset: off}
	for _, r := range s[:off] {
		if r == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
	}
	return p
}
