package editor

import (
	"image/color"
	"math"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// background kinds of a text cell, in increasing priority.
type bgKind uint8

const (
	bgNone bgKind = iota
	bgMatch
	bgError
	bgFlash
	bgSelection
	numBGs
)

// styleKey identifies a cell style; styles are shared between cells.
type styleKey struct {
	fg tokenClass
	bg bgKind
}

// gutter cell styles.
const (
	gutterNumber = iota
	gutterCurrent
	gutterMarker
	numGutterStyles
)

// editorRenderer draws an Editor: backgrounds, the TextGrid holding only the
// visible cells (gutter included), the cursor, scroll bars and the find bar.
type editorRenderer struct {
	e *Editor

	background, gutterBG, currentLine *canvas.Rectangle
	grid                              *widget.TextGrid
	cursor                            *canvas.Rectangle
	vbar, hbar                        *scrollBar
	findBar                           *findBar
	objects                           []fyne.CanvasObject

	blink    *fyne.Animation
	blinking bool
	// parked: the cursor stopped blinking after blinkTimeout without
	// activity and stays drawn until the next key, click or focus
	parked    bool
	blinkFrom time.Time // when the focus last arrived (blinking counts from it too)

	tipBG   *canvas.Rectangle
	tipText *canvas.Text

	// Geometry from the last layout.
	size       fyne.Size
	cell       fyne.Size
	area       fyne.Position // top-left of the text area (below the find bar)
	areaSize   fyne.Size
	gutterCols int // cells taken by the gutter (marker, digits, padding)
	textCols   int // visible text cells
	viewRows   int // rows drawn, including a partial one
	fullRows   int // rows fully visible

	pal      palette
	themeKey themeKey // what the colours below were computed for
	styles   map[styleKey]*widget.CustomTextGridStyle
	gutter   [numGutterStyles]*widget.CustomTextGridStyle
	bgs      [numBGs]color.Color
	themeFG  color.Color
}

func newEditorRenderer(e *Editor) *editorRenderer {
	r := &editorRenderer{
		e:           e,
		background:  canvas.NewRectangle(color.Transparent),
		gutterBG:    canvas.NewRectangle(color.Transparent),
		currentLine: canvas.NewRectangle(color.Transparent),
		grid:        widget.NewTextGrid(),
		cursor:      canvas.NewRectangle(color.Transparent),
		tipBG:       canvas.NewRectangle(color.Transparent),
		tipText:     canvas.NewText("", color.Transparent),
	}
	r.tipBG.Hide()
	r.tipText.Hide()
	r.grid.Scroll = fyne.ScrollNone
	r.vbar = newScrollBar(e, true)
	r.hbar = newScrollBar(e, false)
	r.findBar = newFindBar(e)
	r.findBar.Hide()
	r.cursor.Hide()
	r.objects = []fyne.CanvasObject{r.background, r.currentLine, r.gutterBG, r.grid, r.cursor, r.vbar, r.hbar, r.findBar, r.tipBG, r.tipText}
	r.blink = fyne.NewAnimation(time.Second, r.blinkTick)
	r.blink.RepeatCount = fyne.AnimationRepeatForever
	r.blink.Curve = fyne.AnimationLinear
	r.applyTheme()
	return r
}

// blinkTimeout is how long the cursor blinks after the last key, click or
// focus; then it stays drawn and the blinking stops until the next one, as
// GTK's gtk-cursor-blink-timeout (10 s) does. Each blink repaints the whole
// window, which an idle workbench on a software-rendered display (Xvfb, a
// remote desktop) would otherwise pay for twice a second.
const blinkTimeout = 10 * time.Second

// blinkTick shows the cursor for the first half of every second, and always
// shortly after typing or moving; after blinkTimeout without activity it
// parks the cursor, drawn, and stops the animation.
func (r *editorRenderer) blinkTick(p float32) {
	since := time.Since(r.e.lastActivity)
	if f := time.Since(r.blinkFrom); f < since {
		since = f
	}
	visible := p < 0.5 || p >= 1 || since < 600*time.Millisecond
	if since >= blinkTimeout {
		visible = true
		r.parked = true
		r.blinking = false
		r.blink.Stop()
	}
	if !r.e.focused || !r.cursorInView() {
		visible = false
	}
	if visible == r.cursor.Visible() {
		return
	}
	if visible {
		r.cursor.Show()
	} else {
		r.cursor.Hide()
	}
	r.cursor.Refresh()
}

// themeKey identifies the theme state the renderer's colours were built for.
type themeKey struct {
	th       fyne.Theme
	v        fyne.ThemeVariant
	bg, fg   color.Color
	textSize float32
}

// applyTheme reads colours and the cell size from the current theme; it does
// nothing when the theme did not change since the last call.
func (r *editorRenderer) applyTheme() {
	th := r.e.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	key := themeKey{th, v, th.Color(theme.ColorNameBackground, v), th.Color(theme.ColorNameForeground, v), th.Size(theme.SizeNameText)}
	if key == r.themeKey && r.styles != nil {
		return
	}
	r.themeKey = key
	r.pal = paletteFor(th, v)
	r.themeFG = th.Color(theme.ColorNameForeground, v)
	r.bgs = [numBGs]color.Color{
		bgNone:      nil,
		bgMatch:     withAlpha(th.Color(theme.ColorNameWarning, v), 0x55),
		bgError:     withAlpha(th.Color(theme.ColorNameError, v), 0x66),
		bgFlash:     withAlpha(th.Color(theme.ColorNameSuccess, v), 0x50),
		bgSelection: th.Color(theme.ColorNameSelection, v),
	}
	r.styles = map[styleKey]*widget.CustomTextGridStyle{}
	r.gutter[gutterNumber] = &widget.CustomTextGridStyle{FGColor: th.Color(theme.ColorNamePlaceHolder, v)}
	r.gutter[gutterCurrent] = &widget.CustomTextGridStyle{FGColor: r.themeFG}
	r.gutter[gutterMarker] = &widget.CustomTextGridStyle{FGColor: th.Color(theme.ColorNameError, v), TextStyle: fyne.TextStyle{Bold: true}}

	bg := th.Color(theme.ColorNameInputBackground, v)
	r.background.FillColor = bg
	r.gutterBG.FillColor = th.Color(theme.ColorNameBackground, v)
	r.currentLine.FillColor = withAlpha(r.themeFG, 0x0f)
	r.cursor.FillColor = r.themeFG

	// The same measurement TextGrid uses, so overlays line up with cells.
	sz := fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{Monospace: true})
	r.cell = fyne.NewSize(float32(math.Round(float64(sz.Width))), float32(math.Round(float64(sz.Height))))
}

