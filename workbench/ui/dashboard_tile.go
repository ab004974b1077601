package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/charts"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/chartview"
	"github.com/riffle-sql/riffle/workbench/ui/dashboard"
	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// dashTile is one tile of the dashboard shown: its saved form (spec), its
// running query (rt, nil until the first rows' columns are known) and its
// widgets. UI goroutine only.
type dashTile struct {
	d    *dashboardsUI
	spec persistence.DashboardTile

	gen     int        // starts so far (dashboard_run.go)
	rt      *resultTab // the running query, never shown as a tab
	err     string     // why the statement failed
	runDone bool       // the script has run
	closed  bool       // the tile was removed or its dashboard closed

	box      *fyne.Container   // the card
	bg       *canvas.Rectangle // the card's background; its outline marks a drop target
	titleLbl *widget.Label
	stateLbl *widget.Label
	menuBtn  *widget.Button
	body     *fyne.Container // stack: the kind's view, or a message

	grid    *resultgrid.Grid
	chart   *chartview.View
	value   *dashboard.ValueView
	rate    *canvas.Text
	rateSub *widget.Label
	meter   dashboard.RateMeter
	rateNow float64
	drawn   uint64 // the Result version the value tile drew
}

// newDashTile builds a tile's card; its body fills in when its query's
// columns are known (attach).
func newDashTile(d *dashboardsUI, spec persistence.DashboardTile) *dashTile {
	t := &dashTile{d: d, spec: spec}
	t.titleLbl = widget.NewLabel(spec.Title)
	t.titleLbl.TextStyle = fyne.TextStyle{Bold: true}
	t.titleLbl.Truncation = fyne.TextTruncateEllipsis
	t.stateLbl = widget.NewLabel("STARTING")
	t.stateLbl.Importance = widget.LowImportance
	t.menuBtn = widget.NewButtonWithIcon("", theme.MoreHorizontalIcon(), t.showMenu)
	t.menuBtn.Importance = widget.LowImportance
	t.body = container.NewStack(t.note("Starting the query…"))
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	bg.StrokeWidth = 1
	bg.CornerRadius = theme.InputRadiusSize()
	// the title bar is the handle a tile is dragged by onto another's place
	head := dashboard.NewDragHandle(container.NewBorder(nil, nil, nil, container.NewHBox(t.stateLbl, t.menuBtn), t.titleLbl))
	head.OnDrag = func(at fyne.Position) { d.dragOver(t, at) }
	head.OnDrop = func(at fyne.Position) { d.dropTile(t, at) }
	t.bg = bg
	t.box = container.NewStack(bg, container.NewPadded(container.NewBorder(head, nil, nil, nil, t.body)))
	return t
}

func (t *dashTile) note(s string) fyne.CanvasObject {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	l.Alignment = fyne.TextAlignCenter
	l.Importance = widget.LowImportance
	return container.NewCenter(l)
}

func (t *dashTile) setBody(o fyne.CanvasObject) {
	t.body.Objects = []fyne.CanvasObject{o}
	t.body.Refresh()
}

// attach shows the tile's running query.
func (t *dashTile) attach(rt *resultTab) {
	t.rt = rt
	res := rt.Res
	switch t.spec.Kind {
	case persistence.TileChart:
		if _, ok := charts.Detect(res.Columns()); !ok {
			t.setBody(t.note("Nothing to chart: the result has no numeric or time column."))
			break
		}
		t.chart = chartview.New(res, tileChartHost{t}, !t.d.wb.opts.NoTicker)
		t.chart.SetVisible(true)
		t.setBody(t.chart.Content())
	case persistence.TileValue:
		col := t.valueColumn()
		name := t.spec.Spec.Column
		if col < 0 {
			t.setBody(t.note(fmt.Sprintf("The result has no column %q.", name)))
			break
		}
		t.value = dashboard.NewValueView(name)
		t.setBody(t.value.Content())
	case persistence.TileRate:
		t.rate = canvas.NewText("…", theme.Color(theme.ColorNameForeground))
		t.rate.TextSize = theme.TextSize() * 3.2
		t.rate.TextStyle = fyne.TextStyle{Bold: true}
		t.rate.Alignment = fyne.TextAlignCenter
		t.rateSub = widget.NewLabel("")
		t.rateSub.Alignment = fyne.TextAlignCenter
		t.rateSub.Importance = widget.LowImportance
		t.setBody(container.NewCenter(container.NewVBox(t.rate, t.rateSub)))
	default:
		t.grid = resultgrid.New(res, results.TableView)
		t.grid.Do = t.d.wb.do
		t.setBody(t.grid)
	}
	t.tick(time.Now())
}

// valueColumn is the index of a value tile's column (-1: none such).
func (t *dashTile) valueColumn() int {
	if t.rt == nil {
		return -1
	}
	for i, c := range t.rt.Res.Columns() {
		if c.Name == t.spec.Spec.Column {
			return i
		}
	}
	return -1
}

// tick redraws what changed (the workbench's tick, ten times a second).
func (t *dashTile) tick(now time.Time) {
	t.refreshState()
	rt := t.rt
	if rt == nil {
		return
	}
	res := rt.Res
	switch {
	case t.grid != nil:
		if res.NeedsRefresh(t.grid.Version()) {
			t.grid.RefreshFrame()
			if rt.IsRunning() {
				// a wall display shows the newest rows
				if last := t.grid.Pages() - 1; t.grid.Page() != last {
					t.grid.SetPage(last)
				}
				t.grid.FollowTail()
			}
		}
	case t.value != nil:
		if v := res.Version(); v != t.drawn || t.drawn == 0 {
			t.drawn = v
			t.value.Show(dashboard.Latest(res, t.valueColumn()))
		}
	case t.rate != nil:
		changes := res.Stats().Changes
		if r, ok := t.meter.Add(now, changes); ok && rt.IsRunning() {
			t.rateNow = r
		} else if !rt.IsRunning() {
			t.rateNow = 0
		}
		text := dashboard.FormatRate(t.rateNow)
		if t.rate.Text != text {
			t.rate.Text = text
			t.rate.Refresh()
		}
		t.rateSub.SetText(widgets.Plural(int(changes), "change") + " received")
	}
}

