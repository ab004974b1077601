package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Enter in the Rename tab dialog confirms it (issue 21).
func TestRenameDialogEnterConfirms(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("SELECT 1")
	c := h.w.Canvas()
	before := len(c.Overlays().List())
	h.wb.editors.renameCurrent()
	e, ok := c.Focused().(*widget.Entry)
	if !ok || c.Overlays().Top() == nil {
		t.Fatalf("no rename dialog with a focused entry (focused %T)", c.Focused())
	}
	e.SetText("")
	test.Type(e, "Top airports")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if tab.title != "Top airports" || tab.item.Text != "Top airports" {
		t.Errorf("after Enter the tab is %q", tab.title)
	}
	if len(c.Overlays().List()) != before {
		t.Errorf("the dialog is still open: %T %v", c.Overlays().Top(), c.Overlays().Top().Visible())
	}
}
