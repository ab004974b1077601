package ui

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/workbench/charts"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/chartview"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// readingsDDL is an endless datagen stream with an event-time column.
// (test.Type drops newlines: statements are on one line.)
const readingsDDL = `CREATE TEMPORARY TABLE readings (sensor_id INT, reading DOUBLE, ts TIMESTAMP(3), ` +
	`WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', 'rows-per-second' = '200', ` +
	`'fields.sensor_id.min' = '1', 'fields.sensor_id.max' = '4', 'fields.reading.min' = '0', 'fields.reading.max' = '100');
CREATE TEMPORARY TABLE sink (sensor_id INT, reading DOUBLE) WITH ('connector' = 'blackhole');
`

const perSecond = `SELECT FLOOR(ts TO SECOND) AS window_start, COUNT(*) AS readings, AVG(reading) AS avg_reading ` +
	`FROM readings GROUP BY FLOOR(ts TO SECOND)`

// TestPlanTab: a running query's Plan view draws its operators with
// keys, changelog mode, parallelism and exchanges, shows Flink's text
// sections, and fills in live metrics once sampled.
func TestPlanTab(t *testing.T) {
	h := newHarness(t)
	h.wb.env.Config().Set("parallelism.default", "1") // one task: the plan boxes name no parallelism
	h.newTab(readingsDDL + perSecond + ";")
	h.runAll()
	if len(h.wb.results) == 0 {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	rt := h.wb.results[len(h.wb.results)-1]
	defer rt.Stop()
	if !rt.IsRunning() || rt.mon.plan == nil || rt.mon.planItem == nil {
		t.Fatalf("running %v, plan view %v", rt.IsRunning(), rt.mon.plan != nil)
	}
	p := rt.mon.plan
	if !strings.Contains(p.Text(), "== Abstract Syntax Tree ==") || !strings.Contains(p.Text(), "== Optimized Execution Plan ==") ||
		!strings.Contains(p.Text(), "GroupAggregate(groupBy=[$f0]") {
		t.Errorf("plan text:\n%s", p.Text())
	}
	var ops []string
	var agg []string
	for i, n := range p.Plan().Nodes {
		ops = append(ops, n.Op)
		if n.Op == "GroupAggregate" {
			agg = p.Graph().Texts(i)
		}
	}
	for _, want := range []string{"Sink", "Calc", "GroupAggregate", "WatermarkAssigner", "TableSourceScan"} {
		if !slices.Contains(ops, want) {
			t.Errorf("operators %v lack %s", ops, want)
		}
	}
	if s := strings.Join(agg, "\n"); !strings.Contains(s, "keys: $f0") || !strings.Contains(s, "changelog [I,UB,UA]") && !strings.Contains(s, "changelog [") ||
		!strings.Contains(s, "parallelism 1") {
		t.Errorf("GroupAggregate box:\n%s", s)
	}
	hash := false
	for _, e := range p.Plan().Edges {
		if strings.HasPrefix(e.Label, "hash[") {
			hash = true
		}
	}
	if !hash {
		t.Error("no hash exchange edge")
	}
	if p.Status() == "" || !strings.Contains(p.Status(), "waiting") {
		t.Errorf("status before sampling: %q", p.Status())
	}

	// The plan's widgets go into the Plan tab when it is first shown (while
	// hidden they would be measured, and Fyne would parse a bold system
	// font for the − zoom button).
	if rt.mon.planItem.Content == p.Content() {
		t.Error("the hidden Plan tab holds the plan's widgets")
	}

	// Show the Plan view; ticks sample once a second.
	rt.showView(rt.mon.planItem)
	if rt.mon.planItem.Content != p.Content() {
		t.Error("the Plan tab, shown, does not hold the plan's widgets")
	}
	h.until("rows to flow", func() bool { return rt.Res.Stats().Rows > 0 })
	r0 := p.Refreshes()
	base := time.Now().Add(time.Hour) // later than the harness's ticks
	p.Tick(base, true)
	p.Tick(base.Add(100*time.Millisecond), true) // too soon
	if p.Refreshes() != r0+1 {
		t.Errorf("%d refreshes after two ticks 100 ms apart", p.Refreshes()-r0)
	}
	p.Tick(base.Add(1100*time.Millisecond), true)
	if p.Refreshes() != r0+2 {
		t.Errorf("%d refreshes after ticks a second apart", p.Refreshes()-r0)
	}
	p.Tick(base.Add(2200*time.Millisecond), false) // hidden: sampled, not drawn
	if p.Refreshes() != r0+2 {
		t.Errorf("a hidden plan was drawn")
	}
	var scan []string
	for i, n := range p.Plan().Nodes {
		if n.Op == "TableSourceScan" {
			scan = p.Graph().Texts(i)
		}
	}
	if s := strings.Join(scan, "\n"); !strings.Contains(s, "\nout ") || strings.Contains(s, "in ") || !strings.Contains(s, "rows ") || !strings.Contains(s, "wm ") {
		t.Errorf("scan box metrics (a source has no in rate):\n%s", s)
	}
	if !strings.Contains(p.Status(), "live, updated") || !strings.Contains(p.Status(), "RUNNING") {
		t.Errorf("status %q", p.Status())
	}

	// After the job ends, the final figures are drawn once.
	rt.Stop()
	h.waitDone(rt)
	h.until("the job to end", func() bool { return rt.Job.Status().IsTerminal() })
	p.Tick(time.Now().Add(time.Hour), true)
	if !p.Ended() || !strings.Contains(p.Status(), "final metrics") {
		t.Errorf("after the end: ended %v, status %q", p.Ended(), p.Status())
	}
}

// TestExplainGraph: Ctrl+E shows Flink's EXPLAIN text beside the graph
// of the same plan (not running).
func TestExplainGraph(t *testing.T) {
	h := newHarness(t)
	h.newTab(readingsDDL)
	h.runAll()
	tab := h.newTab(perSecond + ";")
	tab.ed.SetCursor(0, 5)
	tab.ed.TypedShortcut(ctrl("E"))
	h.settle()
	rt := h.wb.results[len(h.wb.results)-1]
	if rt.Text == "" || rt.mon.plan == nil {
		t.Fatalf("Ctrl+E gave text %q, plan %v", rt.Text, rt.mon.plan != nil)
	}
	p := rt.mon.plan
	if p.Job() != nil || p.Text() != rt.Text || !strings.Contains(p.Text(), "== Optimized Physical Plan ==") {
		t.Errorf("EXPLAIN view: job %v text %q", p.Job(), p.Text())
	}
	if len(p.Plan().Nodes) < 4 || !strings.Contains(p.Status(), "not running") {
		t.Errorf("%d nodes, status %q", len(p.Plan().Nodes), p.Status())
	}
	// boxes do not overlap and the widget is as big as the layout
	for i, a := range p.Plan().Nodes {
		for _, b := range p.Plan().Nodes[i+1:] {
			if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Errorf("%s and %s overlap", a.Op, b.Op)
			}
		}
	}
	if ms := p.Graph().MinSize(); ms.Width < float32(p.Plan().Width)-1 || ms.Height < float32(p.Plan().Height)-1 {
		t.Errorf("graph min size %v, layout %vx%v", ms, p.Plan().Width, p.Plan().Height)
	}
	// zooming out lays the graph out again, smaller, with the same boxes
	before := p.Graph().MinSize()
	texts := p.Graph().Texts(0)
	p.SetZoom(0.5)
	after := p.Graph().MinSize()
	if after.Height > before.Height*0.6 || after.Height < before.Height*0.4 || p.ZoomLabel() != "50%" {
		t.Errorf("zoom 50%%: %v → %v, label %q", before, after, p.ZoomLabel())
	}
	if !slices.Equal(p.Graph().Texts(0), texts) || p.Graph().Nodes() != len(p.Plan().Nodes) {
		t.Error("zoom changed the boxes' texts")
	}
	p.SetZoom(1)
	if p.Graph().MinSize() != before {
		t.Errorf("back at 100%%: %v, was %v", p.Graph().MinSize(), before)
	}
}

