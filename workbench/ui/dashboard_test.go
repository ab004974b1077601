package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/dashboard"
)

// tileDone waits until a tile's query has run to its end and a tick has
// drawn it. A tile shows its query's state, value and rows on the ticks
// after them; the query may end after the tick that until's check
// follows, so one more tick shows the end (its state FINISHED, its last
// value).
func (h *harness) tileDone(t *dashTile) {
	h.t.Helper()
	h.until("the tile's query to end", func() bool { return t.rt != nil && !t.rt.IsRunning() })
	h.wb.Tick()
	h.q.drain()
}

// Pinning two results makes a dashboard whose tiles run their own
// queries; moving, resizing and renaming tiles is saved; after closing
// and reopening the workspace the dashboard opens with its tiles in that
// arrangement and their queries run again; closing the window stops them.
func TestDashboardPinArrangeAndReload(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	h.newTab("SELECT state, COUNT(*) AS airports FROM airports GROUP BY state")
	rt := h.runStatement()
	if rt == nil || rt.OnPin == nil || rt.PinButton() == nil {
		t.Fatalf("the result tab has no Pin button: %+v", rt)
	}
	h.waitDone(rt)
	if err := h.wb.pinTile(rt, pinOptions{Board: "Ops", Kind: persistence.TileGrid, Title: "Airports per state"}); err != nil {
		t.Fatal(err)
	}
	d := h.wb.dashboards
	if d.win == nil || d.board() == nil || d.board().Name != "Ops" || len(d.tiles) != 1 {
		t.Fatalf("after the first pin: window %v, tiles %d", d.win, len(d.tiles))
	}
	h.settle()
	grid := d.tiles[0]
	h.tileDone(grid)
	if n := grid.rt.Res.Stats().Rows; n != rt.Res.Stats().Rows || n < 50 {
		t.Errorf("the grid tile has %d rows, the result tab %d", n, rt.Res.Stats().Rows)
	}
	if grid.grid == nil || grid.stateLbl.Text != "FINISHED" {
		t.Errorf("grid tile: grid %v, state %q", grid.grid, grid.stateLbl.Text)
	}

	h.newTab("SELECT v FROM (VALUES (1), (5), (3)) AS t(v)")
	rt2 := h.runStatement()
	h.waitDone(rt2)
	if err := h.wb.pinTile(rt2, pinOptions{Board: "Ops", Kind: persistence.TileValue, Column: "v", Title: "Latest v"}); err != nil {
		t.Fatal(err)
	}
	if err := h.wb.pinTile(rt2, pinOptions{Board: "Ops", Kind: persistence.TileValue, Title: "no column"}); err == nil {
		t.Error("a value tile without a column was pinned")
	}
	h.settle()
	if len(d.tiles) != 2 || d.tiles[0] != grid {
		t.Fatalf("pinning to the dashboard shown restarted it: %d tiles", len(d.tiles))
	}
	value := d.tiles[1]
	h.tileDone(value)
	if r := value.value.Reading(); value.value.Value.Text != "3" || value.value.Change.Text != "▼ 2" || r.Prev != 5 {
		t.Errorf("value tile shows %q %q (%+v), want 3 and ▼ 2", value.value.Value.Text, value.value.Change.Text, r)
	}

	// arrange: the value tile first and two rows high, the grid two wide
	d.moveTile(value, dashboard.Left)
	d.resizeTile(value, 0, 1)
	d.resizeTile(grid, 1, 0)
	d.resizeTile(grid, 5, 0) // clamped to the grid's 3 columns
	d.renameTile(grid, "States")
	if d.tiles[0] != value || grid.spec.Spec.ColSpan != 3 || value.spec.Spec.RowSpan != 2 {
		t.Fatalf("arranged: %v spans %+v %+v", d.tiles, value.spec.Spec, grid.spec.Spec)
	}
	d.resizeTile(grid, -1, 0)
	// drag the grid's title bar onto the value tile: the grid goes first,
	// and back again
	d.win.Resize(fyne.NewSize(1200, 800))
	drv := fyne.CurrentApp().Driver()
	center := func(tl *dashTile) fyne.Position {
		return drv.AbsolutePositionForObject(tl.box).Add(fyne.NewPos(tl.box.Size().Width/2, tl.box.Size().Height/2))
	}
	// while dragged over the value tile, that tile is outlined as the
	// drop target; over the dragged tile itself, nothing is
	d.dragOver(grid, center(value))
	if value.bg.StrokeWidth <= 1 || grid.bg.StrokeWidth > 1 {
		t.Fatalf("dragging over the value tile: outlines %v (value) and %v (grid)", value.bg.StrokeWidth, grid.bg.StrokeWidth)
	}
	d.dragOver(grid, center(grid))
	if value.bg.StrokeWidth > 1 || grid.bg.StrokeWidth > 1 {
		t.Fatalf("dragging over itself: outlines %v (value) and %v (grid)", value.bg.StrokeWidth, grid.bg.StrokeWidth)
	}
	d.dragOver(grid, center(value))
	d.dropTile(grid, center(value))
	if value.bg.StrokeWidth > 1 {
		t.Errorf("the drop target keeps its outline after the drop")
	}
	if d.tiles[0] != grid {
		t.Fatalf("dropped on the value tile: %v", d.tiles)
	}
	d.dropTile(grid, fyne.NewPos(-5, -5)) // outside every tile
	d.dropTile(value, center(grid))
	if d.tiles[0] != value {
		t.Fatalf("dropped back: %v", d.tiles)
	}
	cells := dashboard.Place(3, []dashboard.Span{{Cols: 1, Rows: 2}, {Cols: 2, Rows: 1}})
	if value.box.Position().X != 0 || grid.box.Position().X <= value.box.Position().X || cells[1].Col != 1 {
		t.Errorf("laid out at %v and %v", value.box.Position(), grid.box.Position())
	}
	h.close()

	test.NewTempApp(t)
	h = open(t, path)
	t.Cleanup(h.close)
	boards, err := h.wb.store.Dashboards(context.Background())
	if err != nil || len(boards) != 2 { // the demo's and Ops
		t.Fatalf("dashboards after reopening: %+v, %v", boards, err)
	}
	h.wb.showDashboards()
	d = h.wb.dashboards
	if b := d.board(); b == nil || b.Name != "Ops" {
		t.Fatalf("reopened on %+v, want Ops (shown last)", d.board())
	}
	if len(d.tiles) != 2 || d.tiles[0].spec.Title != "Latest v" || d.tiles[1].spec.Title != "States" ||
		d.tiles[0].spec.Spec.RowSpan != 2 || d.tiles[1].spec.Spec.ColSpan != 2 || d.tiles[0].spec.Spec.Column != "v" {
		t.Fatalf("tiles after reopening: %+v", d.tiles)
	}
	h.settle()
	for _, tl := range d.tiles {
		h.tileDone(tl)
	}
	if d.tiles[0].value.Value.Text != "3" || d.tiles[1].rt.Res.Stats().Rows < 50 {
		t.Errorf("restarted tiles: value %q, grid %d rows", d.tiles[0].value.Value.Text, d.tiles[1].rt.Res.Stats().Rows)
	}

	// full screen, Esc leaves it
	d.setFullScreen(true)
	if !d.win.FullScreen() {
		t.Error("not full screen")
	}
	d.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if d.win.FullScreen() || d.full {
		t.Error("Esc did not leave full screen")
	}

	// new, rename, delete
	if err := d.create("Ops"); err == nil {
		t.Error("a second dashboard named Ops")
	}
	if err := d.create("Wall"); err != nil || d.board().Name != "Wall" || len(d.tiles) != 0 {
		t.Fatalf("new dashboard: %v, shown %+v", err, d.board())
	}
	if err := d.rename("Wall 2"); err != nil || d.picker.Selected != "Wall 2" {
		t.Errorf("rename: %v, picker %q", err, d.picker.Selected)
	}
	if err := d.deleteShown(); err != nil || d.board().Name != "Ops" {
		t.Errorf("delete: %v, shown %+v", err, d.board())
	}
	h.settle()
	running := d.tiles[1]
	h.tileDone(running)
	d.close()
	if d.win != nil || len(d.tiles) != 0 || !running.closed {
		t.Error("closing the window left tiles")
	}
}

