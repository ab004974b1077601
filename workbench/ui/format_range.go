package ui

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/workbench/authoring"
)

// formatRange is Ctrl+Shift+F (and Run ▸ Format SQL, the Format button):
// the selection, or else the statement under the cursor, pretty-printed
// in one undo step (authoring.FormatRange: the meaning never changes).
// Text that does not parse is left alone and the error is marked.
func (wb *Workbench) formatRange(t *editorTab) {
	wb.closeCompletion()
	s, e, _ := t.ed.Selection()
	text := t.ed.Text()
	start, end, out, err := authoring.FormatRange(text, s, e, t.ed.CursorOffset())
	if err != nil {
		var loc *msgLoc
		if line, col, ok := errPos(err); ok {
			t.ed.SetErrorMarker(line-1, col-1, err.Error())
			loc = &msgLoc{tab: t, line: line, col: col}
		}
		where := ""
		if loc != nil && !strings.Contains(err.Error(), fmt.Sprintf("line %d, column %d", loc.line, loc.col)) {
			where = fmt.Sprintf(" (line %d, column %d)", loc.line, loc.col)
		}
		wb.messages.add(levelError, "Format: the SQL does not parse, so it was left as it is"+where+":\n"+err.Error(), loc)
		wb.showPanel(wb.messages.item)
		wb.setStatus("Not formatted: " + firstLine(err.Error()))
		return
	}
	if start == end && out == "" {
		wb.setStatus("Nothing to format here: put the cursor in a statement or select some SQL")
		return
	}
	what := "the statement"
	if s != e {
		what = "the selection"
	}
	if text[start:end] != out {
		t.ed.ReplaceRange(start, end, out)
		first, last := lineOf(t.ed.Text(), start), lineOf(t.ed.Text(), start+len(out))
		wb.setStatus(fmt.Sprintf("Formatted %s (lines %d–%d); Ctrl+Z undoes it", what, first, last))
	} else {
		wb.setStatus(fmt.Sprintf("Already formatted: %s is unchanged", what))
	}
	wb.flash(t, start, start+len(out)) // show what was formatted
}

// lineOf is the 1-based line of byte offset off of text.
func lineOf(text string, off int) int {
	return 1 + strings.Count(text[:max(0, min(off, len(text)))], "\n")
}
