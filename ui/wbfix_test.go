package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/riffle-sql/riffle/engine/table"
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
	if !strings.Contains(h.messages(), "Stopped: 1 statement(s) not run.") {
		t.Errorf("messages:\n%s", h.messages())
	}
}