// The demo workspace's dashboard works on first start: its four tiles
// run over the replayed flights; the chart, the latest hour's average
// delay and the changelog rate fill in.
func TestDemoDashboardRunsOnFirstStart(t *testing.T) {
	h := newHarness(t)
	h.wb.showDashboards()
	d := h.wb.dashboards
	if b := d.board(); b == nil || b.Name != demoDashboardName || len(d.tiles) != 4 {
		t.Fatalf("demo dashboard: %+v, %d tiles", d.board(), len(d.tiles))
	}
	h.settle()
	chart, value, rate, grid := d.tiles[0], d.tiles[1], d.tiles[2], d.tiles[3]
	h.until("the demo tiles to show rows", func() bool {
		return chart.chart != nil && value.value != nil && value.value.Reading().HasPrev &&
			rate.rt != nil && rate.rt.Res.Stats().Changes > 100 && grid.grid != nil && grid.rt.Res.Stats().Rows > 0
	})
	if s := chart.chart.Settings(); s.Kind != "bar" || s.X != "origin" {
		t.Errorf("chart settings %+v", s)
	}
	if r := value.value.Reading(); !r.Numeric || value.value.Change.Text == "" {
		t.Errorf("value tile %+v %q", r, value.value.Change.Text)
	}
	for _, tl := range d.tiles {
		if tl.err != "" || tl.stateLbl.Text != "RUNNING" {
			t.Errorf("tile %q: %q %s", tl.spec.Title, tl.stateLbl.Text, tl.err)
		}
	}
	d.close()
	h.until("the tiles' jobs to end", func() bool {
		for _, tl := range []*dashTile{chart, value, rate, grid} {
			if tl.rt.IsRunning() {
				return false
			}
		}
		return true
	})
}

