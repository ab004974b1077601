// Package jobs is the workbench's Jobs panel: every job of the session
// (queries and INSERT jobs, and the jobs of the open gateway sessions)
// with status, statement, rows out, rate, watermark, lag and a small chart
// of the lag, the last checkpoint, Open, Cancel and Stop with savepoint
// buttons, and a summary line. It reaches the workbench through Host.
package jobs

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Refresh is how often the Jobs panel samples the session's jobs.
const Refresh = time.Second

// Host is what the panel needs of the workbench.
type Host interface {
	// List returns the jobs to list at now: the embedded session's and
	// those the open gateway sessions reported last.
	List(now time.Time) []monitor.Job
	// Gateway names the connection a job runs on, "" for a job of the
	// embedded session (whose counters and watermarks are known).
	Gateway(id string) string
	// Zone is the session's time zone (read once per update).
	Zone() *time.Location
	// CancelJob stops a job (through its result tab when it has one).
	CancelJob(id string)
	// OpenJob shows a job: its result tab or its plan.
	OpenJob(id string)
	// SetStatus shows text in the status bar.
	SetStatus(text string)
	// RunningChanged is called when the number of running jobs (and so
	// the tab's title) changed.
	RunningChanged()
	// Updated is called after each update (the Kafka partitions hook).
	Updated()
	// SavepointDir is the savepoint directory of the session a job of
	// the embedded session runs in, as set
	// ('execution.checkpointing.savepoint-dir', else
	// 'state.savepoints.dir': a path or a file: URI), "" when none is set.
	SavepointDir(id string) string
	// Window is the window the savepoint dialog opens over.
	Window() fyne.Window
	// Do runs f on the UI goroutine (fyne.Do in the app); the panel
	// reports a stop with savepoint taken off it through Do.
	Do(f func())
}

// Panel is the bottom panel listing every job of the session
// (queries and INSERT jobs) with status, output, rate and watermark, a
// small live chart of each running job's watermark lag, the last
// checkpoint, and Open, Cancel and Stop with savepoint buttons. It is
// what SHOW JOBS lists, sampled once a second.
type Panel struct {
	host    Host
	model   *monitor.Jobs
	rows    []monitor.JobRow
	list    *widget.List
	summary *widget.Label
	item    *container.TabItem
	last    time.Time
	running int
	// drawn: the list was last drawn with rows; while it stays empty an
	// update redraws nothing, so an idle window is not repainted
	drawn bool
	// drawnIdle is what the list last drew while no job ran (drawnKey;
	// "" otherwise): an update of finished jobs that draws the same
	// redraws nothing, so an idle window is not repainted once a second
	drawnIdle string
	zone      *time.Location // the session's, read once per update
	// cancelling are the jobs cancelled here and not ended yet
	cancelling map[string]bool
	// stopping are the jobs being stopped with a savepoint here
	stopping map[string]bool
	// the savepoint dialog while open, the directory last written to
	// and the last stop with savepoint's outcome (savepoint.go)
	ask              *savepointAsk
	lastSavepointDir string
	spLine           *savepointLine
	savepointPath    string
	savepointErr     error

	// noMetrics is set while every listed job runs on a gateway, which
	// reports no counters or watermarks: their columns are left out and
	// the statement gets the room.
	noMetrics bool
	// noWatermark is set while no listed job has a watermark (a query on
	// a table without one): the Watermark and Lag columns are left out,
	// and the statement gets the room (issue 21).
	noWatermark bool
	// noCheckpoint is set while no listed job takes checkpoints (none
	// complete, failed or under way: checkpointing is off): the
	// Checkpoint column is left out and the statement gets the room.
	noCheckpoint bool
	// noLag is set while no running job has a watermark: the Lag and
	// lag chart columns (a running job's) are left out. endOnly is set
	// while every watermark shown is "end" or none: the Watermark column
	// narrows to endWatermarkWidth. Both give the statement the room.
	noLag, endOnly bool
	// colsGen counts the changes of the columns shown or their widths;
	// rowGen is the one each row was last laid out for
	colsGen int
	rowGen  map[*fyne.Container]int
	header  []fyne.CanvasObject
	head    *fyne.Container
}

