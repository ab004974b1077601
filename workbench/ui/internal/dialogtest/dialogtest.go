// Package dialogtest checks, in headless tests, that a workbench dialog
// keeps its widgets inside its box when the desktop canvas lays it out
// again. Fyne's dialog layout sizes its content from where its bottom
// edge was before, so a dialog whose content's minimum size changes after
// Show (a long error, then a short status) kept its content's old height
// and drew its buttons below its box.
package dialogtest

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// AtSizes runs body as a subtest (named WxH) at each size a dialog's box
// test covers, 1400x900 and 800x600, with a fresh test app and a temporary
// window of that size.
func AtSizes(t *testing.T, body func(t *testing.T, win fyne.Window)) {
	t.Helper()
	for _, size := range []fyne.Size{{Width: 1400, Height: 900}, {Width: 800, Height: 600}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			test.NewTempApp(t)
			win := test.NewTempWindow(t, widget.NewLabel(""))
			win.Resize(size)
			body(t, win)
		})
	}
}

// BoxCheck returns a check of win's top pop-up, a dialog: it lays the
// pop-up out again as the desktop canvas does when the dialog's minimum
// size has changed (Canvas.EnsureMinSize calls the pop-up renderer's
// Layout, with no Refresh after it) and reports, naming when, each of
// objs that ends below the dialog's box; with aboveClose, each that ends
// below the top of the dialog's Close button, which must end inside the
// box. It fails t when there is no such pop-up (or Close button).
func BoxCheck(t *testing.T, win fyne.Window, aboveClose bool) func(when string, objs map[string]fyne.CanvasObject) {
	t.Helper()
	pop, ok := win.Canvas().Overlays().Top().(*widget.PopUp)
	if !ok {
		t.Fatal("the dialog is not the top overlay")
	}
	var closeBtn *widget.Button
	if aboveClose {
		if closeBtn = FindButton(pop.Content, "Close"); closeBtn == nil {
			t.Fatal("no Close button")
		}
	}
	d := fyne.CurrentApp().Driver()
	bottom := func(o fyne.CanvasObject) float32 { return d.AbsolutePositionForObject(o).Y + o.Size().Height }
	return func(when string, objs map[string]fyne.CanvasObject) {
		t.Helper()
		test.WidgetRenderer(pop).Layout(win.Canvas().Size())
		box := bottom(pop.Content)
		limit, what := box, "the dialog's box"
		if closeBtn != nil {
			if b := bottom(closeBtn); b > box {
				t.Errorf("%s: Close ends at y %.0f, below the box's bottom %.0f", when, b, box)
			}
			limit, what = d.AbsolutePositionForObject(closeBtn).Y, "the top of Close"
		}
		for name, o := range objs {
			if b := bottom(o); b > limit {
				t.Errorf("%s: %s ends at y %.0f, below %s (%.0f; the box ends at %.0f)", when, name, b, what, limit, box)
			}
		}
	}
}

// FindButton is the button labelled text in o's tree of containers, nil
// when there is none.
func FindButton(o fyne.CanvasObject, text string) *widget.Button {
	switch o := o.(type) {
	case *widget.Button:
		if o.Text == text {
			return o
		}
	case *fyne.Container:
		for _, c := range o.Objects {
			if b := FindButton(c, text); b != nil {
				return b
			}
		}
	}
	return nil
}
