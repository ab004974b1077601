package completionpopup

import (
	"image/color"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/completion"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// The completion popup: opened by typing (completion.AutoTrigger decides
// after each typed character) and by Ctrl+Space, anchored under the
// editor's cursor. While it is open it holds the keyboard focus of its
// overlay: Up/Down/PageUp/PageDown choose, Enter or Tab accept, Esc closes;
// typed characters and Backspace go on to the editor and the candidates
// follow the new prefix. The chosen item replaces the word at the cursor
// with Editor.ReplaceRange (one undo step). Enter is a line break, not an
// acceptance, when accepting would change nothing (the word is typed in
// full) or when a popup that opened by itself offers items for a word not
// begun yet (after "(" or ","), unless an item was chosen with the arrows:
// typing, however fast, keeps its line breaks.

// completionRows is how many candidates the popup shows at once.
const completionRows = 10

// Editor is what the popup needs of the SQL editor (editor.Editor): its
// text and cursor (byte offsets), the cursor's place on the canvas, one
// undo step replacing a range, and the keys the popup passes on.
type Editor interface {
	desktop.Keyable
	fyne.Shortcutable
	Text() string
	CursorOffset() int
	CursorScreenPosition() fyne.Position
	ReplaceRange(start, end int, text string)
}

// Host is what the popup needs of the workbench (on the UI goroutine).
type Host interface {
	// Complete returns the candidates at the editor's cursor now.
	Complete() completion.Result
	// Close closes the popup: the host hides it (Hide) and forgets it.
	Close()
	// Reopen opens a new popup at the editor's cursor (completion goes
	// on after "table." or a separator typed into the popup).
	Reopen()
}

// Popup is the open popup (a workbench shows at most one).
type Popup struct {
	host Host
	ed   Editor
	c    fyne.Canvas
	res  completion.Result
	sel  int
	top  int // first shown item
	pop  *widget.PopUp
	view *completionView

	// explicit: opened by Ctrl+Space; chosen: the selection was moved
	// with the keyboard (then Enter accepts whatever the word is).
	explicit, chosen bool

	rows   []*Row
	detail *widget.Label
	more   *widget.Label
	foot   *fyne.Container
}

// exactMatch is the index of the candidate that is the typed word itself
// (so that Enter after "FROM" keeps FROM, not FROM_BASE64), or 0.
func exactMatch(res completion.Result) int {
	for i, it := range res.Items {
		if res.Prefix != "" && strings.EqualFold(it.Label, res.Prefix) {
			return i
		}
	}
	return 0
}

// typedInFull reports whether accepting it would leave text as it is:
// the word under the cursor is its insert text already (in any case for
// keywords, types and functions, which SQL reads case-insensitively).
func typedInFull(res completion.Result, text string, it completion.Item) bool {
	if res.Start < 0 || res.End > len(text) || res.Start > res.End {
		return false
	}
	word := text[res.Start:res.End]
	if word == it.Insert {
		return true
	}
	switch it.Kind {
	case completion.KindKeyword, completion.KindType, completion.KindFunction:
		return strings.EqualFold(word, it.Insert)
	}
	return false
}

// enterIsALineBreak reports whether Enter should go to the editor as a
// new line instead of accepting the selection: accepting would change
// nothing, or the popup opened by itself where no word is begun and no
// item was chosen.
func (p *Popup) enterIsALineBreak() bool {
	if p.sel < 0 || p.sel >= len(p.res.Items) {
		return true
	}
	if typedInFull(p.res, p.ed.Text(), p.res.Items[p.sel]) {
		return true
	}
	return !p.explicit && !p.chosen && p.res.Prefix == ""
}

// TypedOneRune reports whether text is old with one character inserted
// just before byte offset off (what typing does: the workbench opens the
// popup by itself only then).
func TypedOneRune(old, text string, off int) bool {
	if off <= 0 || off > len(text) {
		return false
	}
	_, n := utf8.DecodeLastRuneInString(text[:off])
	if len(text) != len(old)+n || off-n > len(old) {
		return false
	}
	return text[:off-n] == old[:off-n] && text[off:] == old[off-n:]
}

func (p *Popup) build() {
	p.view = newCompletionView(p)
	for range completionRows {
		p.rows = append(p.rows, newRow(p))
	}
	p.detail = widget.NewLabel("")
	p.detail.Truncation = fyne.TextTruncateEllipsis
	p.detail.Importance = widget.LowImportance
	p.more = widget.NewLabel("")
	p.more.Importance = widget.LowImportance
}

func (p *Popup) content() fyne.CanvasObject {
	list := container.NewVBox()
	for _, r := range p.rows {
		list.Add(r)
	}
	p.foot = container.NewVBox(widget.NewSeparator(), p.detail, p.more)
	return container.NewStack(p.view, container.NewBorder(nil, p.foot, nil, nil, list))
}

func (p *Popup) size() fyne.Size {
	n := min(len(p.res.Items), completionRows)
	rowH := p.rows[0].MinSize().Height
	h := float32(n)*(rowH+theme.Padding()) + p.foot.MinSize().Height + theme.Padding()
	return fyne.NewSize(560, h)
}

// place anchors the popup under the cursor, or above it when it would
// leave the window.
func (p *Popup) place() {
	at := p.ed.CursorScreenPosition()
	cs := p.c.Size()
	sz := p.size()
	if at.Y+sz.Height > cs.Height {
		line := widgets.LineHeight(theme.TextSize())
		at.Y = max(0, at.Y-line-sz.Height)
	}
	if at.X+sz.Width > cs.Width {
		at.X = max(0, cs.Width-sz.Width)
	}
	p.pop.ShowAtPosition(at)
}

// render shows the items around the selection.
func (p *Popup) render() {
	n := len(p.res.Items)
	p.sel = max(0, min(p.sel, n-1))
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+completionRows {
		p.top = p.sel - completionRows + 1
	}
	p.top = max(0, min(p.top, n-completionRows))
	for i, r := range p.rows {
		k := p.top + i
		if k < n {
			r.set(k, p.res.Items[k], k == p.sel)
			r.Show()
		} else {
			r.Hide()
		}
	}
	if n > 0 {
		it := p.res.Items[p.sel]
		d := it.Kind.String()
		if it.Detail != "" && it.Detail != d {
			d += " · " + it.Detail
		}
		p.detail.SetText(d)
	}
	if n > completionRows {
		p.more.SetText(itoa(p.sel+1) + " of " + itoa(n) + " · ↑↓ choose · Enter/Tab insert · Esc close")
	} else {
		p.more.SetText("↑↓ choose · Enter/Tab insert · Esc close")
	}
	p.pop.Resize(p.size())
}

func itoa(n int) string { return widgets.GroupDigits(n) }

// move changes the selection by d.
func (p *Popup) move(d int) {
	n := len(p.res.Items)
	if n == 0 {
		return
	}
	p.sel = (p.sel + d%n + n) % n
	p.chosen = true
	p.render()
}

// accept inserts item k and closes the popup.
func (p *Popup) accept(k int) {
	if k < 0 || k >= len(p.res.Items) {
		return
	}
	it := p.res.Items[k]
	p.host.Close()
	p.ed.ReplaceRange(p.res.Start, p.res.End, it.Insert)
	p.focusEditor()
	// "table." after an alias, "fn(" and the like go on completing
	if off := p.ed.CursorOffset(); completion.AutoTrigger(p.ed.Text(), off) && strings.HasSuffix(it.Insert, ".") {
		p.host.Reopen()
	}
}

func (p *Popup) focusEditor() {
	if p.c != nil {
		p.c.Focus(p.ed)
	}
}

// update recomputes the candidates after the editor changed; the popup
// closes when nothing matches or the cursor left the word.
func (p *Popup) update() {
	res := p.host.Complete()
	if len(res.Items) == 0 || !p.explicit && len(res.Items) == 1 && typedInFull(res, p.ed.Text(), res.Items[0]) {
		p.host.Close()
		p.focusEditor()
		return
	}
	var label string
	if p.sel < len(p.res.Items) {
		label = p.res.Items[p.sel].Label
	}
	p.res, p.sel, p.top = res, exactMatch(res), 0
	if p.sel == 0 {
		for i, it := range res.Items {
			if it.Label == label {
				p.sel = i
				break
			}
		}
	}
	p.render()
	p.place()
}

// typed forwards a character to the editor.
func (p *Popup) typed(r rune) {
	p.ed.TypedRune(r)
	if isWordRune(r) {
		p.update()
		return
	}
	// a separator ends the word: close, and reopen where typing would
	p.host.Close()
	if completion.AutoTrigger(p.ed.Text(), p.ed.CursorOffset()) {
		p.host.Reopen()
	}
}

func isWordRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// key handles a navigation or editing key.
func (p *Popup) key(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyUp:
		p.move(-1)
	case fyne.KeyDown:
		p.move(1)
	case fyne.KeyPageUp:
		p.sel = max(0, p.sel-(completionRows-1))
		p.chosen = true
		p.render()
	case fyne.KeyPageDown:
		p.sel = min(len(p.res.Items)-1, p.sel+completionRows-1)
		p.chosen = true
		p.render()
	case fyne.KeyReturn, fyne.KeyEnter:
		if p.enterIsALineBreak() {
			p.host.Close()
			p.focusEditor()
			p.ed.TypedKey(ev)
			return
		}
		p.accept(p.sel)
	case fyne.KeyTab:
		p.accept(p.sel)
	case fyne.KeyEscape:
		p.host.Close()
		p.focusEditor()
	case fyne.KeyBackspace:
		p.ed.TypedKey(ev)
		if p.ed.CursorOffset() < p.res.Start || p.ed.CursorOffset() == 0 {
			p.host.Close()
			return
		}
		p.update()
	case fyne.KeyLeft, fyne.KeyRight, fyne.KeyHome, fyne.KeyEnd, fyne.KeyDelete:
		// the cursor leaves the word: the editor moves it, the popup closes
		p.host.Close()
		p.focusEditor()
		p.ed.TypedKey(ev)
	default:
		// Fyne reports every key, letters too, before the character
		// (TypedRune, which follows); the editor ignores those.
		p.ed.TypedKey(ev)
	}
}

