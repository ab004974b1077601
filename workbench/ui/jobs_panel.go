package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/planview"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// jobsRefresh is how often the Jobs panel samples the session's jobs.
const jobsRefresh = time.Second

// jobsPanel is the bottom panel listing every job of the session
// (queries and INSERT jobs) with status, output, rate and watermark, a
// small live chart of each running job's watermark lag, and Open and
// Cancel buttons. It is what SHOW JOBS lists, sampled once a second.
type jobsPanel struct {
	wb      *Workbench
	model   *monitor.Jobs
	rows    []monitor.JobRow
	list    *widget.List
	summary *widget.Label
	item    *container.TabItem
	last    time.Time
	running int
	zone    *time.Location // the session's, read once per update
	// cancelling are the jobs cancelled here and not ended yet
	cancelling map[string]bool

	// gateway sessions' jobs, listed off the UI goroutine every few
	// seconds (SHOW JOBS over the network), and where each job runs
	remote   map[*connection][]monitor.Job
	connOf   map[string]string // job ID -> connection name (gateway jobs)
	polling  bool
	lastPoll time.Time

	// noMetrics is set while every listed job runs on a gateway, which
	// reports no counters or watermarks: their columns are left out and
	// the statement gets the room.
	noMetrics bool
	// noWatermark is set while no listed job has a watermark (a query on
	// a table without one): the Watermark and Lag columns are left out,
	// and the statement gets the room (issue 21).
	noWatermark bool
	header      []fyne.CanvasObject
	head        *fyne.Container

	splits *splitsView // Kafka hook: running jobs' partitions (kafka_progress.go)
}

// remoteJobsRefresh is how often gateway sessions are asked for their jobs.
const remoteJobsRefresh = 2 * time.Second

// Jobs panel columns: their widths (the statement takes what is left).
var jobCols = []struct {
	title string
	width float32
}{
	{"Status", 92}, {"Job", 96}, {"Statement", 0}, {"Started", 72}, {"Rows out", 84},
	{"Rate", 72}, {"Watermark", 150}, {"Lag", 60}, {"Lag, 5 min", 110}, {"", 176},
}

// jobStmtMinWidth is the Statement column's least width (~20 characters):
// below it the columns scroll sideways.
const jobStmtMinWidth = 160

// jobWatermarkCol reports the Watermark, Lag and lag chart columns.
func jobWatermarkCol(i int) bool { return i >= 6 && i <= 8 }

// colHidden reports whether column i is left out: the metric columns of
// gateway jobs, the watermark columns when no job has a watermark.
func (p *jobsPanel) colHidden(i int) bool {
	return p != nil && (p.noMetrics && jobMetricCol(i) || p.noWatermark && jobWatermarkCol(i))
}

const jobStmtCol = 2

// jobMetricCol reports the columns a gateway's jobs have no values for
// (rows out, rate, watermark, lag and its chart).
func jobMetricCol(i int) bool { return i >= 4 && i <= 8 }

