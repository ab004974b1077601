package kafkaconnections

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"

	"github.com/riffle-sql/riffle/workbench/ui/internal/dialogtest"
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
	dialogtest.AtSizes(t, func(t *testing.T, win fyne.Window) {
		h := &fakeHost{conns: []kafkabrowser.Config{{Name: "local", Bootstrap: "127.0.0.1:9092",
			Security: kafkabrowser.SASLSSL, Mechanism: kafkabrowser.MechPlain, Username: "alice"}}}
		cd := Show(win, h, "local")
		defer cd.Hide()
		inBox := dialogtest.BoxCheck(t, win, true)
		check := func(when string) {
			t.Helper()
			inBox(when, map[string]fyne.CanvasObject{"Delete": cd.deleteBtn, "Test connection": cd.testBtn,
				"Save": cd.saveBtn, "the settings panel": cd.settings})
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