// A tile whose statement fails says FAILED and why; the others run.
func TestDashboardTileShowsItsError(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	b, err := h.wb.store.CreateDashboard(ctx, "Broken", 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.wb.store.SaveDashboardTiles(ctx, b.ID, []persistence.DashboardTile{
		{Kind: persistence.TileValue, Title: "missing", Statement: "SELECT x FROM no_such_table", Spec: persistence.TileSpec{Column: "x"}},
		{Kind: persistence.TileRate, Title: "values", Statement: "SELECT v FROM (VALUES (1), (2)) AS t(v)"},
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.wb.store.SetSetting(ctx, settingDashboard, strconv.FormatInt(b.ID, 10)); err != nil {
		t.Fatal(err)
	}
	h.wb.showDashboards()
	h.settle()
	d := h.wb.dashboards
	broken, ok := d.tiles[0], d.tiles[1]
	h.until("the broken tile to fail", func() bool { return broken.stateLbl.Text == "FAILED" })
	if note, _ := broken.bodyNote(); !strings.Contains(note, "no_such_table") {
		t.Errorf("the broken tile says %q", note)
	}
	h.tileDone(ok)
	if ok.err != "" || ok.stateLbl.Text != "FINISHED" || ok.rt.Res.Stats().Changes != 2 || ok.rateSub.Text != "2 changes received" {
		t.Errorf("the other tile: %q %q %q", ok.stateLbl.Text, ok.err, ok.rateSub.Text)
	}
}

// A query over a temporary table of its tab is pinned with the table's
// DDL, so its tile runs again after the workbench restarts (a new session
// without the table); in the same session the unchanged DDL is accepted.
func TestDashboardPinCarriesTemporaryTables(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	h.newTab("CREATE TEMPORARY TABLE other (x INT) WITH ('connector' = 'datagen');\n" +
		"CREATE TEMPORARY TABLE g (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n" +
		"CREATE TEMPORARY VIEW gv AS SELECT n + 1 AS m FROM g;\n" +
		"SELECT m FROM gv;")
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	h.waitDone(rt)
	if err := h.wb.pinTile(rt, pinOptions{Board: "Temp", Kind: persistence.TileRate, Title: "g"}); err != nil {
		t.Fatal(err)
	}
	d := h.wb.dashboards
	tile := d.tiles[0]
	stmt := tile.spec.Statement
	if !strings.Contains(stmt, "CREATE TEMPORARY TABLE g ") || !strings.Contains(stmt, "CREATE TEMPORARY VIEW gv ") ||
		strings.Contains(stmt, "other") || !strings.HasSuffix(stmt, "SELECT m FROM gv") {
		t.Fatalf("pinned statement:\n%s", stmt)
	}
	h.settle()
	h.tileDone(tile)
	if tile.err != "" || tile.rt.Res.Stats().Changes != 5 {
		t.Fatalf("in the same session: %q, %d changes", tile.err, tile.rt.Res.Stats().Changes)
	}
	h.close()

	test.NewTempApp(t)
	h = open(t, path)
	t.Cleanup(h.close)
	h.wb.showDashboards()
	h.settle()
	tile = h.wb.dashboards.tiles[0]
	h.tileDone(tile)
	if tile.err != "" || tile.rt.Res.Stats().Changes != 5 {
		t.Errorf("after a restart: %q, %d changes", tile.err, tile.rt.Res.Stats().Changes)
	}
}

// A tile dropped at the end of a dashboard taller than its window lands
// below the window's edge: the grid scrolls it into view.
func TestDashboardMovedTileIsScrolledIntoView(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT v FROM (VALUES (1), (5), (3)) AS t(v)")
	rt := h.runStatement()
	h.waitDone(rt)
	for i := 0; i < 6; i++ {
		if err := h.wb.pinTile(rt, pinOptions{Board: "Tall", Kind: persistence.TileValue, Column: "v", Title: fmt.Sprintf("v %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	d := h.wb.dashboards
	h.settle()
	for _, tl := range d.tiles {
		d.resizeTile(tl, 0, 1) // two rows each: six tiles in three columns are 4 rows
	}
	d.win.Resize(fyne.NewSize(900, 500))
	h.settle()
	first := d.tiles[0]
	if d.scroll.Offset.Y != 0 {
		t.Fatalf("the grid starts scrolled to %v", d.scroll.Offset.Y)
	}
	d.moveTileTo(first, len(d.tiles)-1)
	if d.tiles[len(d.tiles)-1] != first {
		t.Fatalf("the tile was not moved to the end: %v", d.tiles)
	}
	top := first.box.Position().Y + theme.Padding()
	bottom := top + first.box.Size().Height
	off, view := d.scroll.Offset.Y, d.scroll.Size().Height
	// the whole tile when it fits in the view, else its top at the top
	fits := bottom-top <= view
	if top < off || (fits && bottom > off+view+1) || (!fits && top != off) {
		t.Errorf("the moved tile spans %.0f–%.0f, the view %.0f–%.0f", top, bottom, off, off+view)
	}
	if off == 0 {
		t.Errorf("the grid did not scroll (the tile spans %.0f–%.0f)", top, bottom)
	}
}
