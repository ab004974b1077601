package resultgrid

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// DefaultPageSize is how many rows one grid page shows. Fyne lays cells out
// with float32 positions, exact only up to 2^24 px (about 430,000 rows of
// 39 px); beyond a page the pager moves on.
const DefaultPageSize = 200_000

// Grid is the virtualised grid of one result: a widget.Table whose
// cells read a cached window of the result (results.Snapshot), refreshed
// by the result tab at most ~10 times a second. Column 0 holds row numbers
// (sticky); in the changelog view column 1 holds the RowKind ("op").
//
// It adds to the Table: a typed header that sorts on tap, a rectangular
// selection (click, Shift+click, Ctrl+A) copied as TSV (Ctrl+C), pages of
// DefaultPageSize rows, and a frozen frame while paused.
type Grid struct {
	widget.Table

	res     *results.Result
	view    results.View
	cols    []results.Column
	numeric []bool
	types   []string

	// frozen, when set, is the frame shown (paused): the grid reads it
	// instead of the live result.
	frozen *results.Frozen
	snap   *results.Snapshot
	// The current frame.
	total   int
	version uint64
	dropped int64
	state   results.State
	err     error
	sortCol int
	desc    bool

	page, pageSize int

	visFrom, visTo     int // absolute rows drawn by the last refresh
	trackMin, trackMax int
	fetches            int // snapshot reads (for tests and benchmarks)

	hasSel         bool
	anchor, cursor widget.TableCellID
	shiftDown      bool
	moving         bool // moveTo is selecting: the Table's OnSelected is ours

	widthsView   results.View
	widthsSet    bool
	widthsLive   bool      // sized from the rows of a running result
	userResized  bool      // the user dragged in the grid (maybe a column edge)
	dataWidths   []float32 // the widths setWidths gave the data columns
	rowNumDigits int

	// OnSortError reports a sort that cannot be done (still running).
	OnSortError func(error)
	// OnChanged is called after the frame or selection changed.
	OnChanged func()
	// OnMenu opens the context menu at an absolute position.
	OnMenu func(at fyne.Position)
	// OnCellMenu and OnHeaderMenu open the menus of a right-clicked data
	// cell or header (authoring hook: grid_actions.go).
	OnCellMenu   func(id widget.TableCellID, at fyne.Position)
	OnHeaderMenu func(col int, at fyne.Position)
	// OnShortcut gets the shortcuts the grid does not use (Ctrl+Enter…).
	OnShortcut func(fyne.Shortcut) bool
	// OnStatus shows a passing message (sorting…).
	OnStatus func(string)

	// Do runs a function on the UI goroutine; when set, sorts of more than
	// asyncSortRows rows run on another goroutine with progress and cancel
	// (grid_sort.go) and the grid is redrawn when they are done.
	Do            func(func())
	asyncSortRows int
	sort          sortJob
	// OnSortProgress shows a background sort's progress: sorting with the
	// fraction done (0..1) while it runs, then sorting false once.
	OnSortProgress func(sorting bool, done float64)

	// scroller is the Table's scroller, pitch a row's height with its
	// separator (grid_wheel.go: several rows a wheel notch).
	scroller fyne.Scrollable
	pitch    float32
}

var (
	_ fyne.Shortcutable      = (*Grid)(nil)
	_ fyne.SecondaryTappable = (*Grid)(nil)
	_ desktop.Mouseable      = (*Grid)(nil)
	_ desktop.Keyable        = (*Grid)(nil)
)

func New(res *results.Result, view results.View) *Grid {
	g := &Grid{res: res, view: view, pageSize: DefaultPageSize, sortCol: -1, visTo: 60, asyncSortRows: 50_000}
	g.cols = res.Columns()
	for _, c := range g.cols {
		g.numeric = append(g.numeric, c.Type != nil && c.Type.IsNumeric())
		t := ""
		if c.Type != nil {
			t = c.Type.String()
		}
		g.types = append(g.types, t)
	}
	g.Length = g.tableLength // grid_memory.go: no rows while unsized
	g.CreateCell = func() fyne.CanvasObject {
		c := NewCell()
		c.grid = g // authoring hook: right-click actions (grid_actions.go)
		return c
	}
	g.UpdateCell = g.updateCell
	g.ShowHeaderRow = true
	g.StickyColumnCount = 1
	g.CreateHeader = func() fyne.CanvasObject { return newHeaderCell(g) }
	g.UpdateHeader = g.updateHeader
	g.OnSelected = g.selected
	g.ExtendBaseWidget(g)
	g.RefreshFrame()
	return g
}

