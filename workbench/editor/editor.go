package editor

import (
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Interface conformance.
var (
	_ fyne.Widget            = (*Editor)(nil)
	_ fyne.Focusable         = (*Editor)(nil)
	_ fyne.Tabbable          = (*Editor)(nil)
	_ fyne.Shortcutable      = (*Editor)(nil)
	_ fyne.Draggable         = (*Editor)(nil)
	_ fyne.DoubleTappable    = (*Editor)(nil)
	_ fyne.Scrollable        = (*Editor)(nil)
	_ fyne.SecondaryTappable = (*Editor)(nil)
	_ desktop.Keyable        = (*Editor)(nil)
	_ desktop.Mouseable      = (*Editor)(nil)
	_ desktop.Hoverable      = (*Editor)(nil)
	_ desktop.Cursorable     = (*Editor)(nil)
)

// indentUnit is what Tab inserts and Shift+Tab removes.
const indentUnit = "    "

// ErrorMarker marks a position that the engine reported an error at.
type ErrorMarker struct {
	// Line and Col are 0-based; Col counts runes. Parsers that report
	// 1-based positions (as Flink does) must subtract one from both.
	Line, Col int
	// EndCol, when greater than Col, ends the span the error covers on
	// Line (exclusive, in runes): "From line 1, column 40 to line 1,
	// column 55" marks 39..55. Otherwise the token at Col is marked.
	EndCol int
	// Message is the error text, shown as a tooltip on the marker.
	Message string
}

// Editor is a multi-line SQL editor with Flink SQL highlighting, line
// numbers, undo, find/replace and run hooks. Create it with [New].
//
// All methods must be called on the Fyne UI goroutine, and all callbacks are
// invoked there.
type Editor struct {
	widget.BaseWidget

	// OnChanged is called after every change of the text, with the new
	// text. Building that string costs O(size of the script); keep the
	// handler cheap (for example mark the tab dirty and save later).
	OnChanged func(text string)
	// OnCursorMoved is called when the cursor moves, with its 0-based line
	// and rune column.
	OnCursorMoved func(line, col int)
	// OnRunStatement is called for Ctrl+Enter with the selected text, or the
	// statement under the cursor when nothing is selected, and the byte
	// offset of stmt in Text(). It is not called when there is no statement.
	// The handler typically calls HighlightRange(startOffset,
	// startOffset+len(stmt), …) to show what runs.
	OnRunStatement func(stmt string, startOffset int)
	// OnRunAll is called for Ctrl+Shift+Enter with the whole script.
	OnRunAll func(script string)
	// OnCancel is called for Esc (when the find bar is not open).
	OnCancel func()
	// OnExplain is called for Ctrl+E with the same statement Ctrl+Enter
	// would run.
	OnExplain func(stmt string, startOffset int)
	// OnFormat is called for Ctrl+Shift+F. The handler may use Selection
	// and ReplaceRange (undoable) to format the selection or the script.
	OnFormat func()
	// OnComplete is called for Ctrl+Space. The handler may use
	// WordBeforeCursor, CursorScreenPosition and ReplaceRange.
	OnComplete func()

	// Splitter finds the statements of the script for Ctrl+Enter and
	// Ctrl+E. Nil means DefaultSplitter.
	Splitter Splitter

	buf  *buffer
	sel  selection
	hist history
	// goalCol is the display column Up/Down try to keep, or -1.
	goalCol int

	top, left int // first visible line and display column
	// scrollPending: the cursor moved before the editor had a size (a
	// restored tab); the first layout scrolls it into view.
	scrollPending bool
	scrollAccX    float32 // sub-cell wheel deltas not yet applied
	scrollAccY    float32

	focused      bool
	shiftDown    bool
	dragging     bool
	lastActivity time.Time

	errors []ErrorMarker
	flash  struct {
		active     bool
		start, end pos
		gen        int
	}
	find findState

	r *editorRenderer

	// outer is the widget that extends the Editor (nil: the Editor itself).
	outer focusWidget
}

// focusWidget is a focusable widget: what the canvas holds of an editor.
type focusWidget interface {
	fyne.Widget
	fyne.Focusable
}

// New returns an empty editor.
func New() *Editor {
	e := &Editor{}
	e.ExtendBaseWidget(e)
	return e
}

// ExtendBaseWidget is used by an extending widget (a struct embedding
// Editor) to make use of BaseWidget functionality; it also prepares the empty
// document, so a widget embedding Editor must call it before use, as with any
// Fyne widget.
func (e *Editor) ExtendBaseWidget(w fyne.Widget) {
	if e.buf == nil {
		e.buf = newBuffer()
		e.goalCol = -1
	}
	if e.outer == nil {
		if f, ok := w.(focusWidget); ok && f != fyne.Widget(e) {
			e.outer = f
		}
	}
	e.BaseWidget.ExtendBaseWidget(w)
}

// self is the widget in the canvas: the struct embedding the Editor when
// there is one (the canvas knows that one, not the embedded Editor).
func (e *Editor) self() focusWidget {
	if e.outer != nil {
		return e.outer
	}
	return e
}

// Text returns the whole script, lines joined with "\n".
func (e *Editor) Text() string {
	return e.buf.text()
}

// SetText replaces the script, puts the cursor at the start, clears the
// selection, error markers and undo history (it is a load, not an edit; use
// ReplaceRange for an undoable change). "\r\n" line breaks become "\n".
// OnChanged is called.
func (e *Editor) SetText(text string) {
	e.buf.setText(text)
	e.sel = selection{}
	e.hist.reset()
	e.errors = nil
	e.flash.active = false
	e.top, e.left = 0, 0
	e.goalCol = -1
	e.changed(true)
}

// CursorPosition returns the 0-based line and rune column of the cursor.
func (e *Editor) CursorPosition() (line, col int) {
	return e.sel.cursor.line, e.sel.cursor.col
}

// SetCursor moves the cursor to the 0-based line and rune column (clamped to
// the text), clears the selection and scrolls it into view.
func (e *Editor) SetCursor(line, col int) {
	e.moveTo(pos{line, col}, false)
}

// CursorOffset returns the byte offset of the cursor in Text().
func (e *Editor) CursorOffset() int {
	return e.buf.offsetOf(e.sel.cursor)
}

// SetCursorOffset moves the cursor to byte offset off of Text() and clears
// the selection.
func (e *Editor) SetCursorOffset(off int) {
	e.moveTo(e.buf.posOf(off), false)
}

// Selection returns the selected text and its byte offsets in Text()
// (start <= end); start == end and text == "" when nothing is selected.
func (e *Editor) Selection() (start, end int, text string) {
	a, b := order(e.sel.anchor, e.sel.cursor)
	if a == b {
		o := e.buf.offsetOf(a)
		return o, o, ""
	}
	return e.buf.offsetOf(a), e.buf.offsetOf(b), e.buf.textRange(a, b)
}

// Select selects the text between byte offsets start and end of Text(),
// leaving the cursor at end.
func (e *Editor) Select(start, end int) {
	e.sel.anchor = e.buf.posOf(start)
	e.moveTo(e.buf.posOf(end), true)
}

// SelectAll selects the whole script.
func (e *Editor) SelectAll() {
	e.sel.anchor = pos{}
	e.moveTo(e.buf.end(), true)
}

// InsertAtCursor inserts text at the cursor, replacing the selection, as one
// undo step, and leaves the cursor after it.
func (e *Editor) InsertAtCursor(text string) {
	a, b := order(e.sel.anchor, e.sel.cursor)
	e.replace(a, b, cleanText(text), kindOther)
}

// ReplaceRange replaces the text between byte offsets start and end of
// Text() with text as one undo step and leaves the cursor after it. Use it to
// insert a completion or apply a formatter's output.
func (e *Editor) ReplaceRange(start, end int, text string) {
	e.replace(e.buf.posOf(start), e.buf.posOf(end), cleanText(text), kindOther)
}

// WordBeforeCursor returns the identifier characters just before the cursor
// (the prefix a completion should extend) and its byte offset in Text().
func (e *Editor) WordBeforeCursor() (prefix string, start int) {
	c := e.sel.cursor
	s := e.buf.lines[c.line].text
	end := byteIndex(s, c.col)
	i := end
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !isWordRune(r) {
			break
		}
		i -= n
	}
	return s[i:end], e.buf.offsetOf(c) - (end - i)
}

