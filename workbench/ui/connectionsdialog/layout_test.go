package connectionsdialog

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
)

// TestDialogKeepsItsButtonsInsideItsBox shows the dialog, then lays its
// pop-up out again as the desktop canvas does when the dialog's minimum
// size has changed (Canvas.EnsureMinSize calls the pop-up renderer's
// Layout, with no Refresh after it): New, Delete and the status line must
// stay inside the dialog's box, above its Close button. Fyne's dialog
// layout sizes its content from where the Close button was before that
// layout, so a dialog whose content's minimum size changes after it is
// shown (the gateway form, counted at Show, hidden when the embedded
// connection is selected; a long status) kept its old content height and
// drew New and Delete below its box.
func TestDialogKeepsItsButtonsInsideItsBox(t *testing.T) {
	test.NewTempApp(t)
	win := test.NewTempWindow(t, widget.NewLabel(""))
	win.Resize(fyne.NewSize(1400, 900))
	h := &fakeHost{current: embedded, posted: make(chan func(), 1), conns: []Entry{
		{Config: persistence.Connection{Name: embedded}, Embedded: true, Info: "Jobs run at parallelism 2."},
		{Config: persistence.Connection{Name: "gw", URL: "http://h:8083"}},
	}}
	cd := Show(win, h)
	defer cd.Hide()
	pop, ok := win.Canvas().Overlays().Top().(*widget.PopUp)
	if !ok {
		t.Fatal("the dialog is not the top overlay")
	}
	closeBtn := findButton(pop.Content, "Close")
	if closeBtn == nil {
		t.Fatal("no Close button")
	}
	d := fyne.CurrentApp().Driver()
	bottom := func(o fyne.CanvasObject) float32 { return d.AbsolutePositionForObject(o).Y + o.Size().Height }
	check := func(when string, objs map[string]fyne.CanvasObject) {
		t.Helper()
		test.WidgetRenderer(pop).Layout(win.Canvas().Size()) // as Canvas.EnsureMinSize
		box := d.AbsolutePositionForObject(pop.Content).Y + pop.Content.Size().Height
		top := d.AbsolutePositionForObject(closeBtn).Y
		if bottom(closeBtn) > box {
			t.Errorf("%s: Close ends at y %.0f, below the box's bottom %.0f", when, bottom(closeBtn), box)
		}
		for name, o := range objs {
			if b := bottom(o); b > top {
				t.Errorf("%s: %s ends at y %.0f, below the top of Close (%.0f; the box ends at %.0f)", when, name, b, top, box)
			}
		}
	}
	buttons := map[string]fyne.CanvasObject{"New": cd.newBtn, "Delete": cd.delBtn}
	check("embedded connection shown", buttons)

	cd.Select("gw")
	check("gateway connection shown", buttons)
	cd.fail(errors.New("cannot reach the SQL Gateway: " + strings.Repeat("a long reason, ", 40)))
	check("long status", map[string]fyne.CanvasObject{"New": cd.newBtn, "Delete": cd.delBtn, "the status line": cd.status})

	cd.Select(embedded)
	check("embedded connection shown again", buttons)
}

// findButton is the button labelled text in o's tree of containers.
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	switch o := o.(type) {
	case *widget.Button:
		if o.Text == text {
			return o
		}
	case *fyne.Container:
		for _, c := range o.Objects {
			if b := findButton(c, text); b != nil {
				return b
			}
		}
	}
	return nil
}
