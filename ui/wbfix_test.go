package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
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
			got := rows(rt.grid)
			if mode == "streaming" && len(got) > 0 {
				got = got[len(got)-1:] // the last update of the running count
			}
			if want := fmt.Sprintf("%d | %d", n, n*(n+1)/2); strings.Join(got, ";") != want {
				t.Errorf("SELECT after INSERT read %q, want %q; messages:\n%s", got, want, h.messages())
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
	if got := rows(rt.grid); strings.Join(got, ";") != "42" {
		t.Errorf("SELECT after the INSERT read %q", got)
	}
	if !strings.Contains(h.messages(), "reads an unbounded source: it keeps running") {
		t.Errorf("messages:\n%s", h.messages())
	}
	jobs := h.wb.env.Jobs()
	running := 0
	for _, j := range jobs {
		if !j.GetJobStatus().IsTerminal() {
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
		if st := j.GetJobStatus(); st != table.JobCanceled {
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
	h.until("rows", func() bool { return rt.grid.total > 0 })
	h.tab().ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if got := h.wb.statusLeft.Text; got != "Stopping…" {
		t.Errorf("status right after Stop %q", got)
	}
	if !h.wb.stopBtn.Disabled() || !rt.stopBtn.Disabled() || !rt.pauseBtn.Disabled() {
		t.Errorf("Stop buttons enabled while stopping: toolbar %v, result %v", !h.wb.stopBtn.Disabled(), !rt.stopBtn.Disabled())
	}
	if s := rt.stateLbl.Text; s != stateStopping && s != stateCanceled {
		t.Errorf("badge %q right after Stop", s)
	}
	h.until("Canceled", func() bool { return h.wb.statusLeft.Text == "Canceled" })
	if st := rt.job.GetJobStatus(); !st.IsTerminal() {
		t.Errorf("status says Canceled while the job is %s", st)
	}
	if rt.stateLbl.Text != stateCanceled || h.wb.stopBtn.Disabled() {
		t.Errorf("after the end: badge %q, toolbar Stop disabled %v", rt.stateLbl.Text, h.wb.stopBtn.Disabled())
	}
}

// A cancelled query is STOPPING until its reader has ended, then CANCELED.
func TestCanceledQueryIsStoppingUntilItEnds(t *testing.T) {
	r := results.New([]results.Column{{Name: "k", Type: types.IntType()}}, results.Options{})
	rt := &resultTab{res: r}
	if got := rt.state(); got != stateRunning {
		t.Fatalf("state %s", got)
	}
	rt.canceled.Store(true)
	if got := rt.state(); got != stateStopping || !rt.stopping() {
		t.Errorf("state %s after Stop", got)
	}
	r.Finish(context.Canceled)
	if got := rt.state(); got != stateCanceled || rt.stopping() {
		t.Errorf("state %s after the end", got)
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
func cellCenter(t *testing.T, g *resultGrid, id widget.TableCellID) fyne.Position {
	t.Helper()
	c := drawnCells(g)[id]
	if c == nil {
		t.Fatalf("cell %v is not drawn", id)
	}
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
	return p.Add(fyne.NewPos(c.Size().Width/2, c.Size().Height/2))
}

// A click in the result grid gives it the keyboard: arrows move the
// selected cell, Shift+arrows and Shift+click extend the selection, Ctrl+C
// copies it as TSV.
func TestGridKeyboardAfterAClick(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT * FROM (VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)) AS t(n, s, x)")
	h.wb.closeCompletion() // opened by typing
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	c := h.w.Canvas()
	if c.Focused() == rt.grid {
		t.Fatal("the grid has the focus before any click")
	}
	desktopClick(c, cellCenter(t, rt.grid, widget.TableCellID{Row: 0, Col: 1}), 0)
	if c.Focused() != rt.grid {
		t.Fatalf("focus after a click in the grid: %T", c.Focused())
	}
	key := func(name fyne.KeyName) {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: name})
	}
	copied := func() string {
		cb := fyne.CurrentApp().Clipboard()
		cb.SetContent("")
		c.Focused().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutCopy{Clipboard: cb})
		return cb.Content()
	}
	if got := copied(); got != "1\n" {
		t.Errorf("Ctrl+C after the click copied %q", got)
	}
	key(fyne.KeyDown)
	key(fyne.KeyRight)
	if got := copied(); got != "b\n" {
		t.Errorf("after Down, Right: %q", got)
	}
	// Shift+Down, Shift+Right extend the selection from there.
	kb := c.Focused().(desktop.Keyable)
	kb.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	key(fyne.KeyDown)
	key(fyne.KeyRight)
	kb.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if got := copied(); got != "b\t20\nc\t30\n" {
		t.Errorf("after Shift+Down, Shift+Right: %q", got)
	}
	// Up without Shift collapses it to one cell again; Home goes to the
	// first column.
	key(fyne.KeyUp)
	key(fyne.KeyHome)
	if got := copied(); got != "2\n" {
		t.Errorf("after Up, Home: %q", got)
	}
	// Shift+click extends from the selected cell.
	desktopClick(c, cellCenter(t, rt.grid, widget.TableCellID{Row: 2, Col: 2}), fyne.KeyModifierShift)
	if got := copied(); got != "2\tb\n3\tc\n" {
		t.Errorf("after Shift+click: %q", got)
	}
	if !strings.Contains(rt.statusLbl.Text, "2×2 selected") {
		t.Errorf("status %q", rt.statusLbl.Text)
	}
}

// A paused result's status says so: the grid's counts stay as they were at
// the pause and the changes arriving meanwhile are counted apart; Resume
// catches up.
func TestPausedStatusSaysPausedAndCountsWhatItDoesNotShow(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.grid.total > 10 })
	rt.pauseBtn.OnTapped()
	frame := rt.grid.total
	rows := groupDigits(frame) + " rows · paused: "
	if got := rt.statusLbl.Text; !strings.HasPrefix(got, rows) {
		t.Fatalf("status right after Pause %q, want it to start %q", got, rows)
	}
	// The status keeps counting the changes it does not show, apart from
	// the frozen row count.
	var waiting int
	h.until("the status to count new changes", func() bool {
		rt.lastStatus = time.Time{} // no 500 ms wait between status updates
		h.wb.Tick()
		got := rt.statusLbl.Text
		if !strings.HasPrefix(got, rows) {
			t.Fatalf("paused status %q, want it to start %q", got, rows)
		}
		_, err := fmt.Sscanf(strings.TrimPrefix(got, rows), "+%d changes not shown", &waiting)
		return err == nil && waiting > 50
	})
	if rt.grid.total != frame {
		t.Errorf("paused grid moved: %d -> %d", frame, rt.grid.total)
	}
	rt.pauseBtn.OnTapped()
	h.until("the grid to catch up", func() bool { return rt.grid.total >= frame+waiting })
	if got := rt.statusLbl.Text; strings.Contains(got, "paused") {
		t.Errorf("status after Resume %q", got)
	}
	rt.stopBtn.OnTapped()
	h.waitDone(rt)
}

