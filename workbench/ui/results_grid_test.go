package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// A click in the result grid gives it the keyboard: arrows move the
// selected cell, Shift+arrows and Shift+click extend the selection, Ctrl+C
// copies it as TSV.
func TestGridKeyboardAfterAClick(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT * FROM (VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)) AS t(n, s, x)")
	h.wb.closeCompletion() // opened by typing
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	c := h.w.Canvas()
	if c.Focused() == rt.Grid() {
		t.Fatal("the grid has the focus before any click")
	}
	desktopClick(c, cellCenter(t, rt.Grid(), widget.TableCellID{Row: 0, Col: 1}), 0)
	if c.Focused() != rt.Grid() {
		t.Fatalf("focus after a click in the grid: %T", c.Focused())
	}
	key := func(name fyne.KeyName) {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: name})
	}
	copied := func() string {
		cb := fyne.CurrentApp().Clipboard()
		cb.SetContent("")
		c.Focused().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutCopy{Clipboard: cb})
		return cb.Content()
	}
	if got := copied(); got != "1\n" {
		t.Errorf("Ctrl+C after the click copied %q", got)
	}
	key(fyne.KeyDown)
	key(fyne.KeyRight)
	if got := copied(); got != "b\n" {
		t.Errorf("after Down, Right: %q", got)
	}
	// Shift+Down, Shift+Right extend the selection from there.
	kb := c.Focused().(desktop.Keyable)
	kb.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	key(fyne.KeyDown)
	key(fyne.KeyRight)
	kb.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if got := copied(); got != "b\t20\nc\t30\n" {
		t.Errorf("after Shift+Down, Shift+Right: %q", got)
	}
	// Up without Shift collapses it to one cell again; Home goes to the
	// first column.
	key(fyne.KeyUp)
	key(fyne.KeyHome)
	if got := copied(); got != "2\n" {
		t.Errorf("after Up, Home: %q", got)
	}
	// Shift+click extends from the selected cell.
	desktopClick(c, cellCenter(t, rt.Grid(), widget.TableCellID{Row: 2, Col: 2}), fyne.KeyModifierShift)
	if got := copied(); got != "2\tb\n3\tc\n" {
		t.Errorf("after Shift+click: %q", got)
	}
	if !strings.Contains(rt.StatusLabel().Text, "2×2 selected") {
		t.Errorf("status %q", rt.StatusLabel().Text)
	}
}

// A paused result's status says so: the grid's counts stay as they were at
// the pause and the changes arriving meanwhile are counted apart; Resume
// catches up.
func TestPausedStatusSaysPausedAndCountsWhatItDoesNotShow(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Grid().Total() > 10 })
	rt.PauseButton().OnTapped()
	frame := rt.Grid().Total()
	rows := widgets.GroupDigits(frame) + " rows · paused: "
	if got := rt.StatusLabel().Text; !strings.HasPrefix(got, rows) {
		t.Fatalf("status right after Pause %q, want it to start %q", got, rows)
	}
	// The status keeps counting the changes it does not show, apart from
	// the frozen row count.
	var waiting int
	h.until("the status to count new changes", func() bool {
		h.wb.Tick()
		rt.UpdateStatus() // no 500 ms wait between status updates
		got := rt.StatusLabel().Text
		if !strings.HasPrefix(got, rows) {
			t.Fatalf("paused status %q, want it to start %q", got, rows)
		}
		_, err := fmt.Sscanf(strings.TrimPrefix(got, rows), "+%d changes not shown", &waiting)
		return err == nil && waiting > 50
	})
	if rt.Grid().Total() != frame {
		t.Errorf("paused grid moved: %d -> %d", frame, rt.Grid().Total())
	}
	rt.PauseButton().OnTapped()
	h.until("the grid to catch up", func() bool { return rt.Grid().Total() >= frame+waiting })
	if got := rt.StatusLabel().Text; strings.Contains(got, "paused") {
		t.Errorf("status after Resume %q", got)
	}
	rt.StopButton().OnTapped()
	h.waitDone(rt)
}

// Columns sized from the first rows of a running query are sized again
// from the final rows when it ends (longer values came later), unless the
// user resized them.
func TestColumnsAreRefittedWhenTheQueryEnds(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE g (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '300', 'rows-per-second' = '200',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '300');
SELECT CASE WHEN n <= 200 THEN 'short' ELSE 'a value much longer than the first ones' END AS s FROM g`)
	h.wb.closeCompletion()
	h.runAll()
	rt := h.wb.results[0]
	h.until("the first rows", func() bool { return rt.Grid().Total() > 0 && rt.Grid().WidthsSet() })
	if !rt.IsRunning() {
		t.Skip("the query ended before the first frame") // nothing to refit
	}
	first := rt.Grid().DataWidths()[0]
	h.waitDone(rt)
	h.wb.Tick()
	if got := rt.Grid().DataWidths()[0]; got <= first {
		t.Errorf("column width %v after the end, %v while running", got, first)
	}
}

// With Follow on, pausing the changelog view shows its newest frozen
// change, and so does the end of the query (here: Stop while paused).
func TestFollowShowsTheLastChangeWhenPausedAndWhenEnded(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	rt.ViewSelect().SetSelected(resulttab.ViewName(results.ChangelogView))
	if !rt.FollowCheck().Checked {
		t.Fatal("Follow is off by default")
	}
	h.until("a few hundred changes", func() bool { h.wb.Tick(); return rt.Grid().Total() > 300 })
	lastShown := func() bool {
		rt.Grid().RefreshFrame() // measure the rows drawn now
		_, to := rt.Grid().DrawnRows()
		return to >= rt.Grid().Total()
	}
	drawn := rt.Res.Stats().Changes
	waitFor(t, "changes the grid has not drawn", func() bool { return rt.Res.Stats().Changes >= drawn+100 })
	rt.PauseButton().OnTapped()
	h.wb.Tick()
	if !lastShown() {
		from, to := rt.Grid().DrawnRows()
		t.Errorf("paused: rows %d..%d shown of %d", from, to, rt.Grid().Total())
	}
	rt.Grid().ScrollToTop() // looking at older changes when it ends
	rt.StopButton().OnTapped()
	h.waitDone(rt)
	h.until("the end to be drawn", func() bool { h.wb.Tick(); return rt.State() != resulttab.Paused && rt.State() != resulttab.Running })
	h.wb.Tick()
	if !lastShown() {
		from, to := rt.Grid().DrawnRows()
		t.Errorf("ended: rows %d..%d shown of %d", from, to, rt.Grid().Total())
	}
}