// completionView is the popup's keyboard receiver (focusable, invisible).
type completionView struct {
	widget.BaseWidget
	p *Popup
}

var (
	_ fyne.Focusable    = (*completionView)(nil)
	_ fyne.Shortcutable = (*completionView)(nil)
	_ fyne.Tabbable     = (*completionView)(nil)
	_ desktop.Keyable   = (*completionView)(nil)
)

func newCompletionView(p *Popup) *completionView {
	v := &completionView{p: p}
	v.ExtendBaseWidget(v)
	return v
}

func (v *completionView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// FocusGained implements fyne.Focusable.
func (v *completionView) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (v *completionView) FocusLost() {}

// TypedRune forwards the character to the editor.
func (v *completionView) TypedRune(r rune) { v.p.typed(r) }

// TypedKey navigates, accepts or closes.
func (v *completionView) TypedKey(ev *fyne.KeyEvent) { v.p.key(ev) }

// KeyDown and KeyUp go on to the editor, which tracks Shift with them (a
// Shift released while the popup is open must reach it).
func (v *completionView) KeyDown(ev *fyne.KeyEvent) { v.p.ed.KeyDown(ev) }

// KeyUp: see KeyDown.
func (v *completionView) KeyUp(ev *fyne.KeyEvent) { v.p.ed.KeyUp(ev) }

// AcceptsTab makes Tab accept the selection instead of moving the focus.
func (v *completionView) AcceptsTab() bool { return true }

// TypedShortcut: Ctrl+Space recomputes; other shortcuts close the popup
// and go to the editor (Ctrl+Enter runs, Ctrl+Z undoes, …).
func (v *completionView) TypedShortcut(s fyne.Shortcut) {
	p := v.p
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.KeyName == fyne.KeySpace {
		p.update()
		return
	}
	p.host.Close()
	p.focusEditor()
	p.ed.TypedShortcut(s)
}

// Row is one candidate: kind tag, label and detail; a tap inserts it.
// Its texts are exported for the workbench's tests.
type Row struct {
	widget.BaseWidget
	p      *Popup
	k      int
	bg     *canvas.Rectangle
	kind   *canvas.Text
	label  *canvas.Text
	detail *canvas.Text
}

var _ fyne.Tappable = (*Row)(nil)

func newRow(p *Popup) *Row {
	r := &Row{p: p, bg: canvas.NewRectangle(color.Transparent),
		kind: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)), label: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		detail: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder))}
	r.kind.TextSize = theme.CaptionTextSize()
	r.label.TextStyle = fyne.TextStyle{Monospace: true}
	r.detail.TextStyle = fyne.TextStyle{}
	r.detail.TextSize = theme.CaptionTextSize()
	// proportional: the monospace font at this size drops "_" (DATE_FORMAT
	// showed as "DATE FORMAT")
	r.ExtendBaseWidget(r)
	return r
}

