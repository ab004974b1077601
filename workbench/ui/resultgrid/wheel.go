package resultgrid

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// The grid scrolls as a desktop grid does: a mouse-wheel notch moves
// WheelRows rows (Fyne moves its scrollers by WheelNotch pixels a notch,
// about two thirds of a row), and Ctrl+Home / Ctrl+End go to the first /
// last row (with Shift they extend the selection).
//
// The wheel is caught by a widgets.WheelCatcher laid over the whole grid
// (Fyne gives a wheel event to the last scrollable object under the
// pointer), not by the cells: Fyne clips pointer events at every
// fyne.Scrollable, so a scrollable cell of a row hanging below the
// grid's viewport took the clicks meant for what lies under it (the
// result tab's Data / Chart / Plan bar).

const (
	// WheelRows is how many rows one wheel notch scrolls.
	WheelRows = 3
	// WheelNotch is the distance, in pixels, Fyne's desktop driver reports
	// for one wheel notch (its scroll speed on Linux and Windows).
	WheelNotch = 25
)

var _ fyne.Widget = (*Grid)(nil)

// CreateRenderer is the Table's renderer with a wheel catcher over it; it
// keeps the Table's scroller (the renderer's object that is
// fyne.Scrollable), which the wheel drives.
func (g *Grid) CreateRenderer() fyne.WidgetRenderer {
	r := g.Table.CreateRenderer()
	for _, o := range r.Objects() {
		if s, ok := o.(fyne.Scrollable); ok {
			g.scroller = s
		}
	}
	return &gridRenderer{WidgetRenderer: r, catcher: widgets.NewWheelCatcher(gridWheel{g})}
}

// gridRenderer is the Table's renderer and the wheel catcher, last so
// that it is found after the Table's scroller.
type gridRenderer struct {
	fyne.WidgetRenderer
	catcher *widgets.WheelCatcher
	inner   []fyne.CanvasObject // the Table's objects objs was made from
	objs    []fyne.CanvasObject
}

// Layout lays the Table out and the catcher over all of it.
func (r *gridRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.catcher.Move(fyne.NewPos(0, 0))
	r.catcher.Resize(size)
}

// Objects are the Table's objects and the catcher.
func (r *gridRenderer) Objects() []fyne.CanvasObject {
	in := r.WidgetRenderer.Objects()
	if len(in) != len(r.inner) || len(in) > 0 && in[0] != r.inner[0] || len(in) > 0 && in[len(in)-1] != r.inner[len(in)-1] {
		r.inner = in
		r.objs = append(append(make([]fyne.CanvasObject, 0, len(in)+1), in...), r.catcher)
	}
	return r.objs
}

// gridWheel is the catcher's target: the grid's wheel.
type gridWheel struct{ g *Grid }

func (w gridWheel) Scrolled(e *fyne.ScrollEvent) { w.g.wheel(e) }

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
