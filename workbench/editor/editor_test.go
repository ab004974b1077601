package editor

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

const sampleScript = `CREATE TABLE orders (
    id BIGINT,
    price DECIMAL(10, 2)
) WITH ('connector' = 'datagen');

-- the expensive ones
SELECT id, price
FROM orders
WHERE price > 100;

SELECT COUNT(*) FROM orders;`

// newTestEditor shows an editor with text in a 600x400 test window and
// focuses it.
func newTestEditor(t testing.TB, text string) (*Editor, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	e := New()
	e.SetText(text)
	w := test.NewTempWindow(t, e)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(600, 400))
	w.Canvas().Focus(e)
	return e, w
}

func key(e *Editor, name fyne.KeyName) {
	e.TypedKey(&fyne.KeyEvent{Name: name})
}

func shiftKey(e *Editor, name fyne.KeyName) {
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	key(e, name)
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
}

func ctrl(e *Editor, name fyne.KeyName, mods ...fyne.KeyModifier) {
	m := fyne.KeyModifierControl
	for _, x := range mods {
		m |= x
	}
	e.TypedShortcut(&desktop.CustomShortcut{KeyName: name, Modifier: m})
}

func assertCursor(t *testing.T, e *Editor, line, col int) {
	t.Helper()
	if l, c := e.CursorPosition(); l != line || c != col {
		t.Fatalf("cursor at %d:%d, want %d:%d", l, c, line, col)
	}
}

func TestTyping(t *testing.T) {
	e, _ := newTestEditor(t, "")
	var changes []string
	e.OnChanged = func(s string) { changes = append(changes, s) }
	test.Type(e, "SELECT 1")
	key(e, fyne.KeyReturn)
	test.Type(e, "FROM t")
	if got := e.Text(); got != "SELECT 1\nFROM t" {
		t.Fatalf("text %q", got)
	}
	assertCursor(t, e, 1, 6)
	if len(changes) != 15 || changes[len(changes)-1] != e.Text() {
		t.Fatalf("OnChanged called %d times, last %q", len(changes), changes[len(changes)-1])
	}
	key(e, fyne.KeyBackspace)
	key(e, fyne.KeyHome)
	key(e, fyne.KeyBackspace)
	if got := e.Text(); got != "SELECT 1FROM " {
		t.Fatalf("after backspaces %q", got)
	}
	key(e, fyne.KeyDelete)
	if got := e.Text(); got != "SELECT 1ROM " {
		t.Fatalf("after delete %q", got)
	}
}

func TestNavigation(t *testing.T) {
	e, _ := newTestEditor(t, "ab\n\tcd\nefgh")
	key(e, fyne.KeyDown)
	assertCursor(t, e, 1, 0)
	key(e, fyne.KeyEnd)
	assertCursor(t, e, 1, 3)
	key(e, fyne.KeyDown) // display column 6 on the tab line -> end of "efgh"
	assertCursor(t, e, 2, 4)
	key(e, fyne.KeyUp) // the goal column is kept
	assertCursor(t, e, 1, 3)
	key(e, fyne.KeyHome) // smart home: to the indentation
	assertCursor(t, e, 1, 1)
	key(e, fyne.KeyHome)
	assertCursor(t, e, 1, 0)
	key(e, fyne.KeyLeft) // wraps to the previous line end
	assertCursor(t, e, 0, 2)
	key(e, fyne.KeyRight)
	assertCursor(t, e, 1, 0)
	ctrl(e, fyne.KeyEnd)
	assertCursor(t, e, 2, 4)
	ctrl(e, fyne.KeyHome)
	assertCursor(t, e, 0, 0)
	key(e, fyne.KeyUp)
	assertCursor(t, e, 0, 0)
	ctrl(e, fyne.KeyRight)
	assertCursor(t, e, 0, 2)
	ctrl(e, fyne.KeyRight)
	assertCursor(t, e, 1, 0)
	ctrl(e, fyne.KeyLeft)
	assertCursor(t, e, 0, 2)
}

