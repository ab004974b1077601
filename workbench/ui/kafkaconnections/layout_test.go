package kafkaconnections

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
)

// TestDialogKeepsItsButtonsInsideItsBox shows the dialog, then lays its
// pop-up out again as the desktop canvas does when the dialog's minimum
// size has changed (Canvas.EnsureMinSize calls the pop-up renderer's
// Layout, with no Refresh after it): Delete, Test connection, Save and the
// settings panel (which clips the status line) must stay inside the
// dialog's box, above its Close button.
// Fyne's dialog layout sizes its content from where the Close button was
// before that layout, so content whose minimum size changes after Show (a
// long error in the status line, then a short one) kept the long error's
// height, and the buttons hung below the box (800x600: at y 557 under a
// Close button starting at 521).
func TestDialogKeepsItsButtonsInsideItsBox(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1400, Height: 900}, {Width: 800, Height: 600}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			test.NewTempApp(t)
			win := test.NewTempWindow(t, widget.NewLabel(""))
			win.Resize(size)
			h := &fakeHost{conns: []kafkabrowser.Config{{Name: "local", Bootstrap: "127.0.0.1:9092",
				Security: kafkabrowser.SASLSSL, Mechanism: kafkabrowser.MechPlain, Username: "alice"}}}
			cd := Show(win, h, "local")
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
			check := func(when string) {
				t.Helper()
				test.WidgetRenderer(pop).Layout(win.Canvas().Size()) // as Canvas.EnsureMinSize
				box := d.AbsolutePositionForObject(pop.Content).Y + pop.Content.Size().Height
				top := d.AbsolutePositionForObject(closeBtn).Y
				if bottom(closeBtn) > box {
					t.Errorf("%s: Close ends at y %.0f, below the box's bottom %.0f", when, bottom(closeBtn), box)
				}
				for name, o := range map[string]fyne.CanvasObject{"Delete": cd.deleteBtn, "Test connection": cd.testBtn,
					"Save": cd.saveBtn, "the settings panel": cd.settings} {
					if b := bottom(o); b > top {
						t.Errorf("%s: %s ends at y %.0f, below the top of Close (%.0f; the box ends at %.0f)", when, name, b, top, box)
					}
				}
			}
			check("shown")
			cd.say("Failed: "+strings.Repeat("a long reason from the broker, ", 60), widget.DangerImportance)
			check("long error")
			// the status scrolls with the form: its top must be in view
			if y := cd.status.Position().Y - cd.settings.Offset.Y; y < 0 || y >= cd.settings.Size().Height {
				t.Errorf("long error: the status line's top is at y %.0f in a pane %.0f high", y, cd.settings.Size().Height)
			}
			cd.say("Saved local.", widget.SuccessImportance)
			check("short status again")
			if max := fyne.Max(0, cd.settings.Content.MinSize().Height-cd.settings.Size().Height); cd.settings.Offset.Y > max {
				t.Errorf("short status again: scrolled to y %.0f, past the content's end (at most %.0f)", cd.settings.Offset.Y, max)
			}
			cd.show("")
			check("new connection")
		})
	}
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