func newJobsPanel(wb *Workbench) *jobsPanel {
	p := &jobsPanel{wb: wb, model: monitor.NewJobs(), cancelling: map[string]bool{}, connOf: map[string]string{}}
	p.summary = widget.NewLabel("No jobs yet. Queries and INSERT INTO jobs of this session appear here (SHOW JOBS and STOP JOB '<id>' work in SQL too).")
	p.summary.Importance = widget.LowImportance
	p.summary.Truncation = fyne.TextTruncateEllipsis
	p.list = widget.NewList(func() int { return len(p.rows) }, p.makeRow, p.updateRow)
	p.list.OnSelected = func(widget.ListItemID) { p.list.UnselectAll() }
	header := make([]fyne.CanvasObject, len(jobCols))
	for i, c := range jobCols {
		l := widget.NewLabelWithStyle(c.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Truncation = fyne.TextTruncateClip
		header[i] = l
	}
	p.header = header
	head := container.New(&columnsLayout{p: p}, header...)
	p.head = head
	// the columns scroll sideways in a narrow window rather than widen it
	// (the panel's width is the whole centre's minimum)
	table := container.NewHScroll(container.NewBorder(head, nil, nil, nil, p.list))
	p.splits = newSplitsView(p)                               // Kafka hook
	jobsAndSplits := container.NewVSplit(table, p.splits.box) // the partitions hidden while none is read
	jobsAndSplits.Offset = 0.4
	p.splits.split = jobsAndSplits // Kafka hook: laid out again as the partitions show or hide
	p.item = container.NewTabItemWithIcon("Jobs", theme.ListIcon(), container.NewBorder(p.summary, nil, nil, nil, jobsAndSplits))
	return p
}

// makeRow builds one row of the list.
func (p *jobsPanel) makeRow() fyne.CanvasObject {
	cells := make([]fyne.CanvasObject, len(jobCols))
	for i := range jobCols {
		switch i {
		case len(jobCols) - 2:
			cells[i] = newLagSpark()
		case len(jobCols) - 1:
			open := widget.NewButtonWithIcon("Open", theme.VisibilityIcon(), nil)
			cancel := widget.NewButtonWithIcon("Cancel", theme.MediaStopIcon(), nil)
			open.Importance, cancel.Importance = widget.LowImportance, widget.LowImportance
			cells[i] = container.NewHBox(open, cancel)
		default:
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			if i == 0 {
				l.TextStyle.Bold = true
			}
			cells[i] = l
		}
	}
	return container.New(&columnsLayout{p: p}, cells...)
}

func (p *jobsPanel) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(p.rows) {
		return
	}
	r := p.rows[id]
	cells := o.(*fyne.Container).Objects
	if p.showCols(cells) {
		o.(*fyne.Container).Refresh() // lay the columns out again
	}
	set := func(i int, s string) {
		if l := cells[i].(*widget.Label); l.Text != s {
			l.SetText(s)
		}
	}
	status := cells[0].(*widget.Label)
	imp := statusImportance(r.Status)
	if status.Importance != imp {
		status.Importance = imp
		status.Refresh()
	}
	set(0, r.Status.String())
	set(1, shortID(r.ID))
	remote := p.connOf[r.ID]
	stmt := r.Statement
	if remote != "" {
		if stmt == "" {
			// a job this session did not start: its name, which on Flink is
			// the statement over several lines (a label shows one)
			stmt = monitor.OneLine(r.Name, 200)
		}
		stmt = "on " + remote + " · " + stmt
	}
	set(jobStmtCol, stmt)
	set(3, r.Start.In(p.zone).Format("15:04:05"))
	rows := monitor.FormatCount(r.RowsOut)
	if remote != "" {
		rows = "–" // a gateway reports no counters
	}
	set(4, rows)
	rate, wm, lag := "–", "–", "–"
	if r.HasRate && remote == "" { // a gateway reports no counters to rate
		rate = monitor.FormatRate(r.Rate)
	}
	if r.HasWatermark {
		wm = monitor.FormatWatermark(r.Watermark, p.zone, time.Now())
		switch {
		case r.Watermark == monitor.EndWatermark || r.Status.IsTerminal():
			// an ended job falls no further behind
		case !monitor.LiveLag(r.Lag):
			lag = "—" // replayed data: its age is no lag (the summary says so)
		default:
			lag = monitor.FormatLag(r.Lag)
		}
	}
	set(5, rate)
	set(6, wm)
	set(7, lag)
	spark := cells[8].(*lagSpark)
	if h, ok := p.model.Lag(r.ID); ok {
		spark.set(h.Points(), !r.Status.IsTerminal())
	}
	btns := cells[9].(*fyne.Container).Objects
	open, cancel := btns[0].(*widget.Button), btns[1].(*widget.Button)
	jobID := r.ID
	open.OnTapped = func() { p.open(jobID) }
	cancel.OnTapped = func() { p.cancel(jobID) }
	if r.Status.IsTerminal() {
		cancel.Disable()
	} else {
		cancel.Enable()
	}
}

// lastFailure says why the most recently started failed job failed, for
// the summary line (the Statement column keeps the SQL; Messages has the
// whole error).
func lastFailure(rows []monitor.JobRow) string {
	var last *monitor.JobRow
	for i := range rows {
		r := &rows[i]
		if r.Status == table.JobFailed && r.Err != nil && (last == nil || r.Start.After(last.Start)) {
			last = r
		}
	}
	if last == nil {
		return ""
	}
	summary, _ := monitor.Failure(last.Err)
	return fmt.Sprintf(" · Job %s failed: %s (the whole error is in Messages)", shortID(last.ID), monitor.OneLine(summary, 300))
}

