package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
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
	h.until("the job in the panel", func() bool { return len(jp.rows) == 1 })
	if !jp.noWatermark || jp.header[6].Visible() || jp.header[8].Visible() {
		t.Errorf("watermark columns shown for a job without a watermark")
	}
	row := jp.makeRow()
	jp.updateRow(0, row)
	row.Resize(fyne.NewSize(1100, row.MinSize().Height))
	cells := row.(*fyne.Container).Objects
	var fixed float32
	for i, c := range jobCols {
		if i != jobStmtCol && !jobWatermarkCol(i) {
			fixed += c.width
		}
	}
	if w := cells[jobStmtCol].Size().Width; w != 1100-fixed || cells[6].Visible() {
		t.Errorf("statement column %v wide (want %v), watermark cell visible %v", w, 1100-fixed, cells[6].Visible())
	}
	if text := cells[jobStmtCol].(*widget.Label).Text; !strings.HasPrefix(text, "SELECT n, n * 2 AS twice") {
		t.Errorf("statement %q", text)
	}
	h.wb.stopResults(rt)
	h.until("the job to be cancelled", func() bool { return len(jp.rows) == 1 && jp.rows[0].Status == table.JobCanceled })
	jp.updateRow(0, row)
	if st := cells[0].(*widget.Label); st.Text != "CANCELED" || st.Importance != widget.WarningImportance {
		t.Errorf("status %q drawn with importance %v", st.Text, st.Importance)
	}
	// a job with a watermark brings the columns back
	h.newTab(readingsDDL + perSecond + ";")
	h.runAll()
	h.until("the second job with its watermark", func() bool { return len(jp.rows) == 2 && !jp.noWatermark })
	if !jp.header[6].Visible() || !jp.header[8].Visible() {
		t.Error("watermark columns hidden with a job that has a watermark")
	}
	h.wb.stopResults(h.wb.results[len(h.wb.results)-1])
}
