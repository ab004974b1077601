package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

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
	prev.Refresh(true)
	if st := prev.State(); st != resulttab.Finished {
		t.Errorf("preview %s: %v", st, prev.ErrorLabel().Text)
	}
	if n := len(rows(prev.Grid())); n != 100 {
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
