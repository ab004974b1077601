package ui

// Live dashboards (issue 21): View ▸ Dashboards opens a window showing one
// of the workspace's dashboards, a grid of tiles, each tile a live query
// of its own (dashboard_run.go) shown as a grid, a chart, a single value
// or the changelog rate (dashboard_tile.go). Result tabs pin tiles
// (dashboard_pin.go). Opening a dashboard starts its tiles' queries;
// showing another dashboard or closing the window cancels them. The
// workbench calls in through hooks marked "dashboard hook".

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/dashboard"
)

// settingDashboard is the workspace setting naming the dashboard shown last.
const settingDashboard = "workbench.dashboard"

// dashboardsUI is the Dashboards window and the dashboard it shows (UI
// goroutine only).
type dashboardsUI struct {
	wb     *Workbench
	win    fyne.Window // nil while closed
	boards []persistence.Dashboard
	cur    int // index in boards of the dashboard shown (-1: none)
	tiles  []*dashTile

	picker   *widget.Select
	columns  *widget.Select
	fullBtn  *widget.Button
	grid     *fyne.Container
	scroll   *container.Scroll // scrolls the grid
	layout   *dashboard.GridLayout
	empty    *widget.Label
	content  fyne.CanvasObject
	full     bool
	choosing bool // the picker is being set from code
}

// dash returns the workbench's dashboards state, made on first use.
func (wb *Workbench) dash() *dashboardsUI {
	if wb.dashboards == nil {
		wb.dashboards = &dashboardsUI{wb: wb, cur: -1}
	}
	return wb.dashboards
}

// showDashboards opens the Dashboards window (View ▸ Dashboards) on the
// dashboard shown last, starting its tiles' queries; when it is open it
// comes to the front.
func (wb *Workbench) showDashboards() {
	d := wb.dash()
	if d.win != nil {
		d.win.RequestFocus()
		return
	}
	if err := d.reload(); err != nil {
		wb.messages.add(levelError, "Reading the dashboards failed: "+err.Error(), nil)
		wb.showPanel(wb.messages.item)
		return
	}
	d.build()
	d.win.Show()
	want := int64(0)
	if s, ok, err := wb.store.Setting(context.Background(), settingDashboard); err == nil && ok {
		want, _ = strconv.ParseInt(s, 10, 64)
	}
	idx := 0
	for i, b := range d.boards {
		if b.ID == want {
			idx = i
		}
	}
	d.show(idx)
}

// reload reads the dashboards from the workspace.
func (d *dashboardsUI) reload() error {
	boards, err := d.wb.store.Dashboards(context.Background())
	if err != nil {
		return err
	}
	d.boards = boards
	return nil
}

// build makes the window.
func (d *dashboardsUI) build() {
	d.win = fyne.CurrentApp().NewWindow("Riffle — dashboards")
	d.picker = widget.NewSelect(nil, func(name string) {
		if d.choosing {
			return
		}
		for i, b := range d.boards {
			if b.Name == name {
				d.show(i)
				return
			}
		}
	})
	d.picker.PlaceHolder = "(no dashboard)"
	newBtn := widget.NewButtonWithIcon("New…", theme.ContentAddIcon(), func() {
		d.askName("New dashboard", "", func(name string) error { return d.create(name) })
	})
	renameBtn := widget.NewButtonWithIcon("Rename…", theme.DocumentCreateIcon(), func() {
		if b := d.board(); b != nil {
			d.askName("Rename dashboard", b.Name, d.rename)
		}
	})
	deleteBtn := widget.NewButtonWithIcon("Delete…", theme.DeleteIcon(), d.askDelete)
	var cols []string
	for i := 1; i <= 6; i++ {
		cols = append(cols, strconv.Itoa(i))
	}
	d.columns = widget.NewSelect(cols, func(s string) {
		if n, err := strconv.Atoi(s); err == nil && !d.choosing {
			d.setColumns(n)
		}
	})
	d.fullBtn = widget.NewButtonWithIcon("Full screen", theme.ViewFullScreenIcon(), func() { d.setFullScreen(!d.full) })
	for _, b := range []*widget.Button{newBtn, renameBtn, deleteBtn, d.fullBtn} {
		b.Importance = widget.LowImportance
	}
	bar := container.NewHBox(widget.NewLabel("Dashboard"), d.picker, newBtn, renameBtn, deleteBtn,
		widget.NewSeparator(), widget.NewLabel("Columns"), d.columns, widget.NewSeparator(), d.fullBtn)
	d.layout = &dashboard.GridLayout{Columns: persistence.DefaultDashboardColumns, RowHeight: tileMinHeight, Gap: theme.Padding() * 2,
		Spans: func(i int) dashboard.Span {
			if i < len(d.tiles) {
				s := d.tiles[i].spec.Spec
				return dashboard.Span{Cols: s.ColSpan, Rows: s.RowSpan}
			}
			return dashboard.Span{}
		}}
	d.grid = container.New(d.layout)
	d.empty = widget.NewLabel("This dashboard has no tiles yet. Run a query, then press Pin in its result tab\n" +
		"(or right-click the grid ▸ Pin to dashboard…) to add its grid, chart, latest value or changelog rate here.")
	d.empty.Alignment = fyne.TextAlignCenter
	d.empty.Importance = widget.LowImportance
	d.scroll = container.NewVScroll(container.NewPadded(d.grid))
	body := container.NewStack(d.scroll, container.NewCenter(d.empty))
	d.content = container.NewBorder(container.NewVBox(bar, widget.NewSeparator()), nil, nil, nil, body)
	d.win.SetContent(d.content)
	d.win.Resize(fyne.NewSize(1280, 860))
	d.win.Canvas().SetOnTypedKey(func(e *fyne.KeyEvent) {
		if e.Name == fyne.KeyEscape && d.full {
			d.setFullScreen(false) // Esc leaves full screen
		}
	})
	d.win.SetCloseIntercept(d.close)
}