// TestJobsPanel: the panel lists a query and an INSERT job as SHOW JOBS
// does, cancels one (the other runs on), follows STOP JOB, and a job
// whose function panics fails alone, with the stack in Messages.
func TestJobsPanel(t *testing.T) {
	h := newHarness(t)
	boom := table.UDF(func(x float64) float64 {
		if x >= 0 {
			panic("boom in a UDF")
		}
		return x
	}, table.WithName("boom"))
	if err := h.wb.env.CreateTemporarySystemFunction("boom", boom); err != nil {
		t.Fatal(err)
	}
	h.newTab(readingsDDL + "SELECT sensor_id, COUNT(*) AS n FROM readings GROUP BY sensor_id; INSERT INTO sink SELECT sensor_id, reading FROM readings;")
	h.runAll()
	jp := h.wb.mon.jobs
	jp.Update(time.Now())
	if len(jp.Rows()) != 2 {
		t.Fatalf("%d job rows: %+v", len(jp.Rows()), jp.Rows())
	}
	var query, insert string
	for _, r := range jp.Rows() {
		if r.Status != table.JobRunning {
			t.Errorf("job %s is %s", r.ID, r.Status)
		}
		switch r.Kind {
		case "query":
			query = r.ID
		case "insert":
			insert = r.ID
		}
	}
	if query == "" || insert == "" {
		t.Fatalf("kinds: %+v", jp.Rows())
	}
	if jp.Item().Text != "Jobs (2)" {
		t.Errorf("panel title %q", jp.Item().Text)
	}
	// SHOW JOBS agrees with the panel
	res, err := h.wb.env.ExecuteSQL("SHOW JOBS")
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	shown := map[string]string{}
	for it.Next() {
		v := it.Row().Values
		shown[v[0].(string)] = v[2].(string)
	}
	it.Close()
	for _, r := range jp.Rows() {
		if shown[r.ID] != r.Status.String() {
			t.Errorf("SHOW JOBS says %s is %q, the panel %s", r.ID, shown[r.ID], r.Status)
		}
	}

	// the row is drawn: status, kind, statement, a spark line
	obj := jp.NewRow()
	jp.UpdateRow(0, obj)

	// Cancel the INSERT job from the panel; the query runs on.
	jp.Cancel(insert)
	h.until("the INSERT job to be cancelled", func() bool {
		r, _ := jp.Row(insert)
		return r.Status == table.JobCanceled
	})
	if r, _ := jp.Row(query); r.Status != table.JobRunning {
		t.Errorf("the query is %s after cancelling the INSERT job", r.Status)
	}
	if !strings.Contains(h.wb.statusLeft.Text, "cancelled") {
		t.Errorf("status bar %q", h.wb.statusLeft.Text)
	}
	// its row: CANCELED, no error text, no lag
	for i, r := range jp.Rows() {
		if r.ID != insert {
			continue
		}
		o := jp.NewRow()
		jp.UpdateRow(i, o)
		cells := o.(*fyne.Container).Objects
		if st, stmt, lag := cells[0].(*widget.Label).Text, cells[jobs.StatementColumn].(*widget.Label).Text, cells[7].(*widget.Label).Text; st != "CANCELED" || !strings.HasPrefix(stmt, "INSERT INTO sink") || lag != "–" {
			t.Errorf("cancelled row: %q %q lag %q", st, stmt, lag)
		}
	}
	if jp.Item().Text != "Jobs (1)" {
		t.Errorf("panel title %q", jp.Item().Text)
	}

	// A failing job: only it fails; Messages has the error and the stack.
	h.newTab("INSERT INTO sink SELECT sensor_id, boom(reading) FROM readings;")
	h.runAll()
	h.until("the panicking job to fail", func() bool {
		for _, r := range jp.Rows() {
			if r.Status == table.JobFailed {
				return strings.Contains(h.messages(), "boom in a UDF")
			}
		}
		return false
	})
	// its row shows its SQL; the summary line says why it failed
	for i, r := range jp.Rows() {
		if r.Status != table.JobFailed {
			continue
		}
		o := jp.NewRow()
		jp.UpdateRow(i, o)
		if stmt := o.(*fyne.Container).Objects[jobs.StatementColumn].(*widget.Label).Text; stmt != "INSERT INTO sink SELECT sensor_id, boom(reading) FROM readings" {
			t.Errorf("failed job's Statement cell %q", stmt)
		}
		if sum := jp.Summary(); !strings.Contains(sum, "Job "+jobs.ShortID(r.ID)+" failed: ") || !strings.Contains(sum, "boom in a UDF") {
			t.Errorf("summary line %q", sum)
		}
	}
	msgs := h.messages()
	if !strings.Contains(msgs, "panic") || !strings.Contains(msgs, "goroutine") && !strings.Contains(msgs, ".go:") {
		t.Errorf("no stack in Messages:\n%s", msgs)
	}
	if r, _ := jp.Row(query); r.Status != table.JobRunning {
		t.Errorf("the query is %s after another job failed", r.Status)
	}

	// STOP JOB in SQL: the panel follows; the result tab says CANCELED.
	rt := h.wb.resultForJob(query)
	if rt == nil {
		t.Fatal("no result tab for the query")
	}
	if _, err := h.wb.env.ExecuteSQL("STOP JOB '" + query + "'"); err != nil {
		t.Fatal(err)
	}
	h.until("the query to be stopped", func() bool {
		r, _ := jp.Row(query)
		return r.Status == table.JobCanceled && !rt.IsRunning()
	})
	if got := rt.State(); got != resulttab.Canceled {
		st, err := rt.Res.State()
		t.Errorf("result tab %s after STOP JOB (%v, %v)", got, st, err)
	}
	if jp.Running() != 0 || jp.Item().Text != "Jobs" {
		t.Errorf("running %d, title %q", jp.Running(), jp.Item().Text)
	}

	// Open: a query's result tab, an INSERT job's plan tab.
	h.wb.bottom.Select(jp.Item())
	jp.OpenJob(query)
	if h.wb.bottom.Selected() != rt.Item() {
		t.Error("Open did not select the query's result tab")
	}
	jp.OpenJob(insert)
	if n := len(h.wb.mon.jobTabs); n != 1 || h.wb.bottom.Selected() != h.wb.mon.jobTabs[0].item {
		t.Fatalf("Open of the INSERT job: %d job tabs", n)
	}
	jt := h.wb.mon.jobTabs[0]
	if !strings.Contains(jt.view.Text(), "Sink(table=[default_catalog.default_database.sink]") {
		t.Errorf("job tab text:\n%s", jt.view.Text())
	}
	h.wb.bottom.CloseIntercept(jt.item)
	if len(h.wb.mon.jobTabs) != 0 {
		t.Error("closing the job tab kept it")
	}
	// closing the Jobs panel only hides it; View ▸ Jobs brings it back
	h.wb.bottom.CloseIntercept(jp.Item())
	h.wb.showJobs()
	if h.wb.bottom.Selected() != jp.Item() {
		t.Error("View ▸ Jobs did not bring the panel back")
	}
}