// opCols is 1 in the changelog view (the op column), else 0.
func (g *Grid) opCols() int {
	if g.view == results.ChangelogView {
		return 1
	}
	return 0
}

// gridCols is the number of table columns: row number, op, data.
func (g *Grid) gridCols() int { return 1 + g.opCols() + len(g.cols) }

func (g *Grid) PageStart() int { return g.page * g.pageSize }

// PageRows is the number of rows on the current page.
func (g *Grid) PageRows() int {
	return max(0, min(g.pageSize, g.total-g.PageStart()))
}

// Pages is the number of Pages of the current frame (at least 1).
func (g *Grid) Pages() int {
	return max(1, (g.total+g.pageSize-1)/g.pageSize)
}

func (g *Grid) Shape() (int, int) { return g.PageRows(), g.gridCols() }

// SetView switches between the table and the changelog view.
func (g *Grid) SetView(v results.View) {
	if g.view == v {
		return
	}
	g.view = v
	g.frozen = nil
	if g.res.Paused() {
		g.frozen = g.res.Freeze(v)
	}
	g.snap = nil
	g.page = 0
	g.hasSel = false
	g.widthsSet = false
	g.Table.UnselectAll()
	g.RefreshFrame()
	g.ScrollToTop()
}

// SetPaused freezes the frame (the result keeps consuming rows) or goes
// back to the live result.
func (g *Grid) SetPaused(p bool) {
	g.res.SetPaused(p)
	if p {
		g.frozen = g.res.Freeze(g.view)
	} else {
		g.frozen = nil
	}
	g.RefreshFrame()
}

// RefreshFrame reads a new frame (the rows around those drawn last time)
// and redraws the visible cells: the UI-goroutine work of one live update.
func (g *Grid) RefreshFrame() {
	if g.frozen != nil {
		g.total = g.frozen.Len()
		st, err := g.res.State()
		g.state, g.err = st, err
	} else {
		from, to := g.visFrom-32, g.visTo+32
		g.snap = g.res.Snapshot(g.view, from, to, g.snap)
		g.fetches++
		s := g.snap
		g.total, g.version, g.dropped, g.state, g.err = s.Total, s.Version, s.Dropped, s.State, s.Err
		g.sortCol, g.desc = s.SortCol, s.Desc
	}
	if g.page >= g.Pages() {
		g.page = g.Pages() - 1
	}
	g.setWidths()
	g.fitRowNumbers()
	g.trackMin, g.trackMax = math.MaxInt, -1
	g.Table.Refresh()
	if g.trackMax >= 0 {
		g.visFrom, g.visTo = g.trackMin, g.trackMax+1
	}
	if g.OnChanged != nil {
		g.OnChanged()
	}
}

