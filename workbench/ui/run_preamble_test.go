package ui

import (
	"strings"
	"testing"
)

// The first demo tab opens with its cursor on the query, and Ctrl+Enter
// on its first line (a comment above the SET) runs the SET with the query
// and shows the query's rows: a newcomer's first click gives a result.
func TestRunOnDemoPreambleShowsTheQueryResult(t *testing.T) {
	h := newHarness(t)
	tab := h.tab()
	text := tab.ed.Text()
	if off, want := tab.ed.CursorOffset(), strings.Index(text, "SELECT a.state"); off != want {
		t.Errorf("demo cursor at byte %d, want %d (the SELECT)", off, want)
	}
	tab.ed.SetCursor(0, 0)
	rt := h.runStatement()
	if rt == nil {
		t.Fatalf("no result tab; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 20 || !strings.HasPrefix(got[0], "CA | 27847 | ") {
		t.Fatalf("rows %q; messages:\n%s", got, h.messages())
	}
	if m := h.messages(); !strings.Contains(m, "ran it with the query on line 6") {
		t.Errorf("messages do not say what ran:\n%s", m)
	}
}

func TestPreambleRunRules(t *testing.T) {
	script := "-- c\nSET 'a' = 'b';\nRESET 'x';\n\nSELECT 1;\nSET 'c' = 'd';\n"
	text, start, line, ok := preambleRun(script, 0)
	if !ok || start != strings.Index(script, "SET") || !strings.HasSuffix(text, "SELECT 1") || line != 5 {
		t.Errorf("from the comment: %q at %d line %d ok %v", text, start, line, ok)
	}
	if _, _, _, ok := preambleRun(script, strings.Index(script, "SELECT")+2); ok {
		t.Error("a cursor on the query must run the query alone")
	}
	if _, _, _, ok := preambleRun(script, strings.LastIndex(script, "SET")+2); ok {
		t.Error("a trailing SET with no query after it runs alone")
	}
	if l, c := firstQueryPosition(script); l != 4 || c != 0 {
		t.Errorf("first query at %d:%d, want 4:0", l, c)
	}
	// CREATE ... IF NOT EXISTS is setup too; the cursor then stays at the
	// top, where Ctrl+Enter runs the setup with the query.
	setup := "SET 'a' = 'b';\nCREATE TEMPORARY TABLE IF NOT EXISTS g (n INT) WITH ('connector' = 'datagen');\nSELECT n FROM g;\nCREATE TABLE h (n INT);\nSELECT 2"
	if l, c := firstQueryPosition(setup); l != 0 || c != 0 {
		t.Errorf("with a CREATE first, the cursor goes to %d:%d, want 0:0", l, c)
	}
	text, _, line, ok = preambleRun(setup, strings.Index(setup, "CREATE TEMPORARY")+3)
	if !ok || !strings.HasPrefix(text, "CREATE TEMPORARY") || !strings.HasSuffix(text, "SELECT n FROM g") || line != 3 {
		t.Errorf("from the CREATE: %q line %d ok %v", text, line, ok)
	}
	if _, _, _, ok := preambleRun(setup, strings.Index(setup, "CREATE TABLE h")+3); ok {
		t.Error("a CREATE without IF NOT EXISTS runs alone")
	}
}

// On the live-stream demo tab, Ctrl+Enter at the top runs the SET, the
// CREATE TEMPORARY TABLE IF NOT EXISTS and the query: the stream starts.
func TestRunOnLiveDemoTopStartsTheStream(t *testing.T) {
	h := newHarness(t)
	tab := h.wb.editors.list[2]
	h.wb.editors.tabs.Select(tab.item)
	h.q.drain()
	if l, c := tab.ed.CursorPosition(); l != 0 || c != 0 {
		t.Errorf("live demo cursor at %d:%d, want the top", l, c)
	}
	rt := h.runStatement()
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.until("a row of the stream", func() bool { return len(rows(rt.Grid())) > 0 })
	h.wb.closeResult(rt)
}