// board is the dashboard shown (nil: none).
func (d *dashboardsUI) board() *persistence.Dashboard {
	if d.cur < 0 || d.cur >= len(d.boards) {
		return nil
	}
	return &d.boards[d.cur]
}

// show shows dashboard i (clamped; none when there are none): the tiles
// of the one shown before stop, its tiles start.
func (d *dashboardsUI) show(i int) {
	d.stopTiles()
	d.cur = -1
	if len(d.boards) > 0 {
		d.cur = min(max(i, 0), len(d.boards)-1)
	}
	names := make([]string, len(d.boards))
	for k, b := range d.boards {
		names[k] = b.Name
	}
	d.choosing = true
	d.picker.SetOptions(names)
	b := d.board()
	if b != nil {
		d.picker.SetSelected(b.Name)
		d.columns.SetSelected(strconv.Itoa(b.Columns))
		d.layout.Columns = b.Columns
		_ = d.wb.store.SetSetting(context.Background(), settingDashboard, strconv.FormatInt(b.ID, 10))
		for _, spec := range b.Tiles {
			d.tiles = append(d.tiles, newDashTile(d, spec))
		}
	} else {
		d.picker.ClearSelected()
	}
	d.choosing = false
	d.relayout()
	for _, t := range d.tiles {
		t.startRun()
	}
	if d.win != nil {
		title := "Riffle — dashboards"
		if b != nil {
			title = "Riffle — " + b.Name
		}
		d.win.SetTitle(title)
	}
}

// relayout puts the tiles' cards in the grid in their order.
func (d *dashboardsUI) relayout() {
	objs := make([]fyne.CanvasObject, len(d.tiles))
	for i, t := range d.tiles {
		objs[i] = t.box
	}
	d.grid.Objects = objs
	d.grid.Refresh()
	if b := d.board(); b == nil || len(d.tiles) > 0 {
		d.empty.Hide()
		if b == nil {
			d.empty.SetText("No dashboard yet: New… makes one, or Pin in a result tab.")
			d.empty.Show()
		}
	} else {
		d.empty.SetText("This dashboard has no tiles yet. Run a query, then press Pin in its result tab\n" +
			"(or right-click the grid ▸ Pin to dashboard…) to add its grid, chart, latest value or changelog rate here.")
		d.empty.Show()
	}
}

// stopTiles cancels the shown tiles' queries.
func (d *dashboardsUI) stopTiles() {
	for _, t := range d.tiles {
		t.close()
	}
	d.tiles = nil
}

// close closes the window, cancelling the tiles' queries.
func (d *dashboardsUI) close() {
	d.stopTiles()
	if d.win != nil {
		w := d.win
		d.win = nil
		w.Close()
	}
	d.full = false
}

// tick is the dashboards' share of the workbench tick (dashboard hook).
func (d *dashboardsUI) tick() {
	if d == nil || d.win == nil {
		return
	}
	now := time.Now()
	for _, t := range d.tiles {
		t.tick(now)
	}
}

// setFullScreen puts the window in full screen for a wall display (Esc
// or the button leaves it).
func (d *dashboardsUI) setFullScreen(on bool) {
	if d.win == nil {
		return
	}
	d.full = on
	d.win.SetFullScreen(on)
	if on {
		d.fullBtn.SetText("Leave full screen (Esc)")
		d.fullBtn.SetIcon(theme.ViewRestoreIcon())
	} else {
		d.fullBtn.SetText("Full screen")
		d.fullBtn.SetIcon(theme.ViewFullScreenIcon())
	}
}

