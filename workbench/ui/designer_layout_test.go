package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
)

// wideTableDDL is a 15-column table with long column names.
func wideTableDDL() string {
	var cols []string
	for i := 1; i <= 15; i++ {
		cols = append(cols, fmt.Sprintf("departure_delay_minutes_%02d INT", i))
	}
	return "CREATE TABLE wide (" + strings.Join(cols, ", ") + ") WITH ('connector' = 'datagen')"
}

// Edit table… on a 15-column table: the dialog fits the window, the
// form's per-column buttons are inside the dialog's view, and every
// column name is shown whole (issue 21).
func TestDesignerOnAWideTableFitsTheWindow(t *testing.T) {
	h := newHarness(t)
	h.newTab(wideTableDDL())
	h.runAll()
	dd := h.wb.showTableDesigner(&catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "wide"})
	if dd == nil || len(dd.Rows) != 15 {
		t.Fatalf("designer rows: %v; messages:\n%s", dd != nil, h.messages())
	}
	win := h.w.Canvas().Size()
	view := dd.FormScroll.Size()
	if view.Width <= 0 || view.Width > win.Width {
		t.Fatalf("form view %v in a window %v", view, win)
	}
	if min := dd.FormScroll.Content.MinSize().Width; min > view.Width {
		t.Errorf("the form needs %v px in a view of %v: its buttons are off to the right", min, view.Width)
	}
	for i, r := range dd.Rows {
		text := fyne.MeasureText(r.Name.Text, r.Name.Theme().Size(theme.SizeNameText), fyne.TextStyle{})
		if w := r.Name.Size().Width; w < text.Width+8 {
			t.Errorf("row %d: name %q (%v px) in an entry %v px wide", i, r.Name.Text, text.Width, w)
		}
		if x := fyne.CurrentApp().Driver().AbsolutePositionForObject(r.Del).X + r.Del.Size().Width; x > fyne.CurrentApp().Driver().AbsolutePositionForObject(dd.FormScroll).X+view.Width {
			t.Errorf("row %d: delete button ends at %v, the view at %v", i, x, fyne.CurrentApp().Driver().AbsolutePositionForObject(dd.FormScroll).X+view.Width)
		}
	}
	dd.Hide()
}