// Undo reverts the last undo step, if any.
func (e *Editor) Undo() {
	h := &e.hist
	if len(h.undo) == 0 {
		return
	}
	g := h.undo[len(h.undo)-1]
	h.undo = h.undo[:len(h.undo)-1]
	for i := len(g.edits) - 1; i >= 0; i-- {
		ed := g.edits[i]
		end := endOf(ed.at, ed.inserted)
		e.buf.remove(ed.at, end)
		e.buf.insert(ed.at, ed.removed)
		e.shiftMarkers(ed.at, end, ed.removed)
	}
	h.redo = append(h.redo, g)
	e.sel = selection{cursor: e.buf.clamp(g.before.cursor), anchor: e.buf.clamp(g.before.anchor)}
	e.goalCol = -1
	e.changed(true)
}

// Redo applies the last undone step again, if any.
func (e *Editor) Redo() {
	h := &e.hist
	if len(h.redo) == 0 {
		return
	}
	g := h.redo[len(h.redo)-1]
	h.redo = h.redo[:len(h.redo)-1]
	for _, ed := range g.edits {
		end := endOf(ed.at, ed.removed)
		e.buf.remove(ed.at, end)
		e.buf.insert(ed.at, ed.inserted)
		e.shiftMarkers(ed.at, end, ed.inserted)
	}
	g.sealed = true
	h.undo = append(h.undo, g)
	e.sel = selection{cursor: e.buf.clamp(g.after.cursor), anchor: e.buf.clamp(g.after.anchor)}
	e.goalCol = -1
	e.changed(true)
}

