package editor

import (
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// FocusGained is called by Fyne when the editor gets the keyboard focus.
func (e *Editor) FocusGained() {
	e.focused = true
	e.shiftDown = false
	if e.r != nil {
		e.r.wakeBlink(true)
	}
	e.Refresh()
}

// FocusLost is called by Fyne when the editor loses the keyboard focus.
func (e *Editor) FocusLost() {
	e.focused = false
	e.shiftDown = false
	e.dragging = false
	if e.r != nil {
		e.r.parked = false
		if e.r.blinking {
			e.r.blinking = false
			e.r.blink.Stop()
		}
	}
	e.Refresh()
}

// AcceptsTab tells Fyne that Tab indents instead of moving the focus.
func (e *Editor) AcceptsTab() bool {
	return true
}

// KeyDown tracks the Shift key, which Fyne does not report with TypedKey.
func (e *Editor) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shiftDown = true
	}
}

// KeyUp tracks the Shift key.
func (e *Editor) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shiftDown = false
	}
}

// TypedRune inserts a typed character, replacing the selection.
func (e *Editor) TypedRune(r rune) {
	if r < ' ' && r != '\t' || r == 0x7f {
		return
	}
	a, b := order(e.sel.anchor, e.sel.cursor)
	e.replace(a, b, string(r), kindType)
}

// TypedKey handles navigation and editing keys.
func (e *Editor) TypedKey(ev *fyne.KeyEvent) {
	shift := e.shiftDown
	c := e.sel.cursor
	a, b := order(e.sel.anchor, e.sel.cursor)
	hasSel := a != b
	switch ev.Name {
	case fyne.KeyLeft:
		if hasSel && !shift {
			e.moveTo(a, false)
		} else if c.col > 0 {
			e.moveTo(pos{c.line, c.col - 1}, shift)
		} else if c.line > 0 {
			e.moveTo(pos{c.line - 1, e.buf.lineLen(c.line - 1)}, shift)
		}
	case fyne.KeyRight:
		if hasSel && !shift {
			e.moveTo(b, false)
		} else if c.col < e.buf.lineLen(c.line) {
			e.moveTo(pos{c.line, c.col + 1}, shift)
		} else if c.line+1 < len(e.buf.lines) {
			e.moveTo(pos{c.line + 1, 0}, shift)
		}
	case fyne.KeyUp:
		e.moveVertical(-1, shift)
	case fyne.KeyDown:
		e.moveVertical(1, shift)
	case fyne.KeyPageUp:
		e.page(-1, shift)
	case fyne.KeyPageDown:
		e.page(1, shift)
	case fyne.KeyHome:
		// Smart home: first to the indentation, then to column 0.
		indent := len([]rune(e.buf.leadingSpace(c.line)))
		col := indent
		if c.col == indent {
			col = 0
		}
		e.moveTo(pos{c.line, col}, shift)
	case fyne.KeyEnd:
		e.moveTo(pos{c.line, e.buf.lineLen(c.line)}, shift)
	case fyne.KeyReturn, fyne.KeyEnter:
		e.newline()
	case fyne.KeyBackspace:
		switch {
		case hasSel:
			e.replace(a, b, "", kindOther)
		case c.col > 0:
			e.replace(pos{c.line, c.col - 1}, c, "", kindBackspace)
		case c.line > 0:
			e.replace(pos{c.line - 1, e.buf.lineLen(c.line - 1)}, c, "", kindBackspace)
		}
	case fyne.KeyDelete:
		switch {
		case hasSel:
			e.replace(a, b, "", kindOther)
		case c.col < e.buf.lineLen(c.line):
			e.replace(c, pos{c.line, c.col + 1}, "", kindDelete)
		case c.line+1 < len(e.buf.lines):
			e.replace(c, pos{c.line + 1, 0}, "", kindDelete)
		}
	case fyne.KeyTab:
		if shift {
			e.outdent()
		} else if hasSel && a.line != b.line {
			e.indent()
		} else {
			vc := visualCol(e.buf.lines[a.line].text, a.col)
			e.replace(a, b, strings.Repeat(" ", len(indentUnit)-vc%len(indentUnit)), kindOther)
		}
	case fyne.KeyEscape:
		if e.find.visible {
			e.closeFind()
		} else if e.OnCancel != nil {
			e.OnCancel()
		}
	case fyne.KeyF3:
		e.findNext(!shift)
	}
}

