package editor

import (
	"image/color"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// findState is the state of the find/replace bar.
type findState struct {
	visible   bool
	replace   bool // the replace row is shown
	query     string
	matchCase bool
	dirty     bool // the match count must be recomputed
	count     int
	countGen  int // generation of the pending deferred count
}

// largeScript is the line count above which the find bar's match count is
// recomputed shortly after an edit instead of on every keystroke.
const largeScript = 20000

// maxCountedMatches caps how many matches the find bar counts.
const maxCountedMatches = 9999

// indexIn returns the rune columns of the matches of q in s.
func indexIn(s, q string, matchCase bool) [][2]int {
	if q == "" || len(s) < len(q) && matchCase {
		return nil
	}
	if !matchCase {
		s, q = foldString(s), foldString(q)
	}
	var out [][2]int
	qn := utf8.RuneCountInString(q)
	col, from := 0, 0
	for {
		i := strings.Index(s[from:], q)
		if i < 0 {
			return out
		}
		col += utf8.RuneCountInString(s[from : from+i])
		out = append(out, [2]int{col, col + qn})
		adv := len(q)
		col += qn
		from += i + adv
	}
}

// foldString lower-cases s rune by rune, keeping one rune per rune so that
// rune columns are preserved.
func foldString(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	return strings.Map(unicode.ToLower, s)
}

// matchesOn returns the find matches on line l for highlighting.
func (f *findState) matchesOn(e *Editor, l int) [][2]int {
	if !f.visible || f.query == "" {
		return nil
	}
	return indexIn(e.buf.lines[l].text, f.query, f.matchCase)
}

// countMatches counts matches in the whole script, up to a cap.
func (f *findState) countMatches(e *Editor) int {
	if f.query == "" {
		return 0
	}
	n := 0
	for l := range e.buf.lines {
		n += len(indexIn(e.buf.lines[l].text, f.query, f.matchCase))
		if n >= maxCountedMatches {
			return maxCountedMatches
		}
	}
	return n
}

// openFind shows the find bar (with the replace row if replace) and focuses
// its query, prefilled with a single-line selection.
func (e *Editor) openFind(replace bool) {
	if _, _, sel := e.Selection(); sel != "" && !strings.Contains(sel, "\n") {
		e.find.query = sel
	}
	e.find.visible = true
	e.find.replace = replace || e.find.replace
	e.find.dirty = true
	e.Refresh()
	if e.r == nil {
		return
	}
	fb := e.r.findBar
	fb.sync()
	if c := fyne.CurrentApp().Driver().CanvasForObject(e.self()); c != nil {
		c.Focus(fb.query)
	}
	fb.query.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// closeFind hides the find bar and gives the focus back to the text.
func (e *Editor) closeFind() {
	e.find.visible = false
	e.find.replace = false
	e.Refresh()
	if c := fyne.CurrentApp().Driver().CanvasForObject(e.self()); c != nil {
		c.Focus(e.self())
	}
}

// SetFindQuery sets the text the find bar searches for and whether case
// matters, as if typed into the bar.
func (e *Editor) SetFindQuery(q string, matchCase bool) {
	e.find.query = cleanText(q)
	e.find.matchCase = matchCase
	e.find.dirty = true
	if e.r != nil {
		e.r.findBar.sync()
	}
	e.Refresh()
}

// FindNext selects the next match of the find query after the cursor
// (wrapping around) and reports whether there was one.
func (e *Editor) FindNext() bool { return e.findNext(true) }

// FindPrevious selects the previous match before the cursor (wrapping
// around) and reports whether there was one.
func (e *Editor) FindPrevious() bool { return e.findNext(false) }

func (e *Editor) findNext(forward bool) bool {
	q := e.find.query
	if q == "" {
		e.openFind(false)
		return false
	}
	a, b := order(e.sel.anchor, e.sel.cursor)
	n := len(e.buf.lines)
	if forward {
		for i := 0; i <= n; i++ {
			l := (b.line + i) % n
			for _, m := range indexIn(e.buf.lines[l].text, q, e.find.matchCase) {
				if i == 0 && m[0] < b.col || i == n && m[0] >= b.col {
					continue
				}
				e.sel.anchor = pos{l, m[0]}
				e.moveTo(pos{l, m[1]}, true)
				return true
			}
		}
		return false
	}
	for i := 0; i <= n; i++ {
		l := ((a.line-i)%n + n) % n
		ms := indexIn(e.buf.lines[l].text, q, e.find.matchCase)
		for k := len(ms) - 1; k >= 0; k-- {
			m := ms[k]
			if i == 0 && m[1] > a.col || i == n && m[1] <= a.col {
				continue
			}
			e.sel.anchor = pos{l, m[1]}
			e.moveTo(pos{l, m[0]}, true)
			return true
		}
	}
	return false
}

// ReplaceNext replaces the selected match (if the selection is one) with
// repl and selects the next match. It reports whether a match was replaced.
func (e *Editor) ReplaceNext(repl string) bool {
	a, b := order(e.sel.anchor, e.sel.cursor)
	done := false
	if a != b && a.line == b.line {
		sel := e.buf.textRange(a, b)
		if e.find.matchCase && sel == e.find.query || !e.find.matchCase && foldString(sel) == foldString(e.find.query) {
			e.replace(a, b, cleanText(repl), kindOther)
			done = true
		}
	}
	e.findNext(true)
	return done
}

// ReplaceAll replaces every match of the find query with repl as one undo
// step and returns how many were replaced.
func (e *Editor) ReplaceAll(repl string) int {
	q := e.find.query
	if q == "" {
		return 0
	}
	repl = cleanText(repl)
	before := e.sel
	e.hist.beginCompound(before, e.lastActivity)
	count := 0
	for l := range e.buf.lines {
		ms := indexIn(e.buf.lines[l].text, q, e.find.matchCase)
		for k := len(ms) - 1; k >= 0; k-- {
			at := pos{l, ms[k][0]}
			removed := e.buf.remove(at, pos{l, ms[k][1]})
			e.buf.insert(at, repl)
			e.hist.record(edit{at: at, removed: removed, inserted: repl}, kindOther, before, before, e.lastActivity)
			count++
		}
	}
	e.sel = selection{cursor: e.buf.clamp(e.sel.cursor), anchor: e.buf.clamp(e.sel.cursor)}
	e.hist.endCompound(e.sel)
	if count > 0 {
		e.changed(true)
	}
	return count
}

// findBar is the find/replace bar shown above the text.
type findBar struct {
	widget.BaseWidget
	e           *Editor
	query, repl *findEntry
	matchCase   *widget.Check
	status      *widget.Label
	replaceRow  *fyne.Container
	content     *fyne.Container
	syncing     bool
}

func newFindBar(e *Editor) *findBar {
	f := &findBar{e: e}
	f.query = newFindEntry(e, "Find")
	f.repl = newFindEntry(e, "Replace")
	f.query.OnChanged = func(s string) {
		if f.syncing {
			return
		}
		e.find.query = s
		e.find.dirty = true
		e.Refresh()
	}
	f.query.OnSubmitted = func(string) { e.findNext(true) }
	f.repl.OnSubmitted = func(s string) { e.ReplaceNext(s) }
	f.matchCase = widget.NewCheck("Match case", func(b bool) {
		if f.syncing {
			return
		}
		e.find.matchCase = b
		e.find.dirty = true
		e.Refresh()
	})
	f.status = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { e.findNext(false) })
	next := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { e.findNext(true) })
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), e.closeFind)
	for _, b := range []*widget.Button{prev, next, closeBtn} {
		b.Importance = widget.LowImportance
	}
	replOne := widget.NewButton("Replace", func() { e.ReplaceNext(f.repl.Text) })
	replAll := widget.NewButton("All", func() { e.ReplaceAll(f.repl.Text) })
	f.replaceRow = container.NewBorder(nil, nil, nil, container.NewHBox(replOne, replAll), f.repl)
	findRow := container.NewBorder(nil, nil, nil,
		container.NewHBox(f.matchCase, prev, next, f.status, closeBtn), f.query)
	f.content = container.NewVBox(findRow, f.replaceRow)
	f.ExtendBaseWidget(f)
	return f
}