// setWidths sizes the columns once per view from the header and a sample
// of rows of the frame: the first 200 and the last 100 of the page (the
// user may resize them afterwards).
func (g *Grid) setWidths() {
	if g.widthsSet && g.widthsView == g.view {
		return
	}
	if g.total == 0 && g.state == results.Running {
		return // wait for rows to size by
	}
	th := g.Theme()
	size := th.Size(theme.SizeNameText)
	cw := widgets.CharWidth(size)
	pad := th.Size(theme.SizeNameInnerPadding) + 2
	g.dataWidths = make([]float32, len(g.cols))
	g.rowNumDigits = 0
	g.fitRowNumbers()
	if g.opCols() == 1 {
		g.SetColumnWidth(1, 3*cw+pad+fyne.MeasureText("op", size, fyne.TextStyle{Bold: true}).Width/2)
	}
	cells := make([]int, len(g.cols))
	n := g.PageRows()
	for r := 0; r < n; r++ {
		if r == 200 {
			r = max(r, n-100) // then the last rows
		}
		for c := range g.cols {
			text, null, _ := g.CellText(r, 1+g.opCols()+c)
			w := widgets.CellsOf(text)
			if null {
				w = 4
			}
			cells[c] = max(cells[c], w)
		}
	}
	for c := range g.cols {
		head := fyne.MeasureText(g.cols[c].Name, size, fyne.TextStyle{Bold: true}).Width +
			fyne.MeasureText(" "+g.types[c], th.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Width +
			fyne.MeasureText(" ▲", size, fyne.TextStyle{}).Width
		w := min(max(max(head, float32(max(cells[c], 4))*cw)+pad, 60), 420)
		g.SetColumnWidth(1+g.opCols()+c, w)
		g.dataWidths[c] = w
	}
	g.widthsView, g.widthsSet = g.view, true
	g.widthsLive = g.state == results.Running
}

// RefitWidths sizes the columns again from the final rows once a result
// has ended, when they were sized from its first rows and the user has not
// resized any (later values are often longer than the first ones).
func (g *Grid) RefitWidths() {
	if g.widthsSet && g.widthsLive && !g.userResized {
		g.widthsSet = false
	}
}

// Dragged resizes a column when the drag began on a header edge (the
// Table's); the grid then keeps the user's widths.
func (g *Grid) Dragged(e *fyne.DragEvent) {
	g.userResized = true
	g.Table.Dragged(e)
}

// fitRowNumbers widens the row-number column when the numbers get longer.
func (g *Grid) fitRowNumbers() {
	digits := max(2, len(strconv.Itoa(g.PageStart()+g.PageRows())))
	if digits == g.rowNumDigits {
		return
	}
	g.rowNumDigits = digits
	th := g.Theme()
	g.SetColumnWidth(0, float32(digits)*widgets.CharWidth(th.Size(theme.SizeNameText))+th.Size(theme.SizeNameInnerPadding)+2)
}

// CellText returns the text of a cell on the current page, whether it is
// NULL, and its RowKind in the changelog view. Column 0 is the row number.
func (g *Grid) CellText(row, col int) (text string, null bool, kind types.RowKind) {
	abs := g.PageStart() + row
	if col == 0 {
		return strconv.Itoa(abs + 1), false, types.Insert
	}
	fc := col - 1 // column of the frozen frame (op first in the changelog)
	if g.frozen != nil {
		if abs >= g.frozen.Len() || fc >= len(g.frozen.Columns()) {
			return "", false, types.Insert
		}
		text, null = g.frozen.Text(abs, fc)
		if g.opCols() == 1 {
			k, _ := g.frozen.Text(abs, 0)
			kind, _ = types.ParseRowKind(k)
			if fc == 0 {
				return text, false, kind
			}
		}
		return text, null, kind
	}
	s := g.snap
	if s == nil || abs < s.From || abs >= s.From+len(s.Cells) {
		g.snap = g.res.Snapshot(g.view, abs-80, abs+160, g.snap)
		g.fetches++
		s = g.snap
	}
	i := abs - s.From
	if i < 0 || i >= len(s.Cells) {
		return "", false, types.Insert // the row is gone since the frame began
	}
	if g.opCols() == 1 && i < len(s.Kinds) {
		kind = s.Kinds[i]
		if fc == 0 {
			return kind.ShortString(), false, kind
		}
	}
	dc := fc - g.opCols()
	if dc < 0 || dc >= len(s.Cells[i]) {
		return "", false, kind
	}
	return s.Cells[i][dc], s.Nulls[i][dc], kind
}

func (g *Grid) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*Cell)
	c.id = id
	abs := g.PageStart() + id.Row
	g.trackMin, g.trackMax = min(g.trackMin, abs), max(g.trackMax, abs)
	text, null, kind := g.CellText(id.Row, id.Col)
	sel := g.InSelection(id)
	switch {
	case id.Col == 0:
		c.set(text, RowNumCell, fyne.TextAlignTrailing, sel)
	case g.opCols() == 1 && id.Col == 1:
		k := OpPlusCell
		if kind.IsRetract() {
			k = OpMinusCell
		}
		c.set(text, k, fyne.TextAlignLeading, sel)
	case null:
		c.set("", NullCell, fyne.TextAlignLeading, sel)
	default:
		align := fyne.TextAlignLeading
		if dc := id.Col - 1 - g.opCols(); dc >= 0 && dc < len(g.numeric) && g.numeric[dc] {
			align = fyne.TextAlignTrailing
		}
		c.set(text, ValueCell, align, sel)
	}
}

func (g *Grid) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	h := o.(*HeaderCell)
	switch {
	case id.Col == 0:
		h.set(0, "#", "", "")
	case g.opCols() == 1 && id.Col == 1:
		h.set(1, "op", "", "")
	case id.Col > 0 && id.Col-1-g.opCols() < len(g.cols):
		dc := id.Col - 1 - g.opCols()
		arrow := ""
		if g.sortCol == dc {
			arrow = "▲"
			if g.desc {
				arrow = "▼"
			}
		}
		h.set(id.Col, g.cols[dc].Name, g.types[dc], arrow)
	default:
		h.set(id.Col, "", "", "")
	}
}