func (r *editorRenderer) style(fg tokenClass, bg bgKind) *widget.CustomTextGridStyle {
	k := styleKey{fg, bg}
	s := r.styles[k]
	if s == nil {
		s = &widget.CustomTextGridStyle{FGColor: r.pal[fg], BGColor: r.bgs[bg]}
		r.styles[k] = s
	}
	return s
}

// Layout places the parts and recomputes how many rows and columns fit.
func (r *editorRenderer) Layout(size fyne.Size) {
	r.size = size
	r.background.Resize(size)
	findH := float32(0)
	if r.findBar.Visible() {
		findH = r.findBar.MinSize().Height
		r.findBar.Move(fyne.NewPos(0, 0))
		r.findBar.Resize(fyne.NewSize(size.Width, findH))
	}
	r.area = fyne.NewPos(0, findH)
	r.areaSize = fyne.NewSize(size.Width, max(0, size.Height-findH))
	r.updateGeometry()
	if r.e.scrollPending && r.fullRows > 0 {
		r.e.scrollToCursor()
	}
	r.updateContent()
}

// updateGeometry derives rows, columns and the gutter width.
func (r *editorRenderer) updateGeometry() {
	if r.cell.Width <= 0 || r.cell.Height <= 0 {
		return
	}
	r.fullRows = int(r.areaSize.Height / r.cell.Height)
	r.viewRows = int(math.Ceil(float64(r.areaSize.Height / r.cell.Height)))
	digits := max(3, len(strconv.Itoa(len(r.e.buf.lines))))
	r.gutterCols = 1 + digits + 2 // marker, number, gap, padding
	r.textCols = max(1, int(math.Ceil(float64(r.areaSize.Width/r.cell.Width)))-r.gutterCols)
}

