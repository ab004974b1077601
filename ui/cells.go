package ui

import (
	"image/color"
	"strings"
	"sync"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// cellKind selects how a grid cell is drawn.
type cellKind uint8

const (
	cellText    cellKind = iota // a value
	cellNull                    // SQL NULL: dimmed italic "NULL"
	cellRowNum                  // the row number column
	cellOpPlus                  // +I / +U
	cellOpMinus                 // -U / -D
)

// gridCell is one cell of the result grid: a background (selection) and one
// line of monospaced text, cut with "…" to the cell's width. It is far
// cheaper to update than a Label, which matters because a grid refresh
// updates every visible cell.
type gridCell struct {
	widget.BaseWidget
	id       widget.TableCellID // the cell it shows now (for tests)
	grid     *resultGrid        // authoring hook: right-click actions (grid_actions.go)
	text     string
	kind     cellKind
	align    fyne.TextAlign
	selected bool
}

func newGridCell() *gridCell {
	c := &gridCell{}
	c.ExtendBaseWidget(c)
	return c
}

// set updates the cell and redraws it only when something changed.
func (c *gridCell) set(text string, kind cellKind, align fyne.TextAlign, selected bool) {
	if c.text == text && c.kind == kind && c.align == align && c.selected == selected {
		return
	}
	c.text, c.kind, c.align, c.selected = text, kind, align, selected
	c.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (c *gridCell) CreateRenderer() fyne.WidgetRenderer {
	r := &gridCellRenderer{c: c, bg: canvas.NewRectangle(color.Transparent), txt: canvas.NewText("", nil)}
	r.txt.TextStyle.Monospace = true
	r.Refresh()
	return r
}

type gridCellRenderer struct {
	c    *gridCell
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
	r.txt.Text = fitText(r.display(), avail, r.txt.TextSize)
	// Arithmetic instead of MeasureText: the font is monospaced, and a
	// refresh places every visible cell.
	ts := fyne.NewSize(float32(cellsOf(r.txt.Text))*charWidth(r.txt.TextSize), lineHeight(r.txt.TextSize))
	y := (r.size.Height - ts.Height) / 2
	x := pad
	if r.c.align == fyne.TextAlignTrailing {
		x = r.size.Width - pad - ts.Width
	}
	r.txt.Move(fyne.NewPos(x, y))
	r.txt.Resize(ts)
}

func (r *gridCellRenderer) display() string {
	if r.c.kind == cellNull {
		return "NULL"
	}
	return displayText(r.c.text)
}

func (r *gridCellRenderer) MinSize() fyne.Size {
	th := r.c.Theme()
	return fyne.NewSize(40, lineHeight(th.Size(theme.SizeNameText))+th.Size(theme.SizeNameInnerPadding))
}

func (r *gridCellRenderer) Refresh() {
	th := r.c.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.txt.TextSize = th.Size(theme.SizeNameText)
	r.txt.TextStyle = fyne.TextStyle{Monospace: true, Italic: r.c.kind == cellNull}
	switch r.c.kind {
	case cellNull, cellRowNum:
		r.txt.Color = th.Color(theme.ColorNamePlaceHolder, v)
	case cellOpPlus:
		r.txt.Color = th.Color(theme.ColorNameSuccess, v)
	case cellOpMinus:
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

// monoMetrics caches the width of one monospaced character and the line
// height per text size.
var monoMetrics sync.Map // float32 -> fyne.Size

func monoCell(size float32) fyne.Size {
	if m, ok := monoMetrics.Load(size); ok {
		return m.(fyne.Size)
	}
	m := fyne.MeasureText("0000000000", size, fyne.TextStyle{Monospace: true})
	m.Width /= 10
	monoMetrics.Store(size, m)
	return m
}

func charWidth(size float32) float32  { return monoCell(size).Width }
func lineHeight(size float32) float32 { return monoCell(size).Height }

// cellsOf is the number of monospaced cells s takes: East Asian wide
// characters and emoji take two.
func cellsOf(s string) int {
	n := 0
	for _, r := range s {
		n += runeCells(r)
	}
	return n
}

func runeCells(r rune) int {
	if r < 0x1100 {
		return 1
	}
	switch {
	case r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60,
		r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// fitText cuts s with "…" so that it fits width at the monospaced size.
func fitText(s string, width, size float32) string {
	cw := charWidth(size)
	if cw <= 0 {
		return s
	}
	maxCells := int(width / cw)
	if len(s) <= maxCells && isASCII(s) {
		return s
	}
	if cellsOf(s) <= maxCells {
		return s
	}
	if maxCells <= 1 {
		return "…"
	}
	n := 0
	for i, r := range s {
		w := runeCells(r)
		if n+w > maxCells-1 {
			return s[:i] + "…"
		}
		n += w
	}
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// headerCell is a column header: the name in bold, the Flink type dimmed,
// and the sort arrow. Tapping it sorts by the column.
type headerCell struct {
	widget.BaseWidget
	grid  *resultGrid
	col   int
	name  string
	typ   string
	arrow string
}

var _ fyne.Tappable = (*headerCell)(nil)

func newHeaderCell(g *resultGrid) *headerCell {
	h := &headerCell{grid: g}
	h.ExtendBaseWidget(h)
	return h
}

func (h *headerCell) set(col int, name, typ, arrow string) {
	if h.col == col && h.name == name && h.typ == typ && h.arrow == arrow {
		return
	}
	h.col, h.name, h.typ, h.arrow = col, name, typ, arrow
	h.Refresh()
}

// Tapped sorts by the column.
func (h *headerCell) Tapped(*fyne.PointEvent) {
	if h.grid != nil {
		h.grid.headerTapped(h.col)
	}
}

// CreateRenderer implements fyne.Widget.
func (h *headerCell) CreateRenderer() fyne.WidgetRenderer {
	r := &headerRenderer{h: h, name: canvas.NewText("", nil), typ: canvas.NewText("", nil), arrow: canvas.NewText("", nil)}
	r.name.TextStyle = fyne.TextStyle{Bold: true}
	r.Refresh()
	return r
}

type headerRenderer struct {
	h                *headerCell
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
	return fyne.NewSize(40, lineHeight(th.Size(theme.SizeNameText))+th.Size(theme.SizeNameInnerPadding))
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
