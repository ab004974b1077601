package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// Format says what it did: a parse error leaves the text as it is, marks
// it and shows Messages with the line and column; a formatted statement
// keeps its comments and the status says which lines changed.
func TestFormatSaysWhatItDid(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.wb.closeCompletion()
	broken := "SELECT 1;\nselect a from t where (a > ;\n"
	tab.ed.SetText(broken)
	tab.ed.SetCursor(1, 5)
	h.wb.bottom.Select(h.wb.history.Item())
	h.wb.formatCurrent()
	if tab.ed.Text() != broken {
		t.Errorf("text changed: %q", tab.ed.Text())
	}
	if h.wb.bottom.Selected() != h.wb.messages.item {
		t.Error("Messages is not shown")
	}
	if msg := h.messages(); !strings.Contains(msg, "Format: the SQL does not parse, so it was left as it is") || !strings.Contains(msg, "line 2, column 27") {
		t.Errorf("messages:\n%s", msg)
	}
	if got := h.wb.statusLeft.Text; !strings.HasPrefix(got, "Not formatted: ") {
		t.Errorf("status %q", got)
	}

	tab.ed.SetText("SELECT 1;\nselect origin, -- where from\n  count(*) from flights group by origin;\n")
	tab.ed.SetCursor(1, 3)
	h.wb.formatCurrent()
	want := "SELECT 1;\nSELECT\n  origin, -- where from\n  count(*)\nFROM flights\nGROUP BY origin;\n"
	if got := tab.ed.Text(); got != want {
		t.Errorf("formatted %q, want %q", got, want)
	}
	if got := h.wb.statusLeft.Text; got != "Formatted the statement (lines 2–6); Ctrl+Z undoes it" {
		t.Errorf("status %q", got)
	}
	h.wb.formatCurrent()
	if got := h.wb.statusLeft.Text; got != "Already formatted: the statement is unchanged" {
		t.Errorf("status after a second Format %q", got)
	}
}

// Moving the cursor and selecting another tab, without editing, is saved:
// reopening the workspace selects that tab and puts the cursor back, in
// view.
func TestCursorAndSelectedTabAreSavedWithoutEdits(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	lines := make([]string, 300)
	for i := range lines {
		lines[i] = fmt.Sprintf("SELECT %d;", i)
	}
	long := h.wb.editors.newTab("Long", strings.Join(lines, "\n"))
	h.close()

	h = open(t, path)
	long = h.wb.editors.list[5]
	h.wb.editors.tabs.Select(long.item)
	long.ed.SetCursor(250, 3) // no edit
	h.wb.editors.tabs.Select(h.wb.editors.list[1].item)
	h.wb.editors.list[1].ed.SetCursor(2, 4)
	h.close()

	h = open(t, path)
	defer h.close()
	if cur := h.tab(); cur.title != "Flights by hour" {
		t.Errorf("selected tab %q", cur.title)
	} else if l, c := cur.ed.CursorPosition(); l != 2 || c != 4 {
		t.Errorf("cursor of %q at %d:%d, want 2:4", cur.title, l, c)
	}
	long = h.wb.editors.list[5]
	if l, c := long.ed.CursorPosition(); l != 250 || c != 3 {
		t.Errorf("cursor of Long at %d:%d, want 250:3", l, c)
	}
	h.wb.editors.tabs.Select(long.item)
	h.w.Resize(fyne.NewSize(1400, 901)) // lay the tab out
	// The editor pane (half of 900 px) shows fewer than 40 lines.
	if top := long.ed.FirstVisibleLine(); top > 250 || 250-top >= 40 {
		t.Errorf("line 250 not in view: the first visible line is %d", top)
	}
}