// moveVertical moves the cursor dy lines, keeping the display column.
func (e *Editor) moveVertical(dy int, extend bool) {
	c := e.sel.cursor
	goal := e.goalCol
	if goal < 0 {
		goal = visualCol(e.buf.lines[c.line].text, c.col)
	}
	l := c.line + dy
	var p pos
	switch {
	case l < 0:
		p = pos{0, 0}
	case l >= len(e.buf.lines):
		p = e.buf.end()
	default:
		p = pos{l, runeColForVisual(e.buf.lines[l].text, float32(goal), false)}
	}
	e.moveTo(p, extend)
	e.goalCol = goal
}

// page moves the cursor and the view by one screen.
func (e *Editor) page(dir int, extend bool) {
	rows := 10
	if e.r != nil && e.r.fullRows > 1 {
		rows = e.r.fullRows - 1
	}
	e.top += dir * rows
	e.clampScroll()
	e.moveVertical(dir*rows, extend)
}

// newline inserts a line break and the indentation of the current line, one
// unit more after an opening parenthesis.
func (e *Editor) newline() {
	a, b := order(e.sel.anchor, e.sel.cursor)
	indent := e.buf.leadingSpace(a.line)
	head := e.buf.lines[a.line].text[:byteIndex(e.buf.lines[a.line].text, a.col)]
	if len(indent) > len(head) {
		indent = indent[:len(head)]
	}
	if strings.HasSuffix(strings.TrimRightFunc(head, unicode.IsSpace), "(") {
		indent += indentUnit
	}
	e.replace(a, b, "\n"+indent, kindOther)
}

// selectedLines returns the first and last line touched by the selection; a
// selection ending at column 0 does not include that line.
func (e *Editor) selectedLines() (int, int) {
	a, b := order(e.sel.anchor, e.sel.cursor)
	last := b.line
	if b.line > a.line && b.col == 0 {
		last--
	}
	return a.line, last
}

// indent adds one indentation unit to every selected line.
func (e *Editor) indent() {
	first, last := e.selectedLines()
	before := e.sel
	e.hist.beginCompound(before, e.lastActivity)
	for l := first; l <= last; l++ {
		if e.buf.lines[l].text == "" {
			continue
		}
		e.buf.insert(pos{l, 0}, indentUnit)
		e.hist.record(edit{at: pos{l, 0}, inserted: indentUnit}, kindOther, before, before, e.lastActivity)
	}
	shift := func(p pos) pos {
		if p.line >= first && p.line <= last && e.buf.lines[p.line].text != "" && p.col > 0 {
			p.col += len(indentUnit)
		}
		return p
	}
	e.sel = selection{cursor: shift(e.sel.cursor), anchor: shift(e.sel.anchor)}
	if e.sel.anchor.line != e.sel.cursor.line {
		// Keep whole lines selected.
		if e.sel.anchor.before(e.sel.cursor) {
			e.sel.anchor.col = 0
		} else {
			e.sel.cursor.col = 0
		}
	}
	e.hist.endCompound(e.sel)
	e.changed(true)
}

