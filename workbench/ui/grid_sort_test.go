package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/results"
)

// heldSort makes the grid's next background sorts wait in their goroutine,
// before sorting, until release is closed; entered gets one value per sort
// that reached the hook.
func heldSort(rt *resultTab) (entered chan struct{}, release chan struct{}) {
	entered, release = make(chan struct{}, 4), make(chan struct{})
	rt.Grid().SetSortHook(func(ctx context.Context) {
		entered <- struct{}{}
		<-release
	})
	return entered, release
}

// A large sort runs off the UI goroutine (resultgrid/grid_sort.go): while
// it is held in its goroutine the editor takes typed text, the tab shows
// the sort's progress and Cancel; Cancel keeps the previous order, and a
// sort let through orders the rows and hides the progress.
func TestSortInTheBackgroundKeepsInputAndCancels(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("SELECT * FROM (VALUES (3, 'c'), (1, 'a'), (2, 'b')) AS t(n, s)")
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	g := rt.Grid()
	g.SetAsyncSortRows(2) // as if three rows were a million
	arrival := strings.Join(rows(g), ",")
	entered, release := heldSort(rt)

	g.HeaderTapped(1) // sort by n
	<-entered         // the sort's goroutine is held: the UI goroutine is not
	if !g.Sorting() || !rt.SortBox().Visible() || rt.SortProgress().Value != 0 {
		t.Fatalf("sorting %v, progress shown %v at %v", g.Sorting(), rt.SortBox().Visible(), rt.SortProgress().Value)
	}
	if s := h.wb.statusLeft.Text; !strings.HasPrefix(s, "Sorting 3 rows by n ascending…") {
		t.Errorf("status %q", s)
	}
	// input goes on: typed text reaches the editor through the canvas
	h.w.Canvas().Focus(tab.ed)
	if f := h.w.Canvas().Focused(); f == nil {
		t.Fatalf("focus on %T", f)
	}
	h.cursorAtEnd()
	h.typeKeys(" -- typed while sorting")
	if got := tab.ed.Text(); !strings.Contains(got, " -- typed while sorting") {
		t.Fatalf("the editor holds %q", got)
	}
	g.HeaderTapped(2) // another header during the sort: ignored
	test.Tap(rt.SortCancelButton())
	close(release)
	h.until("the cancelled sort to end", func() bool { return !g.Sorting() })
	if got := strings.Join(rows(g), ","); got != arrival {
		t.Errorf("after Cancel the rows are %q, want the previous order %q", got, arrival)
	}
	if col, _ := g.SortColumn(); col != -1 || rt.SortBox().Visible() {
		t.Errorf("sorted by %d, progress shown %v", col, rt.SortBox().Visible())
	}
	if s := h.wb.statusLeft.Text; s != "Sort cancelled: the previous order is kept" {
		t.Errorf("status %q", s)
	}

	// Esc in the grid cancels too
	entered, release = heldSort(rt)
	g.HeaderTapped(2)
	<-entered
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	close(release)
	h.until("the sort cancelled by Esc to end", func() bool { return !g.Sorting() })
	if got := strings.Join(rows(g), ","); got != arrival {
		t.Errorf("after Esc the rows are %q", got)
	}

	// a sort let through
	entered, release = heldSort(rt)
	g.HeaderTapped(1)
	<-entered
	close(release)
	h.until("the sort", func() bool { return !g.Sorting() })
	if got := strings.Join(rows(g), ","); got != "1 | a,2 | b,3 | c" {
		t.Errorf("sorted %q", got)
	}
	if col, desc := g.SortColumn(); col != 0 || desc || rt.SortBox().Visible() || h.wb.statusLeft.Text != "Ready" {
		t.Errorf("sorted by %d desc %v, progress shown %v, status %q", col, desc, rt.SortBox().Visible(), h.wb.statusLeft.Text)
	}
}

// Closing a result tab cancels its background sort.
func TestClosingAResultCancelsItsSort(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT * FROM (VALUES (3), (1), (2)) AS t(n)")
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	g := rt.Grid()
	g.SetAsyncSortRows(2)
	entered, release := heldSort(rt)
	g.HeaderTapped(1)
	<-entered
	h.wb.closeResult(rt)
	close(release)
	h.until("the sort to end", func() bool { return !g.Sorting() })
	if col := rt.Res.Snapshot(results.TableView, 0, 1, nil).SortCol; col != -1 {
		t.Errorf("the closed result was sorted by %d", col)
	}
}