// TestChartTab: a result's chart starts from charts.Detect (a line over
// the time column), renders frames, keeps changed settings in the
// workspace and restores them when the statement runs again after a
// restart; Save writes PNG and SVG.
func TestChartTab(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	const q = `SELECT * FROM (VALUES (TIMESTAMP '2024-01-01 10:00:00', 'a', 1.5, 3), (TIMESTAMP '2024-01-01 10:01:00', 'a', 2.5, 4), ` +
		`(TIMESTAMP '2024-01-01 10:02:00', 'b', 0.5, 7)) AS t(window_start, k, v, n)`
	tab := h.newTab(q + ";")
	tabID := tab.id
	rt := h.runStatement()
	h.waitDone(rt)
	if rt.mon.chart != nil {
		t.Fatal("the chart was built before it was shown")
	}
	rt.showView(rt.mon.chartItem)
	cv := rt.mon.chart
	if cv == nil {
		t.Fatal("no chart view")
	}
	h.wb.Tick()
	s := cv.Settings()
	if s.Kind != charts.Line || s.X != "window_start" || s.Series != "k" || !slices.Equal(s.Y, []string{"v"}) {
		t.Errorf("detected settings %+v", s)
	}
	if cv.Kind.Selected != "Line" || cv.X.Selected != "window_start" || cv.Series.Selected != "k" {
		t.Errorf("selects %q %q %q", cv.Kind.Selected, cv.X.Selected, cv.Series.Selected)
	}
	if !cv.Visible() {
		t.Fatal("chart not visible")
	}
	if !cv.Step() {
		t.Fatal("no frame rendered")
	}
	h.q.drain()
	if cv.Frames() != 1 || cv.Frame().Model == nil || cv.Frame().Model.Points() != 3 || !cv.HasImage() {
		t.Fatalf("frames %d, model %+v", cv.Frames(), cv.Frame().Model)
	}
	if !strings.Contains(cv.Info.Text, "3 points, 2 series from 3 rows") {
		t.Errorf("info %q", cv.Info.Text)
	}
	if cv.Step() {
		t.Error("a frame without a change")
	}

	// The user changes the chart: a bar chart of v and n, last 5 minutes.
	cv.Kind.SetSelected("Bar")
	cv.YChecks.SetSelected([]string{"n", "v"})
	cv.Series.SetSelected(chartview.NoSeries)
	cv.Window.SetSelected(chartview.WindowTitle(5 * time.Minute))
	want := charts.Settings{Kind: charts.Bar, X: "window_start", Y: []string{"v", "n"}, Window: charts.Duration(5 * time.Minute)}
	if got := cv.Settings(); got.Kind != want.Kind || !slices.Equal(got.Y, want.Y) || got.Series != "" || got.Window != want.Window || got.Auto {
		t.Errorf("settings %+v", got)
	}
	if !cv.Step() {
		t.Error("no frame after a settings change")
	}
	h.q.drain()
	if cv.Frame().Model == nil || len(cv.Frame().Model.Series) != 2 {
		t.Errorf("bar model %+v", cv.Frame().Model)
	}

	// Save as PNG and SVG.
	dir := t.TempDir()
	for _, ext := range []string{".png", ".svg"} {
		done := make(chan error, 1)
		cv.Save(filepath.Join(dir, "c"+ext), func(err error) { done <- err })
		var err error = errors.New("timeout")
		// the save reports on the UI queue, which this goroutine runs
		testwait.Poll(10*time.Second, func() bool {
			h.q.drain()
			select {
			case err = <-done:
				return true
			default:
				return false
			}
		})
		if err != nil {
			t.Fatalf("save %s: %v", ext, err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "c"+ext))
		if ext == ".png" && !strings.HasPrefix(string(b), "\x89PNG") || ext == ".svg" && !strings.Contains(string(b), "<svg") {
			t.Errorf("%s file starts %q", ext, b[:min(len(b), 20)])
		}
	}

	// Restart: the same statement in the same editor tab gets the chart back.
	h.close()
	h = open(t, path)
	defer h.close()
	tab = h.wb.editors.byID(tabID)
	if tab == nil {
		t.Fatal("the editor tab was not restored")
	}
	h.wb.editors.tabs.Select(tab.item)
	rt = h.runStatement()
	h.waitDone(rt)
	rt.showView(rt.mon.chartItem)
	got := rt.mon.chart.Settings()
	if got.Kind != want.Kind || got.X != want.X || !slices.Equal(got.Y, want.Y) || got.Series != "" || got.Window != want.Window {
		t.Errorf("restored settings %+v, want %+v", got, want)
	}
	if rt.mon.chart.Kind.Selected != "Bar" || rt.mon.chart.Window.Selected != "Last 5 min" {
		t.Errorf("restored selects %q %q", rt.mon.chart.Kind.Selected, rt.mon.chart.Window.Selected)
	}
	// another statement starts from detection
	h.newTab("SELECT 1 AS a, 2.5 AS b;")
	rt2 := h.runStatement()
	h.waitDone(rt2)
	rt2.showView(rt2.mon.chartItem)
	if s := rt2.mon.chart.Settings(); !s.Auto || s.Kind != charts.Scatter {
		t.Errorf("a new statement's chart: %+v", s)
	}
	// a result without numbers says there is nothing to chart
	h.newTab("SHOW TABLES;")
	rt3 := h.runStatement()
	rt3.showView(rt3.mon.chartItem)
	if rt3.mon.chart != nil || !rt3.mon.noChart {
		t.Error("SHOW TABLES got a chart")
	}
	// closing the tab stops the renderer
	h.wb.closeResult(rt)
	if !rt.mon.closed {
		t.Error("closed tab's views not stopped")
	}
}

