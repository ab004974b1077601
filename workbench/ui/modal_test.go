package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// menuItem finds a main-menu item by label.
func menuItem(t *testing.T, w fyne.Window, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no menu item %q", label)
	return nil
}

// Esc with a dialog open closes the dialog and leaves the running query
// alone; the window's shortcuts wait behind the dialog.
func TestEscClosesTheDialogNotTheQuery(t *testing.T) {
	h := newHarness(t)
	queryTab := h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Grid().Total() > 0 })

	h.wb.closeCompletion() // typing opened it
	c := h.w.Canvas()
	if top := c.Overlays().Top(); top != nil {
		t.Fatalf("an overlay before the dialog: %T", top)
	}
	h.wb.showInitScriptDialog()
	if c.Overlays().Top() == nil {
		t.Fatal("no dialog shown")
	}
	tabs := len(h.wb.editors.tabs.Items)
	menuItem(t, h.w, "New tab").Action() // Ctrl+T reaches the menu first
	if got := len(h.wb.editors.tabs.Items); got != tabs {
		t.Errorf("Ctrl+T behind a dialog opened a tab: %d tabs, was %d", got, tabs)
	}
	if h.wb.globalShortcut(ctrl(fyne.KeyE)) {
		t.Error("Ctrl+E handled behind a dialog")
	}

	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.q.drain()
	if top := c.Overlays().Top(); top != nil {
		t.Errorf("dialog still open after Esc: %T", top)
	}
	if rt.Canceled() || rt.State() != resulttab.Running {
		t.Errorf("Esc in a dialog stopped the query: state %s", rt.State())
	}

	menuItem(t, h.w, "New tab").Action()
	if got := len(h.wb.editors.tabs.Items); got != tabs+1 {
		t.Errorf("Ctrl+T without a dialog: %d tabs, want %d", got, tabs+1)
	}
	// no dialog: Esc stops the queries of the editor tab in front (the new
	// tab has none, so the query's tab is brought back first)
	h.wb.editors.tabs.Select(queryTab.item)
	h.q.drain()
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("Canceled", func() bool { return rt.State() == resulttab.Canceled })
}

// A dialog offering only real choices is not closed by Esc; a popup
// without buttons is.
func TestEscLeavesAChoiceDialogAndHidesAPopover(t *testing.T) {
	h := newHarness(t)
	c := h.w.Canvas()
	quit := false
	choice := widget.NewModalPopUp(widget.NewButton("Quit", func() { quit = true }), c)
	choice.Show()
	if !h.wb.dismissOverlay() || c.Overlays().Top() != choice || quit {
		t.Errorf("Esc on a choice dialog: top %T, quit %v", c.Overlays().Top(), quit)
	}
	choice.Hide()
	pop := widget.NewPopUp(widget.NewLabel("details"), c)
	pop.Show()
	h.wb.dismissOverlay()
	if c.Overlays().Top() != nil {
		t.Error("popover still shown after Esc")
	}
	if h.wb.dismissOverlay() {
		t.Error("dismissOverlay with nothing open reported something")
	}
}

// A function's signature in the completion list keeps its underscores:
// it is drawn in the proportional font, as the monospace one at caption
// size dropped "_" under Xvfb ("DATE FORMAT(…)").
func TestCompletionSignatureIsLiteral(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.w.Canvas().Focus(tab.ed)
	h.typeKeys("SELECT DATE_FOR")
	p := h.popup()
	for _, r := range p.Rows() {
		if r.Label() == "DATE_FORMAT" {
			if !strings.HasPrefix(r.DetailText().Text, "DATE_FORMAT(") || r.DetailText().TextStyle.Monospace {
				t.Errorf("detail %q, monospace %v", r.DetailText().Text, r.DetailText().TextStyle.Monospace)
			}
			return
		}
	}
	t.Errorf("DATE_FORMAT not offered: %v", p.Result().Items)
}

// A finished streaming Top-N shows its rows in the query's order (the
// changelog leaves them in change order) and says so.
func TestFinishedTopNIsShownInItsOrder(t *testing.T) {
	h := newHarness(t)
	h.newTab(`SET 'execution.runtime-mode' = 'streaming';
SELECT id, delay FROM (VALUES (1, 5), (2, 9), (3, 1), (4, 7)) AS t(id, delay) ORDER BY delay DESC LIMIT 3;`)
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	h.waitDone(rt)
	h.settle()
	if got, want := rows(rt.Grid()), []string{"2 | 9", "4 | 7", "1 | 5"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if col, desc := rt.Grid().SortColumn(); col != 1 || !desc { // the delay column, descending
		t.Errorf("grid sort column %d desc %v", col, desc)
	}
	if m := h.messages(); !strings.Contains(m, "sorted by delay DESC") {
		t.Errorf("messages:\n%s", m)
	}
	if _, _, _, ok := querySort("SELECT id FROM t ORDER BY id", []results.Column{{Name: "id"}}); ok {
		t.Error("ORDER BY without LIMIT sorted")
	}
	if col, desc, _, ok := querySort("SELECT a, b FROM t ORDER BY 2 LIMIT 5", []results.Column{{Name: "a"}, {Name: "b"}}); !ok || col != 1 || desc {
		t.Errorf("ORDER BY 2: %d %v %v", col, desc, ok)
	}
}
