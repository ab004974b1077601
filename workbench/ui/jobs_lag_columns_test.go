package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/riffle-sql/riffle/workbench/ui/jobs"
)

// A finished batch job's watermark is "end": while no running job has a
// watermark the Lag and lag chart columns are left out and the Watermark
// column narrows, so the Statement column gets their room (issue 21: it
// was cut to a few characters beside "end" and an empty chart).
func TestJobsPanelLagColumnsOnlyForRunningWatermarks(t *testing.T) {
	h := newHarness(t)
	jp := h.wb.mon.jobs
	rt := h.runStatement() // the demo's batch aggregate
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	h.until("the finished job with its end watermark", func() bool {
		jp.SampleNextTick()
		h.wb.Tick()
		rows := jp.Rows()
		return len(rows) == 1 && rows[0].HasWatermark && rows[0].Status.IsTerminal()
	})
	if jp.NoWatermark() || !jp.HeaderVisible(6) {
		t.Fatal("the Watermark column is hidden, want it showing \"end\"")
	}
	if jp.HeaderVisible(7) || jp.HeaderVisible(8) {
		t.Error("Lag columns shown while no running job has a watermark")
	}
	row := jp.NewRow()
	jp.UpdateRow(0, row)
	row.Resize(fyne.NewSize(1100, row.MinSize().Height))
	cells := row.(*fyne.Container).Objects
	if w := cells[6].Size().Width; w >= jobs.Columns[6].Width {
		t.Errorf("watermark column %v wide for \"end\", want narrower than %v", w, jobs.Columns[6].Width)
	}
	var others float32
	for i, c := range cells {
		if i != jobs.StatementColumn && c.Visible() {
			others += c.Size().Width
		}
	}
	if w := cells[jobs.StatementColumn].Size().Width; w != 1100-others || w < 400 {
		t.Errorf("statement column %v wide, want the %v the others leave (at least 400)", w, 1100-others)
	}
}