// TestJobsPanelGatewayJobs: a gateway session's jobs are listed too
// (asked for off the UI goroutine), marked with their connection, without
// made-up counters, and cancelled with STOP JOB on the gateway.
func TestJobsPanelGatewayJobs(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	h.newTab("")
	h.addConnection("gw", g.url, "", "")
	h.run("CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100'); " +
		"CREATE TEMPORARY TABLE bh (k INT) WITH ('connector' = 'blackhole'); INSERT INTO bh SELECT k FROM s;")
	jp := h.wb.mon.jobs
	clock := time.Now()
	tick := func() {
		clock = clock.Add(3 * time.Second)
		jp.Update(clock)
	}
	var id string
	h.until("the gateway's job in the panel", func() bool {
		tick()
		for _, r := range jp.Rows() {
			if jp.connOf[r.ID] == "gw" && r.Status == table.JobRunning {
				id = r.ID
				return true
			}
		}
		return false
	})
	for i, r := range jp.Rows() {
		if r.ID != id {
			continue
		}
		o := jp.NewRow()
		jp.UpdateRow(i, o)
		cells := o.(*fyne.Container).Objects
		if stmt, rows, rate := cells[jobs.StatementColumn].(*widget.Label).Text, cells[4].(*widget.Label).Text, cells[5].(*widget.Label).Text; !strings.HasPrefix(stmt, "on gw · INSERT INTO bh") || rows != "–" || rate != "–" {
			t.Errorf("gateway row: %q, rows %q, rate %q (a gateway gives no counters to rate)", stmt, rows, rate)
		}
	}
	// Only gateway jobs: their empty metric columns are left out, and the
	// statement takes the room; the summary says why.
	if !jp.NoMetrics() || jp.HeaderVisible(5) || !strings.Contains(jp.Summary(), "reports no row counts") {
		t.Errorf("metric columns shown for gateway jobs only; summary %q", jp.Summary())
	}
	row := jp.NewRow()
	jp.UpdateRow(0, row)
	row.Resize(fyne.NewSize(1100, row.MinSize().Height))
	cells := row.(*fyne.Container).Objects
	if w := cells[jobs.StatementColumn].Size().Width; w != 1100-jobs.Columns[0].Width-jobs.Columns[1].Width-jobs.Columns[3].Width-jobs.Columns[len(jobs.Columns)-1].Width || cells[6].Visible() {
		t.Errorf("statement column %v wide, watermark cell visible %v", w, cells[6].Visible())
	}
	// A job known only by its name (Flink names a query's job after its
	// statement, over several lines) is listed on one line.
	saved, savedConn := jp.Rows(), jp.connOf["other"]
	jp.SetRows([]monitor.JobRow{{ID: "other", Name: "SELECT `t`.`k`\nFROM `default_catalog`.`default_database`.`t` AS `t`\nGROUP BY `t`.`k`",
		Status: table.JobRunning, HasRate: true, Start: time.Now()}})
	jp.connOf["other"] = "Flink"
	o := jp.NewRow()
	jp.UpdateRow(0, o)
	cells = o.(*fyne.Container).Objects
	if stmt, rate := cells[jobs.StatementColumn].(*widget.Label).Text, cells[5].(*widget.Label).Text; stmt != "on Flink · SELECT `t`.`k` FROM `default_catalog`.`default_database`.`t` AS `t` GROUP BY `t`.`k`" || rate != "–" {
		t.Errorf("a named job's row: %q, rate %q", stmt, rate)
	}
	jp.SetRows(saved)
	jp.connOf["other"] = savedConn
	// Open: the gateway sends no plan, so the job's statement is explained
	jp.OpenJob(id)
	var tab *jobTab
	h.until("the job's plan tab", func() bool {
		for _, t := range h.wb.mon.jobTabs {
			if t.id == id {
				tab = t
			}
		}
		return tab != nil
	})
	if st := tab.view.Status(); len(tab.view.Plan().Nodes) < 2 || !strings.Contains(st, "EXPLAIN on gw, no live metrics") ||
		!strings.Contains(tab.view.Text(), "-- INSERT INTO bh") {
		t.Errorf("plan tab: %d nodes, status %q, text %q", len(tab.view.Plan().Nodes), st, tab.view.Text())
	}
	jp.OpenJob(id) // selects the tab, opens no second one
	h.q.drain()
	if n := len(h.wb.mon.jobTabs); n != 1 || h.wb.bottom.Selected() != tab.item {
		t.Errorf("%d job tabs", n)
	}
	jp.Cancel(id)
	h.until("the job to be cancelled on the gateway", func() bool {
		tick()
		r, _ := jp.Row(id)
		return r.Status == table.JobCanceled
	})
}