func TestPageKeysAndScrolling(t *testing.T) {
	lines := make([]string, 300)
	for i := range lines {
		lines[i] = "SELECT " + strings.Repeat("x", i%50)
	}
	e, _ := newTestEditor(t, strings.Join(lines, "\n"))
	rows := e.r.fullRows
	if rows < 5 {
		t.Fatalf("only %d rows fit", rows)
	}
	key(e, fyne.KeyPageDown)
	assertCursor(t, e, rows-1, 0)
	if e.FirstVisibleLine() == 0 {
		t.Fatal("PageDown did not scroll")
	}
	key(e, fyne.KeyPageUp)
	assertCursor(t, e, 0, 0)
	ctrl(e, fyne.KeyEnd)
	if top := e.FirstVisibleLine(); top > 299 || top+rows <= 299 {
		t.Fatalf("last line not visible, top %d rows %d", top, rows)
	}
	// The grid only ever holds the visible rows.
	if n := len(e.r.grid.Rows); n > rows+1 {
		t.Fatalf("grid holds %d rows for %d visible", n, rows)
	}
	// Mouse wheel.
	e.ScrollToLine(0)
	e.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -10*e.r.cell.Height)})
	if e.FirstVisibleLine() != 10 {
		t.Fatalf("wheel scrolled to %d", e.FirstVisibleLine())
	}
	// Horizontal: a long line scrolls left when the cursor goes to its end.
	e.SetText(strings.Repeat("y", 500))
	key(e, fyne.KeyEnd)
	if e.left == 0 {
		t.Fatal("no horizontal scroll to the line end")
	}
	assertGridCell(t, e, 0, e.r.gutterCols+(500-e.left)-1, 'y')
}

func assertGridCell(t *testing.T, e *Editor, row, col int, want rune) widget.TextGridCell {
	t.Helper()
	rows := e.r.grid.Rows
	if row >= len(rows) || col >= len(rows[row].Cells) {
		t.Fatalf("no grid cell %d:%d", row, col)
	}
	c := rows[row].Cells[col]
	if c.Rune != want {
		t.Fatalf("grid cell %d:%d is %q, want %q", row, col, c.Rune, want)
	}
	return c
}

func TestShiftSelection(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT name FROM t")
	shiftKey(e, fyne.KeyRight)
	shiftKey(e, fyne.KeyRight)
	if _, _, s := e.Selection(); s != "SE" {
		t.Fatalf("selection %q", s)
	}
	ctrl(e, fyne.KeyRight, fyne.KeyModifierShift)
	if start, end, s := e.Selection(); s != "SELECT" || start != 0 || end != 6 {
		t.Fatalf("selection %q %d:%d", s, start, end)
	}
	key(e, fyne.KeyRight) // collapses to the end
	if _, _, s := e.Selection(); s != "" {
		t.Fatalf("selection not cleared: %q", s)
	}
	assertCursor(t, e, 0, 6)
	shiftKey(e, fyne.KeyEnd)
	test.Type(e, " x")
	if e.Text() != "SELECT x" {
		t.Fatalf("typing over the selection gave %q", e.Text())
	}
	e.SelectAll()
	if _, _, s := e.Selection(); s != "SELECT x" {
		t.Fatalf("select all %q", s)
	}
}

func TestMouse(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT name\nFROM orders")
	r := e.r
	at := func(line, col int) fyne.Position {
		p := r.cellPos(pos{line, col})
		return p.Add(fyne.NewPos(1, r.cell.Height/2))
	}
	e.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at(1, 5)}, Button: desktop.MouseButtonPrimary})
	assertCursor(t, e, 1, 5)
	e.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: at(0, 7)}})
	e.DragEnd()
	e.MouseUp(&desktop.MouseEvent{})
	if _, _, s := e.Selection(); s != "name\nFROM " {
		t.Fatalf("drag selected %q", s)
	}
	e.DoubleTapped(&fyne.PointEvent{Position: at(1, 7)})
	if _, _, s := e.Selection(); s != "orders" {
		t.Fatalf("double click selected %q", s)
	}
	// A click in the gutter selects the line.
	e.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(2, at(0, 0).Y)}, Button: desktop.MouseButtonPrimary})
	if _, _, s := e.Selection(); s != "SELECT name\n" {
		t.Fatalf("gutter click selected %q", s)
	}
}

func TestCursorOverlayAlignedWithCells(t *testing.T) {
	e, _ := newTestEditor(t, "a\tb\nSELECT")
	e.SetCursor(0, 2) // after the tab: display column 4
	r := e.r
	want := r.area.X + float32(r.gutterCols+4)*r.cell.Width
	if got := r.cursor.Position().X + 1; got != want {
		t.Fatalf("cursor x %v, want %v", got, want)
	}
	if !r.cursor.Visible() {
		t.Fatal("cursor hidden while focused")
	}
	assertGridCell(t, e, 0, r.gutterCols+4, 'b')
	// TextGrid agrees about where that cell is.
	gp := r.grid.PositionForCursorLocation(0, r.gutterCols+4)
	if gp.X+r.grid.Position().X != want {
		t.Fatalf("TextGrid puts the cell at %v, cursor at %v", gp.X, want)
	}
	e.FocusLost()
	if r.cursor.Visible() {
		t.Fatal("cursor shown without focus")
	}
}