// HeaderTapped cycles the sort of a data column: ascending, descending,
// arrival order. The "#" header selects everything.
func (g *Grid) HeaderTapped(col int) {
	if col == 0 {
		g.SelectAll()
		return
	}
	dc := col - 1 - g.opCols()
	if dc < 0 {
		return
	}
	switch {
	case g.sortCol != dc:
		g.Sort(dc, false)
	case !g.desc:
		g.Sort(dc, true)
	default:
		g.ClearSort()
	}
}

// Unsortable says why the grid cannot sort now (nil when it can).
func (g *Grid) Unsortable() error {
	switch {
	case g.view == results.ChangelogView:
		return errors.New("the changelog view is in arrival order; switch to the table view to sort")
	case g.state == results.Running:
		return results.ErrRunning
	}
	return nil
}

func (g *Grid) SortFailed(err error) {
	if errors.Is(err, results.ErrRunning) {
		err = errors.New("sorting is available when the query has finished (or after Stop)")
	}
	if g.OnSortError != nil {
		g.OnSortError(err)
	}
}

// FollowTail scrolls to the last row. Table.ScrollToBottom on a table not
// laid out yet (or without rows) leaves a scroll offset its content does
// not have, and the first rows would then never be drawn.
func (g *Grid) FollowTail() {
	if rows, _ := g.Shape(); rows == 0 || g.Size().Height <= 0 {
		return
	}
	g.ScrollToBottom()
}

// SetPage shows page p (0-based).
func (g *Grid) SetPage(p int) {
	p = max(0, min(p, g.Pages()-1))
	if p == g.page {
		return
	}
	g.page = p
	g.hasSel = false
	g.Table.UnselectAll()
	g.visFrom, g.visTo = g.PageStart(), g.PageStart()+60
	g.ScrollToTop()
	g.RefreshFrame()
}

// Selection.

// cellPressed selects a cell by mouse (extend: Shift held) and gives the
// grid the keyboard focus.
func (g *Grid) cellPressed(id widget.TableCellID, extend bool) {
	g.focus()
	if id.Col == 0 { // the row number: the whole row
		g.selectRow(id.Row, extend)
		return
	}
	g.moveTo(id, extend)
}

// focus gives the grid the keyboard (arrows, Shift+arrows, Ctrl+C).
func (g *Grid) focus() {
	if app := fyne.CurrentApp(); app != nil {
		if c := app.Driver().CanvasForObject(g); c != nil && c.Focused() != g {
			c.Focus(g)
		}
	}
}

// moveTo makes id the selection's moving corner: with extend the anchor
// stays, else id becomes the only selected cell. It scrolls id into view.
func (g *Grid) moveTo(id widget.TableCellID, extend bool) {
	rows, cols := g.Shape()
	if rows == 0 || cols < 2 {
		return
	}
	id.Row = max(0, min(id.Row, rows-1))
	id.Col = max(0, min(id.Col, cols-1))
	if extend && g.hasSel {
		g.cursor = id
	} else {
		g.anchor, g.cursor, g.hasSel = id, id, true
	}
	g.moving = true
	g.Table.Select(id) // the Table's marker and keyboard focus follow
	g.moving = false
	g.ScrollTo(id)
	g.Table.Refresh()
	if g.OnChanged != nil {
		g.OnChanged()
	}
}

// selectRow selects a whole row (a click on its number); with extend, the
// rows from the anchor's.
func (g *Grid) selectRow(row int, extend bool) {
	rows, cols := g.Shape()
	if rows == 0 || cols < 2 {
		return
	}
	row = max(0, min(row, rows-1))
	if !extend || !g.hasSel {
		g.anchor = widget.TableCellID{Row: row, Col: 0}
	}
	g.cursor, g.hasSel = widget.TableCellID{Row: row, Col: 0}, true
	g.Table.Refresh()
	if g.OnChanged != nil {
		g.OnChanged()
	}
}

