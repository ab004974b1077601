package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// Run all runs a script's statements one after another: a bounded INSERT
// job ends before the next statement starts, so a SELECT after it reads
// every row it wrote.
func TestRunAllWaitsForABoundedInsert(t *testing.T) {
	for _, c := range []struct {
		mode string
		n    int64
	}{{"batch", 400_000}, {"streaming", 50_000}} {
		mode, n := c.mode, c.n
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			dir := filepath.Join(t.TempDir(), "out")
			h.newTab(fmt.Sprintf(`SET 'execution.runtime-mode' = '%s';
CREATE TEMPORARY TABLE src (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '100000000',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '%d');
CREATE TEMPORARY TABLE t (n BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
INSERT INTO t SELECT n FROM src;
SELECT COUNT(*) AS c, SUM(n) AS s FROM t`, mode, n, n, dir))
			h.runAll()
			if len(h.wb.results) != 1 {
				t.Fatalf("%d results; messages:\n%s", len(h.wb.results), h.messages())
			}
			rt := h.wb.results[0]
			h.waitDone(rt)
			h.wb.Tick()
			got := rows(rt.Grid())
			if mode == "streaming" && len(got) > 0 {
				got = got[len(got)-1:] // the last update of the running count
			}
			if want := fmt.Sprintf("%d | %d", n, n*(n+1)/2); strings.Join(got, ";") != want {
				t.Errorf("SELECT after INSERT read %q, want %q; messages:\n%s", got, want, h.messages())
			}
			// The order of events: the INSERT's job ended before the
			// SELECT started (the job's end is posted before Run all
			// goes on).
			msgs := h.messages()
			ended, selected := strings.Index(msgs, "finished in"), strings.Index(msgs, "SELECT COUNT(*)")
			if ended < 0 || selected < 0 || ended > selected {
				t.Errorf("the SELECT did not come after the INSERT's end; messages:\n%s", msgs)
			}
		})
	}
}

// An INSERT over an unbounded source never ends by itself: Run all goes
// on with the next statement and says so; the job keeps running.
func TestRunAllDoesNotWaitForAnUnboundedInsert(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE endless (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE TEMPORARY TABLE bh (n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT n FROM endless;
SELECT 42 AS answer`)
	h.runAll() // settle fails the test if the script hangs
	if len(h.wb.results) != 1 {
		t.Fatalf("%d results; messages:\n%s", len(h.wb.results), h.messages())
	}
	rt := h.wb.results[0]
	h.waitDone(rt)
	h.wb.Tick()
	if got := rows(rt.Grid()); strings.Join(got, ";") != "42" {
		t.Errorf("SELECT after the INSERT read %q", got)
	}
	if !strings.Contains(h.messages(), "reads an unbounded source: it keeps running") {
		t.Errorf("messages:\n%s", h.messages())
	}
	jobs := h.wb.env.Jobs()
	running := 0
	for _, j := range jobs {
		if !j.Status().IsTerminal() {
			running++
		}
	}
	if running != 1 {
		t.Errorf("%d jobs running, want the INSERT's", running)
	}
}

// Stop while Run all waits for a slow bounded INSERT cancels the job and
// runs nothing after it.
func TestStopWhileRunAllWaitsForAnInsert(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE slow (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1000000', 'rows-per-second' = '100');
CREATE TEMPORARY TABLE bh (n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT n FROM slow;
SELECT 42 AS answer`)
	h.tab().ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	h.until("the script to wait for the INSERT", func() bool {
		return strings.Contains(h.wb.statusLeft.Text, "waiting for job")
	})
	h.wb.Stop()
	h.settle()
	if len(h.wb.results) != 0 {
		t.Errorf("%d results after Stop", len(h.wb.results))
	}
	for _, j := range h.wb.env.Jobs() {
		if st := j.Status(); st != table.JobCanceled {
			t.Errorf("job %s is %s", j.Statement(), st)
		}
	}
	if got := h.wb.statusLeft.Text; got != "Canceled" {
		t.Errorf("status %q after the job ended", got)
	}
	if !strings.Contains(h.messages(), "Stopped: 1 statement(s) not run.") {
		t.Errorf("messages:\n%s", h.messages())
	}
}

// Stop (Esc) says "Stopping…" and disables Stop until the query's job has
// ended, then "Canceled".
func TestStopSaysStoppingUntilTheJobHasEnded(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Grid().Total() > 0 })
	h.tab().ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if got := h.wb.statusLeft.Text; got != "Stopping…" {
		t.Errorf("status right after Stop %q", got)
	}
	if !h.wb.stopBtn.Disabled() || !rt.StopButton().Disabled() || !rt.PauseButton().Disabled() {
		t.Errorf("Stop buttons enabled while stopping: toolbar %v, result %v", !h.wb.stopBtn.Disabled(), !rt.StopButton().Disabled())
	}
	if s := rt.StateLabel().Text; s != resulttab.Stopping && s != resulttab.Canceled {
		t.Errorf("badge %q right after Stop", s)
	}
	h.until("Canceled", func() bool { return h.wb.statusLeft.Text == "Canceled" })
	if st := rt.Job.Status(); !st.IsTerminal() {
		t.Errorf("status says Canceled while the job is %s", st)
	}
	if rt.StateLabel().Text != resulttab.Canceled || h.wb.stopBtn.Disabled() {
		t.Errorf("after the end: badge %q, toolbar Stop disabled %v", rt.StateLabel().Text, h.wb.stopBtn.Disabled())
	}
}

// desktopClick clicks at an absolute position of c as the desktop (GLFW)
// driver does: the event goes to the topmost object that takes taps, mouse
// buttons or focus; it gets MouseDown/MouseUp when Mouseable and Tapped
// when Tappable. (test.TapCanvas looks for Tappable objects only, so it
// cannot show which object a real click reaches.)
func desktopClick(c fyne.Canvas, at fyne.Position, mod fyne.KeyModifier) {
	var co fyne.CanvasObject
	var pos fyne.Position
	d := fyne.CurrentApp().Driver()
	for _, o := range shown(c.Content()) { // parents first, later siblings on top
		switch o.(type) {
		case fyne.Tappable, fyne.SecondaryTappable, fyne.DoubleTappable, fyne.Focusable, desktop.Mouseable:
			p := d.AbsolutePositionForObject(o)
			if at.X >= p.X && at.Y >= p.Y && at.X < p.X+o.Size().Width && at.Y < p.Y+o.Size().Height {
				co, pos = o, at.Subtract(p)
			}
		}
	}
	if co == nil {
		return
	}
	ev := &desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos, AbsolutePosition: at}, Button: desktop.MouseButtonPrimary, Modifier: mod}
	if m, ok := co.(desktop.Mouseable); ok {
		m.MouseDown(ev)
		m.MouseUp(ev)
	}
	if t, ok := co.(fyne.Tappable); ok {
		t.Tapped(&ev.PointEvent)
	}
}

// cellCenter is the absolute position of the middle of a drawn grid cell.
func cellCenter(t *testing.T, g *resultgrid.Grid, id widget.TableCellID) fyne.Position {
	t.Helper()
	c := drawnCells(g)[id]
	if c == nil {
		t.Fatalf("cell %v is not drawn", id)
	}
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
	return p.Add(fyne.NewPos(c.Size().Width/2, c.Size().Height/2))
}
