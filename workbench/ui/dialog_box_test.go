package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
)

// dialogBoxCheck lays the window's top pop-up (a dialog) out again as the
// desktop canvas does when the dialog's minimum size has changed
// (Canvas.EnsureMinSize calls the pop-up renderer's Layout, with no
// Refresh after it) and reports the objects that end below the top of
// the dialog's bottom edge (less its padding), or the box itself.
func dialogBoxCheck(t *testing.T, win fyne.Window) func(when string, objs map[string]fyne.CanvasObject) {
	t.Helper()
	pop, ok := win.Canvas().Overlays().Top().(*widget.PopUp)
	if !ok {
		t.Fatal("the dialog is not the top overlay")
	}
	d := fyne.CurrentApp().Driver()
	return func(when string, objs map[string]fyne.CanvasObject) {
		t.Helper()
		test.WidgetRenderer(pop).Layout(win.Canvas().Size())
		box := d.AbsolutePositionForObject(pop.Content).Y + pop.Content.Size().Height
		for name, o := range objs {
			if b := d.AbsolutePositionForObject(o).Y + o.Size().Height; b > box {
				t.Errorf("%s: %s ends at y %.0f, below the dialog's box (ends at %.0f)", when, name, b, box)
			}
		}
	}
}

// TestAlertRuleEditorKeepsItsButtonsInsideItsBox: a long problem line
// grew the editor's minimum size past its size after it was shown, and a
// short one shrank it again; Fyne's dialog lays its content out from
// where its bottom edge was before, so the content kept the long
// problem's height and Save hung below the box (1400x900: at y 893 under
// a box ending at 873).
func TestAlertRuleEditorKeepsItsButtonsInsideItsBox(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1400, Height: 900}, {Width: 800, Height: 600}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			test.NewTempApp(t)
			win := test.NewTempWindow(t, widget.NewLabel(""))
			win.Resize(size)
			e := showAlertRuleEditor(win, persistence.AlertRule{Name: "r", Statement: "SELECT 1"}, func(persistence.AlertRule, func(error)) {})
			defer e.d.Hide()
			check := dialogBoxCheck(t, win)
			objs := map[string]fyne.CanvasObject{"Save": e.save, "the problem line (its scroll)": e.problemScroll}
			check("shown", objs)
			e.show(errors.New("the query fails: " + strings.Repeat("a long reason from the planner, ", 80)))
			check("long problem", objs)
			e.show(errors.New("short"))
			check("short problem again", objs)
		})
	}
}