// CanUndo reports whether there is a step to undo.
func (e *Editor) CanUndo() bool { return len(e.hist.undo) > 0 }

// CanRedo reports whether there is a step to redo.
func (e *Editor) CanRedo() bool { return len(e.hist.redo) > 0 }

// HighlightRange briefly flashes the background of the text between byte
// offsets start and end of Text() (for example the statement being run), for
// d; d <= 0 removes a flash. Only the latest flash is shown. The timer calls
// back through fyne.Do.
func (e *Editor) HighlightRange(start, end int, d time.Duration) {
	e.flash.gen++
	if d <= 0 || start >= end {
		e.flash.active = false
		e.Refresh()
		return
	}
	e.flash.active = true
	e.flash.start, e.flash.end = order(e.buf.posOf(start), e.buf.posOf(end))
	gen := e.flash.gen
	time.AfterFunc(d, func() {
		fyne.Do(func() { e.endFlash(gen) })
	})
	e.Refresh()
}

// endFlash removes the flash numbered gen if it is still the current one.
func (e *Editor) endFlash(gen int) {
	if e.flash.gen == gen && e.flash.active {
		e.flash.active = false
		e.Refresh()
	}
}

// SetErrorMarker marks an error at the 0-based line and rune column: the
// line gets a marker in the gutter and the token at that column a red
// background. Several markers may be set. Markers move with lines inserted
// or deleted above them and are dropped when their line is deleted.
func (e *Editor) SetErrorMarker(line, col int, msg string) {
	if line < 0 || line >= len(e.buf.lines) {
		return
	}
	e.errors = append(e.errors, ErrorMarker{Line: line, Col: max(0, col), Message: msg})
	e.Refresh()
}

// SetErrorSpan marks an error covering the text from the 0-based line and
// rune column to endLine and endCol (exclusive), as SetErrorMarker does
// for a token; a span over several lines is marked to the end of its
// first line, where the marker sits.
func (e *Editor) SetErrorSpan(line, col, endLine, endCol int, msg string) {
	if line < 0 || line >= len(e.buf.lines) {
		return
	}
	col = max(0, col)
	switch {
	case endLine > line:
		endCol = e.buf.lineLen(line)
	case endLine < line || endCol <= col:
		endCol = 0 // no span: the token
	}
	e.errors = append(e.errors, ErrorMarker{Line: line, Col: col, EndCol: endCol, Message: msg})
	e.Refresh()
}

// ClearErrorMarkers removes all error markers.
func (e *Editor) ClearErrorMarkers() {
	if len(e.errors) == 0 {
		return
	}
	e.errors = nil
	e.Refresh()
}

// ErrorMarkers returns a copy of the current error markers.
func (e *Editor) ErrorMarkers() []ErrorMarker {
	return append([]ErrorMarker(nil), e.errors...)
}

// ErrorAt returns the message of the first error marker on 0-based line,
// for a status bar or tooltip.
func (e *Editor) ErrorAt(line int) (msg string, ok bool) {
	for _, m := range e.errors {
		if m.Line == line {
			return m.Message, true
		}
	}
	return "", false
}

// LineCount returns the number of lines of the script.
func (e *Editor) LineCount() int {
	return len(e.buf.lines)
}

// CursorScreenPosition returns the canvas position of the bottom-left corner
// of the cursor, where a completion popup should be anchored (for
// widget.ShowPopUpAtPosition). It is the zero position before the editor
// is shown.
func (e *Editor) CursorScreenPosition() fyne.Position {
	if e.r == nil {
		return fyne.Position{}
	}
	local := e.r.cellPos(e.sel.cursor)
	local.Y += e.r.cell.Height
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(e.self()).Add(local)
}

// currentStatement returns the selection, or else the statement under the
// cursor, with its byte offset; ok is false when there is none.
func (e *Editor) currentStatement() (stmt string, start int, ok bool) {
	if s, _, text := e.Selection(); strings.TrimSpace(text) != "" {
		lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
		return strings.TrimSpace(text), s + lead, true
	}
	script := e.Text()
	split := e.Splitter
	if split == nil {
		split = DefaultSplitter
	}
	if split == nil {
		split = SplitStatements
	}
	st, ok := StatementAt(script, split(script), e.buf.offsetOf(e.sel.cursor))
	if !ok {
		return "", 0, false
	}
	return st.Text, st.Start, true
}

