package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/riffle-sql/riffle/workbench/ui/planview"
)

// A new workspace gives the results the larger part of the height, the
// plan graph of the first demo query is drawn at a readable zoom in a
// view of several hundred pixels, and the EXPLAIN text wraps at its
// pane's width instead of being cut off on the right (issue 21).
func TestDefaultLayoutGivesResultsAndPlanRoom(t *testing.T) {
	h := newHarness(t)
	if off := h.wb.vsplit.Offset; off != defaultResultsSplit {
		t.Errorf("results split %v, want %v", off, defaultResultsSplit)
	}
	tab := h.tab()
	tab.ed.TypedShortcut(ctrl("E")) // the demo's cursor is on the query
	h.settle()
	if len(h.wb.results) == 0 || h.wb.results[len(h.wb.results)-1].mon.plan == nil {
		t.Fatalf("Ctrl+E gave no plan; messages:\n%s", h.messages())
	}
	p := h.wb.results[len(h.wb.results)-1].mon.plan
	if s := p.ScrollSize(); s.Height < 350 {
		t.Errorf("the plan graph's view is %v, want at least 350 px high", s)
	}
	p.Fit()
	if p.Graph().Zoom() < planview.MinFitZoom {
		t.Errorf("Fit zoomed to %v, below the readable %v", p.Graph().Zoom(), planview.MinFitZoom)
	}
	long := 0
	for _, l := range strings.Split(p.Text(), "\n") {
		long = max(long, len(l))
	}
	pane := p.TextView().Size().Width
	if pane <= 0 || p.TextView().Wrapping != fyne.TextWrapWord {
		t.Fatalf("EXPLAIN text %v wide, wrapping %v", pane, p.TextView().Wrapping)
	}
	if w := fyne.MeasureText(strings.Repeat("x", long), theme.TextSize(), fyne.TextStyle{Monospace: true}).Width; w <= pane {
		t.Skipf("the longest EXPLAIN line (%v px) fits the pane (%v px)", w, pane)
	}
	if ms := p.TextView().MinSize().Width; ms > pane {
		t.Errorf("the EXPLAIN text needs %v px in a pane of %v px", ms, pane)
	}
}
