package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// startAction runs a grid action's menu item and returns the result tab
// of the query it started, without waiting for that query to end.
func (h *harness) startAction(items []*fyne.MenuItem, label string) *resultTab {
	h.t.Helper()
	before := len(h.wb.results)
	for _, it := range items {
		if strings.HasPrefix(it.Label, label) {
			it.Action() // on the UI goroutine, as a click is
			h.settle()  // the statement was submitted and its job started
			if len(h.wb.results) == before {
				h.t.Fatalf("%s: no new result; messages:\n%s", label, h.messages())
			}
			return h.wb.results[len(h.wb.results)-1]
		}
	}
	h.t.Fatalf("no menu item %q", label)
	return nil
}

// Filter and Group by from the grid run in the background as the query
// they rewrite to (issue 19 §5): while that query runs (over an unbounded
// source: it runs until stopped; the first one is stopped after three rows) the UI goroutine handles input — text
// typed into the editor through the canvas arrives, the previous result
// still sorts from its header — the new tab shows RUNNING and its rows so
// far, and Stop ends it, leaving the previous result as it was.
func TestGridFilterAndGroupRunInTheBackground(t *testing.T) {
	h := newHarness(t)
	h.newTab("CREATE TEMPORARY TABLE g (n INT, s STRING) WITH ('connector'='datagen', 'rows-per-second'='20', " +
		"'fields.n.min'='1', 'fields.n.max'='3', 'fields.s.length'='12')")
	h.runStatement()
	tab := h.newTab("SELECT n, s FROM g")
	rt := h.runStatement()
	h.until("three rows", func() bool { return rt.Res.Stats().Rows >= 3 })
	rt.Stop()
	h.waitDone(rt)
	rt.Refresh(true)
	before := rows(rt.Grid())
	if len(before) < 3 {
		t.Fatalf("first result %q; messages:\n%s", before, h.messages())
	}

	for _, c := range []struct {
		label string
		items []*fyne.MenuItem
		sql   string
	}{
		// a 12-letter random string: no later row matches, the query runs on
		{"Filter = ", rt.cellActions(widget.TableCellID{Row: 0, Col: 2}), "WHERE s = '"},
		// a streaming GROUP BY updates its counts: never complete
		{"Group by this column", rt.headerActions(1), "GROUP BY n"},
	} {
		rt2 := h.startAction(c.items, c.label)
		if !strings.Contains(tab.ed.Text(), c.sql) {
			t.Fatalf("%s: the editor holds %q", c.label, tab.ed.Text())
		}
		if !rt2.IsRunning() || rt2.StateLabel().Text != resulttab.Running {
			t.Fatalf("%s: the new query is not running: %s; messages:\n%s", c.label, rt2.State(), h.messages())
		}
		// input goes on while it runs
		h.w.Canvas().Focus(tab.ed)
		h.cursorAtEnd()
		typed := " -- typed while " + strings.ToLower(strings.Fields(c.label)[0]) + "ing"
		h.typeKeys(typed)
		if !strings.HasSuffix(tab.ed.Text(), typed) {
			t.Fatalf("%s: the editor holds %q", c.label, tab.ed.Text())
		}
		rt.Grid().HeaderTapped(1) // the previous result sorts by n
		h.until("the previous result sorted", func() bool { col, _ := rt.Grid().SortColumn(); return col == 0 })
		if !rt2.IsRunning() {
			t.Fatalf("%s: the query ended by itself: %s", c.label, rt2.State())
		}
		test.Tap(rt2.StopButton())
		h.until(c.label+" stopped", func() bool { return !rt2.IsRunning() && rt2.State() == resulttab.Canceled })
		rt.Grid().ClearSort()
		rt.Refresh(true)
		if got := rows(rt.Grid()); strings.Join(got, ",") != strings.Join(before, ",") {
			t.Fatalf("%s: the previous result now %q, was %q", c.label, got, before)
		}
		// back to the query the actions rewrite
		tab.ed.SetText("SELECT n, s FROM g")
	}
}
