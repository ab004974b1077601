package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Esc cancels a background sort while the focus is in the editor (as it
// is after clicking a header), as the status bar's "Esc cancels" says;
// the finished query it sorted is left alone.
func TestEscInTheEditorCancelsASort(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("SELECT * FROM (VALUES (3, 'c'), (1, 'a'), (2, 'b')) AS t(n, s)")
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	g := rt.Grid()
	g.SetAsyncSortRows(2)
	arrival := strings.Join(rows(g), ",")
	entered, release := heldSort(rt)
	g.HeaderTapped(1)
	<-entered
	h.w.Canvas().Focus(tab.ed)
	if !h.wb.globalShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEscape}) {
		t.Fatal("Esc was not taken")
	}
	close(release)
	h.until("the sort cancelled by Esc to end", func() bool { return !g.Sorting() })
	if got := strings.Join(rows(g), ","); got != arrival {
		t.Errorf("after Esc the rows are %q, want %q", got, arrival)
	}
	if s := h.wb.statusLeft.Text; s != "Sort cancelled: the previous order is kept" {
		t.Errorf("status %q", s)
	}
}