// sync copies the editor's find state into the widgets.
func (f *findBar) sync() {
	f.syncing = true
	defer func() { f.syncing = false }()
	if f.query.Text != f.e.find.query {
		f.query.SetText(f.e.find.query)
	}
	if f.matchCase.Checked != f.e.find.matchCase {
		f.matchCase.SetChecked(f.e.find.matchCase)
	}
	if f.e.find.replace {
		f.replaceRow.Show()
	} else {
		f.replaceRow.Hide()
	}
}

// refreshStatus updates the match count.
func (f *findBar) refreshStatus() {
	st := &f.e.find
	if st.dirty {
		st.dirty = false
		st.countGen++
		if len(f.e.buf.lines) < largeScript {
			st.count = st.countMatches(f.e)
		} else {
			gen := st.countGen
			time.AfterFunc(150*time.Millisecond, func() {
				fyne.Do(func() {
					if st.countGen == gen {
						st.count = st.countMatches(f.e)
						f.refreshStatus()
					}
				})
			})
		}
	}
	txt := ""
	switch {
	case st.query == "":
	case st.count == 0:
		txt = "No results"
	case st.count >= maxCountedMatches:
		txt = strconv.Itoa(maxCountedMatches) + "+"
	case st.count == 1:
		txt = "1 match"
	default:
		txt = strconv.Itoa(st.count) + " matches"
	}
	if f.status.Text != txt {
		f.status.SetText(txt)
	}
	if f.e.find.replace != f.replaceRow.Visible() {
		f.sync()
		f.Refresh()
	}
}

