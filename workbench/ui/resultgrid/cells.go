package resultgrid

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// CellKind selects how a grid cell is drawn.
type CellKind uint8

const (
	ValueCell   CellKind = iota // a value
	NullCell                    // SQL NULL: dimmed italic "NULL"
	RowNumCell                  // the row number column
	OpPlusCell                  // +I / +U
	OpMinusCell                 // -U / -D
)

// Cell is one cell of the result grid: a background (selection) and one
// line of monospaced text, cut with "…" to the cell's width. It is far
// cheaper to update than a Label, which matters because a grid refresh
// updates every visible cell.
type Cell struct {
	widget.BaseWidget
	id       widget.TableCellID // the cell it shows now (for tests)
	grid     *Grid              // authoring hook: right-click actions (grid_actions.go)
	text     string
	kind     CellKind
	align    fyne.TextAlign
	selected bool
}

func NewCell() *Cell {
	c := &Cell{}
	c.ExtendBaseWidget(c)
	return c
}

// set updates the cell and redraws it only when something changed.
func (c *Cell) set(text string, kind CellKind, align fyne.TextAlign, selected bool) {
	if c.text == text && c.kind == kind && c.align == align && c.selected == selected {
		return
	}
	c.text, c.kind, c.align, c.selected = text, kind, align, selected
	c.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (c *Cell) CreateRenderer() fyne.WidgetRenderer {
	r := &gridCellRenderer{c: c, bg: canvas.NewRectangle(color.Transparent), txt: canvas.NewText("", nil)}
	r.txt.TextStyle.Monospace = true
	r.Refresh()
	return r
}

type gridCellRenderer struct {
	c    *Cell
	bg   *canvas.Rectangle
	txt  *canvas.Text
	size fyne.Size
}

func (r *gridCellRenderer) Layout(s fyne.Size) {
	r.size = s
	r.bg.Resize(s)
	r.place()
}

// place cuts the text to the width and aligns it.
func (r *gridCellRenderer) place() {
	th := r.c.Theme()
	pad := th.Size(theme.SizeNameInnerPadding) / 2
	avail := r.size.Width - 2*pad
	r.txt.Text = widgets.FitText(r.display(), avail, r.txt.TextSize)
	// Arithmetic instead of MeasureText: the font is monospaced, and a
	// refresh places every visible cell.
	ts := fyne.NewSize(float32(widgets.CellsOf(r.txt.Text))*widgets.CharWidth(r.txt.TextSize), widgets.LineHeight(r.txt.TextSize))
	y := (r.size.Height - ts.Height) / 2
	x := pad
	if r.c.align == fyne.TextAlignTrailing {
		x = r.size.Width - pad - ts.Width
	}
	r.txt.Move(fyne.NewPos(x, y))
	r.txt.Resize(ts)
}

func (r *gridCellRenderer) display() string {
	if r.c.kind == NullCell {
		return "NULL"
	}
	return displayText(r.c.text)
}

func (r *gridCellRenderer) MinSize() fyne.Size {
	th := r.c.Theme()
	return fyne.NewSize(40, widgets.LineHeight(th.Size(theme.SizeNameText))+th.Size(theme.SizeNameInnerPadding))
}

func (r *gridCellRenderer) Refresh() {
	th := r.c.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.txt.TextSize = th.Size(theme.SizeNameText)
	r.txt.TextStyle = fyne.TextStyle{Monospace: true, Italic: r.c.kind == NullCell}
	switch r.c.kind {
	case NullCell, RowNumCell:
		r.txt.Color = th.Color(theme.ColorNamePlaceHolder, v)
	case OpPlusCell:
		r.txt.Color = th.Color(theme.ColorNameSuccess, v)
	case OpMinusCell:
		r.txt.Color = th.Color(theme.ColorNameError, v)
	default:
		r.txt.Color = th.Color(theme.ColorNameForeground, v)
	}
	if r.c.selected {
		r.bg.FillColor = th.Color(theme.ColorNameSelection, v)
	} else {
		r.bg.FillColor = color.Transparent
	}
	r.place()
	r.bg.Refresh()
	r.txt.Refresh()
}

func (r *gridCellRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.txt} }
func (r *gridCellRenderer) Destroy()                     {}

// displayText shows line breaks and tabs of a value on one line.
func displayText(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.NewReplacer("\r\n", "↵", "\n", "↵", "\r", "↵", "\t", " ").Replace(s)
}