// refreshState shows the query's state in the tile's header.
func (t *dashTile) refreshState() {
	state := "STARTING"
	imp := widget.LowImportance
	switch {
	case t.err != "":
		state, imp = resulttab.Failed, widget.DangerImportance
	case t.rt != nil:
		state = t.rt.State()
		switch state {
		case resulttab.Running:
			imp = widget.SuccessImportance
		case resulttab.Failed:
			imp = widget.DangerImportance
		}
	case t.runDone:
		state = "NO QUERY"
	}
	if t.err != "" && t.rt == nil && len(t.body.Objects) == 1 {
		if l, ok := t.bodyNote(); !ok || l != "Failed: "+t.err {
			t.setBody(t.note("Failed: " + t.err))
		}
	}
	if t.rt != nil && state == resulttab.Failed {
		if _, err := t.rt.Res.State(); err != nil && t.grid == nil && t.chart == nil {
			t.setBody(t.note("Failed: " + err.Error()))
		}
	}
	if t.stateLbl.Text != state || t.stateLbl.Importance != imp {
		t.stateLbl.Importance = imp
		t.stateLbl.SetText(state)
	}
}

// bodyNote is the text of the note the body shows, if it shows one.
func (t *dashTile) bodyNote() (string, bool) {
	if c, ok := t.body.Objects[0].(*fyne.Container); ok && len(c.Objects) == 1 {
		if l, ok := c.Objects[0].(*widget.Label); ok {
			return l.Text, true
		}
	}
	return "", false
}

// close stops the tile's query and its chart.
func (t *dashTile) close() {
	t.closed = true
	t.stopRun()
	if t.chart != nil {
		t.chart.Close()
	}
}

// showMenu opens the tile's menu: arrange, rename, restart, remove.
func (t *dashTile) showMenu() {
	d := t.d
	move := func(label string, dir dashboard.Direction) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, func() { d.moveTile(t, dir) })
		// the first tile cannot go left or up, the last right or down
		_, ok := dashboard.Move(len(d.tiles), d.indexOf(t), dir, d.layout.Columns)
		it.Disabled = !ok
		return it
	}
	span := func(label string, dc, dr int) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() { d.resizeTile(t, dc, dr) })
	}
	m := fyne.NewMenu("",
		move("Move left", dashboard.Left), move("Move right", dashboard.Right),
		move("Move up", dashboard.Up), move("Move down", dashboard.Down),
		fyne.NewMenuItemSeparator(),
		span("Wider", 1, 0), span("Narrower", -1, 0), span("Taller", 0, 1), span("Shorter", 0, -1),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Rename…", func() { d.askRenameTile(t) }),
		fyne.NewMenuItem("Restart query", func() { d.restartTile(t) }),
		fyne.NewMenuItem("Remove", func() { d.removeTile(t) }),
	)
	c := fyne.CurrentApp().Driver().CanvasForObject(t.menuBtn)
	if c == nil {
		return
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(t.menuBtn)
	widget.ShowPopUpMenuAtPosition(m, c, pos.Add(fyne.NewPos(0, t.menuBtn.Size().Height)))
}

// markDropTarget outlines the tile (on) as the place a dragged tile
// would take, or gives it back its plain outline.
func (t *dashTile) markDropTarget(on bool) {
	if on {
		t.bg.StrokeColor = theme.Color(theme.ColorNamePrimary)
		t.bg.StrokeWidth = 3
	} else {
		t.bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
		t.bg.StrokeWidth = 1
	}
	t.bg.Refresh()
}

// tileChartHost is what a chart tile's chartview asks of the workbench:
// the settings are the tile's (saved with the dashboard).
type tileChartHost struct{ t *dashTile }

func (h tileChartHost) Do(f func()) { h.t.d.wb.do(f) }
func (h tileChartHost) Window() fyne.Window {
	if h.t.d.win != nil {
		return h.t.d.win
	}
	return h.t.d.wb.win
}
func (h tileChartHost) SavedSettings() (charts.Settings, bool) {
	if len(h.t.spec.Spec.Chart) == 0 {
		return charts.Settings{}, false
	}
	s, err := charts.ParseSettings(h.t.spec.Spec.Chart)
	return s, err == nil && s.Kind != ""
}
func (h tileChartHost) KeepSettings(s charts.Settings) {
	b, err := s.Marshal()
	if err != nil {
		return
	}
	h.t.spec.Spec.Chart = b
	h.t.d.saveTiles()
}
func (h tileChartHost) TabClosed() bool  { return h.t.closed }
func (h tileChartHost) FileName() string { return h.t.spec.Title }
func (h tileChartHost) LastDir() string  { return h.t.d.wb.exportSettings().LastDir }
func (h tileChartHost) ChartSaved(path string, err error) {
	wb := h.t.d.wb
	if err != nil {
		wb.messages.add(levelError, "Saving the chart failed: "+err.Error(), nil)
		return
	}
	wb.messages.add(levelInfo, "Chart saved to "+path, nil)
}

var _ chartview.Host = tileChartHost{}

// tileMinHeight is the height of one dashboard grid row.
const tileMinHeight = 260