func TestUndoRedo(t *testing.T) {
	e, _ := newTestEditor(t, "")
	test.Type(e, "SELECT a, b")
	e.Undo()
	if e.Text() != "SELECT a, " {
		t.Fatalf("undo 1: %q", e.Text())
	}
	e.Undo()
	if e.Text() != "SELECT " {
		t.Fatalf("undo 2: %q", e.Text())
	}
	e.TypedShortcut(&fyne.ShortcutRedo{})
	if e.Text() != "SELECT a, " {
		t.Fatalf("redo: %q", e.Text())
	}
	ctrl(e, fyne.KeyZ, fyne.KeyModifierShift) // Ctrl+Shift+Z is redo too
	if e.Text() != "SELECT a, b" {
		t.Fatalf("redo 2: %q", e.Text())
	}
	assertCursor(t, e, 0, 11)
	key(e, fyne.KeyBackspace)
	key(e, fyne.KeyBackspace)
	key(e, fyne.KeyBackspace)
	if e.Text() != "SELECT a" {
		t.Fatalf("backspaces: %q", e.Text())
	}
	e.TypedShortcut(&fyne.ShortcutUndo{}) // all three backspaces are one step
	if e.Text() != "SELECT a, b" {
		t.Fatalf("undo backspaces: %q", e.Text())
	}
	// Moving the cursor starts a new step.
	key(e, fyne.KeyLeft)
	test.Type(e, "x")
	key(e, fyne.KeyRight)
	test.Type(e, "y")
	ctrl(e, fyne.KeyZ)
	if e.Text() != "SELECT a, xb" {
		t.Fatalf("undo after move: %q", e.Text())
	}
	// A new edit clears the redo stack.
	test.Type(e, "z")
	if e.CanRedo() {
		t.Fatal("redo survived a new edit")
	}
	for e.CanUndo() {
		e.Undo()
	}
	if e.Text() != "" {
		t.Fatalf("undo all: %q", e.Text())
	}
}

func TestClipboard(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT 1;\nSELECT 2;")
	cb := fyne.CurrentApp().Clipboard()
	e.Select(0, 8)
	e.TypedShortcut(&fyne.ShortcutCopy{Clipboard: cb})
	if cb.Content() != "SELECT 1" {
		t.Fatalf("copied %q", cb.Content())
	}
	e.TypedShortcut(&fyne.ShortcutCut{}) // falls back to the app clipboard
	if cb.Content() != "SELECT 1" || e.Text() != ";\nSELECT 2;" {
		t.Fatalf("cut: clipboard %q text %q", cb.Content(), e.Text())
	}
	ctrl(e, fyne.KeyEnd)
	cb.SetContent("\r\nSELECT 3;")
	e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if e.Text() != ";\nSELECT 2;\nSELECT 3;" {
		t.Fatalf("paste: %q", e.Text())
	}
	assertCursor(t, e, 2, 9)
	e.Undo()
	if e.Text() != ";\nSELECT 2;" {
		t.Fatalf("undo paste: %q", e.Text())
	}
}