// CreateRenderer is a private method to Fyne which links this widget to its
// renderer.
func (f *findBar) CreateRenderer() fyne.WidgetRenderer {
	bg := canvasRect(theme.ColorNameBackground)
	return &findBarRenderer{f: f, bg: bg}
}

// findEntry is a single-line entry that closes the find bar on Esc.
type findEntry struct {
	widget.Entry
	e *Editor
}

func newFindEntry(e *Editor, placeholder string) *findEntry {
	en := &findEntry{e: e}
	en.PlaceHolder = placeholder
	en.ExtendBaseWidget(en)
	return en
}

// TypedKey closes the find bar on Esc and otherwise edits the entry.
func (en *findEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		en.e.closeFind()
		return
	}
	en.Entry.TypedKey(ev)
}

// canvasRect returns a rectangle filled with a theme colour; its renderer
// re-reads the colour on refresh.
func canvasRect(name fyne.ThemeColorName) *themedRect {
	return &themedRect{Rectangle: canvas.NewRectangle(color.Transparent), name: name}
}

// themedRect is a rectangle whose colour follows the theme.
type themedRect struct {
	*canvas.Rectangle
	name fyne.ThemeColorName
}

func (t *themedRect) apply(th fyne.Theme) {
	t.FillColor = th.Color(t.name, fyne.CurrentApp().Settings().ThemeVariant())
	t.Rectangle.Refresh()
}

type findBarRenderer struct {
	f  *findBar
	bg *themedRect
}

// Layout stretches the background and the rows.
func (r *findBarRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.f.content.Resize(size)
}

// MinSize is the rows' minimum size.
func (r *findBarRenderer) MinSize() fyne.Size {
	return r.f.content.MinSize()
}

// Refresh follows the theme.
func (r *findBarRenderer) Refresh() {
	r.bg.apply(r.f.Theme())
	r.f.content.Refresh()
}

// Objects returns the background and the rows.
func (r *findBarRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg.Rectangle, r.f.content}
}

// Destroy does nothing.
func (r *findBarRenderer) Destroy() {}
