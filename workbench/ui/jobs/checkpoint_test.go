package jobs

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/monitor"
)

// fakeJob is a running streaming job of the embedded session: its
// checkpoints are set by the test, and a stop with savepoint waits for
// the test to answer on stop.
type fakeJob struct {
	id        string
	mu        sync.Mutex
	status    table.JobStatus
	last      table.CheckpointInfo
	hasLast   bool
	counts    table.CheckpointCounts
	stopDir   chan string // receives the directory a stop asks for
	stopReply chan error  // the test's answer: nil stops the job
}

func newFakeJob(id string) *fakeJob {
	return &fakeJob{id: id, status: table.JobRunning, stopDir: make(chan string, 1), stopReply: make(chan error, 1)}
}

func (j *fakeJob) JobID() string        { return j.id }
func (j *fakeJob) JobName() string      { return "q" }
func (j *fakeJob) Statement() string    { return "SELECT k, COUNT(*) FROM gen GROUP BY k" }
func (j *fakeJob) StartTime() time.Time { return time.Now().Add(-time.Minute) }
func (j *fakeJob) EndTime() time.Time   { return time.Time{} }
func (j *fakeJob) Err() error           { return nil }
func (j *fakeJob) Cancel() error        { return nil }
func (j *fakeJob) Status() table.JobStatus {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.status
}

// Plan is a streaming plan: its root has a changelog mode.
func (j *fakeJob) Plan() *table.PlanNode {
	return &table.PlanNode{Name: "Sink", ChangelogMode: types.UpsertMode}
}
func (j *fakeJob) NodeMetrics(*table.PlanNode) (table.OperatorMetrics, bool) {
	return table.OperatorMetrics{}, false
}
func (j *fakeJob) LastCheckpoint() (table.CheckpointInfo, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.last, j.hasLast
}
func (j *fakeJob) CheckpointCounts() table.CheckpointCounts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.counts
}
func (j *fakeJob) StopWithSavepointContext(ctx context.Context, dir string, _ ...table.StopOption) (string, error) {
	j.stopDir <- dir
	if err := <-j.stopReply; err != nil {
		return "", err
	}
	j.mu.Lock()
	j.status = table.JobFinished
	j.mu.Unlock()
	return "file:" + filepath.ToSlash(filepath.Join(dir, "savepoint-"+j.id[:6]+"-0123456789ab")), nil
}