func (r *Row) set(k int, it completion.Item, selected bool) {
	r.k = k
	r.kind.Text = it.Kind.String()
	r.label.Text = it.Label
	r.detail.Text = it.Detail
	if selected {
		r.bg.FillColor = theme.Color(theme.ColorNameSelection)
	} else {
		r.bg.FillColor = color.Transparent
	}
	r.Refresh()
}

// Tapped inserts the candidate.
func (r *Row) Tapped(*fyne.PointEvent) { r.p.accept(r.k) }

func (r *Row) CreateRenderer() fyne.WidgetRenderer {
	return &completionRowRenderer{r: r}
}

type completionRowRenderer struct{ r *Row }

func (rr *completionRowRenderer) Layout(s fyne.Size) {
	r := rr.r
	pad := theme.InnerPadding() / 2
	r.bg.Resize(s)
	kw := fyne.MeasureText("function", r.kind.TextSize, r.kind.TextStyle).Width
	r.kind.Move(fyne.NewPos(pad, (s.Height-r.kind.MinSize().Height)/2))
	lx := pad + kw + pad
	r.label.Move(fyne.NewPos(lx, (s.Height-r.label.MinSize().Height)/2))
	lw := r.label.MinSize().Width
	dx := lx + lw + 2*pad
	r.detail.Text = widgets.FitText(r.detail.Text, s.Width-dx-pad, r.detail.TextSize)
	r.detail.Move(fyne.NewPos(dx, (s.Height-r.detail.MinSize().Height)/2))
}

