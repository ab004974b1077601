package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestContextMenuOpensUpwardNearTheBottom: a menu that would run past
// the window's bottom or right edge opens above or left of the pointer.
func TestContextMenuOpensUpwardNearTheBottom(t *testing.T) {
	area := fyne.NewSize(1400, 900)
	menu := fyne.NewSize(180, 160)
	for _, c := range []struct{ at, want fyne.Position }{
		{fyne.NewPos(300, 200), fyne.NewPos(300, 200)},
		{fyne.NewPos(300, 850), fyne.NewPos(300, 690)},
		{fyne.NewPos(1350, 850), fyne.NewPos(1170, 690)},
		{fyne.NewPos(300, 100), fyne.NewPos(300, 100)},
	} {
		if got := MenuPosition(c.at, menu, area); got != c.want {
			t.Errorf("at %v: %v, want %v", c.at, got, c.want)
		}
	}
	// a menu taller than the room above and below: at the top
	if got := MenuPosition(fyne.NewPos(10, 100), fyne.NewSize(100, 880), area); got.Y != 0 {
		t.Errorf("tall menu at %v", got)
	}
}

func TestFileDialogSize(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	defer w.Close()
	w.Resize(fyne.NewSize(1400, 900))
	if got := FileDialogSize(w); got != fyne.NewSize(900, 600) {
		t.Errorf("in 1400×900: %v", got)
	}
	w.Resize(fyne.NewSize(800, 550))
	if got := FileDialogSize(w); got != fyne.NewSize(760, 510) {
		t.Errorf("in 800×550: %v", got)
	}
}