// outdent removes up to one indentation unit from every selected line.
func (e *Editor) outdent() {
	first, last := e.selectedLines()
	before := e.sel
	e.hist.beginCompound(before, e.lastActivity)
	removedOn := map[int]int{}
	for l := first; l <= last; l++ {
		s := e.buf.lines[l].text
		n := 0
		for n < len(indentUnit) && n < len(s) && s[n] == ' ' {
			n++
		}
		if n == 0 && len(s) > 0 && s[0] == '\t' {
			n = 1
		}
		if n == 0 {
			continue
		}
		removed := e.buf.remove(pos{l, 0}, pos{l, n})
		e.hist.record(edit{at: pos{l, 0}, removed: removed}, kindOther, before, before, e.lastActivity)
		removedOn[l] = n
	}
	shift := func(p pos) pos {
		p.col = max(0, p.col-removedOn[p.line])
		return p
	}
	e.sel = selection{cursor: shift(e.sel.cursor), anchor: shift(e.sel.anchor)}
	e.hist.endCompound(e.sel)
	e.changed(len(removedOn) > 0)
}

// toggleComment comments out the selected lines with "-- ", or uncomments
// them when all of them are comments.
func (e *Editor) toggleComment() {
	first, last := e.selectedLines()
	all := true
	for l := first; l <= last; l++ {
		t := strings.TrimLeft(e.buf.lines[l].text, " \t")
		if t != "" && !strings.HasPrefix(t, "--") {
			all = false
		}
	}
	before := e.sel
	e.hist.beginCompound(before, e.lastActivity)
	delta := map[int]int{}
	for l := first; l <= last; l++ {
		s := e.buf.lines[l].text
		ind := len([]rune(e.buf.leadingSpace(l)))
		t := strings.TrimLeft(s, " \t")
		switch {
		case all && strings.HasPrefix(t, "-- "):
			e.hist.record(edit{at: pos{l, ind}, removed: e.buf.remove(pos{l, ind}, pos{l, ind + 3})}, kindOther, before, before, e.lastActivity)
			delta[l] = -3
		case all && strings.HasPrefix(t, "--"):
			e.hist.record(edit{at: pos{l, ind}, removed: e.buf.remove(pos{l, ind}, pos{l, ind + 2})}, kindOther, before, before, e.lastActivity)
			delta[l] = -2
		case !all && t != "":
			e.buf.insert(pos{l, ind}, "-- ")
			e.hist.record(edit{at: pos{l, ind}, inserted: "-- "}, kindOther, before, before, e.lastActivity)
			delta[l] = 3
		}
	}
	shift := func(p pos) pos {
		p.col = max(0, p.col+delta[p.line])
		return e.buf.clamp(p)
	}
	e.sel = selection{cursor: shift(e.sel.cursor), anchor: shift(e.sel.anchor)}
	e.hist.endCompound(e.sel)
	e.changed(len(delta) > 0)
}

// TypedShortcut handles clipboard, undo, run and other shortcuts.
func (e *Editor) TypedShortcut(s fyne.Shortcut) {
	switch sc := s.(type) {
	case *fyne.ShortcutCopy:
		e.copy(sc.Clipboard, false)
	case *fyne.ShortcutCut:
		e.copy(sc.Clipboard, true)
	case *fyne.ShortcutPaste:
		e.paste(sc.Clipboard)
	case *fyne.ShortcutSelectAll:
		e.SelectAll()
	case *fyne.ShortcutUndo:
		e.Undo()
	case *fyne.ShortcutRedo:
		e.Redo()
	case *desktop.CustomShortcut:
		e.customShortcut(sc)
	}
}