// Preview of an unbounded table from a batch-mode tab gives rows: it runs
// in streaming mode, where LIMIT 100 ends the query, and does not change
// the tab's mode.
func TestPreviewOfAnUnboundedTableInBatchMode(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("CREATE TABLE endless (n BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '5000')")
	h.runStatement()
	tab.mode = modeBatch
	h.wb.catalog.OpenPath("default_catalog", "default_database")
	m := h.wb.catalog.MenuFor("o\x1fdefault_catalog\x1fdefault_database\x1fendless")
	m.Items[0].Action() // Preview
	h.settle()
	if len(h.wb.results) != 1 {
		t.Fatalf("%d results; messages:\n%s", len(h.wb.results), h.messages())
	}
	prev := h.wb.results[0]
	h.waitDone(prev)
	prev.refresh(true)
	if st := prev.state(); st != stateFinished {
		t.Errorf("preview %s: %v", st, prev.errLbl.Text)
	}
	if n := len(rows(prev.grid)); n != 100 {
		t.Errorf("preview has %d rows; messages:\n%s", n, h.messages())
	}
	if strings.Contains(h.messages(), "ERROR") {
		t.Errorf("messages:\n%s", h.messages())
	}
	if tab.mode != modeBatch {
		t.Errorf("the tab's mode changed to %s", tab.mode)
	}
	// The tab's next run is in its own mode again.
	test.Type(tab.ed, ";\nSELECT COUNT(*) FROM endless")
	h.wb.closeCompletion()
	h.runStatement()
	if !strings.Contains(h.messages(), "Querying an unbounded table") {
		t.Errorf("the batch tab ran in streaming mode; messages:\n%s", h.messages())
	}
}

// Format says what it did: a parse error leaves the text as it is, marks
// it and shows Messages with the line and column; a formatted statement
// keeps its comments and the status says which lines changed.
func TestFormatSaysWhatItDid(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.wb.closeCompletion()
	broken := "SELECT 1;\nselect a from t where (a > ;\n"
	tab.ed.SetText(broken)
	tab.ed.SetCursor(1, 5)
	h.wb.bottom.Select(h.wb.history.item)
	h.wb.formatCurrent()
	if tab.ed.Text() != broken {
		t.Errorf("text changed: %q", tab.ed.Text())
	}
	if h.wb.bottom.Selected() != h.wb.messages.item {
		t.Error("Messages is not shown")
	}
	if msg := h.messages(); !strings.Contains(msg, "Format: the SQL does not parse, so it was left as it is") || !strings.Contains(msg, "line 2, column 27") {
		t.Errorf("messages:\n%s", msg)
	}
	if got := h.wb.statusLeft.Text; !strings.HasPrefix(got, "Not formatted: ") {
		t.Errorf("status %q", got)
	}

	tab.ed.SetText("SELECT 1;\nselect origin, -- where from\n  count(*) from flights group by origin;\n")
	tab.ed.SetCursor(1, 3)
	h.wb.formatCurrent()
	want := "SELECT 1;\nSELECT\n  origin, -- where from\n  count(*)\nFROM flights\nGROUP BY origin;\n"
	if got := tab.ed.Text(); got != want {
		t.Errorf("formatted %q, want %q", got, want)
	}
	if got := h.wb.statusLeft.Text; got != "Formatted the statement (lines 2–6); Ctrl+Z undoes it" {
		t.Errorf("status %q", got)
	}
	h.wb.formatCurrent()
	if got := h.wb.statusLeft.Text; got != "Already formatted: the statement is unchanged" {
		t.Errorf("status after a second Format %q", got)
	}
}