// step moves the selection's moving corner by rows and columns (data
// columns only; a row selection moves to its first data cell).
func (g *Grid) step(dRow, dCol int, extend bool) {
	rows, cols := g.Shape()
	if rows == 0 || cols < 2 {
		return
	}
	c := widget.TableCellID{Row: 0, Col: 1}
	if g.hasSel {
		c = g.cursor
	}
	c.Row = max(0, min(c.Row+dRow, rows-1))
	c.Col = max(1, min(c.Col+dCol, cols-1))
	g.moveTo(c, extend)
}

// visibleRows is about how many rows fit in the grid (Page Up/Down).
func (g *Grid) visibleRows() int {
	h := g.Size().Height
	cell := g.Theme().Size(theme.SizeNameText)*1.4 + g.Theme().Size(theme.SizeNameInnerPadding)
	return max(1, int(h/cell)-2)
}

func (g *Grid) selected(id widget.TableCellID) {
	if g.moving {
		return
	}
	if g.hasSel && g.shiftDown {
		g.cursor = id
	} else {
		g.anchor, g.cursor, g.hasSel = id, id, true
	}
	g.Table.Refresh()
	if g.OnChanged != nil {
		g.OnChanged()
	}
}

// SelectRange selects rows r1..r2 and grid columns c1..c2 of the page.
func (g *Grid) SelectRange(r1, c1, r2, c2 int) {
	g.anchor, g.cursor, g.hasSel = widget.TableCellID{Row: r1, Col: c1}, widget.TableCellID{Row: r2, Col: c2}, true
	g.Table.Refresh()
}

func (g *Grid) SelectAll() {
	rows, cols := g.Shape()
	if rows == 0 {
		return
	}
	g.SelectRange(0, 1, rows-1, cols-1)
}

// SelectionBounds returns the selected rectangle (a row-number cell selects its
// whole row).
func (g *Grid) SelectionBounds() (r1, c1, r2, c2 int, ok bool) {
	if !g.hasSel {
		return 0, 0, 0, 0, false
	}
	r1, r2 = min(g.anchor.Row, g.cursor.Row), max(g.anchor.Row, g.cursor.Row)
	c1, c2 = min(g.anchor.Col, g.cursor.Col), max(g.anchor.Col, g.cursor.Col)
	if c1 == 0 {
		c1, c2 = 1, g.gridCols()-1
	}
	return r1, c1, r2, c2, true
}

func (g *Grid) InSelection(id widget.TableCellID) bool {
	r1, c1, r2, c2, ok := g.SelectionBounds()
	if !ok || (r1 == r2 && c1 == c2) {
		return false // a single cell shows the Table's own marker
	}
	return id.Row >= r1 && id.Row <= r2 && ((id.Col >= c1 && id.Col <= c2) || id.Col == 0)
}

