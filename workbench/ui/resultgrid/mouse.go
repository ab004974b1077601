package resultgrid

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Mouse input on the grid's cells: a click selects, a right-click opens
// the cell's or the header's menu (the workbench's grid actions, through
// Grid.OnCellMenu and Grid.OnHeaderMenu).

var (
	_ fyne.SecondaryTappable = (*Cell)(nil)
	_ desktop.Mouseable      = (*Cell)(nil)
	_ fyne.SecondaryTappable = (*HeaderCell)(nil)
)

// MouseDown selects the cell (Shift extends the selection) and gives the
// grid the keyboard focus. A cell, not the Table, is what a desktop click
// reaches (it takes right-clicks), so the Table's own tap never runs. A
// right-click inside the selection keeps it (for Copy).
func (c *Cell) MouseDown(e *desktop.MouseEvent) {
	g := c.grid
	if g == nil {
		return
	}
	if e.Button == desktop.MouseButtonSecondary && g.InSelection(c.id) {
		g.focus()
		return
	}
	g.cellPressed(c.id, e.Modifier&fyne.KeyModifierShift != 0)
}

// MouseUp implements desktop.Mouseable.
func (c *Cell) MouseUp(*desktop.MouseEvent) {}

// TappedSecondary opens the menu of the cell (grid actions first).
func (c *Cell) TappedSecondary(e *fyne.PointEvent) {
	g := c.grid
	if g == nil {
		return
	}
	if g.OnCellMenu != nil {
		g.OnCellMenu(c.id, e.AbsolutePosition)
		return
	}
	g.TappedSecondary(e)
}

// TappedSecondary opens the menu of a column header.
func (h *HeaderCell) TappedSecondary(e *fyne.PointEvent) {
	if g := h.grid; g != nil && g.OnHeaderMenu != nil {
		g.OnHeaderMenu(h.col, e.AbsolutePosition)
	}
}
