package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// showMenuAt opens a context menu at pos (canvas coordinates), as a
// desktop does: below and to the right of the pointer, or above it (to
// its left) when it would run past the window's bottom (right) edge.
func showMenuAt(m *fyne.Menu, c fyne.Canvas, pos fyne.Position) *widget.PopUpMenu {
	pm := widget.NewPopUpMenu(m, c)
	pm.ShowAtPosition(menuPosition(pos, pm.MinSize(), c.Size()))
	return pm
}

// menuPosition places a menu of size at pos within a canvas of size area.
func menuPosition(pos fyne.Position, size, area fyne.Size) fyne.Position {
	margin := theme.Padding()
	if pos.Y+size.Height+margin > area.Height {
		pos.Y = max(0, min(pos.Y-size.Height, area.Height-size.Height-margin))
	}
	if pos.X+size.Width+margin > area.Width {
		pos.X = max(0, min(pos.X-size.Width, area.Width-size.Width-margin))
	}
	return pos
}