// MinSize is a few lines of a few characters.
func (r *editorRenderer) MinSize() fyne.Size {
	return fyne.NewSize(r.cell.Width*20, r.cell.Height*3)
}

// Refresh re-reads the theme and redraws the visible cells.
func (r *editorRenderer) Refresh() {
	r.applyTheme()
	r.background.Refresh()
	r.gutterBG.Refresh()
	if r.e.find.visible != r.findBar.Visible() {
		if r.e.find.visible {
			r.findBar.Show()
		} else {
			r.findBar.Hide()
		}
		r.Layout(r.size)
	} else {
		r.updateGeometry()
		r.updateContent()
	}
	if r.findBar.Visible() {
		r.findBar.refreshStatus()
	}
}

// Objects returns the canvas objects of the editor.
func (r *editorRenderer) Objects() []fyne.CanvasObject {
	return r.objects
}

// Destroy stops the cursor animation.
func (r *editorRenderer) Destroy() {
	r.blink.Stop()
}

// wakeBlink starts the cursor blinking again after a key, click or focus
// (parked by blinkTick after blinkTimeout).
func (r *editorRenderer) wakeBlink(focus bool) {
	if focus {
		r.blinkFrom = time.Now()
	}
	r.parked = false
	if r.e.focused && !r.blinking {
		r.blinking = true
		r.blink.Start()
	}
}

// cellPos returns the position of the cell of p relative to the editor.
func (r *editorRenderer) cellPos(p pos) fyne.Position {
	e := r.e
	vc := 0
	if p.line >= 0 && p.line < len(e.buf.lines) {
		vc = visualCol(e.buf.lines[p.line].text, p.col)
	}
	return fyne.NewPos(
		r.area.X+float32(r.gutterCols+vc-e.left)*r.cell.Width,
		r.area.Y+float32(p.line-e.top)*r.cell.Height)
}

// posAt returns the document position under a point relative to the editor.
func (r *editorRenderer) posAt(pt fyne.Position) pos {
	e := r.e
	if r.cell.Height <= 0 {
		return e.sel.cursor
	}
	row := int(math.Floor(float64((pt.Y - r.area.Y) / r.cell.Height)))
	l := max(0, min(e.top+row, len(e.buf.lines)-1))
	if e.top+row < 0 {
		return pos{}
	}
	if e.top+row >= len(e.buf.lines) {
		return e.buf.end()
	}
	x := (pt.X-r.area.X)/r.cell.Width - float32(r.gutterCols) + float32(e.left)
	if x < 0 {
		return pos{l, 0}
	}
	return pos{l, runeColForVisual(e.buf.lines[l].text, x, true)}
}

// inGutter reports whether a point relative to the editor is over the gutter.
func (r *editorRenderer) inGutter(pt fyne.Position) bool {
	return pt.Y >= r.area.Y && pt.X < r.area.X+float32(r.gutterCols-1)*r.cell.Width
}

func (r *editorRenderer) cursorInView() bool {
	c := r.e.sel.cursor
	if c.line < r.e.top || c.line >= r.e.top+r.viewRows {
		return false
	}
	vc := visualCol(r.e.buf.lines[c.line].text, c.col)
	return vc >= r.e.left && vc <= r.e.left+r.textCols
}

