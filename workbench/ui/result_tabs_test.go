package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// Selecting an editor tab shows its own latest result; a tab without a
// result shows Messages rather than another tab's result (issue 21).
func TestEditorTabShowsItsOwnResult(t *testing.T) {
	h := newHarness(t)
	a := h.runBatch("SELECT 'a' AS which")
	tabA := h.tab()
	b := h.runBatch("SELECT 'b' AS which")
	tabB := h.tab()
	if h.wb.bottom.Selected() != b.Item() {
		t.Fatalf("the new result %q is not in front", b.Title)
	}
	h.wb.editors.tabs.Select(tabA.item)
	h.q.drain()
	if got := h.wb.bottom.Selected(); got != a.Item() {
		t.Errorf("editor tab A shows %q, want its result %q", got.Text, a.Title)
	}
	h.wb.editors.tabs.Select(tabB.item)
	h.q.drain()
	if got := h.wb.bottom.Selected(); got != b.Item() {
		t.Errorf("editor tab B shows %q, want its result %q", got.Text, b.Title)
	}
	h.newTab("")
	h.q.drain()
	if got := h.wb.bottom.Selected(); got != h.wb.messages.item {
		t.Errorf("a tab without results shows %q, want Messages", got.Text)
	}
	// With the Jobs panel in front, switching tabs leaves it there.
	h.wb.bottom.Select(h.wb.mon.jobs.Item())
	h.wb.editors.tabs.Select(tabA.item)
	h.q.drain()
	if got := h.wb.bottom.Selected(); got != h.wb.mon.jobs.Item() {
		t.Errorf("switching tabs replaced the Jobs panel by %q", got.Text)
	}
}

// A result has a visible close button; on a running stream it asks before
// stopping and closing, and Keep keeps it running.
func TestClosingARunningResultAsks(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText("CREATE TEMPORARY TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\nSELECT n FROM gen")
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	if !rt.IsRunning() {
		t.Fatalf("the stream is not running; messages:\n%s", h.messages())
	}
	closeBtn := rt.CloseButton()
	if closeBtn == nil {
		t.Fatal("no close button in the result's header")
	}
	test.Tap(closeBtn)
	top := h.w.Canvas().Overlays().Top()
	if top == nil || findButton(top, "Keep") == nil {
		t.Fatal("closing a running result did not ask")
	}
	test.Tap(findButton(top, "Keep"))
	if h.wb.resultFor(rt.Item()) == nil || !rt.IsRunning() {
		t.Fatal("Keep closed or stopped the stream")
	}
	// the tab strip's × goes the same way
	h.wb.bottom.CloseIntercept(rt.Item())
	top = h.w.Canvas().Overlays().Top()
	if top == nil || findButton(top, "Stop and close") == nil {
		t.Fatal("the strip's × did not ask")
	}
	test.Tap(findButton(top, "Stop and close"))
	h.until("the stream to stop", func() bool { return !rt.IsRunning() })
	if h.wb.resultFor(rt.Item()) != nil {
		t.Error("the result is still open")
	}
	// a finished result closes at once
	done := h.runBatch("SELECT 1 AS x")
	test.Tap(done.CloseButton())
	if h.wb.resultFor(done.Item()) != nil || h.w.Canvas().Overlays().Top() != nil {
		t.Error("a finished result did not close at once")
	}
}