// Columns are the Jobs panel's columns: their titles and widths in
// pixels (the statement, StatementColumn, takes what is left).
var Columns = []struct {
	Title string
	Width float32
}{
	{"Status", 92}, {"Job", 96}, {"Statement", 0}, {"Started", 72}, {"Rows out", 84},
	{"Rate", 72}, {"Watermark", 150}, {"Lag", 60}, {"Lag, 5 min", 110}, {"Checkpoint", 150},
	{"", 360},
}

// CheckpointColumn is the column of the last checkpoint (CheckpointCell).
const CheckpointColumn = 9

// endWatermarkWidth is the Watermark column's width while it shows only
// "end" and "–" (endOnly).
const endWatermarkWidth = 96

// jobStmtMinWidth is the Statement column's least width (~20 characters):
// below it the columns scroll sideways.
const jobStmtMinWidth = 160

// WatermarkColumn reports the Watermark, Lag and lag chart columns.
func WatermarkColumn(i int) bool { return i >= 6 && i <= 8 }

// colHidden reports whether column i is left out: the metric columns of
// gateway jobs, the watermark columns when no job has a watermark, the
// lag columns when no running job has one.
func (p *Panel) colHidden(i int) bool {
	return p != nil && (p.noMetrics && jobMetricCol(i) || p.noWatermark && WatermarkColumn(i) ||
		p.noLag && (i == 7 || i == 8) || p.noCheckpoint && i == CheckpointColumn)
}

// StatementColumn is the column that takes the room the others leave.
const StatementColumn = 2

// jobMetricCol reports the columns a gateway's jobs have no values for
// (rows out, rate, watermark, lag and its chart, the last checkpoint).
func jobMetricCol(i int) bool { return i >= 4 && i <= CheckpointColumn }