// HeaderCell is a column header: the name in bold, the Flink type dimmed,
// and the sort arrow. Tapping it sorts by the column.
type HeaderCell struct {
	widget.BaseWidget
	grid  *Grid
	col   int
	name  string
	typ   string
	arrow string
}

var _ fyne.Tappable = (*HeaderCell)(nil)

func newHeaderCell(g *Grid) *HeaderCell {
	h := &HeaderCell{grid: g}
	h.ExtendBaseWidget(h)
	return h
}

func (h *HeaderCell) set(col int, name, typ, arrow string) {
	if h.col == col && h.name == name && h.typ == typ && h.arrow == arrow {
		return
	}
	h.col, h.name, h.typ, h.arrow = col, name, typ, arrow
	h.Refresh()
}

// Tapped sorts by the column.
func (h *HeaderCell) Tapped(*fyne.PointEvent) {
	if h.grid != nil {
		h.grid.HeaderTapped(h.col)
	}
}

// CreateRenderer implements fyne.Widget.
func (h *HeaderCell) CreateRenderer() fyne.WidgetRenderer {
	r := &headerRenderer{h: h, name: canvas.NewText("", nil), typ: canvas.NewText("", nil), arrow: canvas.NewText("", nil)}
	r.name.TextStyle = fyne.TextStyle{Bold: true}
	r.Refresh()
	return r
}

type headerRenderer struct {
	h                *HeaderCell
	name, typ, arrow *canvas.Text
	size             fyne.Size
}

func (r *headerRenderer) Layout(s fyne.Size) {
	r.size = s
	th := r.h.Theme()
	pad := th.Size(theme.SizeNameInnerPadding) / 2
	aw := fyne.MeasureText(r.arrow.Text, r.arrow.TextSize, r.arrow.TextStyle).Width
	avail := s.Width - 2*pad - aw
	// The name gets the room it needs first, the type what is left.
	name := r.h.name
	ns := fyne.MeasureText(name, r.name.TextSize, r.name.TextStyle)
	if ns.Width > avail {
		// Cut runes off the end until the name and "…" fit.
		runes := []rune(name)
		lo, hi := 0, len(runes) // the longest prefix that fits is in [lo, hi)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if fyne.MeasureText(string(runes[:mid])+"…", r.name.TextSize, r.name.TextStyle).Width <= avail {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		name = string(runes[:lo]) + "…"
		ns = fyne.MeasureText(name, r.name.TextSize, r.name.TextStyle)
	}
	r.name.Text = name
	y := (s.Height - ns.Height) / 2
	r.name.Move(fyne.NewPos(pad, y))
	r.name.Resize(ns)
	typ := r.h.typ
	gap := fyne.MeasureText(" ", r.typ.TextSize, r.typ.TextStyle).Width
	left := avail - ns.Width - gap
	ts := fyne.MeasureText(typ, r.typ.TextSize, r.typ.TextStyle)
	if ts.Width > left {
		typ = ""
		ts = fyne.Size{}
	}
	r.typ.Text = typ
	r.typ.Move(fyne.NewPos(pad+ns.Width+gap, (s.Height-ts.Height)/2+1))
	r.typ.Resize(ts)
	as := fyne.MeasureText(r.arrow.Text, r.arrow.TextSize, r.arrow.TextStyle)
	r.arrow.Move(fyne.NewPos(s.Width-pad-as.Width, (s.Height-as.Height)/2))
	r.arrow.Resize(as)
}

func (r *headerRenderer) MinSize() fyne.Size {
	th := r.h.Theme()
	return fyne.NewSize(40, widgets.LineHeight(th.Size(theme.SizeNameText))+th.Size(theme.SizeNameInnerPadding))
}

func (r *headerRenderer) Refresh() {
	th := r.h.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.name.TextSize = th.Size(theme.SizeNameText)
	r.name.Color = th.Color(theme.ColorNameForeground, v)
	r.typ.TextSize = th.Size(theme.SizeNameCaptionText)
	r.typ.Color = th.Color(theme.ColorNamePlaceHolder, v)
	r.arrow.Text = r.h.arrow
	r.arrow.TextSize = th.Size(theme.SizeNameText)
	r.arrow.Color = th.Color(theme.ColorNamePrimary, v)
	r.Layout(r.size)
	r.name.Refresh()
	r.typ.Refresh()
	r.arrow.Refresh()
}

func (r *headerRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.name, r.typ, r.arrow}
}
func (r *headerRenderer) Destroy() {}
