package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// Pinning: a result tab's Pin button (or its grid's "Pin to dashboard…")
// asks which dashboard, which view and, for a single value, which column,
// then adds a tile running the result's statement to that dashboard and
// shows it in the Dashboards window.

// Tile kinds as the pin dialog names them.
var tileKindTitles = map[string]string{
	persistence.TileGrid:  "Grid",
	persistence.TileChart: "Chart",
	persistence.TileValue: "Single value",
	persistence.TileRate:  "Changelog rate",
}

// newDashboardChoice is the dashboard choice that makes a new one.
const newDashboardChoice = "New dashboard…"

// pinOptions are the pin dialog's answers.
type pinOptions struct {
	Board  string // dashboard name; made when there is none of that name
	Kind   string // persistence.Tile*
	Column string // a value tile's column
	Title  string
}

// pinHook gives a result tab showing a query its Pin button (dashboard
// hook, called before the tab is built).
func (wb *Workbench) pinHook(rt *resultTab) {
	if rt.Text == "" && (rt.Job != nil || rt.JobID != "") && (rt.conn == nil || rt.conn.embedded()) {
		rt.OnPin = func() { wb.showPinDialog(rt) }
	}
}

// pinDefaults are the dialog's first answers for rt: the view shown
// (Chart view: a chart; changelog view: the rate; else the grid), the
// last numeric column, the result's title.
func (wb *Workbench) pinDefaults(rt *resultTab) pinOptions {
	o := pinOptions{Kind: persistence.TileGrid, Title: strings.TrimSpace(strings.TrimPrefix(rt.Title, fmt.Sprintf("#%d", rt.N)))}
	if rt.mon.tabs != nil && rt.mon.tabs.Selected() == rt.mon.chartItem && rt.mon.chartItem != nil {
		o.Kind = persistence.TileChart
	} else if g := rt.Grid(); g != nil && g.View() == results.ChangelogView {
		o.Kind = persistence.TileRate
	}
	for _, c := range rt.Res.Columns() {
		if results.IsNumeric(c.Type) {
			o.Column = c.Name
		}
	}
	if o.Column == "" && len(rt.Res.Columns()) > 0 {
		o.Column = rt.Res.Columns()[0].Name
	}
	d := wb.dash()
	if b := d.board(); b != nil {
		o.Board = b.Name
	} else if boards, err := wb.store.Dashboards(context.Background()); err == nil && len(boards) > 0 {
		o.Board = boards[0].Name
	}
	return o
}

// showPinDialog asks where and how to pin rt.
func (wb *Workbench) showPinDialog(rt *resultTab) {
	o := wb.pinDefaults(rt)
	boards, err := wb.store.Dashboards(context.Background())
	if err != nil {
		dialog.ShowError(err, wb.win)
		return
	}
	var names []string
	for _, b := range boards {
		names = append(names, b.Name)
	}
	names = append(names, newDashboardChoice)
	newName := widget.NewEntry()
	newName.SetPlaceHolder("name of the new dashboard")
	newName.SetText("Dashboard")
	board := widget.NewSelect(names, func(s string) {
		if s == newDashboardChoice {
			newName.Show()
		} else {
			newName.Hide()
		}
	})
	if o.Board != "" {
		board.SetSelected(o.Board)
	} else {
		board.SetSelected(newDashboardChoice)
	}
	var cols []string
	for _, c := range rt.Res.Columns() {
		cols = append(cols, c.Name)
	}
	column := widget.NewSelect(cols, nil)
	column.SetSelected(o.Column)
	kinds := []string{tileKindTitles[persistence.TileGrid], tileKindTitles[persistence.TileChart], tileKindTitles[persistence.TileValue], tileKindTitles[persistence.TileRate]}
	kind := widget.NewRadioGroup(kinds, func(s string) {
		if s == tileKindTitles[persistence.TileValue] {
			column.Enable()
		} else {
			column.Disable()
		}
	})
	kind.Required = true
	kind.SetSelected(tileKindTitles[o.Kind])
	title := widget.NewEntry()
	title.SetText(o.Title)
	items := []*widget.FormItem{
		widget.NewFormItem("Dashboard", container.NewVBox(board, newName)),
		widget.NewFormItem("Show", kind),
		widget.NewFormItem("Column", column),
		widget.NewFormItem("Title", title),
	}
	items[2].HintText = "the single value tile shows this column's latest value and its change"
	dlg := dialog.NewForm("Pin to dashboard", "Pin", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		p := pinOptions{Board: board.Selected, Column: column.Selected, Title: title.Text}
		if p.Board == newDashboardChoice {
			p.Board = newName.Text
		}
		for k, t := range tileKindTitles {
			if t == kind.Selected {
				p.Kind = k
			}
		}
		if err := wb.pinTile(rt, p); err != nil {
			dialog.ShowError(err, wb.win)
		}
	}, wb.win)
	dlg.Resize(fyne.NewSize(520, 360))
	dlg.Show()
}

