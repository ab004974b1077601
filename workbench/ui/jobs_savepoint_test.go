package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
)

// A paced aggregate with checkpoints every 100 ms shows its last
// checkpoint in the Jobs panel; Stop with savepoint writes a savepoint
// into the session's savepoint directory, the job ends FINISHED and the
// savepoint's path is in the status bar and the panel's savepoint line.
func TestJobsPanelCheckpointAndStopWithSavepoint(t *testing.T) {
	h := newHarness(t)
	jp := h.wb.mon.jobs
	chk, sp := t.TempDir(), t.TempDir()
	h.newTab("SET 'execution.runtime-mode' = 'streaming';\n" +
		"SET 'execution.checkpointing.interval' = '100 ms';\n" +
		"SET 'execution.checkpointing.dir' = '" + chk + "';\n" +
		"SET 'execution.checkpointing.savepoint-dir' = '" + sp + "';\n" +
		"CREATE TEMPORARY TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50',\n" +
		"  'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '1000000');\n" +
		"SELECT v % 5 AS k, COUNT(*) AS n FROM gen GROUP BY v % 5")
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	var id string
	h.until("the job in the panel", func() bool {
		if rows := jp.Rows(); len(rows) == 1 {
			id = rows[0].ID
		}
		return id != ""
	})
	h.until("a checkpoint of the job", func() bool {
		_, hasLast, _, ok := jp.Checkpoint(id)
		return ok && hasLast
	})
	row := jp.NewRow()
	row.Resize(fyne.NewSize(1600, row.MinSize().Height)) // room for the buttons' labels
	jp.UpdateRow(0, row)
	row.(*fyne.Container).Refresh()
	cells := row.(*fyne.Container).Objects
	if main, detail, _ := cells[jobs.CheckpointColumn].(*jobs.CheckpointCell).Texts(); !strings.HasPrefix(main, "#") || !strings.HasSuffix(main, " ago") && !strings.HasSuffix(main, "just now") || !strings.Contains(detail, " in ") {
		t.Errorf("checkpoint cell %q / %q", main, detail)
	}
	h.until("the Checkpoint column shown", func() bool { return !jp.NoCheckpoint() && jp.HeaderVisible(jobs.CheckpointColumn) })
	var stop *widget.Button
	for _, o := range cells[len(jobs.Columns)-1].(*fyne.Container).Objects {
		if b := o.(*widget.Button); b.Text == "Stop with savepoint" && b.Visible() {
			stop = b
		}
	}
	if stop == nil {
		t.Fatal("no Stop with savepoint button")
	}
	test.Tap(stop)
	h.until("the job to stop with a savepoint", func() bool {
		path, err := jp.LastSavepoint()
		return path != "" || err != nil
	})
	path, err := jp.LastSavepoint()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(path, "file:"+filepath.ToSlash(sp)+"/savepoint-"+id[:6]+"-") {
		t.Errorf("savepoint path %q", path)
	}
	if _, err := os.Stat(filepath.Join(strings.TrimPrefix(path, "file:"), "_metadata")); err != nil {
		t.Error(err)
	}
	h.until("the job FINISHED", func() bool {
		r, _ := jp.Row(id)
		return r.Status == table.JobFinished
	})
	if got := h.wb.statusLeft.Text; got != "Job "+id[:8]+" stopped with a savepoint: "+path {
		t.Errorf("status bar %q", got)
	}
	if _, shown := jp.SavepointLine(); shown != path {
		t.Errorf("savepoint line shows %q", shown)
	}
	h.waitDone(rt)
	if last, hasLast, _, _ := jp.Checkpoint(id); !hasLast || !last.Savepoint {
		t.Errorf("last checkpoint after the stop: %+v", last)
	}
}