// New builds the panel; wrap, when not nil, gets the job list (with its
// header, scrolling sideways) and returns what the tab shows under the
// summary line (the workbench puts the Kafka partitions below it).
func New(h Host, wrap func(list fyne.CanvasObject) fyne.CanvasObject) *Panel {
	p := &Panel{host: h, model: monitor.NewJobs(), cancelling: map[string]bool{}, stopping: map[string]bool{}}
	p.summary = widget.NewLabel("No jobs yet. Queries and INSERT INTO jobs of this session appear here (SHOW JOBS and STOP JOB '<id>' work in SQL too).")
	p.summary.Importance = widget.LowImportance
	p.summary.Truncation = fyne.TextTruncateEllipsis
	p.list = widget.NewList(func() int { return len(p.rows) }, p.NewRow, p.UpdateRow)
	p.list.OnSelected = func(widget.ListItemID) { p.list.UnselectAll() }
	header := make([]fyne.CanvasObject, len(Columns))
	for i, c := range Columns {
		l := widget.NewLabelWithStyle(c.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Truncation = fyne.TextTruncateClip
		header[i] = l
	}
	p.header = header
	head := container.New(&columnsLayout{p: p}, header...)
	p.head = head
	// the columns scroll sideways in a narrow window rather than widen it
	// (the panel's width is the whole centre's minimum)
	table := container.NewHScroll(container.NewBorder(head, nil, nil, nil, p.list))
	var content fyne.CanvasObject = table
	if wrap != nil {
		content = wrap(table)
	}
	p.spLine = p.newSavepointLine()
	p.item = container.NewTabItemWithIcon("Jobs", theme.ListIcon(), container.NewBorder(container.NewVBox(p.summary, p.spLine.box), nil, nil, nil, content))
	return p
}

// NewRow builds one row of the list (the list's create function).
func (p *Panel) NewRow() fyne.CanvasObject {
	cells := make([]fyne.CanvasObject, len(Columns))
	for i := range Columns {
		switch i {
		case CheckpointColumn - 1:
			cells[i] = NewLagSpark()
		case CheckpointColumn:
			cells[i] = NewCheckpointCell()
		case len(Columns) - 1:
			open := widget.NewButtonWithIcon("Open", theme.VisibilityIcon(), nil)
			cancel := widget.NewButtonWithIcon("Cancel", theme.MediaStopIcon(), nil)
			savepoint := widget.NewButtonWithIcon("Stop with savepoint", theme.DocumentSaveIcon(), nil)
			open.Importance, cancel.Importance, savepoint.Importance = widget.LowImportance, widget.LowImportance, widget.LowImportance
			savepoint.Hide()
			// icons only when the Statement column is short of room
			cells[i] = widgets.NewToolbar(open, cancel, savepoint)
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

// UpdateRow draws row id of the list into o, a row from NewRow.
func (p *Panel) UpdateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(p.rows) {
		return
	}
	r := p.rows[id]
	row := o.(*fyne.Container)
	cells := row.Objects
	if p.showCols(cells) || p.rowGen[row] != p.colsGen {
		if p.rowGen == nil {
			p.rowGen = map[*fyne.Container]int{}
		}
		p.rowGen[row] = p.colsGen
		row.Refresh() // lay the columns out again
	}
	set := func(i int, s string) {
		if l := cells[i].(*widget.Label); l.Text != s {
			l.SetText(s)
		}
	}
	status := cells[0].(*widget.Label)
	imp := StatusImportance(r.Status)
	if status.Importance != imp {
		status.Importance = imp
		status.Refresh()
	}
	set(0, r.Status.String())
	set(1, ShortID(r.ID))
	remote := p.host.Gateway(r.ID)
	stmt := r.Statement
	if remote != "" {
		if stmt == "" {
			// a job this session did not start: its name, which on Flink is
			// the statement over several lines (a label shows one)
			stmt = monitor.OneLine(r.Name, 200)
		}
		stmt = "on " + remote + " · " + stmt
	}
	set(StatementColumn, stmt)
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
	spark := cells[8].(*LagSpark)
	if h, ok := p.model.Lag(r.ID); ok {
		spark.Set(h.Points(), !r.Status.IsTerminal())
	}
	cp := cells[CheckpointColumn].(*CheckpointCell)
	if last, hasLast, counts, ok := p.Checkpoint(r.ID); ok {
		main, detail, failed := CheckpointText(last, hasLast, counts, time.Now())
		if n, cause, ok := p.Restarts(r.ID); ok {
			failed = warningText(failed, RestartText(n, cause))
		}
		cp.Set(main, detail, failed)
	} else {
		cp.Set("–", "", "") // a gateway reports no checkpoints
	}
	btns := cells[len(Columns)-1].(*fyne.Container).Objects
	open, cancel, savepoint := btns[0].(*widget.Button), btns[1].(*widget.Button), btns[2].(*widget.Button)
	jobID := r.ID
	open.OnTapped = func() { p.host.OpenJob(jobID) }
	cancel.OnTapped = func() { p.Cancel(jobID) }
	savepoint.OnTapped = func() { p.StopWithSavepoint(jobID) }
	if r.Status.IsTerminal() || p.stopping[jobID] {
		cancel.Disable()
	} else {
		cancel.Enable()
	}
	switch {
	case !p.CanStopWithSavepoint(jobID):
		savepoint.Hide()
	case p.stopping[jobID]: // the status bar says so
		savepoint.Disable()
		savepoint.Show()
	default:
		savepoint.Enable()
		savepoint.Show()
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
	return fmt.Sprintf(" · Job %s failed: %s (the whole error is in Messages)", ShortID(last.ID), monitor.OneLine(summary, 300))
}

// Replaying reports a running job whose watermark is too far from the
// wall clock for its lag to mean anything (monitor.LiveLag).
func Replaying(rows []monitor.JobRow) bool {
	for _, r := range rows {
		if r.HasWatermark && r.Watermark != monitor.EndWatermark && !r.Status.IsTerminal() && !monitor.LiveLag(r.Lag) {
			return true
		}
	}
	return false
}

// StatusImportance is the colour a job status is drawn in.
func StatusImportance(s table.JobStatus) widget.Importance {
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

// ShortID is a job ID's first 8 characters, as the panel shows it.
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Tick samples the jobs once a second (and at once after a cancel).
func (p *Panel) Tick(now time.Time) {
	if now.Sub(p.last) < Refresh {
		return
	}
	p.Update(now)
}

// Update samples every job Host.List returns and redraws the list.
func (p *Panel) Update(now time.Time) {
	p.last = now
	p.zone = p.host.Zone()
	jobs := p.host.List(now)
	for _, c := range p.model.Update(now, jobs) {
		if c.To == table.JobCanceled && p.cancelling[c.ID] {
			p.host.SetStatus("Job " + ShortID(c.ID) + " cancelled")
		}
		if c.To.IsTerminal() {
			delete(p.cancelling, c.ID)
		}
	}
	p.rows = p.model.Rows()
	noMetrics := len(p.rows) > 0
	for _, r := range p.rows {
		if p.host.Gateway(r.ID) == "" {
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
	// a finished batch job's watermark is "end": no lag, no timestamp
	noLag, endOnly := len(p.rows) > 0, len(p.rows) > 0
	for _, r := range p.rows {
		if r.HasWatermark && r.Watermark != monitor.EndWatermark {
			endOnly = false
			if !r.Status.IsTerminal() {
				noLag = false
			}
		}
	}
	noCheckpoint := len(p.rows) > 0
	for _, r := range p.rows {
		if p.takesCheckpoints(r.ID) {
			noCheckpoint = false
			break
		}
	}
	if noMetrics != p.noMetrics || noWatermark != p.noWatermark || noCheckpoint != p.noCheckpoint || noLag != p.noLag || endOnly != p.endOnly {
		p.noMetrics, p.noWatermark, p.noCheckpoint = noMetrics, noWatermark, noCheckpoint
		p.noLag, p.endOnly = noLag, endOnly
		p.colsGen++
		p.showCols(p.header)
		p.head.Refresh() // the columns' widths may have changed too
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
		p.setSummary(text)
	default:
		text := fmt.Sprintf("%d running of %s · refreshed %s", running, widgets.Plural(len(p.rows), "job"), now.Format("15:04:05"))
		if p.noMetrics {
			text += " · a SQL Gateway reports no row counts, rates or watermarks of its jobs"
		}
		if Replaying(p.rows) {
			text += " · Lag —: the watermark is more than a day from the clock (replayed data), so the chart shows how far event time advanced"
		}
		text += lastFailure(p.rows)
		p.setSummary(text)
	}
	if running != p.running {
		p.running = running
		title := "Jobs"
		if running > 0 {
			title = fmt.Sprintf("Jobs (%d)", running)
		}
		p.item.Text = title
		p.host.RunningChanged()
	}
	idle := ""
	if running == 0 && len(p.rows) > 0 {
		idle = p.zone.String() + "\n" + p.drawnKey(p.rows, now)
	}
	if (len(p.rows) > 0 || p.drawn) && (idle == "" || idle != p.drawnIdle) {
		p.list.Refresh()
	}
	p.drawn = len(p.rows) > 0
	p.drawnIdle = idle
	p.host.Updated() // Kafka hook
}

// setSummary sets the line above the list, redrawing it only when its
// text changed.
func (p *Panel) setSummary(text string) {
	if p.summary.Text != text {
		p.summary.SetText(text)
	}
}

// drawnKey is what the rows draw at now, as text: the rows' fields the
// cells show (a finished job's lag and rate are not shown) and the texts
// that age with the clock (the last checkpoint's "3 s ago", the
// watermark's date). An update of finished jobs whose key did not change
// redraws nothing.
func (p *Panel) drawnKey(rows []monitor.JobRow, now time.Time) string {
	var b strings.Builder
	for _, r := range rows {
		if r.Status.IsTerminal() {
			r.Lag = 0
		}
		if !r.HasRate {
			r.Rate = 0
		}
		errText := ""
		if r.Err != nil {
			errText = r.Err.Error()
		}
		r.Err = nil
		fmt.Fprintf(&b, "%v|%s|", r, errText)
		if r.HasWatermark {
			b.WriteString(monitor.FormatWatermark(r.Watermark, p.zone, now))
		}
		if last, hasLast, counts, ok := p.Checkpoint(r.ID); ok {
			main, detail, failed := CheckpointText(last, hasLast, counts, now)
			fmt.Fprintf(&b, "|%s|%s|%s", main, detail, failed)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Cancel stops a job through Host.CancelJob and says so in the status
// bar until the job has ended.
func (p *Panel) Cancel(id string) {
	p.host.CancelJob(id)
	p.cancelling[id] = true
	p.host.SetStatus("Cancelling job " + ShortID(id) + "…")
	p.SampleNextTick() // show the new status on the next tick
}

// SampleNextTick has the next Tick sample the jobs, however soon.
func (p *Panel) SampleNextTick() { p.last = time.Time{} }

// Model is the jobs' model (statuses, metrics and lag histories).
func (p *Panel) Model() *monitor.Jobs { return p.model }

// Rows are the listed jobs as of the last update.
func (p *Panel) Rows() []monitor.JobRow { return p.rows }

// SetRows lists rows without asking Host (for tests).
func (p *Panel) SetRows(rows []monitor.JobRow) { p.rows = rows }

// SetZone sets the time zone used until the next update (for tests).
func (p *Panel) SetZone(z *time.Location) { p.zone = z }

// TimeZone is the session's time zone as of the last update.
func (p *Panel) TimeZone() *time.Location { return p.zone }

// Item is the panel's tab ("Jobs", "Jobs (2)" while two run).
func (p *Panel) Item() *container.TabItem { return p.item }

// Running is the number of running jobs as of the last update.
func (p *Panel) Running() int { return p.running }

// Summary is the text of the line above the list.
func (p *Panel) Summary() string { return p.summary.Text }

// NoMetrics reports that the metric columns are left out (every listed
// job runs on a gateway).
func (p *Panel) NoMetrics() bool { return p.noMetrics }

// NoCheckpoint reports that the Checkpoint column is left out (no listed
// job takes checkpoints).
func (p *Panel) NoCheckpoint() bool { return p.noCheckpoint }

// NoWatermark reports that the watermark columns are left out (no listed
// job has a watermark).
func (p *Panel) NoWatermark() bool { return p.noWatermark }

// HeaderVisible reports whether column i's header is shown.
func (p *Panel) HeaderVisible(i int) bool { return p.header[i].Visible() }

// Row returns the listed row of a job.
func (p *Panel) Row(id string) (monitor.JobRow, bool) {
	for _, r := range p.rows {
		if r.ID == id {
			return r, true
		}
	}
	return monitor.JobRow{}, false
}

// showCols shows or hides the optional columns of a row or the header
// (colHidden); it reports whether any changed.
func (p *Panel) showCols(cells []fyne.CanvasObject) bool {
	changed := false
	for i, o := range cells {
		if show := !p.colHidden(i); (jobMetricCol(i) || WatermarkColumn(i) || i == CheckpointColumn) && o.Visible() != show {
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

// columnsLayout places cells side by side at the Columns widths; the
// statement column takes the rest. Without metrics (p.noMetrics) their
// columns take no room.
type columnsLayout struct{ p *Panel }

// width is column i's width, 0 when it is left out.
func (l *columnsLayout) width(i int) float32 {
	if l.p.colHidden(i) {
		return 0
	}
	if i == 6 && l.p != nil && l.p.endOnly {
		return endWatermarkWidth
	}
	return Columns[i].Width
}

// buttonsColumn is the column of Open, Cancel and Stop with savepoint.
var buttonsColumn = len(Columns) - 1

// jobStmtRoomy is the Statement column's width below which the buttons
// show their icons only (compactButtons) to leave it more room.
const jobStmtRoomy = 280

// compactButtons is the buttons column's width with icons only (the
// three buttons of a widgets.NewToolbar row gone compact).
func compactButtons() float32 {
	icon := theme.IconInlineSize() + 2*theme.InnerPadding()
	return 3*icon + 3*theme.Padding()
}

// widths returns the columns' widths for a row size.Width wide: the
// Statement column takes what the others leave, at least jobStmtMinWidth;
// while it would get less than jobStmtRoomy the buttons go compact.
func (l *columnsLayout) widths(width float32) []float32 {
	ws := make([]float32, len(Columns))
	fixed := float32(0)
	for i := range Columns {
		ws[i] = l.width(i)
		fixed += ws[i]
	}
	if width-fixed < jobStmtRoomy && ws[buttonsColumn] > compactButtons() {
		fixed -= ws[buttonsColumn] - compactButtons()
		ws[buttonsColumn] = compactButtons()
	}
	ws[StatementColumn] = max(width-fixed, jobStmtMinWidth)
	return ws
}

func (l *columnsLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	ws := l.widths(size.Width)
	x := float32(0)
	for i, o := range objs {
		w := ws[i]
		h := o.MinSize().Height
		if _, isSpark := o.(*LagSpark); isSpark {
			h = size.Height - 8
		}
		o.Move(fyne.NewPos(x, (size.Height-h)/2))
		o.Resize(fyne.NewSize(w, h))
		x += w
	}
}

// MinSize is the row's height and its width with the Statement column at
// its least and the buttons compact.
func (l *columnsLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	w := float32(0)
	for _, cw := range l.widths(0) {
		w += cw
	}
	return fyne.NewSize(w, h)
}
