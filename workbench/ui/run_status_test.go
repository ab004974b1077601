package ui

import (
	"strings"
	"testing"
)

func TestRunSummaryNamesLinesAndWords(t *testing.T) {
	doc := "-- setup\nSET 'a' = 'b';\n\nSELECT state,\n       COUNT(*) AS departures_of_the_whole_day_in_every_state\nFROM flights GROUP BY state;\n"
	sel := strings.Index(doc, "SELECT")
	set := strings.Index(doc, "SET")
	for _, c := range []struct {
		name string
		req  runReq
		want string
	}{
		{"statement", runReq{source: srcEditor, doc: doc, base: sel, text: doc[sel : len(doc)-2]},
			"lines 4–6: SELECT state, COUNT(*) AS departures_of_the_who …"},
		{"one line", runReq{source: srcEditor, doc: doc, base: set, text: "SET 'a' = 'b'"},
			"line 2: SET 'a' = 'b'"},
		{"setup with its query", runReq{source: srcEditor, doc: doc, base: set, text: doc[set : len(doc)-2]},
			"lines 2–6 (2 statements): SELECT state, COUNT(*) AS departures_of_the_who …"},
		{"explain", runReq{source: srcEditor, doc: doc, base: set, text: "EXPLAIN SET 'a' = 'b'", explainShift: 8},
			"line 2: EXPLAIN SET 'a' = 'b'"},
		{"whole tab", runReq{source: srcEditor, doc: doc, text: doc}, "the whole tab (2 statements)"},
		{"init script", runReq{source: srcInit, doc: doc, text: doc}, ""},
		{"empty", runReq{source: srcEditor, doc: doc, base: 0, text: "  "}, ""},
	} {
		if got := runSummary(c.req); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The status bar says what ran: the demo's first click names the query's
// lines and first words, while it runs and after.
func TestStatusBarSaysWhatRan(t *testing.T) {
	h := newHarness(t)
	rt := h.runStatement() // the demo tab's cursor is on its query
	if rt == nil {
		t.Fatalf("no result tab; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	const want = "Ran lines 6–14: SELECT a.state, COUNT(*) AS departures, ROUND(A …"
	h.until("the status bar", func() bool { return !strings.HasPrefix(h.wb.statusLeft.Text, "Running") })
	if got := h.wb.statusLeft.Text; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}