// customShortcut handles Ctrl (or Cmd) key combinations.
func (e *Editor) customShortcut(sc *desktop.CustomShortcut) {
	mod := sc.Modifier
	primary := mod&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
	shift := mod&fyne.KeyModifierShift != 0
	if !primary || mod&fyne.KeyModifierAlt != 0 {
		return
	}
	c := e.sel.cursor
	switch sc.KeyName {
	case fyne.KeyLeft:
		e.moveTo(e.buf.wordLeft(c), shift)
	case fyne.KeyRight:
		e.moveTo(e.buf.wordRight(c), shift)
	case fyne.KeyHome:
		e.moveTo(pos{}, shift)
	case fyne.KeyEnd:
		e.moveTo(e.buf.end(), shift)
	case fyne.KeyUp:
		e.ScrollToLine(e.top - 1)
	case fyne.KeyDown:
		e.ScrollToLine(e.top + 1)
	case fyne.KeyBackspace:
		if a, b := order(e.sel.anchor, c); a != b {
			e.replace(a, b, "", kindOther)
		} else {
			e.replace(e.buf.wordLeft(c), c, "", kindOther)
		}
	case fyne.KeyDelete:
		if a, b := order(e.sel.anchor, c); a != b {
			e.replace(a, b, "", kindOther)
		} else {
			e.replace(c, e.buf.wordRight(c), "", kindOther)
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if shift {
			if e.OnRunAll != nil {
				e.OnRunAll(e.Text())
			}
		} else if e.OnRunStatement != nil {
			if stmt, start, ok := e.currentStatement(); ok {
				e.OnRunStatement(stmt, start)
			}
		}
	case fyne.KeyE:
		if e.OnExplain != nil {
			if stmt, start, ok := e.currentStatement(); ok {
				e.OnExplain(stmt, start)
			}
		}
	case fyne.KeyF:
		if shift {
			if e.OnFormat != nil {
				e.OnFormat()
			}
		} else {
			e.openFind(false)
		}
	case fyne.KeyH, fyne.KeyR:
		e.openFind(true)
	case fyne.KeyG:
		e.findNext(!shift)
	case fyne.KeySpace:
		if e.OnComplete != nil {
			e.OnComplete()
		}
	case fyne.KeyY:
		e.Redo()
	case fyne.KeyZ:
		if shift {
			e.Redo()
		} else {
			e.Undo()
		}
	case fyne.KeySlash:
		e.toggleComment()
	case fyne.KeyA:
		e.SelectAll()
	}
}

func clipboardOf(cb fyne.Clipboard) fyne.Clipboard {
	if cb != nil {
		return cb
	}
	if app := fyne.CurrentApp(); app != nil {
		return app.Clipboard()
	}
	return nil
}

// copy puts the selection on the clipboard and with cut removes it.
func (e *Editor) copy(cb fyne.Clipboard, cut bool) {
	a, b := order(e.sel.anchor, e.sel.cursor)
	if a == b {
		return
	}
	if cb = clipboardOf(cb); cb != nil {
		cb.SetContent(e.buf.textRange(a, b))
	}
	if cut {
		e.replace(a, b, "", kindOther)
	}
}

// paste replaces the selection with the clipboard's text.
func (e *Editor) paste(cb fyne.Clipboard) {
	cb = clipboardOf(cb)
	if cb == nil {
		return
	}
	text := cb.Content()
	if text == "" {
		return
	}
	e.InsertAtCursor(text)
}

// MouseDown places the cursor (Shift extends the selection) and takes the
// focus.
func (e *Editor) MouseDown(ev *desktop.MouseEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(e.self()); c != nil && !e.focused {
		c.Focus(e.self())
	}
	if e.r == nil || ev.Button != desktop.MouseButtonPrimary {
		return
	}
	p := e.r.posAt(ev.Position)
	if e.r.inGutter(ev.Position) && ev.Modifier&fyne.KeyModifierShift == 0 {
		// A click in the gutter selects the line.
		e.sel.anchor = pos{p.line, 0}
		if p.line+1 < len(e.buf.lines) {
			e.moveTo(pos{p.line + 1, 0}, true)
		} else {
			e.moveTo(pos{p.line, e.buf.lineLen(p.line)}, true)
		}
		e.dragging = true
		return
	}
	e.dragging = true
	e.goalCol = -1
	e.moveTo(p, ev.Modifier&fyne.KeyModifierShift != 0)
}

// MouseUp ends a selection drag.
func (e *Editor) MouseUp(*desktop.MouseEvent) {
	e.dragging = false
}

// Dragged extends the selection to the mouse, scrolling when it leaves the
// text area.
func (e *Editor) Dragged(ev *fyne.DragEvent) {
	if e.r == nil || !e.dragging {
		return
	}
	pt := ev.Position
	r := e.r
	switch {
	case pt.Y < r.area.Y:
		e.top--
	case pt.Y > r.area.Y+r.areaSize.Height:
		e.top++
	}
	e.clampScroll()
	e.moveTo(r.posAt(pt), true)
}

// DragEnd ends a selection drag.
func (e *Editor) DragEnd() {
	e.dragging = false
}

// DoubleTapped selects the word under the mouse.
func (e *Editor) DoubleTapped(ev *fyne.PointEvent) {
	if e.r == nil {
		return
	}
	p := e.r.posAt(ev.Position)
	s, t := e.buf.wordBounds(p.line, p.col)
	e.sel.anchor = pos{p.line, s}
	e.moveTo(pos{p.line, t}, true)
	e.dragging = false
}

// TappedSecondary opens the context menu.
func (e *Editor) TappedSecondary(ev *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(e.self())
	if c == nil {
		return
	}
	cb := fyne.CurrentApp().Clipboard()
	items := []*fyne.MenuItem{
		fyne.NewMenuItem("Run Statement", func() {
			e.customShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
		}),
		fyne.NewMenuItem("Explain", func() {
			e.customShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierControl})
		}),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Cut", func() { e.copy(cb, true) }),
		fyne.NewMenuItem("Copy", func() { e.copy(cb, false) }),
		fyne.NewMenuItem("Paste", func() { e.paste(cb) }),
		fyne.NewMenuItem("Select All", e.SelectAll),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Find…", func() { e.openFind(false) }),
		fyne.NewMenuItem("Toggle Comment", e.toggleComment),
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), c, ev.AbsolutePosition)
}

