package resultgrid

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The grid scrolls as a desktop grid does: a mouse-wheel notch moves
// WheelRows rows (Fyne moves its scrollers by WheelNotch pixels a notch,
// about two thirds of a row), and Ctrl+Home / Ctrl+End go to the first /
// last row (with Shift they extend the selection).

const (
	// WheelRows is how many rows one wheel notch scrolls.
	WheelRows = 3
	// WheelNotch is the distance, in pixels, Fyne's desktop driver reports
	// for one wheel notch (its scroll speed on Linux and Windows).
	WheelNotch = 25
)

var (
	_ fyne.Scrollable = (*Cell)(nil)
	_ fyne.Widget     = (*Grid)(nil)
)

// CreateRenderer is the Table's renderer; it keeps the Table's scroller
// (the renderer's object that is fyne.Scrollable), which the wheel drives.
func (g *Grid) CreateRenderer() fyne.WidgetRenderer {
	r := g.Table.CreateRenderer()
	for _, o := range r.Objects() {
		if s, ok := o.(fyne.Scrollable); ok {
			g.scroller = s
		}
	}
	return r
}

// Scrolled passes a wheel event over a cell on to the grid.
func (c *Cell) Scrolled(e *fyne.ScrollEvent) {
	if c.grid != nil {
		c.grid.wheel(e)
	}
}

// wheel scrolls the Table WheelRows rows per notch: the event's distance
// is scaled from Fyne's notch to WheelRows row heights (a touchpad's small
// steps are scaled alike).
func (g *Grid) wheel(e *fyne.ScrollEvent) {
	if g.scroller == nil {
		return
	}
	scale := WheelRows * g.rowPitch() / WheelNotch
	ev := *e
	ev.Scrolled = fyne.NewDelta(e.Scrolled.DX, e.Scrolled.DY*scale)
	g.scroller.Scrolled(&ev)
}

// rowPitch is the height of a grid row with the padding between rows, as
// the Table computes it: the larger of a cell's and a header's minimum
// height, plus the theme's padding.
func (g *Grid) rowPitch() float32 {
	if g.pitch == 0 {
		size := NewCell().MinSize()
		if g.CreateHeader != nil {
			size = size.Max(g.CreateHeader().MinSize())
		}
		g.pitch = size.Height + g.Theme().Size(theme.SizeNamePadding)
	}
	return g.pitch
}

// jumpShortcut handles Ctrl+Home and Ctrl+End (with Shift: extending the
// selection): the first or last row, in the selected cell's column.
func (g *Grid) jumpShortcut(s *desktop.CustomShortcut) bool {
	if s.Modifier&fyne.KeyModifierControl == 0 || s.Modifier&^(fyne.KeyModifierControl|fyne.KeyModifierShift) != 0 {
		return false
	}
	rows, cols := g.Shape()
	if rows == 0 || cols < 2 {
		return s.KeyName == fyne.KeyHome || s.KeyName == fyne.KeyEnd
	}
	c := widget.TableCellID{Row: 0, Col: 1}
	if g.hasSel && g.cursor.Col > 0 {
		c.Col = g.cursor.Col
	}
	switch s.KeyName {
	case fyne.KeyHome:
		c.Row = 0
	case fyne.KeyEnd:
		c.Row = rows - 1
	default:
		return false
	}
	g.moveTo(c, s.Modifier&fyne.KeyModifierShift != 0)
	return true
}