// SelectionTSV returns the selected cells as tab-separated values (NULL as
// an empty field; fields holding a tab, line break or quote are quoted as
// spreadsheets expect), with the column names first when header is set.
func (g *Grid) SelectionTSV(header bool) string {
	r1, c1, r2, c2, ok := g.SelectionBounds()
	if !ok {
		return ""
	}
	var b strings.Builder
	if header {
		for c := c1; c <= c2; c++ {
			if c > c1 {
				b.WriteByte('\t')
			}
			name := "op"
			if dc := c - 1 - g.opCols(); dc >= 0 {
				name = g.cols[dc].Name
			}
			b.WriteString(tsvField(name))
		}
		b.WriteByte('\n')
	}
	for r := r1; r <= r2; r++ {
		for c := c1; c <= c2; c++ {
			if c > c1 {
				b.WriteByte('\t')
			}
			text, null, _ := g.CellText(r, c)
			if !null {
				b.WriteString(tsvField(text))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func tsvField(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\"") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// CopySelection puts the selection on the clipboard as TSV.
func (g *Grid) CopySelection(cb fyne.Clipboard, header bool) {
	if cb == nil {
		if app := fyne.CurrentApp(); app != nil {
			cb = app.Clipboard()
		}
	}
	if s := g.SelectionTSV(header); s != "" && cb != nil {
		cb.SetContent(s)
	}
}

// TypedShortcut handles Ctrl+C (copy the selection as TSV) and Ctrl+A.
func (g *Grid) TypedShortcut(s fyne.Shortcut) {
	switch sc := s.(type) {
	case *fyne.ShortcutCopy:
		g.CopySelection(sc.Clipboard, false)
	case *fyne.ShortcutSelectAll:
		g.SelectAll()
	case *desktop.CustomShortcut:
		if g.jumpShortcut(sc) { // grid_wheel.go: Ctrl+Home / Ctrl+End
			return
		}
		if g.OnShortcut != nil {
			g.OnShortcut(s)
		}
	default:
		if g.OnShortcut != nil {
			g.OnShortcut(s)
		}
	}
}

// MouseDown remembers Shift for range selection.
func (g *Grid) MouseDown(e *desktop.MouseEvent) {
	g.shiftDown = e.Modifier&fyne.KeyModifierShift != 0
	g.Table.MouseDown(e)
}

// TypedKey moves the selected cell with the arrows, Home/End (first/last
// column), Page Up/Down; with Shift held they extend the selection. Esc is
// passed on (Stop).
func (g *Grid) TypedKey(e *fyne.KeyEvent) {
	_, cols := g.Shape()
	switch e.Name {
	case fyne.KeyEscape:
		if g.Sorting() {
			g.CancelSort()
			return
		}
		if g.OnShortcut != nil {
			g.OnShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEscape})
		}
	case fyne.KeyUp:
		g.step(-1, 0, g.shiftDown)
	case fyne.KeyDown:
		g.step(1, 0, g.shiftDown)
	case fyne.KeyLeft:
		g.step(0, -1, g.shiftDown)
	case fyne.KeyRight:
		g.step(0, 1, g.shiftDown)
	case fyne.KeyHome:
		g.step(0, -cols, g.shiftDown)
	case fyne.KeyEnd:
		g.step(0, cols, g.shiftDown)
	case fyne.KeyPageUp:
		g.step(-g.visibleRows(), 0, g.shiftDown)
	case fyne.KeyPageDown:
		g.step(g.visibleRows(), 0, g.shiftDown)
	default:
		g.Table.TypedKey(e)
	}
}

// KeyDown tracks Shift (Shift+arrows extend the selection).
func (g *Grid) KeyDown(e *fyne.KeyEvent) {
	if e.Name == desktop.KeyShiftLeft || e.Name == desktop.KeyShiftRight {
		g.shiftDown = true
	}
}

// KeyUp tracks Shift.
func (g *Grid) KeyUp(e *fyne.KeyEvent) {
	if e.Name == desktop.KeyShiftLeft || e.Name == desktop.KeyShiftRight {
		g.shiftDown = false
	}
}

// TappedSecondary opens the grid's context menu.
func (g *Grid) TappedSecondary(e *fyne.PointEvent) {
	if g.OnMenu != nil {
		g.OnMenu(e.AbsolutePosition)
	}
}

// StatusText summarises the frame: rows, page, dropped rows.
func (g *Grid) StatusText() string {
	var parts []string
	noun := "rows"
	if g.view == results.ChangelogView {
		noun = "changes"
	}
	if g.total == 1 {
		noun = strings.TrimSuffix(noun, "s")
	}
	parts = append(parts, fmt.Sprintf("%s %s", widgets.GroupDigits(g.total), noun))
	if g.dropped > 0 {
		if g.view == results.ChangelogView {
			parts = append(parts, fmt.Sprintf("%s older changes dropped", widgets.GroupDigits(int(g.dropped))))
		} else {
			parts = append(parts, fmt.Sprintf("%s rows dropped by the cap", widgets.GroupDigits(int(g.dropped))))
		}
	}
	if r1, c1, r2, c2, ok := g.SelectionBounds(); ok && (r1 != r2 || c1 != c2) {
		parts = append(parts, fmt.Sprintf("%d×%d selected", r2-r1+1, c2-c1+1))
	}
	return strings.Join(parts, " · ")
}

// DataColumn maps a grid column to the result's column index (-1 for the
// row number and op columns).
func (g *Grid) DataColumn(col int) int {
	dc := col - 1 - g.opCols()
	if dc < 0 || dc >= len(g.cols) {
		return -1
	}
	return dc
}

// CellValue returns the Go value of a cell of the current page (nil for
// NULL), read from the frozen frame or a fresh copy of the view.
func (g *Grid) CellValue(row, col int) (any, bool) {
	dc := g.DataColumn(col)
	if dc < 0 {
		return nil, false
	}
	f := g.frozen
	if f == nil {
		f = g.res.Freeze(g.view)
	}
	abs := g.PageStart() + row
	fc := dc + g.opCols()
	if abs >= f.Len() {
		return nil, false
	}
	if f.IsNull(abs, fc) {
		return nil, true
	}
	return f.Value(abs, fc), true
}
