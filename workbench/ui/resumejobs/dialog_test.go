package resumejobs

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
)

type fakeHost struct {
	resumed   []int
	discarded bool
}

func (h *fakeHost) Resume(idx []int) { h.resumed = idx }
func (h *fakeHost) Discard()         { h.discarded = true }

func sample(now time.Time) []Job {
	return []Job{
		{Statement: "SELECT k,\n  COUNT(*)\nFROM gen GROUP BY k", Tab: "Query 1", Dir: "/cp/aaaa", HasCheckpoint: true,
			Checkpoint: table.CheckpointInfo{ID: 12, Triggered: now.Add(-3 * time.Minute), Size: 4200}},
		{Statement: "INSERT INTO t SELECT * FROM gen", Dir: "/cp/bbbb", Problem: "no checkpoint in /cp/bbbb"},
	}
}

func TestDescribe(t *testing.T) {
	now := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	list := sample(now)
	if got := Describe(list[0], now); got != "SELECT k, COUNT(*) FROM gen GROUP BY k (tab Query 1)\n    checkpoint #12, taken 3 min ago, 4.1 KiB" {
		t.Errorf("%q", got)
	}
	if got := Describe(list[1], now); got != "INSERT INTO t SELECT * FROM gen\n    "+NoCheckpoint {
		t.Errorf("%q", got)
	}
	if in := Intro(list); !strings.Contains(in, "2 jobs were still running") || !strings.Contains(in, "checkpoint files stay in /cp.") {
		t.Errorf("intro %q", in)
	}
}

func TestResumeAllTakesTheCheckpointedJobs(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	defer w.Close()
	now := time.Now()
	h := &fakeHost{}
	d := Show(w, h, sample(now), now)
	if got := d.Selected(); !reflect.DeepEqual(got, []bool{true, false}) {
		t.Errorf("selected %v", got)
	}
	d.ResumeAll()
	if !reflect.DeepEqual(h.resumed, []int{0}) || d.Open() {
		t.Errorf("resumed %v, open %v", h.resumed, d.Open())
	}
	d.Discard() // closed: nothing more happens
	if h.discarded {
		t.Error("discarded after resuming")
	}
}

func TestResumeSelectedAndDiscard(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	defer w.Close()
	now := time.Now()
	h := &fakeHost{}
	d := Show(w, h, sample(now), now)
	d.SetSelected(0, false)
	d.SetSelected(1, true)
	d.ResumeSelected()
	if !reflect.DeepEqual(h.resumed, []int{1}) {
		t.Errorf("resumed %v", h.resumed)
	}
	h2 := &fakeHost{}
	Show(w, h2, sample(now), now).Discard()
	if !h2.discarded || h2.resumed != nil {
		t.Errorf("%+v", h2)
	}
}