// pinTile adds a tile running rt's statement to dashboard o.Board (made
// when new) and shows that dashboard with its tiles running.
func (wb *Workbench) pinTile(rt *resultTab, o pinOptions) error {
	if !validKind(o.Kind) {
		return fmt.Errorf("choose what the tile shows (%s)", strings.Join(persistence.TileKinds, ", "))
	}
	if o.Kind == persistence.TileValue && o.Column == "" {
		return fmt.Errorf("choose the column the single value tile shows")
	}
	o.Board = strings.TrimSpace(o.Board)
	if strings.TrimSpace(o.Title) == "" {
		o.Title = resultTitle(rt.stmt)
	}
	ctx := context.Background()
	d := wb.dash()
	if err := d.reload(); err != nil {
		return err
	}
	idx := -1
	for i, b := range d.boards {
		if b.Name == o.Board {
			idx = i
		}
	}
	if idx < 0 {
		b, err := wb.store.CreateDashboard(ctx, o.Board, persistence.DefaultDashboardColumns)
		if err != nil {
			return err
		}
		d.boards = append(d.boards, b)
		idx = len(d.boards) - 1
	}
	// the tab's temporary tables the query reads come with it (dashboard_preamble.go)
	tile := persistence.DashboardTile{Kind: o.Kind, Title: strings.TrimSpace(o.Title), Statement: wb.pinPreamble(rt) + rt.stmt,
		Spec: persistence.TileSpec{Mode: modeStreaming}}
	if !rt.streaming {
		tile.Spec.Mode = modeBatch
	}
	if o.Kind == persistence.TileValue {
		tile.Spec.Column = o.Column
	}
	if o.Kind == persistence.TileChart {
		tile.Spec.ColSpan = 2
		if rt.mon.chart != nil {
			if b, err := rt.mon.chart.Settings().Marshal(); err == nil {
				tile.Spec.Chart = b
			}
		}
	}
	b := &d.boards[idx]
	saved, err := wb.store.SaveDashboardTiles(ctx, b.ID, append(append([]persistence.DashboardTile(nil), b.Tiles...), tile))
	if err != nil {
		return err
	}
	if d.win != nil && d.cur == idx {
		// the dashboard is shown: add the tile, the others keep running
		b.Tiles = saved
		t := newDashTile(d, saved[len(saved)-1])
		d.tiles = append(d.tiles, t)
		d.relayout()
		t.startRun()
		d.win.RequestFocus()
	} else {
		b.Tiles = saved
		if d.win == nil {
			_ = wb.store.SetSetting(ctx, settingDashboard, fmt.Sprint(b.ID))
			wb.showDashboards()
		} else {
			d.show(idx)
			d.win.RequestFocus()
		}
	}
	wb.setStatus(fmt.Sprintf("Pinned %q to the dashboard %q", tile.Title, b.Name))
	return nil
}

func validKind(k string) bool {
	_, ok := tileKindTitles[k]
	return ok
}