func TestIndentation(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT (")
	key(e, fyne.KeyEnd)
	key(e, fyne.KeyReturn)
	if e.Text() != "SELECT (\n    " {
		t.Fatalf("indent after '(': %q", e.Text())
	}
	test.Type(e, "a")
	key(e, fyne.KeyReturn)
	test.Type(e, "b")
	if e.Text() != "SELECT (\n    a\n    b" {
		t.Fatalf("auto-indent: %q", e.Text())
	}
	e.SelectAll()
	key(e, fyne.KeyTab)
	if e.Text() != "    SELECT (\n        a\n        b" {
		t.Fatalf("indent selection: %q", e.Text())
	}
	shiftKey(e, fyne.KeyTab)
	shiftKey(e, fyne.KeyTab)
	if e.Text() != "SELECT (\na\nb" {
		t.Fatalf("outdent selection: %q", e.Text())
	}
	e.Undo()
	e.Undo()
	if e.Text() != "    SELECT (\n        a\n        b" {
		t.Fatalf("undo outdent: %q", e.Text())
	}
	e.SetText("ab")
	key(e, fyne.KeyRight)
	key(e, fyne.KeyTab)
	if e.Text() != "a   b" {
		t.Fatalf("tab to the next stop: %q", e.Text())
	}
	ctrl(e, fyne.KeySlash)
	if e.Text() != "-- a   b" {
		t.Fatalf("comment: %q", e.Text())
	}
	ctrl(e, fyne.KeySlash)
	if e.Text() != "a   b" {
		t.Fatalf("uncomment: %q", e.Text())
	}
}

func TestFindReplace(t *testing.T) {
	e, _ := newTestEditor(t, "select a FROM t;\nSELECT b from u;\nselect c")
	ctrl(e, fyne.KeyF)
	if !e.find.visible || !e.r.findBar.Visible() {
		t.Fatal("Ctrl+F did not open the find bar")
	}
	e.SetFindQuery("select", false)
	for _, want := range []int{0, 17, 34, 0} { // the last one wraps around
		if !e.FindNext() {
			t.Fatal("no match")
		}
		if s, _, txt := e.Selection(); s != want || !strings.EqualFold(txt, "select") {
			t.Fatalf("match at %d (%q), want %d", s, txt, want)
		}
	}
	if s, _, _ := e.Selection(); s != 0 {
		t.Fatalf("wrapped match at %d", s)
	}
	e.FindPrevious()
	if s, _, _ := e.Selection(); s != strings.LastIndex(e.Text(), "select") {
		t.Fatalf("previous (wrapping) at %d", s)
	}
	if e.r.findBar.status.Text != "3 matches" {
		t.Fatalf("status %q", e.r.findBar.status.Text)
	}
	// Matches are highlighted.
	c := assertGridCell(t, e, 1, e.r.gutterCols, 'S')
	if c.Style == nil || c.Style.BackgroundColor() != e.r.bgs[bgMatch] {
		t.Fatal("match not highlighted")
	}
	e.SetFindQuery("select", true)
	if e.r.findBar.status.Text != "2 matches" {
		t.Fatalf("match case status %q", e.r.findBar.status.Text)
	}
	if n := e.ReplaceAll("SELECT"); n != 2 {
		t.Fatalf("replaced %d", n)
	}
	if e.Text() != "SELECT a FROM t;\nSELECT b from u;\nSELECT c" {
		t.Fatalf("after replace all: %q", e.Text())
	}
	e.Undo()
	if e.Text() != "select a FROM t;\nSELECT b from u;\nselect c" {
		t.Fatalf("undo replace all: %q", e.Text())
	}
	// Replace one at a time: the selected match, then the next is selected.
	e.SetFindQuery("select", false)
	e.SetCursorOffset(0)
	e.FindNext()
	if !e.ReplaceNext("SEL") || !strings.HasPrefix(e.Text(), "SEL a FROM") {
		t.Fatalf("replace next: %q", e.Text())
	}
	if s, _, txt := e.Selection(); txt != "SELECT" || s != 14 {
		t.Fatalf("after replace the next match should be selected, got %q at %d", txt, s)
	}
	// Esc in the find entry closes the bar and focuses the text again.
	ctrl(e, fyne.KeyH)
	if !e.find.replace || !e.r.findBar.replaceRow.Visible() {
		t.Fatal("Ctrl+H did not show the replace row")
	}
	e.r.findBar.query.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if e.find.visible || !e.focused {
		t.Fatal("Esc in the find entry did not close the bar")
	}
	ctrl(e, fyne.KeyF)
	key(e, fyne.KeyEscape)
	if e.find.visible {
		t.Fatal("Esc did not close the find bar")
	}
}

func TestContextMenu(t *testing.T) {
	e, w := newTestEditor(t, "SELECT 1")
	e.SelectAll()
	e.TappedSecondary(&fyne.PointEvent{Position: fyne.NewPos(50, 5), AbsolutePosition: fyne.NewPos(50, 5)})
	overlay := w.Canvas().Overlays().Top()
	if overlay == nil {
		t.Fatal("no context menu")
	}
	if !strings.Contains(test.RenderObjectToMarkup(overlay), "Copy") {
		t.Fatal("context menu without Copy")
	}
}

func TestRunHooks(t *testing.T) {
	e, _ := newTestEditor(t, sampleScript)
	var stmt string
	var off int
	e.OnRunStatement = func(s string, o int) { stmt, off = s, o }
	// Cursor in the middle of the second statement.
	e.SetCursor(7, 3)
	ctrl(e, fyne.KeyReturn)
	want := "SELECT id, price\nFROM orders\nWHERE price > 100"
	if stmt != want || e.Text()[off:off+len(want)] != want {
		t.Fatalf("ran %q at %d", stmt, off)
	}
	// Right after the last ';' runs the last statement.
	ctrl(e, fyne.KeyEnd)
	ctrl(e, fyne.KeyEnter)
	if stmt != "SELECT COUNT(*) FROM orders" {
		t.Fatalf("ran %q", stmt)
	}
	// A selection is run as it is.
	e.Select(strings.Index(sampleScript, "SELECT id"), strings.Index(sampleScript, "\nFROM orders\nWHERE"))
	ctrl(e, fyne.KeyReturn)
	if stmt != "SELECT id, price" || off != strings.Index(sampleScript, "SELECT id") {
		t.Fatalf("ran selection %q at %d", stmt, off)
	}
	// A custom splitter is used when set.
	e.Splitter = func(script string) []Statement { return []Statement{{Text: "X", Start: 0, End: 1}} }
	e.SetCursor(3, 0)
	ctrl(e, fyne.KeyReturn)
	if stmt != "X" {
		t.Fatalf("custom splitter: ran %q", stmt)
	}
	e.Splitter = nil

	var all, explained string
	var cancelled, formatted, completed bool
	e.OnRunAll = func(s string) { all = s }
	e.OnExplain = func(s string, _ int) { explained = s }
	e.OnCancel = func() { cancelled = true }
	e.OnFormat = func() { formatted = true }
	e.OnComplete = func() { completed = true }
	ctrl(e, fyne.KeyReturn, fyne.KeyModifierShift)
	ctrl(e, fyne.KeyE)
	key(e, fyne.KeyEscape)
	ctrl(e, fyne.KeyF, fyne.KeyModifierShift)
	ctrl(e, fyne.KeySpace)
	if all != sampleScript || !strings.HasPrefix(explained, "CREATE TABLE orders") || !cancelled || !formatted || !completed {
		t.Fatalf("hooks: all=%v explain=%q cancel=%v format=%v complete=%v", all == sampleScript, explained, cancelled, formatted, completed)
	}
	if e.Text() != sampleScript {
		t.Fatal("hooks changed the text")
	}
}

func TestCompletionHelpers(t *testing.T) {
	e, w := newTestEditor(t, "SELECT * FROM ord")
	key(e, fyne.KeyEnd)
	prefix, start := e.WordBeforeCursor()
	if prefix != "ord" || start != 14 {
		t.Fatalf("prefix %q at %d", prefix, start)
	}
	e.ReplaceRange(start, e.CursorOffset(), "orders")
	if e.Text() != "SELECT * FROM orders" || e.CursorOffset() != 20 {
		t.Fatalf("completion: %q cursor %d", e.Text(), e.CursorOffset())
	}
	p := e.CursorScreenPosition()
	want := fyne.CurrentApp().Driver().AbsolutePositionForObject(e).Add(e.r.cellPos(pos{0, 20})).Add(fyne.NewPos(0, e.r.cell.Height))
	if p != want || p.Y <= 0 || p.X <= 0 || p.X > w.Canvas().Size().Width {
		t.Fatalf("cursor screen position %v, want %v", p, want)
	}
	e.InsertAtCursor(" o")
	if e.Text() != "SELECT * FROM orders o" {
		t.Fatalf("insert at cursor: %q", e.Text())
	}
}

func TestHighlightColours(t *testing.T) {
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		e, _ := newTestEditor(t, "SELECT 'x' -- note")
		fyne.CurrentApp().Settings().SetTheme(forcedVariant{theme.DefaultTheme(), variant})
		e.Refresh()
		want := lightTokens
		if variant == theme.VariantDark {
			want = darkTokens
		}
		g := e.r.gutterCols
		cases := []struct {
			col   int
			r     rune
			class tokenClass
		}{{0, 'S', classKeyword}, {7, '\'', classString}, {8, 'x', classString}, {11, '-', classComment}, {14, 'n', classComment}}
		for _, c := range cases {
			cell := assertGridCell(t, e, 0, g+c.col, c.r)
			if cell.Style == nil || cell.Style.TextColor() != want[c.class] {
				t.Errorf("variant %d: cell %d (%q) colour %v, want %v", variant, c.col, c.r, cell.Style, want[c.class])
			}
		}
		// The line number is in the gutter.
		assertGridCell(t, e, 0, g-3, '1')
	}
}

