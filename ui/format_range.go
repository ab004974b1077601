package ui

import (
	"github.com/riffle-sql/riffle/authoring"
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
		wb.messages.add(levelError, "Format: "+err.Error(), loc)
		wb.setStatus("Format: " + firstLine(err.Error()))
		return
	}
	if start == end && out == "" {
		wb.setStatus("Nothing to format here")
		return
	}
	if text[start:end] != out {
		t.ed.ReplaceRange(start, end, out)
		wb.setStatus("Formatted")
	} else {
		wb.setStatus("Already formatted")
	}
}
