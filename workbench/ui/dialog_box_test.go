package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

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
	dialogtest.AtSizes(t, func(t *testing.T, win fyne.Window) {
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