// forcedVariant is a theme that always uses one variant.
type forcedVariant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (f forcedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.v)
}

func TestErrorMarkers(t *testing.T) {
	e, _ := newTestEditor(t, sampleScript)
	e.SetErrorMarker(7, 5, "Object 'orders' not found")
	g := e.r.gutterCols
	marker := assertGridCell(t, e, 7, 0, '●')
	if marker.Style == nil || marker.Style.TextColor() != theme.Color(theme.ColorNameError) {
		t.Fatal("gutter marker not in the error colour")
	}
	for col := 5; col < 11; col++ { // "orders"
		c := e.r.grid.Rows[7].Cells[g+col]
		if c.Style == nil || c.Style.BackgroundColor() != e.r.bgs[bgError] {
			t.Fatalf("column %d (%q) not marked", col, c.Rune)
		}
	}
	if c := e.r.grid.Rows[7].Cells[g+4]; c.Style != nil && c.Style.BackgroundColor() == e.r.bgs[bgError] {
		t.Fatal("the space before the token is marked")
	}
	if msg, ok := e.ErrorAt(7); !ok || msg != "Object 'orders' not found" {
		t.Fatalf("ErrorAt = %q, %v", msg, ok)
	}
	// Hovering the token shows the message.
	e.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: e.r.cellPos(pos{7, 6}).Add(fyne.NewPos(1, 2))}})
	if !e.r.tipText.Visible() || e.r.tipText.Text != "Object 'orders' not found" {
		t.Fatal("no tooltip over the error")
	}
	e.MouseOut()
	// Lines inserted above move the marker.
	e.SetCursor(0, 0)
	key(e, fyne.KeyReturn)
	if ms := e.ErrorMarkers(); len(ms) != 1 || ms[0].Line != 8 {
		t.Fatalf("markers after insert: %+v", ms)
	}
	assertGridCell(t, e, 8, 0, '●')
	e.ClearErrorMarkers()
	assertGridCell(t, e, 8, 0, ' ')
	e.SetErrorMarker(999, 0, "out of range is ignored")
	if len(e.ErrorMarkers()) != 0 {
		t.Fatal("marker beyond the text was kept")
	}
}