// saveTiles saves the shown dashboard's tiles in their order.
func (d *dashboardsUI) saveTiles() {
	b := d.board()
	if b == nil {
		return
	}
	specs := make([]persistence.DashboardTile, len(d.tiles))
	for i, t := range d.tiles {
		specs[i] = t.spec
	}
	saved, err := d.wb.store.SaveDashboardTiles(context.Background(), b.ID, specs)
	if err != nil {
		d.wb.messages.add(levelError, "Saving the dashboard failed: "+err.Error(), nil)
		return
	}
	for i, t := range d.tiles {
		t.spec.ID = saved[i].ID
	}
	b.Tiles = saved
}

// moveTile moves a tile one place (left, right) or one grid row (up,
// down) and saves the order.
func (d *dashboardsUI) moveTile(t *dashTile, dir dashboard.Direction) {
	i := d.indexOf(t)
	order, ok := dashboard.Move(len(d.tiles), i, dir, d.layout.Columns)
	if !ok {
		return
	}
	tiles := make([]*dashTile, len(order))
	for k, old := range order {
		tiles[k] = d.tiles[old]
	}
	d.tiles = tiles
	d.relayout()
	d.showTile(d.tiles[d.indexOf(t)])
	d.saveTiles()
}

// showTile scrolls the grid so that a tile just moved is in view (a tile
// moved after a tall or wide one may land below the window's edge).
func (d *dashboardsUI) showTile(t *dashTile) {
	if d.scroll == nil {
		return
	}
	// lay the grid out at the size the scroll will give it now, as its
	// renderer would on the next frame, so the tile's place is current
	c := d.scroll.Content
	c.Resize(c.MinSize().Max(d.scroll.Size()))
	view := d.scroll.Size().Height
	top := t.box.Position().Y + theme.Padding() // the grid is padded inside the scroll
	bottom := top + t.box.Size().Height + theme.Padding()
	off := d.scroll.Offset.Y
	switch {
	case top < off:
		off = top
	case bottom > off+view:
		off = min(bottom-view, top)
	default:
		return
	}
	d.scroll.ScrollToOffset(fyne.NewPos(0, max(off, 0)))
}

// tileAt is the index of the tile under absolute position at, -1 for
// none.
func (d *dashboardsUI) tileAt(at fyne.Position) int {
	drv := fyne.CurrentApp().Driver()
	for i, x := range d.tiles {
		if dashboard.Inside(at, drv.AbsolutePositionForObject(x.box), x.box.Size()) {
			return i
		}
	}
	return -1
}

// dragOver follows a tile dragged by its title bar: the tile under the
// pointer (absolute position at), other than the dragged one, is
// outlined as the place the tile would take; the others are not.
func (d *dashboardsUI) dragOver(t *dashTile, at fyne.Position) {
	i := d.tileAt(at)
	for k, x := range d.tiles {
		on := k == i && x != t
		if on != (x.bg.StrokeWidth > 1) {
			x.markDropTarget(on)
		}
	}
}

// dropTile moves a tile dragged by its title bar to the place of the
// tile it was let go over (absolute position at); elsewhere nothing
// moves. The drop target's outline goes.
func (d *dashboardsUI) dropTile(t *dashTile, at fyne.Position) {
	for _, x := range d.tiles {
		if x.bg.StrokeWidth > 1 {
			x.markDropTarget(false)
		}
	}
	if to := d.tileAt(at); to >= 0 {
		d.moveTileTo(t, to)
	}
}

// moveTileTo puts a tile at place to of the order and saves it.
func (d *dashboardsUI) moveTileTo(t *dashTile, to int) {
	i := d.indexOf(t)
	if i < 0 || i == to || to < 0 || to >= len(d.tiles) {
		return
	}
	rest := append(append([]*dashTile(nil), d.tiles[:i]...), d.tiles[i+1:]...)
	d.tiles = append(rest[:to], append([]*dashTile{t}, rest[to:]...)...)
	d.relayout()
	d.showTile(t)
	d.saveTiles()
}

// resizeTile widens or narrows (dc), heightens or lowers (dr) a tile by
// one cell, within 1 .. the grid's width and 1 .. 4 rows.
func (d *dashboardsUI) resizeTile(t *dashTile, dc, dr int) {
	s := &t.spec.Spec
	cols := min(max(max(s.ColSpan, 1)+dc, 1), d.layout.Columns)
	rows := min(max(max(s.RowSpan, 1)+dr, 1), 4)
	if cols == max(s.ColSpan, 1) && rows == max(s.RowSpan, 1) {
		return
	}
	s.ColSpan, s.RowSpan = cols, rows
	d.relayout()
	d.saveTiles()
}

// renameTile retitles a tile.
func (d *dashboardsUI) renameTile(t *dashTile, title string) {
	t.spec.Title = title
	t.titleLbl.SetText(title)
	d.saveTiles()
}

