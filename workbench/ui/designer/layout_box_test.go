package designer

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/riffle-sql/riffle/workbench/ui/internal/dialogtest"
)

// TestDialogKeepsItsButtonsInsideItsBox: a long failure in the problems
// line, then a short state again, must leave Apply inside the dialog's
// box when the canvas lays the pop-up out again (Canvas.EnsureMinSize
// calls the pop-up renderer's Layout, with no Refresh after it). Fyne's
// dialog lays its content out from where its bottom edge was before, so
// content whose minimum size grew past the dialog's size and shrank
// again kept the larger height: 800x600, Apply ended at y 588 under a
// box ending at 578.
func TestDialogKeepsItsButtonsInsideItsBox(t *testing.T) {
	dialogtest.AtSizes(t, func(t *testing.T, w fyne.Window) {
		h := &fakeHost{win: w, fail: errors.New("the gateway refused it: " + strings.Repeat("a long reason, ", 200))}
		dd := Show(h, newDesign())
		defer dd.Hide()
		dd.Name.SetText("gen")
		inBox := dialogtest.BoxCheck(t, w, false)
		check := func(when string) {
			t.Helper()
			inBox(when, map[string]fyne.CanvasObject{"Apply": dd.Apply, "the problems (their scroll)": dd.ProblemsScroll})
		}
		check("shown")
		dd.Apply.OnTapped()
		check("a long failure")
		dd.Name.SetText("gen2") // the design changed: the problems line says its state again
		check("a short state again")
	})
}