func TestHighlightRange(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT 1;\nSELECT 2;")
	e.HighlightRange(10, 18, time.Hour)
	g := e.r.gutterCols
	c := assertGridCell(t, e, 1, g, 'S')
	if c.Style == nil || c.Style.BackgroundColor() != e.r.bgs[bgFlash] {
		t.Fatal("range not flashed")
	}
	if c := e.r.grid.Rows[0].Cells[g]; c.Style != nil && c.Style.BackgroundColor() == e.r.bgs[bgFlash] {
		t.Fatal("flash outside the range")
	}
	e.endFlash(e.flash.gen)
	if c := e.r.grid.Rows[1].Cells[g]; c.Style != nil && c.Style.BackgroundColor() == e.r.bgs[bgFlash] {
		t.Fatal("flash not cleared")
	}
}

func TestLargeScript(t *testing.T) {
	script := bigScript(10 << 20)
	e, _ := newTestEditor(t, script)
	if e.Text() != script {
		t.Fatal("text round trip")
	}
	ctrl(e, fyne.KeyEnd)
	test.Type(e, " -- end")
	last := e.LineCount() - 1
	if !strings.HasSuffix(e.Text(), " -- end") {
		t.Fatal("typing at the end")
	}
	if top := e.FirstVisibleLine(); top > last || top+e.r.fullRows <= last {
		t.Fatalf("end not in view: top %d of %d", top, last)
	}
	// Only visible lines were lexed.
	lexed := 0
	for i := range e.buf.lines {
		if e.buf.lines[i].hl != nil {
			lexed++
		}
	}
	if lexed > 3*e.r.viewRows {
		t.Fatalf("%d lines lexed for %d visible rows", lexed, e.r.viewRows)
	}
	// One very long line does not blow up the grid.
	e.SetText(strings.Repeat("SELECT 'x', ", 12000))
	key(e, fyne.KeyEnd)
	if n := len(e.r.grid.Rows[0].Cells); n > e.r.gutterCols+e.r.textCols+1 {
		t.Fatalf("grid row holds %d cells", n)
	}
}