func (d *dashboardsUI) askRenameTile(t *dashTile) {
	d.askName("Rename tile", t.spec.Title, func(name string) error {
		d.renameTile(t, name)
		return nil
	})
}

// restartTile runs a tile's query again.
func (d *dashboardsUI) restartTile(t *dashTile) {
	t.stopRun()
	if t.chart != nil {
		t.chart.Close()
		t.chart = nil
	}
	t.grid, t.value, t.rate = nil, nil, nil
	t.meter = dashboard.RateMeter{}
	t.setBody(t.note("Starting the query…"))
	t.startRun()
}

// removeTile removes a tile, cancelling its query.
func (d *dashboardsUI) removeTile(t *dashTile) {
	i := d.indexOf(t)
	if i < 0 {
		return
	}
	t.close()
	d.tiles = append(d.tiles[:i], d.tiles[i+1:]...)
	d.relayout()
	d.saveTiles()
}

func (d *dashboardsUI) indexOf(t *dashTile) int {
	for i, x := range d.tiles {
		if x == t {
			return i
		}
	}
	return -1
}

// create makes a dashboard and shows it.
func (d *dashboardsUI) create(name string) error {
	b, err := d.wb.store.CreateDashboard(context.Background(), name, persistence.DefaultDashboardColumns)
	if err != nil {
		return err
	}
	d.boards = append(d.boards, b)
	if d.win != nil {
		d.show(len(d.boards) - 1)
	}
	return nil
}

// rename renames the dashboard shown.
func (d *dashboardsUI) rename(name string) error {
	b := d.board()
	if b == nil {
		return nil
	}
	if err := d.wb.store.RenameDashboard(context.Background(), b.ID, name); err != nil {
		return err
	}
	if err := d.reload(); err != nil {
		return err
	}
	d.choosing = true
	names := make([]string, len(d.boards))
	for k, x := range d.boards {
		names[k] = x.Name
	}
	d.picker.SetOptions(names)
	d.picker.SetSelected(d.boards[d.cur].Name)
	d.choosing = false
	d.win.SetTitle("Riffle — " + d.boards[d.cur].Name)
	return nil
}

// setColumns sets the shown dashboard's grid width.
func (d *dashboardsUI) setColumns(n int) {
	b := d.board()
	if b == nil || b.Columns == n {
		return
	}
	if err := d.wb.store.SetDashboardColumns(context.Background(), b.ID, n); err != nil {
		d.wb.messages.add(levelError, "Saving the dashboard failed: "+err.Error(), nil)
		return
	}
	b.Columns = n
	d.layout.Columns = n
	d.relayout()
}

// deleteShown deletes the dashboard shown (its tiles' queries stop).
func (d *dashboardsUI) deleteShown() error {
	b := d.board()
	if b == nil {
		return nil
	}
	if err := d.wb.store.DeleteDashboard(context.Background(), b.ID); err != nil {
		return err
	}
	i := d.cur
	d.boards = append(d.boards[:i], d.boards[i+1:]...)
	d.show(i - 1)
	return nil
}

func (d *dashboardsUI) askDelete() {
	b := d.board()
	if b == nil {
		return
	}
	msg := fmt.Sprintf("Delete the dashboard %q and its %s? The queries it runs stop; the result tabs they came from stay.", b.Name, tileCount(len(b.Tiles)))
	dialog.ShowConfirm("Delete dashboard", msg, func(ok bool) {
		if ok {
			if err := d.deleteShown(); err != nil {
				dialog.ShowError(err, d.win)
			}
		}
	}, d.win)
}

func tileCount(n int) string {
	if n == 1 {
		return "1 tile"
	}
	return fmt.Sprintf("%d tiles", n)
}

// askName asks for a name in a dialog over the window: Enter or OK
// calls apply; an error it returns is shown and the dialog stays open.
func (d *dashboardsUI) askName(title, current string, apply func(string) error) {
	e := widget.NewEntry()
	e.SetText(current)
	errLbl := widget.NewLabel("")
	errLbl.Importance = widget.DangerImportance
	errLbl.Hide()
	var dlg *dialog.CustomDialog
	submit := func() {
		if err := apply(e.Text); err != nil {
			errLbl.SetText(err.Error())
			errLbl.Show()
			return
		}
		dlg.Hide()
	}
	e.OnSubmitted = func(string) { submit() }
	ok := widget.NewButton("OK", submit)
	ok.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { dlg.Hide() })
	form := container.NewVBox(widget.NewForm(widget.NewFormItem("Name", e)), errLbl)
	dlg = dialog.NewCustomWithoutButtons(title, form, d.win)
	dlg.SetButtons([]fyne.CanvasObject{cancel, ok})
	dlg.Resize(fyne.NewSize(420, 180))
	dlg.Show()
	d.win.Canvas().Focus(e)
}