// replaying reports a running job whose watermark is too far from the
// wall clock for its lag to mean anything (monitor.LiveLag).
func replaying(rows []monitor.JobRow) bool {
	for _, r := range rows {
		if r.HasWatermark && r.Watermark != monitor.EndWatermark && !r.Status.IsTerminal() && !monitor.LiveLag(r.Lag) {
			return true
		}
	}
	return false
}

func statusImportance(s table.JobStatus) widget.Importance {
	switch s {
	case table.JobRunning, table.JobCreated:
		return widget.HighImportance
	case table.JobFinished:
		return widget.SuccessImportance
	case table.JobFailed:
		return widget.DangerImportance
	case table.JobCanceled:
		return widget.WarningImportance // a clear colour, not the disabled grey (issue 21)
	}
	return widget.LowImportance
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// tick samples the jobs once a second (and at once after a cancel).
func (p *jobsPanel) tick(now time.Time) {
	if now.Sub(p.last) < jobsRefresh {
		return
	}
	p.update(now)
}

// update samples every job of the session and redraws the list.
func (p *jobsPanel) update(now time.Time) {
	p.last = now
	p.zone = p.wb.embeddedZone()
	p.pollRemote(now)
	jobs := monitor.SessionJobs(p.wb.env)
	for c, js := range p.remote {
		for _, j := range js {
			p.connOf[j.GetJobID()] = c.name()
		}
		jobs = append(jobs, js...)
	}
	for _, c := range p.model.Update(now, jobs) {
		if c.To == table.JobCanceled && p.cancelling[c.ID] {
			p.wb.setStatus("Job " + shortID(c.ID) + " cancelled")
		}
		if c.To.IsTerminal() {
			delete(p.cancelling, c.ID)
		}
	}
	p.rows = p.model.Rows()
	noMetrics := len(p.rows) > 0
	for _, r := range p.rows {
		if p.connOf[r.ID] == "" {
			noMetrics = false
			break
		}
	}
	noWatermark := len(p.rows) > 0
	for _, r := range p.rows {
		if r.HasWatermark {
			noWatermark = false
			break
		}
	}
	if noMetrics != p.noMetrics || noWatermark != p.noWatermark {
		p.noMetrics, p.noWatermark = noMetrics, noWatermark
		if p.showCols(p.header) {
			p.head.Refresh()
		}
		p.list.Refresh()
	}
	running := p.model.Running()
	switch {
	case len(p.rows) == 0:
	case running == 0:
		text := fmt.Sprintf("%s, none running.", widgets.Plural(len(p.rows), "job"))
		if failed := lastFailure(p.rows); failed != "" {
			text += failed
		} else {
			text += " SHOW JOBS and STOP JOB '<id>' work in SQL too."
		}
		p.summary.SetText(text)
	default:
		text := fmt.Sprintf("%d running of %s · refreshed %s", running, widgets.Plural(len(p.rows), "job"), now.Format("15:04:05"))
		if p.noMetrics {
			text += " · a SQL Gateway reports no row counts, rates or watermarks of its jobs"
		}
		if replaying(p.rows) {
			text += " · Lag —: the watermark is more than a day from the clock (replayed data), so the chart shows how far event time advanced"
		}
		text += lastFailure(p.rows)
		p.summary.SetText(text)
	}
	if running != p.running {
		p.running = running
		title := "Jobs"
		if running > 0 {
			title = fmt.Sprintf("Jobs (%d)", running)
		}
		p.item.Text = title
		p.wb.bottom.Refresh()
		p.wb.updateStatus()
	}
	p.list.Refresh()
	p.splits.update() // Kafka hook
}

// pollRemote asks the open gateway sessions for their jobs on a
// goroutine (never opening a session); the answer is used by the next
// update.
func (p *jobsPanel) pollRemote(now time.Time) {
	if p.polling || now.Sub(p.lastPoll) < remoteJobsRefresh || p.wb.conns == nil {
		return
	}
	var open []*connection
	for _, c := range p.wb.conns.list {
		if _, state, _, _ := c.snapshot(); !c.embedded() && state == connReady {
			open = append(open, c)
		}
	}
	p.lastPoll = now
	if len(open) == 0 {
		p.remote = nil
		return
	}
	p.polling = true
	wb := p.wb
	go func() {
		got := map[*connection][]monitor.Job{}
		for _, c := range open {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if js, err := wb.jobsOf(ctx, c); err == nil {
				got[c] = js
			}
			cancel()
		}
		wb.do(func() {
			p.remote, p.polling = got, false
			p.last = time.Time{} // show them on the next tick
		})
	}()
}

// cancel stops a job: through its result tab when it has one (so the
// tab says CANCELED), else through the job.
func (p *jobsPanel) cancel(id string) {
	if rt := p.wb.resultForJob(id); rt != nil && rt.isRunning() {
		p.wb.stopResults(rt)
	} else if name := p.connOf[id]; name != "" {
		// STOP JOB on a gateway: over the network, off the UI goroutine
		if j, ok := p.model.Job(id); ok {
			wb := p.wb
			go func() {
				if err := j.Cancel(); err != nil {
					wb.do(func() { wb.messages.add(levelError, "Cancelling job "+id+" on "+name+": "+err.Error(), nil) })
				}
			}()
		}
	} else if err := p.model.Cancel(id); err != nil {
		p.wb.messages.add(levelError, "Cancelling job "+id+": "+err.Error(), nil)
	}
	p.cancelling[id] = true
	p.wb.setStatus("Cancelling job " + shortID(id) + "…")
	p.last = time.Time{} // show the new status on the next tick
}

// open shows a job: the result tab of a query, or a tab with the job's
// plan and live metrics (an INSERT job, or a query whose result tab was
// closed).
func (p *jobsPanel) open(id string) {
	wb := p.wb
	if rt := wb.resultForJob(id); rt != nil {
		wb.showPanel(rt.item)
		rt.showView(rt.mon.dataItem)
		return
	}
	j, ok := p.model.Job(id)
	if !ok {
		return
	}
	if name := p.connOf[id]; name != "" && j.Plan() == nil {
		wb.openRemoteJobTab(j, name)
		return
	}
	wb.openJobTab(j)
}

// row returns the listed row of a job (for tests).
func (p *jobsPanel) row(id string) (monitor.JobRow, bool) {
	for _, r := range p.rows {
		if r.ID == id {
			return r, true
		}
	}
	return monitor.JobRow{}, false
}

// jobTab is a bottom tab showing a job's plan with live metrics.
type jobTab struct {
	id   string
	item *container.TabItem
	view *planview.View
}

// openJobTab opens (or selects) the plan tab of a job.
func (wb *Workbench) openJobTab(j monitor.Job) {
	id := j.GetJobID()
	for _, t := range wb.mon.jobTabs {
		if t.id == id {
			wb.showPanel(t.item)
			return
		}
	}
	root := j.Plan()
	if root == nil {
		wb.setStatus("Job " + shortID(id) + " runs on a gateway, which sends no plan with its jobs")
		return
	}
	streaming := root.ChangelogMode.String() != ""
	// a query is explained without its collect sink
	text := "== Optimized Execution Plan ==\n" + root.ExplainText() + "\n-- " + monitor.OneLine(j.Statement(), 400)
	v := planview.New(j, []*table.PlanNode{root}, streaming, text, wb.embeddedZone())
	t := &jobTab{id: id, view: v}
	t.item = container.NewTabItemWithIcon("Job "+shortID(id), theme.ListIcon(), v.Content())
	wb.mon.jobTabs = append(wb.mon.jobTabs, t)
	wb.bottom.Append(t.item)
	wb.bottom.Select(t.item)
	v.Tick(time.Now(), true)
}

// openRemoteJobTab opens (or selects) the plan tab of a gateway's job: a
// gateway sends no plan with its jobs, so the job's statement is
// explained on its connection (off the UI goroutine) and drawn without
// metrics.
func (wb *Workbench) openRemoteJobTab(j monitor.Job, connName string) {
	id := j.GetJobID()
	for _, t := range wb.mon.jobTabs {
		if t.id == id {
			wb.showPanel(t.item)
			return
		}
	}
	c := wb.conns.byName(connName)
	stmt := j.Statement()
	if c == nil || stmt == "" {
		wb.setStatus("Job " + shortID(id) + " runs on a gateway, which sends no plan with its jobs")
		return
	}
	if wb.mon.explaining[id] {
		return
	}
	wb.mon.explaining[id] = true
	wb.setStatus("Asking " + connName + " for the plan of job " + shortID(id) + "…")
	go func() {
		text, roots, streaming, err := remoteExplain(c, stmt)
		wb.do(func() {
			delete(wb.mon.explaining, id)
			if wb.closed {
				return
			}
			if err != nil {
				wb.setStatus("No plan for job " + shortID(id) + ": EXPLAIN on " + connName + " failed: " + firstLine(err.Error()))
				return
			}
			for _, t := range wb.mon.jobTabs {
				if t.id == id { // opened meanwhile
					wb.showPanel(t.item)
					return
				}
			}
			v := planview.NewOf(nil, remotePlanGraph(streaming, roots), text+"\n-- "+monitor.OneLine(stmt, 400), wb.embeddedZone())
			v.SetStatus(planview.Summary(v.Plan()) + " · EXPLAIN on " + connName + ", no live metrics")
			t := &jobTab{id: id, view: v}
			t.item = container.NewTabItemWithIcon("Job "+shortID(id), theme.ListIcon(), v.Content())
			wb.mon.jobTabs = append(wb.mon.jobTabs, t)
			wb.bottom.Append(t.item)
			wb.bottom.Select(t.item)
			wb.setStatus("Ready")
		})
	}()
}

// closeJobTab removes a job's plan tab (the job keeps running).
func (wb *Workbench) closeJobTab(it *container.TabItem) bool {
	for i, t := range wb.mon.jobTabs {
		if t.item == it {
			wb.mon.jobTabs = append(wb.mon.jobTabs[:i], wb.mon.jobTabs[i+1:]...)
			wb.bottom.Remove(it)
			return true
		}
	}
	return false
}

// resultForJob returns the result tab showing a job's rows.
func (wb *Workbench) resultForJob(id string) *resultTab {
	for _, rt := range wb.results {
		if rt.jobID == id || rt.job != nil && rt.job.GetJobID() == id {
			return rt
		}
	}
	return nil
}

// showCols shows or hides the optional columns of a row or the header
// (colHidden); it reports whether any changed.
func (p *jobsPanel) showCols(cells []fyne.CanvasObject) bool {
	changed := false
	for i, o := range cells {
		if show := !p.colHidden(i); (jobMetricCol(i) || jobWatermarkCol(i)) && o.Visible() != show {
			changed = true
			if show {
				o.Show()
			} else {
				o.Hide()
			}
		}
	}
	return changed
}

// columnsLayout places cells side by side at the jobCols widths; the
// statement column takes the rest. Without metrics (p.noMetrics) their
// columns take no room.
type columnsLayout struct{ p *jobsPanel }

// width is column i's width, 0 when it is left out.
func (l *columnsLayout) width(i int) float32 {
	if l.p.colHidden(i) {
		return 0
	}
	return jobCols[i].width
}

func (l *columnsLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	fixed := float32(0)
	for i := range jobCols {
		fixed += l.width(i)
	}
	stretch := max(size.Width-fixed, jobStmtMinWidth)
	x := float32(0)
	for i, o := range objs {
		w := l.width(i)
		if i == jobStmtCol {
			w = stretch
		}
		h := o.MinSize().Height
		if _, isSpark := o.(*lagSpark); isSpark {
			h = size.Height - 8
		}
		o.Move(fyne.NewPos(x, (size.Height-h)/2))
		o.Resize(fyne.NewSize(w, h))
		x += w
	}
}

func (l *columnsLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	w := float32(jobStmtMinWidth)
	for i, o := range objs {
		h = max(h, o.MinSize().Height)
		w += l.width(i)
	}
	return fyne.NewSize(w, h)
}

// lagSpark is a small line chart of a job's watermark lag over the last
// minutes: one canvas line per step, scaled to the largest lag shown. When
// the lag is no lag (replayed data, monitor.LiveLag) it charts how far the
// watermark advanced instead ("wm +2h10m").
type lagSpark struct {
	widget.BaseWidget
	pts    []monitor.LagPoint
	active bool
	lines  []*canvas.Line
	base   *canvas.Line
	label  *canvas.Text
}

// maxSparkSteps bounds the line segments of a spark line.
const maxSparkSteps = 60

func newLagSpark() *lagSpark {
	s := &lagSpark{base: canvas.NewLine(theme.Color(theme.ColorNameDisabled)), label: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder))}
	s.base.StrokeWidth = 1
	s.label.TextSize = theme.TextSize() - 3
	for range maxSparkSteps {
		l := canvas.NewLine(theme.Color(theme.ColorNamePrimary))
		l.StrokeWidth = 1.5
		l.Hide()
		s.lines = append(s.lines, l)
	}
	s.ExtendBaseWidget(s)
	return s
}