func TestCheckpointText(t *testing.T) {
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	cp := table.CheckpointInfo{ID: 12, Triggered: now.Add(-3*time.Second - 14*time.Millisecond), Completed: now.Add(-3 * time.Second), Size: 4200}
	for _, c := range []struct {
		last                 table.CheckpointInfo
		ok                   bool
		failed               int64
		main, detail, failTx string
	}{
		{ok: false, main: "—"},
		{ok: false, failed: 2, main: "—", failTx: "2 failed"},
		{last: cp, ok: true, main: "#12, 3 s ago", detail: "4.1 KiB in 14 ms"},
		{last: cp, ok: true, failed: 1, main: "#12, 3 s ago", detail: "4.1 KiB in 14 ms", failTx: "1 failed"},
		{last: table.CheckpointInfo{ID: 13, Savepoint: true, Triggered: now.Add(-5 * time.Minute), Completed: now.Add(-5*time.Minute + 1500*time.Millisecond), Size: 100}, ok: true,
			main: "#13, 4 min ago", detail: "savepoint, 100 B in 1.5 s"},
	} {
		m, d, f := CheckpointText(c.last, c.ok, table.CheckpointCounts{Failed: c.failed}, now)
		if m != c.main || d != c.detail || f != c.failTx {
			t.Errorf("%+v: got %q %q %q, want %q %q %q", c, m, d, f, c.main, c.detail, c.failTx)
		}
	}
	for d, want := range map[time.Duration]string{0: "just now", 59 * time.Second: "59 s ago", 90 * time.Minute: "1 h ago", 72 * time.Hour: "3 d ago"} {
		if got := Ago(d); got != want {
			t.Errorf("Ago(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestLocalDir(t *testing.T) {
	for in, want := range map[string]string{"/tmp/sp": "/tmp/sp", " file:///tmp/sp ": "/tmp/sp", "file:/tmp/sp": "/tmp/sp", "rel/sp": "rel/sp"} {
		if got, err := LocalDir(in); err != nil || got != filepath.FromSlash(want) {
			t.Errorf("LocalDir(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "  ", "s3://bucket/sp", "file://otherhost/sp"} {
		if got, err := LocalDir(in); err == nil {
			t.Errorf("LocalDir(%q) = %q, want an error", in, got)
		}
	}
	if got, err := LocalDir("~/sp"); err != nil || !strings.HasSuffix(got, string(filepath.Separator)+"sp") || strings.HasPrefix(got, "~") {
		t.Errorf("LocalDir(~/sp) = %q, %v", got, err)
	}
}

// rowCells draws the panel's row of job id into a new row.
func rowCells(t *testing.T, p *Panel, id string) []fyne.CanvasObject {
	t.Helper()
	for i, r := range p.Rows() {
		if r.ID == id {
			o := p.NewRow()
			o.Resize(fyne.NewSize(1600, o.MinSize().Height)) // room for the buttons' labels
			p.UpdateRow(i, o)
			o.(*fyne.Container).Refresh()
			return o.(*fyne.Container).Objects
		}
	}
	t.Fatalf("job %s not listed", id)
	return nil
}

// buttonIn finds a shown button by its text under o.
func buttonIn(o fyne.CanvasObject, text string) *widget.Button {
	for _, x := range test.LaidOutObjects(o) {
		if b, ok := x.(*widget.Button); ok && b.Text == text && b.Visible() {
			return b
		}
	}
	return nil
}

// The Checkpoint column shows "—" before the first checkpoint, then the
// last one's id and age with its size and duration beneath and the failed
// count beside; a gateway's job shows "–" and no Stop with savepoint.
// With no savepoint directory set, Stop with savepoint asks for one
// (prefilled, with the SQL it amounts to), stops the job off the UI
// goroutine and shows the savepoint's path; an error is shown the same
// way and the job runs on.
func TestPanelCheckpointsAndStopWithSavepoint(t *testing.T) {
	a := test.NewTempApp(t)
	job := newFakeJob("0123456789abcdef0123456789abcdef")
	gw := newFakeJob("fedcba9876543210fedcba9876543210")
	h := &fakeHost{jobs: []monitor.Job{job, gw}, gateway: map[string]string{gw.id: "gw"}, win: test.NewWindow(widget.NewLabel(""))}
	h.win.Resize(fyne.NewSize(900, 600))
	p := New(h, nil)
	p.Update(time.Now())

	cells := rowCells(t, p, job.id)
	cp := cells[CheckpointColumn].(*CheckpointCell)
	if m, d, f := cp.Texts(); m != "—" || d != "" || f != "" || !p.NoCheckpoint() || p.HeaderVisible(CheckpointColumn) {
		t.Errorf("before the first checkpoint: %q %q %q, column left out %v", m, d, f, p.NoCheckpoint())
	}
	job.mu.Lock()
	// one reading of the clock: two would put the time between them into
	// the checkpoint's 20 ms (21 ms when the goroutine is descheduled there)
	triggered := time.Now().Add(-2 * time.Second)
	job.last = table.CheckpointInfo{ID: 3, Triggered: triggered, Completed: triggered.Add(20 * time.Millisecond), Size: 2048}
	job.hasLast, job.counts = true, table.CheckpointCounts{Completed: 3, Failed: 1}
	job.mu.Unlock()
	p.Update(time.Now().Add(Refresh))
	if p.NoCheckpoint() || !p.HeaderVisible(CheckpointColumn) {
		t.Error("the Checkpoint column is left out for a job that takes checkpoints")
	}
	cells = rowCells(t, p, job.id)
	cp = cells[CheckpointColumn].(*CheckpointCell)
	if m, d, f := cp.Texts(); !strings.HasPrefix(m, "#3, ") || !strings.HasSuffix(m, " s ago") || d != "2.0 KiB in 20 ms" || f != "1 failed" {
		t.Errorf("after checkpoint 3: %q %q %q", m, d, f)
	}
	if last, hasLast, counts, ok := p.Checkpoint(job.id); !ok || !hasLast || last.ID != 3 || counts.Failed != 1 {
		t.Errorf("Checkpoint: %+v %v %+v %v", last, hasLast, counts, ok)
	}
	gwCells := rowCells(t, p, gw.id)
	if m, _, _ := gwCells[CheckpointColumn].(*CheckpointCell).Texts(); m != "–" || p.CanStopWithSavepoint(gw.id) || buttonIn(gwCells[len(Columns)-1], "Stop with savepoint") != nil {
		t.Errorf("gateway job: checkpoint %q, can stop with savepoint %v", m, p.CanStopWithSavepoint(gw.id))
	}

	// no savepoint directory: the dialog asks for one
	stop := buttonIn(cells[len(Columns)-1], "Stop with savepoint")
	if stop == nil {
		t.Fatal("no Stop with savepoint button for a running streaming job")
	}
	test.Tap(stop)
	if p.ask == nil {
		t.Fatal("no savepoint dialog")
	}
	if got := p.ask.entry.Text; got != DefaultSavepointDir() || !strings.Contains(got, filepath.Join("riffle", "savepoints")) {
		t.Errorf("dialog prefilled with %q", got)
	}
	dir := t.TempDir()
	p.ask.entry.SetText(dir)
	if want := "SET 'execution.checkpointing.savepoint-dir' = '" + dir + "';\nSTOP JOB '" + job.id + "' WITH SAVEPOINT;"; p.ask.sql.Text != want {
		t.Errorf("dialog's SQL %q, want %q", p.ask.sql.Text, want)
	}
	confirm := buttonIn(h.win.Canvas().Overlays().Top(), "Stop with savepoint")
	if confirm == nil || confirm.Disabled() {
		t.Fatal("no enabled confirm button in the dialog")
	}
	test.Tap(confirm)
	if got := <-job.stopDir; got != dir {
		t.Errorf("stopped into %q, want %q", got, dir)
	}
	if !p.Stopping(job.id) || !strings.HasPrefix(h.status, "Stopping job 01234567 with a savepoint into ") {
		t.Errorf("stopping %v, status %q", p.Stopping(job.id), h.status)
	}
	cells = rowCells(t, p, job.id)
	if b := buttonIn(cells[len(Columns)-1], "Stop with savepoint"); b == nil || !b.Disabled() {
		t.Error("Stop with savepoint is not disabled while the savepoint is taken")
	}
	job.stopReply <- nil
	testwait.Until(t, time.Minute, "the stop's outcome on the UI goroutine", func() bool { return h.runQueued() > 0 })
	path, err := p.LastSavepoint()
	wantPath := "file:" + filepath.ToSlash(filepath.Join(dir, "savepoint-012345-0123456789ab"))
	if err != nil || path != wantPath || h.status != "Job 01234567 stopped with a savepoint: "+wantPath {
		t.Errorf("savepoint %q, %v; status %q", path, err, h.status)
	}
	if text, shown := p.SavepointLine(); shown != wantPath || !strings.HasPrefix(text, "Savepoint of job 01234567") {
		t.Errorf("savepoint line %q %q", text, shown)
	}
	test.Tap(p.spLine.copy)
	if got := a.Clipboard().Content(); got != wantPath {
		t.Errorf("copied %q", got)
	}
	p.Update(time.Now().Add(2 * Refresh))
	if p.CanStopWithSavepoint(job.id) || buttonIn(rowCells(t, p, job.id)[len(Columns)-1], "Stop with savepoint") != nil {
		t.Error("Stop with savepoint offered for a finished job")
	}

	// the session's directory is used without asking; an error is shown
	// and the job runs on
	job2 := newFakeJob("aaaaaaaa89abcdef0123456789abcdef")
	h.jobs = append(h.jobs, job2)
	h.dir = "file://" + filepath.ToSlash(dir)
	p.Update(time.Now().Add(3 * Refresh))
	p.StopWithSavepoint(job2.id)
	if p.ask != nil {
		t.Error("the dialog opened although the session has a savepoint directory")
	}
	if got := <-job2.stopDir; got != dir {
		t.Errorf("stopped into %q, want %q", got, dir)
	}
	job2.stopReply <- errors.New("operator X cannot save its state\nmore")
	testwait.Until(t, time.Minute, "the failed stop's outcome", func() bool { return h.runQueued() > 0 })
	if _, err := p.LastSavepoint(); err == nil || p.Stopping(job2.id) || h.status != "Job aaaaaaaa was not stopped with a savepoint: operator X cannot save its state more" {
		t.Errorf("error %v, stopping %v, status %q", err, p.Stopping(job2.id), h.status)
	}
	if text, shown := p.SavepointLine(); text != "Job aaaaaaaa was not stopped with a savepoint:" || shown != "operator X cannot save its state more" || p.spLine.copy.Visible() {
		t.Errorf("savepoint line after an error: %q %q, copy shown %v", text, shown, p.spLine.copy.Visible())
	}
	if !p.CanStopWithSavepoint(job2.id) {
		t.Error("the job that was not stopped cannot be stopped again")
	}

	// a narrow row: the buttons show their icons only and the statement
	// keeps its room; a wide one shows their labels
	for i, r := range p.Rows() {
		if r.ID != job2.id {
			continue
		}
		o := p.NewRow()
		p.UpdateRow(i, o)
		for _, width := range []float32{900, 1600} {
			o.Resize(fyne.NewSize(width, o.MinSize().Height))
			o.(*fyne.Container).Refresh()
			cells := o.(*fyne.Container).Objects
			btns := cells[len(Columns)-1].(*fyne.Container).Objects
			labels := btns[0].(*widget.Button).Text + "|" + btns[1].(*widget.Button).Text + "|" + btns[2].(*widget.Button).Text
			stmt := cells[StatementColumn].Size().Width
			switch {
			case width == 900 && (labels != "||" || stmt < jobStmtMinWidth || !btns[2].Visible()):
				t.Errorf("900 wide: buttons %q, statement %v wide", labels, stmt)
			case width == 1600 && labels != "Open|Cancel|Stop with savepoint":
				t.Errorf("1600 wide: buttons %q", labels)
			}
		}
		if w := o.MinSize().Width; w >= 900 {
			t.Errorf("a row needs %v at least, with compact buttons", w)
		}
	}
}