// updateContent fills the grid with the visible part of the document and
// moves the overlays.
func (r *editorRenderer) updateContent() {
	e := r.e
	if r.viewRows <= 0 {
		return
	}
	e.clampScroll()
	gridSize := fyne.NewSize(r.areaSize.Width, float32(r.viewRows)*r.cell.Height)
	r.grid.Move(r.area)
	if r.grid.Size() != gridSize {
		r.grid.Resize(gridSize)
	}
	gutterW := float32(r.gutterCols-1) * r.cell.Width
	r.gutterBG.Move(r.area)
	r.gutterBG.Resize(fyne.NewSize(gutterW, r.areaSize.Height))

	r.fillRows()
	r.grid.Refresh()

	// Current line band and cursor.
	c := e.sel.cursor
	if c.line >= e.top && c.line < e.top+r.viewRows {
		r.currentLine.Show()
		r.currentLine.Move(fyne.NewPos(r.area.X+gutterW, r.area.Y+float32(c.line-e.top)*r.cell.Height))
		r.currentLine.Resize(fyne.NewSize(r.areaSize.Width-gutterW, r.cell.Height))
	} else {
		r.currentLine.Hide()
	}
	cp := r.cellPos(c)
	r.cursor.Move(fyne.NewPos(cp.X-1, cp.Y))
	r.cursor.Resize(fyne.NewSize(2, r.cell.Height))
	if e.focused && !r.blinking && !r.parked {
		// Focus may have arrived before the renderer existed.
		r.blinking = true
		r.blinkFrom = time.Now()
		r.blink.Start()
	}
	if e.focused && r.cursorInView() {
		r.cursor.Show()
	} else {
		r.cursor.Hide()
	}
	r.cursor.Refresh()
	r.currentLine.Refresh()

	// Scroll bars overlay the right and bottom edges.
	bw := theme.Size(theme.SizeNameScrollBar) * 0.6
	r.vbar.set(e.maxTop(r.fullRows)+r.fullRows, r.fullRows, e.top)
	r.vbar.Move(fyne.NewPos(r.area.X+r.areaSize.Width-bw, r.area.Y))
	r.vbar.Resize(fyne.NewSize(bw, r.areaSize.Height))
	r.hbar.set(e.buf.widest+4, r.textCols, e.left)
	r.hbar.Move(fyne.NewPos(r.area.X+gutterW, r.area.Y+r.areaSize.Height-bw))
	r.hbar.Resize(fyne.NewSize(r.areaSize.Width-gutterW-bw, bw))
}

// fillRows writes the visible cells into the grid's rows.
func (r *editorRenderer) fillRows() {
	e := r.e
	g := r.grid
	if cap(g.Rows) < r.viewRows {
		g.Rows = make([]widget.TextGridRow, r.viewRows)
	}
	g.Rows = g.Rows[:r.viewRows]
	selA, selB := order(e.sel.anchor, e.sel.cursor)
	hasSel := selA != selB
	digits := r.gutterCols - 3
	var numBuf [20]byte
	for row := 0; row < r.viewRows; row++ {
		l := e.top + row
		cells := g.Rows[row].Cells[:0]
		if l >= len(e.buf.lines) {
			g.Rows[row].Cells = cells
			continue
		}
		// Gutter: marker, right-aligned line number, two blanks.
		marker := widget.TextGridCell{Rune: ' '}
		for _, m := range e.errors {
			if m.Line == l {
				marker = widget.TextGridCell{Rune: '●', Style: r.gutter[gutterMarker]}
				break
			}
		}
		cells = append(cells, marker)
		num := strconv.AppendInt(numBuf[:0], int64(l+1), 10)
		ns := r.gutter[gutterNumber]
		if l == e.sel.cursor.line {
			ns = r.gutter[gutterCurrent]
		}
		for i := len(num); i < digits; i++ {
			cells = append(cells, widget.TextGridCell{Rune: ' ', Style: ns})
		}
		for _, b := range num {
			cells = append(cells, widget.TextGridCell{Rune: rune(b), Style: ns})
		}
		cells = append(cells, widget.TextGridCell{Rune: ' '}, widget.TextGridCell{Rune: ' '})

		cells = r.appendLineCells(cells, l, hasSel, selA, selB)
		g.Rows[row].Cells = cells
	}
	e.buf.trimCache(e.top-r.viewRows, e.top+2*r.viewRows)
}