// set shows the history (oldest first).
func (s *lagSpark) set(pts []monitor.LagPoint, active bool) {
	s.pts, s.active = pts, active
	s.Refresh()
}

func (s *lagSpark) MinSize() fyne.Size { return fyne.NewSize(60, 24) }

func (s *lagSpark) CreateRenderer() fyne.WidgetRenderer {
	objs := []fyne.CanvasObject{s.base, s.label}
	for _, l := range s.lines {
		objs = append(objs, l)
	}
	return &lagSparkRenderer{s: s, objs: objs}
}

type lagSparkRenderer struct {
	s    *lagSpark
	objs []fyne.CanvasObject
}

func (r *lagSparkRenderer) Layout(size fyne.Size) { r.draw(size) }

func (r *lagSparkRenderer) draw(size fyne.Size) {
	s := r.s
	pts := s.pts
	if len(pts) > maxSparkSteps+1 {
		// keep every k-th point and the newest
		k := (len(pts) + maxSparkSteps - 1) / maxSparkSteps
		var thin []monitor.LagPoint
		for i := 0; i < len(pts); i += k {
			thin = append(thin, pts[i])
		}
		if thin[len(thin)-1] != pts[len(pts)-1] {
			thin = append(thin, pts[len(pts)-1])
		}
		pts = thin
	}
	value := func(p monitor.LagPoint) float64 { return p.Lag.Seconds() }
	replay := len(pts) > 0 && !monitor.LiveLag(pts[len(pts)-1].Lag)
	if replay {
		first := pts[0].Watermark
		value = func(p monitor.LagPoint) float64 { return float64(p.Watermark-first) / 1000 }
	}
	top := float64(0)
	for _, p := range pts {
		top = max(top, value(p))
	}
	switch {
	case len(pts) == 0:
		s.label.Text = ""
	case replay:
		s.label.Text = "wm +" + monitor.FormatLag(time.Duration(top*float64(time.Second)))
	default:
		s.label.Text = "max " + monitor.FormatLag(time.Duration(top*float64(time.Second)))
	}
	if top <= 0 {
		top = 1
	}
	// the line on the left, its scale ("max 1.2s") on the right; a scale
	// that leaves the line too little room is left out
	ls := s.label.MinSize()
	if size.Width-ls.Width-4 < 40 {
		s.label.Text = ""
		ls = fyne.Size{}
	}
	s.label.Move(fyne.NewPos(size.Width-ls.Width, (size.Height-ls.Height)/2))
	s.label.Resize(ls)
	w := max(size.Width-ls.Width-4, 10)
	h := size.Height - 2
	s.base.Position1 = fyne.NewPos(0, size.Height-1)
	s.base.Position2 = fyne.NewPos(w, size.Height-1)
	c := theme.Color(theme.ColorNamePrimary)
	if !s.active {
		c = theme.Color(theme.ColorNameDisabled)
	}
	n := len(pts)
	for i, l := range s.lines {
		if i+1 >= n {
			l.Hide()
			continue
		}
		x := func(j int) float32 { return float32(j) / float32(max(n-1, 1)) * w }
		y := func(j int) float32 { return 1 + h - float32(value(pts[j])/top)*h }
		l.Position1 = fyne.NewPos(x(i), y(i))
		l.Position2 = fyne.NewPos(x(i+1), y(i+1))
		l.StrokeColor = c
		l.Show()
	}
}

func (r *lagSparkRenderer) MinSize() fyne.Size { return r.s.MinSize() }
func (r *lagSparkRenderer) Refresh() {
	r.draw(r.s.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}
func (r *lagSparkRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *lagSparkRenderer) Destroy()                     {}