// TestJobsPanelReplayedWatermark: a watermark years behind the clock
// (replayed 2001 data) shows no lag but "—", its chart the watermark's
// advance, and the summary says why; a live watermark shows its lag.
func TestJobsPanelReplayedWatermark(t *testing.T) {
	h := newHarness(t)
	jp := h.wb.mon.jobs
	jp.SetZone(time.UTC)
	now := time.Now()
	wm := time.Date(2001, 1, 1, 6, 0, 0, 0, time.UTC)
	jp.SetRows([]monitor.JobRow{
		{ID: "replay", Status: table.JobRunning, Start: now, HasWatermark: true, Watermark: wm.UnixMilli(), Lag: now.Sub(wm)},
		{ID: "live", Status: table.JobRunning, Start: now, HasWatermark: true, Watermark: now.Add(-3 * time.Second).UnixMilli(), Lag: 3 * time.Second},
	})
	cellText := func(i, col int) string {
		o := jp.NewRow()
		jp.UpdateRow(i, o)
		return o.(*fyne.Container).Objects[col].(*widget.Label).Text
	}
	if wmText, lag := cellText(0, 6), cellText(0, 7); wmText != "2001-01-01 06:00:00" || lag != "—" {
		t.Errorf("replay: watermark %q, lag %q", wmText, lag)
	}
	if lag := cellText(1, 7); lag != "3.0s" {
		t.Errorf("live: lag %q", lag)
	}
	if !jobs.Replaying(jp.Rows()) || jobs.Replaying(jp.Rows()[1:]) {
		t.Error("replaying")
	}

}

