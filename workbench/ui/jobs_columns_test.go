package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
)

// With no job that has a watermark, the Jobs panel leaves the Watermark
// and Lag columns out and the Statement column takes their room; a job
// with a watermark brings them back. CANCELED is drawn in the warning
// colour (issue 21).
func TestJobsPanelStatementUsesTheFreeSpace(t *testing.T) {
	h := newHarness(t)
	jp := h.wb.mon.jobs
	h.newTab("CREATE TEMPORARY TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\nSELECT n, n * 2 AS twice, n * 3 AS thrice FROM gen")
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	h.until("the job in the panel", func() bool { return len(jp.Rows()) == 1 })
	if !jp.NoWatermark() || jp.HeaderVisible(6) || jp.HeaderVisible(8) {
		t.Errorf("watermark columns shown for a job without a watermark")
	}
	row := jp.NewRow()
	jp.UpdateRow(0, row)
	row.Resize(fyne.NewSize(1100, row.MinSize().Height))
	cells := row.(*fyne.Container).Objects
	var fixed float32
	for i, c := range jobs.Columns {
		if i != jobs.StatementColumn && !jobs.WatermarkColumn(i) && (i != jobs.CheckpointColumn || !jp.NoCheckpoint()) {
			fixed += c.Width
		}
	}
	if w := cells[jobs.StatementColumn].Size().Width; w != 1100-fixed || cells[6].Visible() {
		t.Errorf("statement column %v wide (want %v), watermark cell visible %v", w, 1100-fixed, cells[6].Visible())
	}
	if text := cells[jobs.StatementColumn].(*widget.Label).Text; !strings.HasPrefix(text, "SELECT n, n * 2 AS twice") {
		t.Errorf("statement %q", text)
	}
	h.wb.stopResults(rt)
	h.until("the job to be cancelled", func() bool { return len(jp.Rows()) == 1 && jp.Rows()[0].Status == table.JobCanceled })
	jp.UpdateRow(0, row)
	if st := cells[0].(*widget.Label); st.Text != "CANCELED" || st.Importance != widget.WarningImportance {
		t.Errorf("status %q drawn with importance %v", st.Text, st.Importance)
	}
	// a job with a watermark brings the columns back
	h.newTab(readingsDDL + perSecond + ";")
	h.runAll()
	h.until("the second job with its watermark", func() bool { return len(jp.Rows()) == 2 && !jp.NoWatermark() })
	if !jp.HeaderVisible(6) || !jp.HeaderVisible(8) {
		t.Error("watermark columns hidden with a job that has a watermark")
	}
	h.wb.stopResults(h.wb.results[len(h.wb.results)-1])
}
