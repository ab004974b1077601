package jobs

import (
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
)

// fakeHost lists its jobs; it records what the panel asks and queues
// what the panel runs through Do for the test to run.
type fakeHost struct {
	jobs      []monitor.Job
	gateway   map[string]string
	cancelled []string
	opened    []string
	status    string
	updates   int
	dir       string // the session's savepoint directory
	win       fyne.Window

	mu     sync.Mutex
	queued []func()
}

func (h *fakeHost) List(time.Time) []monitor.Job { return h.jobs }
func (h *fakeHost) Gateway(id string) string     { return h.gateway[id] }
func (h *fakeHost) Zone() *time.Location         { return time.UTC }
func (h *fakeHost) CancelJob(id string)          { h.cancelled = append(h.cancelled, id) }
func (h *fakeHost) OpenJob(id string)            { h.opened = append(h.opened, id) }
func (h *fakeHost) SetStatus(text string)        { h.status = text }
func (h *fakeHost) RunningChanged()              {}
func (h *fakeHost) Updated()                     { h.updates++ }
func (h *fakeHost) SavepointDir(string) string   { return h.dir }
func (h *fakeHost) Window() fyne.Window          { return h.win }

func (h *fakeHost) Do(f func()) {
	h.mu.Lock()
	h.queued = append(h.queued, f)
	h.mu.Unlock()
}

// runQueued runs what was queued through Do and reports how many ran.
func (h *fakeHost) runQueued() int {
	h.mu.Lock()
	fns := h.queued
	h.queued = nil
	h.mu.Unlock()
	for _, f := range fns {
		f()
	}
	return len(fns)
}

// A gateway's job is listed with its connection and without counters;
// its buttons reach the host, and Cancel says so in the status bar.
func TestPanelGatewayRowAndButtons(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{gateway: map[string]string{"abcdef0123456789": "gw"}}
	p := New(h, nil)
	p.Update(time.Now())
	if h.updates != 1 || len(p.Rows()) != 0 || !strings.HasPrefix(p.Summary(), "No jobs yet.") || p.Item().Text != "Jobs" {
		t.Fatalf("empty panel: updates %d, rows %d, summary %q, title %q", h.updates, len(p.Rows()), p.Summary(), p.Item().Text)
	}
	p.SetZone(time.UTC)
	p.SetRows([]monitor.JobRow{{ID: "abcdef0123456789", Statement: "INSERT INTO s SELECT 1", Status: table.JobRunning, HasRate: true, Start: time.Now()}})
	o := p.NewRow()
	p.UpdateRow(0, o)
	cells := o.(*fyne.Container).Objects
	if id, stmt, rows, rate := cells[1].(*widget.Label).Text, cells[StatementColumn].(*widget.Label).Text, cells[4].(*widget.Label).Text, cells[5].(*widget.Label).Text; id != "abcdef01" || stmt != "on gw · INSERT INTO s SELECT 1" || rows != "–" || rate != "–" {
		t.Errorf("row: id %q statement %q rows %q rate %q", id, stmt, rows, rate)
	}
	btns := cells[len(Columns)-1].(*fyne.Container).Objects
	test.Tap(btns[0].(*widget.Button))
	test.Tap(btns[1].(*widget.Button))
	if len(h.opened) != 1 || len(h.cancelled) != 1 || h.status != "Cancelling job abcdef01…" {
		t.Errorf("opened %v, cancelled %v, status %q", h.opened, h.cancelled, h.status)
	}
}

// While no job is listed an update redraws nothing (a window with no job
// is not repainted every second); the first job, and its removal, redraw
// the list.
func TestPanelEmptyUpdateDrawsNothing(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{}
	p := New(h, nil)
	w := test.NewTempWindow(t, p.Item().Content)
	w.Resize(fyne.NewSize(900, 300))
	draws := 0
	length := p.list.Length
	p.list.Length = func() int { draws++; return length() }
	now := time.Now()
	for i := range 3 {
		p.Update(now.Add(time.Duration(i) * Refresh))
	}
	if draws != 0 {
		t.Fatalf("three updates of an empty panel drew the list %d times, want 0", draws)
	}
	h.jobs = []monitor.Job{newFakeJob("0123456789abcdef")}
	p.Update(now.Add(4 * Refresh))
	if draws == 0 || len(p.Rows()) != 1 {
		t.Fatalf("a job listed: %d draws, %d rows", draws, len(p.Rows()))
	}
	h.jobs = nil
	before := draws
	p.Update(now.Add(5 * Refresh))
	if draws == before {
		t.Fatal("the last job's removal did not redraw the list")
	}
}

// Once no job runs, an update that finds the same finished jobs redraws
// neither the list nor the summary (an idle window is not repainted every
// second); a running job is redrawn at every update, and its end once.
func TestPanelFinishedJobsUpdateDrawsNothing(t *testing.T) {
	test.NewTempApp(t)
	now := time.Now()
	j := newFakeJob("0123456789abcdef")
	h := &fakeHost{jobs: []monitor.Job{startedJob{j, now.Add(-time.Minute)}}}
	p := New(h, nil)
	w := test.NewTempWindow(t, p.Item().Content)
	w.Resize(fyne.NewSize(900, 300))
	draws := 0
	length := p.list.Length
	p.list.Length = func() int { draws++; return length() }
	p.Update(now)
	p.Update(now.Add(Refresh))
	if draws < 2 {
		t.Fatalf("two updates of a running job drew the list %d times", draws)
	}
	j.mu.Lock()
	j.status = table.JobCanceled
	j.mu.Unlock()
	before := draws
	p.Update(now.Add(2 * Refresh))
	if draws == before || p.Rows()[0].Status != table.JobCanceled {
		t.Fatalf("the job's end: %d draws, status %v", draws-before, p.Rows()[0].Status)
	}
	summary := p.Summary()
	before = draws
	for i := range 3 {
		p.Update(now.Add(time.Duration(3+i) * Refresh))
	}
	if draws != before || p.Summary() != summary {
		t.Fatalf("three updates of a finished job drew the list %d times (summary %q, was %q), want 0", draws-before, p.Summary(), summary)
	}
}

// startedJob is a fake job started at a fixed time.
type startedJob struct {
	*fakeJob
	start time.Time
}

func (j startedJob) StartTime() time.Time { return j.start }