// bigScript returns a Flink SQL script of about size bytes.
func bigScript(size int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(sampleScript)
		sb.WriteString("\n/* block\n   comment */\n")
	}
	return sb.String()
}

func TestThemeChangeAndNoPanicWithoutRenderer(t *testing.T) {
	test.NewTempApp(t)
	e := New() // never shown
	e.SetText("SELECT 1")
	test.Type(e, "x")
	key(e, fyne.KeyPageDown)
	e.MouseMoved(&desktop.MouseEvent{})
	e.Scrolled(&fyne.ScrollEvent{})
	e.HighlightRange(0, 3, time.Hour) // the test driver would run the timer's fyne.Do on its goroutine
	e.SetFindQuery("x", false)
	_ = e.CursorScreenPosition()
	if !e.FindNext() {
		t.Fatal("find without renderer")
	}
}

func TestScrollBars(t *testing.T) {
	e, _ := newTestEditor(t, scriptOfLines(1000))
	vb := e.r.vbar
	if !vb.Visible() {
		t.Fatal("no vertical scroll bar for 1000 lines")
	}
	if e.r.hbar.Visible() {
		t.Fatal("horizontal scroll bar shown although every line fits")
	}
	// Tapping below the thumb pages down.
	vb.Tapped(&fyne.PointEvent{Position: fyne.NewPos(2, vb.Size().Height-2)})
	if e.FirstVisibleLine() != e.r.fullRows {
		t.Fatalf("tap paged to %d, want %d", e.FirstVisibleLine(), e.r.fullRows)
	}
	// Dragging the thumb by the whole track scrolls to the end.
	vb.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(0, vb.Size().Height)})
	vb.DragEnd()
	if top := e.FirstVisibleLine(); top != e.maxTop(e.r.fullRows) {
		t.Fatalf("drag scrolled to %d, want %d", top, e.maxTop(e.r.fullRows))
	}
	// The cursor did not move.
	assertCursor(t, e, 0, 0)
	// Shift+wheel scrolls sideways.
	e.SetText(strings.Repeat("z", 400))
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -5*e.r.cell.Width)})
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if e.left != 5 {
		t.Fatalf("shift+wheel scrolled to column %d", e.left)
	}
}

// embedded checks that the editor still works when extended.
type embedded struct {
	Editor
}

func TestExtendedEditor(t *testing.T) {
	test.NewTempApp(t)
	x := &embedded{}
	x.ExtendBaseWidget(x)
	w := test.NewTempWindow(t, x)
	w.Resize(fyne.NewSize(300, 200))
	w.Canvas().Focus(x)
	test.Type(x, "SELECT 1")
	if x.Text() != "SELECT 1" {
		t.Fatalf("text %q", x.Text())
	}
	if len(x.r.grid.Rows) == 0 || x.r.grid.Rows[0].Cells[x.r.gutterCols].Rune != 'S' {
		t.Fatal("extended editor not drawn")
	}
}

// An extended editor finds its canvas and position through the extending
// widget: the context menu opens, the find bar gets the focus and the
// completion anchor is where the cursor is.
func TestExtendedEditorUsesItsCanvas(t *testing.T) {
	test.NewTempApp(t)
	x := &embedded{}
	x.ExtendBaseWidget(x)
	top := widget.NewLabel("above")
	w := test.NewTempWindow(t, container.NewBorder(top, nil, nil, nil, x))
	w.Resize(fyne.NewSize(400, 300))
	w.Canvas().Focus(x)
	test.Type(x, "SELECT 1")
	if p := x.CursorScreenPosition(); p.Y <= top.MinSize().Height {
		t.Errorf("cursor anchor %v is not below the label", p)
	}
	test.TapSecondary(x)
	if w.Canvas().Overlays().Top() == nil {
		t.Error("no context menu")
	}
	w.Canvas().Overlays().Top().Hide()
	w.Canvas().Overlays().Remove(w.Canvas().Overlays().Top())
	x.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierControl})
	if w.Canvas().Focused() == fyne.Focusable(x) || w.Canvas().Focused() == nil {
		t.Errorf("find bar not focused: %T", w.Canvas().Focused())
	}
	x.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
}