// Moving the cursor and selecting another tab, without editing, is saved:
// reopening the workspace selects that tab and puts the cursor back, in
// view.
func TestCursorAndSelectedTabAreSavedWithoutEdits(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	lines := make([]string, 300)
	for i := range lines {
		lines[i] = fmt.Sprintf("SELECT %d;", i)
	}
	long := h.wb.editors.newTab("Long", strings.Join(lines, "\n"))
	h.close()

	h = open(t, path)
	long = h.wb.editors.list[4]
	h.wb.editors.tabs.Select(long.item)
	long.ed.SetCursor(250, 3) // no edit
	h.wb.editors.tabs.Select(h.wb.editors.list[1].item)
	h.wb.editors.list[1].ed.SetCursor(2, 4)
	h.close()

	h = open(t, path)
	defer h.close()
	if cur := h.tab(); cur.title != "Flights by hour" {
		t.Errorf("selected tab %q", cur.title)
	} else if l, c := cur.ed.CursorPosition(); l != 2 || c != 4 {
		t.Errorf("cursor of %q at %d:%d, want 2:4", cur.title, l, c)
	}
	long = h.wb.editors.list[4]
	if l, c := long.ed.CursorPosition(); l != 250 || c != 3 {
		t.Errorf("cursor of Long at %d:%d, want 250:3", l, c)
	}
	h.wb.editors.tabs.Select(long.item)
	h.w.Resize(fyne.NewSize(1400, 901)) // lay the tab out
	// The editor pane (half of 900 px) shows fewer than 40 lines.
	if top := long.ed.FirstVisibleLine(); top > 250 || 250-top >= 40 {
		t.Errorf("line 250 not in view: the first visible line is %d", top)
	}
}

// Columns sized from the first rows of a running query are sized again
// from the final rows when it ends (longer values came later), unless the
// user resized them.
func TestColumnsAreRefittedWhenTheQueryEnds(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE g (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '300', 'rows-per-second' = '200',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '300');
SELECT CASE WHEN n <= 200 THEN 'short' ELSE 'a value much longer than the first ones' END AS s FROM g`)
	h.wb.closeCompletion()
	h.runAll()
	rt := h.wb.results[0]
	h.until("the first rows", func() bool { return rt.grid.total > 0 && rt.grid.widthsSet })
	if !rt.isRunning() {
		t.Skip("the query ended before the first frame") // nothing to refit
	}
	first := rt.grid.dataWidths[0]
	h.waitDone(rt)
	h.wb.Tick()
	if got := rt.grid.dataWidths[0]; got <= first {
		t.Errorf("column width %v after the end, %v while running", got, first)
	}
}

// With Follow on, pausing the changelog view shows its newest frozen
// change, and so does the end of the query (here: Stop while paused).
func TestFollowShowsTheLastChangeWhenPausedAndWhenEnded(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	rt.viewSel.SetSelected(viewNames[results.ChangelogView])
	if !rt.follow.Checked {
		t.Fatal("Follow is off by default")
	}
	h.until("a few hundred changes", func() bool { h.wb.Tick(); return rt.grid.total > 300 })
	lastShown := func() bool {
		rt.grid.refreshFrame() // measure the rows drawn now
		return rt.grid.visTo >= rt.grid.total
	}
	time.Sleep(100 * time.Millisecond) // changes arrive that the grid has not drawn
	rt.pauseBtn.OnTapped()
	h.wb.Tick()
	if !lastShown() {
		t.Errorf("paused: rows %d..%d shown of %d", rt.grid.visFrom, rt.grid.visTo, rt.grid.total)
	}
	rt.grid.ScrollToTop() // looking at older changes when it ends
	rt.stopBtn.OnTapped()
	h.waitDone(rt)
	h.until("the end to be drawn", func() bool { h.wb.Tick(); return rt.state() != statePaused && rt.state() != stateRunning })
	h.wb.Tick()
	if !lastShown() {
		t.Errorf("ended: rows %d..%d shown of %d", rt.grid.visFrom, rt.grid.visTo, rt.grid.total)
	}
}
