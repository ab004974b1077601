package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Overlays sized and placed to fit the window: context menus and file
// dialogs.

// ShowMenuAt opens a context menu at pos (canvas coordinates), as a
// desktop does: below and to the right of the pointer, or above it (to
// its left) when it would run past the window's bottom (right) edge.
func ShowMenuAt(m *fyne.Menu, c fyne.Canvas, pos fyne.Position) *widget.PopUpMenu {
	pm := widget.NewPopUpMenu(m, c)
	pm.ShowAtPosition(MenuPosition(pos, pm.MinSize(), c.Size()))
	return pm
}

// MenuPosition places a menu of size at pos within a canvas of size area.
func MenuPosition(pos fyne.Position, size, area fyne.Size) fyne.Position {
	margin := theme.Padding()
	if pos.Y+size.Height+margin > area.Height {
		pos.Y = max(0, min(pos.Y-size.Height, area.Height-size.Height-margin))
	}
	if pos.X+size.Width+margin > area.Width {
		pos.X = max(0, min(pos.X-size.Width, area.Width-size.Width-margin))
	}
	return pos
}

// FileDialogSize is the size of a file dialog: Fyne's starts at its
// minimum, too small to read a folder; 900×600, or the window's size less
// a margin when that is smaller.
func FileDialogSize(win fyne.Window) fyne.Size {
	s := fyne.NewSize(900, 600)
	if c := win.Canvas(); c != nil && c.Size().Width > 0 {
		cs := c.Size()
		s = fyne.NewSize(min(s.Width, cs.Width-40), min(s.Height, cs.Height-40))
	}
	return s
}