// replace replaces the text between a and b by s as one edit of the given
// kind, leaves the cursor after it and notifies listeners.
func (e *Editor) replace(a, b pos, s string, kind editKind) {
	a, b = order(e.buf.clamp(a), e.buf.clamp(b))
	if a == b && s == "" {
		return
	}
	before := e.sel
	removed := e.buf.remove(a, b)
	end := e.buf.insert(a, s)
	e.shiftMarkers(a, b, s)
	e.sel = selection{cursor: end, anchor: end}
	e.goalCol = -1
	e.hist.record(edit{at: a, removed: removed, inserted: s}, kind, before, e.sel, time.Now())
	e.changed(true)
}

// shiftMarkers moves error markers after the text between a and b was
// replaced by s, and drops the markers on lines that were removed.
func (e *Editor) shiftMarkers(a, b pos, s string) {
	if len(e.errors) == 0 {
		return
	}
	delta := strings.Count(s, "\n") - (b.line - a.line)
	kept := e.errors[:0]
	for _, m := range e.errors {
		switch {
		case m.Line > b.line:
			m.Line += delta
		case m.Line > a.line:
			continue // its line was merged away
		}
		kept = append(kept, m)
	}
	e.errors = kept
}

// moveTo moves the cursor to p; with extend the selection anchor stays.
func (e *Editor) moveTo(p pos, extend bool) {
	e.sel.cursor = e.buf.clamp(p)
	e.goalCol = -1
	if !extend {
		e.sel.anchor = e.sel.cursor
	}
	e.hist.seal()
	e.changed(false)
}

// changed scrolls the cursor into view, refreshes and runs the callbacks;
// textChanged tells whether the text changed.
func (e *Editor) changed(textChanged bool) {
	e.lastActivity = time.Now()
	if e.r != nil && e.r.parked {
		e.r.wakeBlink(false)
	}
	e.scrollToCursor()
	if e.find.visible {
		e.find.dirty = true
	}
	e.Refresh()
	if textChanged && e.OnChanged != nil {
		e.OnChanged(e.Text())
	}
	if e.OnCursorMoved != nil {
		e.OnCursorMoved(e.sel.cursor.line, e.sel.cursor.col)
	}
}

// scrollToCursor adjusts the scroll position so the cursor is visible.
func (e *Editor) scrollToCursor() {
	if e.r == nil || e.r.fullRows <= 0 {
		e.scrollPending = true
		return
	}
	e.scrollPending = false
	c := e.sel.cursor
	rows := e.r.fullRows
	if c.line < e.top {
		e.top = c.line
	} else if c.line >= e.top+rows {
		e.top = c.line - rows + 1
	}
	vc := visualCol(e.buf.lines[c.line].text, c.col)
	cols := max(1, e.r.textCols-1)
	if vc < e.left {
		e.left = max(0, vc-4)
	} else if vc >= e.left+cols {
		e.left = vc - cols + 4
	}
	e.clampScroll()
}

// clampScroll keeps the scroll position inside the document.
func (e *Editor) clampScroll() {
	rows := 1
	if e.r != nil {
		rows = max(1, e.r.fullRows)
	}
	e.top = max(0, min(e.top, e.maxTop(rows)))
	e.left = max(0, min(e.left, e.buf.widest))
}

// maxTop returns the largest first visible line for rows visible rows: 0
// when everything fits, else the view may scroll until the last line is half
// way up, as code editors allow.
func (e *Editor) maxTop(rows int) int {
	n := len(e.buf.lines)
	if n <= rows {
		return 0
	}
	return n - rows/2
}

// ScrollToLine scrolls so that 0-based line is the first visible line (as
// far as the document allows), without moving the cursor.
func (e *Editor) ScrollToLine(line int) {
	e.scrollPending = false
	e.top = line
	e.clampScroll()
	e.Refresh()
}

// FirstVisibleLine returns the 0-based line shown at the top.
func (e *Editor) FirstVisibleLine() int {
	return e.top
}

// ScrollToColumn scrolls sideways so that the 0-based visual column col
// is the first one shown (as far as the document allows), without moving
// the cursor.
func (e *Editor) ScrollToColumn(col int) {
	e.left = col
	e.clampScroll()
	e.Refresh()
}

// FirstVisibleColumn returns the 0-based visual column shown at the left.
func (e *Editor) FirstVisibleColumn() int {
	return e.left
}

// MinSize returns a small size; an editor is meant to be stretched by its
// container.
func (e *Editor) MinSize() fyne.Size {
	e.ExtendBaseWidget(e)
	return e.BaseWidget.MinSize()
}

// CreateRenderer is a private method to Fyne which links this widget to its
// renderer.
func (e *Editor) CreateRenderer() fyne.WidgetRenderer {
	e.ExtendBaseWidget(e)
	r := newEditorRenderer(e)
	e.r = r
	return r
}