// appendLineCells appends the visible cells of line l.
func (r *editorRenderer) appendLineCells(cells []widget.TextGridCell, l int, hasSel bool, selA, selB pos) []widget.TextGridCell {
	e := r.e
	text := e.buf.lines[l].text
	spans := e.buf.highlight(l)
	matches := r.e.find.matchesOn(e, l)
	var errA, errB int = -1, -1
	for _, m := range e.errors {
		if m.Line == l {
			errA, errB = markerBounds(e.buf, m)
			break
		}
	}
	// Per-line column ranges of the overlays.
	rangeOn := func(a, b pos) (int, int) {
		if l < a.line || l > b.line {
			return -1, -1
		}
		s, t := 0, math.MaxInt
		if l == a.line {
			s = a.col
		}
		if l == b.line {
			t = b.col
		}
		return s, t
	}
	sa, sb := -1, -1
	if hasSel {
		sa, sb = rangeOn(selA, selB)
	}
	fa, fb := -1, -1
	if e.flash.active {
		fa, fb = rangeOn(e.flash.start, e.flash.end)
	}
	left, right := e.left, e.left+r.textCols
	vc, col, si, mi := 0, 0, 0, 0
	for _, ch := range text {
		if vc >= right {
			break
		}
		w := 1
		if ch == '\t' {
			w = tabWidth - vc%tabWidth
			ch = ' '
		}
		for si < len(spans) && spans[si].end <= col {
			si++
		}
		class := classPlain
		if si < len(spans) && spans[si].start <= col {
			class = spans[si].class
		}
		for mi < len(matches) && matches[mi][1] <= col {
			mi++
		}
		bg := bgNone
		switch {
		case col >= sa && col < sb:
			bg = bgSelection
		case col >= fa && col < fb:
			bg = bgFlash
		case col >= errA && col < errB:
			bg = bgError
		case mi < len(matches) && matches[mi][0] <= col:
			bg = bgMatch
		}
		var st widget.TextGridStyle
		if class != classPlain || bg != bgNone {
			st = r.style(class, bg)
		}
		for k := 0; k < w; k++ {
			if vc >= left && vc < right {
				cells = append(cells, widget.TextGridCell{Rune: ch, Style: st})
			}
			vc++
		}
		col++
	}
	// A selection or flash that continues past the line end shows one cell
	// for the line break.
	if vc >= left && vc < right && l < len(e.buf.lines)-1 {
		switch {
		case hasSel && sb > col && sa <= col:
			cells = append(cells, widget.TextGridCell{Rune: ' ', Style: r.style(classPlain, bgSelection)})
		case fb > col && fa <= col && fa >= 0:
			cells = append(cells, widget.TextGridCell{Rune: ' ', Style: r.style(classPlain, bgFlash)})
		}
	}
	return cells
}

// errorTokenBounds returns the rune columns of the token at (l, col) that an
// error marker underlines: the word there, or the single character, or the
// last character when col is at or past the line end.
// markerBounds is the rune range a marker highlights on its line: its
// span, or the token at its column.
func markerBounds(b *buffer, m ErrorMarker) (int, int) {
	if m.EndCol > m.Col {
		n := b.lineLen(m.Line)
		return min(m.Col, n), min(m.EndCol, n)
	}
	return errorTokenBounds(b, m.Line, m.Col)
}

func errorTokenBounds(b *buffer, l, col int) (int, int) {
	n := b.lineLen(l)
	if n == 0 {
		return 0, 0
	}
	col = min(col, n-1)
	if isWordRune(b.runeAt(l, col)) {
		return b.wordBounds(l, col)
	}
	return col, col + 1
}

// showTooltip shows msg in a small box near the local point at, or hides
// the box when msg is empty.
func (r *editorRenderer) showTooltip(msg string, at fyne.Position) {
	if msg == "" {
		if r.tipBG.Visible() {
			r.tipBG.Hide()
			r.tipText.Hide()
		}
		return
	}
	th := r.e.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	pad := th.Size(theme.SizeNamePadding)
	r.tipText.Text = msg
	r.tipText.Color = th.Color(theme.ColorNameForeground, v)
	r.tipText.TextSize = th.Size(theme.SizeNameCaptionText) + 1
	r.tipBG.FillColor = th.Color(theme.ColorNameOverlayBackground, v)
	r.tipBG.StrokeColor = th.Color(theme.ColorNameError, v)
	r.tipBG.StrokeWidth = 1
	r.tipBG.CornerRadius = pad
	ts := r.tipText.MinSize()
	box := fyne.NewSize(ts.Width+2*pad, ts.Height+pad)
	p := at.Add(fyne.NewPos(r.cell.Width, r.cell.Height))
	p.X = max(0, min(p.X, r.size.Width-box.Width))
	if p.Y+box.Height > r.size.Height {
		p.Y = at.Y - r.cell.Height - box.Height
	}
	r.tipBG.Move(p)
	r.tipBG.Resize(box)
	r.tipText.Move(p.Add(fyne.NewPos(pad, pad/2)))
	r.tipBG.Show()
	r.tipText.Show()
	r.tipBG.Refresh()
	r.tipText.Refresh()
}