// A cursor set before the editor is shown (a restored workspace tab) is
// scrolled into view when the editor is first laid out.
func TestCursorSetBeforeLayoutIsScrolledIntoView(t *testing.T) {
	test.NewTempApp(t)
	lines := make([]string, 300)
	for i := range lines {
		lines[i] = fmt.Sprintf("SELECT %d", i)
	}
	e := New()
	e.SetText(strings.Join(lines, "\n"))
	e.SetCursor(250, 3)
	w := test.NewTempWindow(t, e)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(600, 400))
	rows := e.r.fullRows
	if top := e.FirstVisibleLine(); top > 250 || top+rows <= 250 {
		t.Errorf("line 250 (the cursor's) is not visible: top %d, %d rows", top, rows)
	}
	// An explicit scroll before the layout wins over the cursor.
	e2 := New()
	e2.SetText(strings.Join(lines, "\n"))
	e2.SetCursor(250, 3)
	e2.ScrollToLine(10)
	w2 := test.NewTempWindow(t, e2)
	w2.Resize(fyne.NewSize(600, 400))
	if top := e2.FirstVisibleLine(); top != 10 {
		t.Errorf("top %d after ScrollToLine(10)", top)
	}
}

func TestErrorSpan(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT origin, SUM(distance) + 'x' AS d FROM flights")
	g := e.r.gutterCols
	marked := func(col int) bool {
		c := e.r.grid.Rows[0].Cells[g+col]
		return c.Style != nil && c.Style.BackgroundColor() == e.r.bgs[bgError]
	}
	// "SUM(distance) + 'x'" is columns 15..33 (0-based)
	e.SetErrorSpan(0, 15, 0, 34, "Cannot apply '+' to arguments of type '<INTEGER> + <CHAR(1)>'")
	for col := 15; col < 34; col++ {
		if !marked(col) {
			t.Fatalf("column %d (%q) not marked", col, e.r.grid.Rows[0].Cells[g+col].Rune)
		}
	}
	if marked(14) || marked(34) {
		t.Error("the span is marked beyond its ends")
	}
	// hovering its end shows the message
	e.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: e.r.cellPos(pos{0, 32}).Add(fyne.NewPos(1, 2))}})
	if !e.r.tipText.Visible() || !strings.HasPrefix(e.r.tipText.Text, "Cannot apply") {
		t.Error("no tooltip over the span's end")
	}
	e.MouseOut()
	// a span over lines: to the end of the first; no span: the token
	e.ClearErrorMarkers()
	e.SetErrorSpan(0, 45, 3, 2, "more lines")
	if !marked(45) || !marked(51) || marked(44) {
		t.Error("a span over lines")
	}
	e.ClearErrorMarkers()
	e.SetErrorSpan(0, 19, 0, 19, "the token")
	if !marked(19) || !marked(26) || marked(27) || marked(18) {
		t.Error("no span: the token")
	}
}

// An idle focused editor stops blinking after blinkTimeout with its cursor
// drawn, so an idle window is not repainted twice a second; a key starts
// the blinking again.
func TestCursorStopsBlinkingWhenIdle(t *testing.T) {
	e, _ := newTestEditor(t, "SELECT 1")
	r := e.r
	if !r.blinking || r.parked {
		t.Fatalf("focused editor: blinking %v parked %v, want blinking", r.blinking, r.parked)
	}
	// second half of a blink, just after activity: still drawn (the
	// activity set here, not at the editor's making, so that a slow
	// machine does not spend the 600 ms before the tick)
	e.lastActivity = time.Now()
	r.blinkFrom = e.lastActivity
	r.blinkTick(0.7)
	if !r.blinking || !r.cursor.Visible() {
		t.Fatalf("just focused: blinking %v cursor visible %v", r.blinking, r.cursor.Visible())
	}
	e.lastActivity = time.Now().Add(-blinkTimeout - time.Second)
	r.blinkFrom = e.lastActivity
	r.blinkTick(0.2)
	r.blinkTick(0.7)
	if r.blinking || !r.parked {
		t.Fatalf("idle %v: blinking %v parked %v, want parked", blinkTimeout, r.blinking, r.parked)
	}
	if !r.cursor.Visible() {
		t.Fatal("a parked cursor is hidden, want it drawn")
	}
	e.Refresh() // a refresh does not restart it
	if r.blinking {
		t.Fatal("a refresh restarted the blinking of an idle editor")
	}
	key(e, fyne.KeyRight)
	if !r.blinking || r.parked {
		t.Fatalf("after a key: blinking %v parked %v, want blinking", r.blinking, r.parked)
	}
}
