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

	"github.com/riffle-sql/riffle/workbench/ui/internal/dialogtest"
)

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
			check := dialogtest.BoxCheck(t, win, false)
			objs := map[string]fyne.CanvasObject{"Save": e.save, "the problem line (its scroll)": e.problemScroll}
			check("shown", objs)
			e.show(errors.New("the query fails: " + strings.Repeat("a long reason from the planner, ", 80)))
			check("long problem", objs)
			e.show(errors.New("short"))
			check("short problem again", objs)
		})
	}
}
