package openfile

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/riffle-sql/riffle/workbench/ui/internal/dialogtest"
)

// TestReviewKeepsItsButtonsInsideItsBox: a long failure of Create table,
// then a short status again (the name edited), must leave Create table
// inside the dialog's box when the canvas lays the pop-up out again
// (Canvas.EnsureMinSize calls the pop-up renderer's Layout, with no
// Refresh after it). Fyne's dialog lays its content out from where its
// bottom edge was before, so content whose minimum size grew past the
// dialog's size and shrank again kept the larger height: Create table
// ended at y 923 under a box ending at 843 (1400x900), 593 under 573
// (800x600).
func TestReviewKeepsItsButtonsInsideItsBox(t *testing.T) {
	dialogtest.AtSizes(t, func(t *testing.T, w fyne.Window) {
		h := &fakeHost{cat: fakeCatalog{}, execErr: errors.New("the gateway refused it: " + strings.Repeat("a long reason, ", 200))}
		r := Show(w, inferred(t), h)
		defer r.Hide()
		inBox := dialogtest.BoxCheck(t, w, false)
		check := func(when string) {
			t.Helper()
			inBox(when, map[string]fyne.CanvasObject{"Create table": r.create})
		}
		check("shown")
		r.Apply()
		check("a long failure")
		r.name.SetText("other")
		check("a short status again")
	})
}