// Scrolled scrolls the view with the mouse wheel or touchpad.
func (e *Editor) Scrolled(ev *fyne.ScrollEvent) {
	if e.r == nil || e.r.cell.Height <= 0 {
		return
	}
	dx, dy := ev.Scrolled.DX, ev.Scrolled.DY
	if dx == 0 && e.shiftDown {
		dx, dy = dy, 0 // Shift+wheel scrolls sideways
	}
	e.scrollAccY -= dy
	e.scrollAccX -= dx
	dl := int(e.scrollAccY / e.r.cell.Height)
	dc := int(e.scrollAccX / e.r.cell.Width)
	e.scrollAccY -= float32(dl) * e.r.cell.Height
	e.scrollAccX -= float32(dc) * e.r.cell.Width
	if dl == 0 && dc == 0 {
		return
	}
	e.top += dl
	e.left += dc
	e.clampScroll()
	e.Refresh()
}

// MouseIn is part of desktop.Hoverable.
func (e *Editor) MouseIn(ev *desktop.MouseEvent) {
	e.MouseMoved(ev)
}

// MouseMoved shows the message of an error marker under the mouse.
func (e *Editor) MouseMoved(ev *desktop.MouseEvent) {
	if e.r == nil {
		return
	}
	msg := ""
	if len(e.errors) > 0 {
		p := e.r.posAt(ev.Position)
		for _, m := range e.errors {
			if m.Line != p.line {
				continue
			}
			a, b := markerBounds(e.buf, m)
			if e.r.inGutter(ev.Position) || (p.col >= a && p.col <= b) {
				msg = m.Message
				break
			}
		}
	}
	e.r.showTooltip(msg, ev.Position)
}

// MouseOut hides the error tooltip.
func (e *Editor) MouseOut() {
	if e.r != nil {
		e.r.showTooltip("", fyne.Position{})
	}
}

// Cursor shows the text cursor over the editor.
func (e *Editor) Cursor() desktop.Cursor {
	return desktop.TextCursor
}
