package jobs

import (
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/monitor"
)

func TestRestartText(t *testing.T) {
	long := errors.New("CAST: cannot cast 'xfe3' to INT (in operator Calc)\n" + strings.Repeat("x", 100))
	for _, c := range []struct {
		n    int
		last error
		want string
	}{
		{0, nil, ""},
		{0, errors.New("boom"), "restarting: boom"},
		{1, errors.New("boom"), "1 restart: boom"},
		{3, long, "3 restarts: " + monitor.OneLine(long.Error(), 60)},
	} {
		if got := RestartText(c.n, c.last); got != c.want {
			t.Errorf("RestartText(%d, %v) = %q, want %q", c.n, c.last, got, c.want)
		}
	}
	if got := RestartText(3, long); len([]rune(got)) > len("3 restarts: ")+60 {
		t.Errorf("cause not shortened: %q", got)
	}
}

// restartingJob is a job of the embedded session that restarted.
type restartingJob struct {
	*fakeJob
	n    int
	last error
}

func (r *restartingJob) RestartCount() int  { return r.n }
func (r *restartingJob) LastFailure() error { return r.last }

// The Jobs panel's Checkpoint column shows a job's restarts and its last
// failure beside the failed checkpoints, and shows the column for a job
// that restarted before any checkpoint.
func TestPanelShowsRestarts(t *testing.T) {
	test.NewTempApp(t)
	job := &restartingJob{fakeJob: newFakeJob("0123456789abcdef0123456789abcdef"), n: 2, last: errors.New("checkpoint 8: mkdir /cp: not a directory")}
	h := &fakeHost{jobs: []monitor.Job{job}, gateway: map[string]string{}, win: test.NewWindow(widget.NewLabel(""))}
	h.win.Resize(fyne.NewSize(900, 600))
	p := New(h, nil)
	p.Update(time.Now())
	if p.NoCheckpoint() {
		t.Error("the Checkpoint column is left out for a job that restarted")
	}
	cp := rowCells(t, p, job.id)[CheckpointColumn].(*CheckpointCell)
	if m, _, f := cp.Texts(); m != "—" || f != "2 restarts: checkpoint 8: mkdir /cp: not a directory" {
		t.Errorf("Checkpoint cell %q, warning %q", m, f)
	}
	// the column is narrow: the cell shows what fits, ending with "…"
	if shown := cp.failed.Text; !strings.HasSuffix(shown, "…") || !strings.HasPrefix(shown, "2 restarts") || len(shown) >= len("2 restarts: checkpoint 8: mkdir /cp: not a directory") {
		t.Errorf("shown warning %q, want it cut to the column", shown)
	}
	if n, last, ok := p.Restarts(job.id); !ok || n != 2 || last == nil {
		t.Errorf("Restarts = %d, %v, %v", n, last, ok)
	}
}