func (rr *completionRowRenderer) MinSize() fyne.Size {
	h := rr.r.label.MinSize().Height + theme.InnerPadding()/2
	return fyne.NewSize(200, h)
}

func (rr *completionRowRenderer) Refresh() {
	r := rr.r
	r.kind.Color = theme.Color(theme.ColorNamePlaceHolder)
	r.label.Color = theme.Color(theme.ColorNameForeground)
	r.detail.Color = theme.Color(theme.ColorNamePlaceHolder)
	rr.Layout(r.Size())
	for _, o := range rr.Objects() {
		o.Refresh()
	}
}

func (rr *completionRowRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{rr.r.bg, rr.r.kind, rr.r.label, rr.r.detail}
}

func (rr *completionRowRenderer) Destroy() {}

// Open builds the popup for res over canvas c, with the typed word's own
// candidate selected; Show shows it under the editor's cursor. explicit:
// opened by Ctrl+Space.
func Open(c fyne.Canvas, ed Editor, res completion.Result, explicit bool, host Host) *Popup {
	p := &Popup{host: host, ed: ed, c: c, res: res, sel: exactMatch(res), explicit: explicit}
	p.build()
	p.pop = widget.NewPopUp(p.content(), c)
	p.pop.Resize(p.size())
	return p
}

// Show places and shows the popup and focuses it (after the host has
// recorded it as the open one).
func (p *Popup) Show() {
	p.place()
	p.pop.Show()
	p.c.Focus(p.view)
	p.render()
}

// Hide hides the popup.
func (p *Popup) Hide() { p.pop.Hide() }

// Visible reports whether the popup is shown.
func (p *Popup) Visible() bool { return p.pop.Visible() }

// Editor is the editor the popup completes in.
func (p *Popup) Editor() Editor { return p.ed }

// PopUp is the overlay showing the popup.
func (p *Popup) PopUp() *widget.PopUp { return p.pop }

// Focus is the popup's keyboard receiver, focused while it is open.
func (p *Popup) Focus() fyne.Focusable { return p.view }

// Result is the candidates shown.
func (p *Popup) Result() completion.Result { return p.res }

// Selected is the index of the selected candidate in Result().Items.
func (p *Popup) Selected() int { return p.sel }

// Detail is the line under the list describing the selection.
func (p *Popup) Detail() string { return p.detail.Text }

// Rows are the list's rows (the shown ones are Visible).
func (p *Popup) Rows() []*Row { return p.rows }

// Label is the candidate's label drawn in the row.
func (r *Row) Label() string { return r.label.Text }

// DetailText is the row's detail text (a function's signature).
func (r *Row) DetailText() *canvas.Text { return r.detail }

// Background is the row's background (the selection colour when
// selected).
func (r *Row) Background() *canvas.Rectangle { return r.bg }