// TestChartLeavesOutAColumnOnAnotherScale: the detected chart of counts
// in the thousands and averages below 200 keeps the counts only, and says
// so; the user can add the column back.
func TestChartLeavesOutAColumnOnAnotherScale(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SELECT h, flights, avg_delay FROM (VALUES ('01', 15000, 12.5), ('02', 14200, 170.0), ('03', 9000, 3.0)) AS t(h, flights, avg_delay)")
	rt.showView(rt.mon.chartItem)
	cv := rt.mon.chart
	if cv == nil || !slices.Equal(cv.Settings().Y, []string{"flights", "avg_delay"}) {
		t.Fatalf("detected %+v", cv)
	}
	if !cv.Step() {
		t.Fatal("no frame")
	}
	h.q.drain()
	if !slices.Equal(cv.Settings().Y, []string{"flights"}) || !cv.Settings().Auto || cv.YButton.Text != "Y: flights" ||
		!strings.Contains(cv.Info.Text, "avg_delay left out: on another scale than flights") {
		t.Errorf("settings %+v, Y button %q, info %q", cv.Settings(), cv.YButton.Text, cv.Info.Text)
	}
	if !cv.Step() || h.q.drain() == 0 || len(cv.Frame().Model.Series) != 1 {
		t.Fatalf("the narrowed chart: %+v", cv.Frame().Model)
	}
	// the user's choice stands
	cv.YChecks.SetSelected([]string{"flights", "avg_delay"})
	cv.Step()
	h.q.drain()
	if !slices.Equal(cv.Settings().Y, []string{"flights", "avg_delay"}) || len(cv.Frame().Model.Series) != 2 || strings.Contains(cv.Info.Text, "left out") {
		t.Errorf("after choosing: %+v, info %q", cv.Settings(), cv.Info.Text)
	}
}

