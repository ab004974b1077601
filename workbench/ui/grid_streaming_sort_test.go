package ui

import (
	"strconv"
	"strings"
	"testing"
)

// TestStreamingSortStaysInTheGrid: Sort on a streaming result neither
// rewrites the query (a streaming ORDER BY must start with a time
// attribute) nor stops its job: disabled while it runs, a sort of the
// grid once it has ended.
func TestStreamingSortStaysInTheGrid(t *testing.T) {
	h := newHarness(t)
	if _, err := h.wb.Env().ExecuteSQL("CREATE TABLE gen (k INT, v STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '50', 'fields.k.min' = '1', 'fields.k.max' = '1000')"); err != nil {
		t.Fatal(err)
	}
	tab := h.newTab("")
	tab.ed.SetText("SELECT k, v FROM gen")
	tab.mode = modeStreaming
	tab.ed.SetCursorOffset(1)
	rt := h.runStatement()
	if rt == nil || !rt.streaming {
		t.Fatalf("result %+v", rt)
	}
	h.until("rows", func() bool { rt.Refresh(true); return rt.Grid().Total() >= 5 })
	items := rt.headerActions(1)
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
		if strings.HasPrefix(it.Label, "Sort") && !it.Disabled {
			t.Errorf("%q is enabled while the streaming query runs", it.Label)
		}
	}
	if labels[2] != "Sort ascending — after Stop or when finished (a streaming ORDER BY needs a time attribute)" {
		t.Errorf("labels %q", labels)
	}
	rt.Stop()
	h.waitDone(rt)
	rt.Refresh(true)
	n := len(h.wb.results)
	for _, it := range rt.headerActions(1) {
		if it.Label == "Sort descending (in the grid)" {
			if it.Disabled {
				t.Fatal("disabled after Stop")
			}
			it.Action()
		}
	}
	h.settle()
	rt.Refresh(true)
	if tab.ed.Text() != "SELECT k, v FROM gen" || len(h.wb.results) != n {
		t.Fatalf("the query was rewritten: %q, %d results", tab.ed.Text(), len(h.wb.results))
	}
	got := rows(rt.Grid())
	prev := 1 << 30
	for _, r := range got {
		k, err := strconv.Atoi(strings.Split(r, " | ")[0])
		if err != nil || k > prev {
			t.Fatalf("not sorted descending: %q", got)
		}
		prev = k
	}
	if len(got) < 5 {
		t.Fatalf("rows %q", got)
	}
}