// A windowed count grouped by an integer id charts one line per id over
// window_start; a column chosen as Series leaves the Y columns.
func TestChartSeriesKeyIsNotAMeasure(t *testing.T) {
	h := newHarness(t)
	h.newTab(`SELECT * FROM (VALUES (TIMESTAMP '2024-01-01 10:01:00', TIMESTAMP '2024-01-01 10:00:00', 1, CAST(5 AS BIGINT)), ` +
		`(TIMESTAMP '2024-01-01 10:01:00', TIMESTAMP '2024-01-01 10:00:00', 2, CAST(7 AS BIGINT))) AS t(window_end, window_start, id, cnt);`)
	rt := h.runStatement()
	h.waitDone(rt)
	rt.showView(rt.mon.chartItem)
	cv := rt.mon.chart
	if s := cv.Settings(); s.X != "window_start" || s.Series != "id" || !slices.Equal(s.Y, []string{"cnt"}) {
		t.Errorf("detected %+v", s)
	}
	cv.Series.SetSelected(chartview.NoSeries)
	cv.YChecks.SetSelected([]string{"id", "cnt"})
	cv.Series.SetSelected("id")
	if s := cv.Settings(); s.Series != "id" || !slices.Equal(s.Y, []string{"cnt"}) || !slices.Equal(cv.YChecks.Selected, []string{"cnt"}) {
		t.Errorf("after Series = id: %+v, ticked %v", s, cv.YChecks.Selected)
	}
}
