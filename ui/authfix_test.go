package ui

import (
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/authoring"
	"github.com/riffle-sql/riffle/catalogbrowser"
)

const sensorsDDL = "CREATE TABLE `my-sensors` (\n  id BIGINT NOT NULL,\n  reading DECIMAL(10, 3),\n  ts TIMESTAMP(3),\n  doubled AS reading * 2,\n" +
	"  PRIMARY KEY (id) NOT ENFORCED,\n  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND\n)\nWITH (\n  'connector' = 'datagen'\n)"

var sensorsPath = []string{"default_catalog", "default_database", "my-sensors"}

// openSensors creates my-sensors (recorded in the init script) and opens
// the designer on it with the QA edit made through the form: reading
// renamed to val and widened, the watermark delay shortened, a column
// added.
func openSensors(h *harness) (*designerDialog, *authoring.SavedTable) {
	h.t.Helper()
	if _, err := h.wb.Env().ExecuteSQL(sensorsDDL); err != nil {
		h.t.Fatal(err)
	}
	if err := h.wb.addToInitScript(sensorsDDL); err != nil {
		h.t.Fatal(err)
	}
	saved, err := authoring.SaveTable(h.wb.Env(), sensorsPath)
	if err != nil {
		h.t.Fatal(err)
	}
	dd := h.wb.showTableDesigner(&catalogbrowser.Ref{Catalog: sensorsPath[0], Database: sensorsPath[1], Object: sensorsPath[2], Kind: catalogbrowser.KindTable})
	dd.rows[1].name.SetText("val")
	dd.rows[1].params.Objects[0].(*fyne.Container).Objects[0].(*widget.Entry).SetText("12")
	dd.wmDelay.SetText("2")
	test.Tap(dd.addColumn)
	return dd, saved
}

func (h *harness) sensorsUnchanged(saved *authoring.SavedTable) {
	h.t.Helper()
	now, err := authoring.SaveTable(h.wb.Env(), sensorsPath)
	if err != nil {
		h.t.Fatal(err)
	}
	if now.DDL != saved.DDL {
		h.t.Errorf("the table changed:\n%s\nwas\n%s", now.DDL, saved.DDL)
	}
	if !strings.Contains(h.wb.initScript, sensorsDDL) {
		h.t.Errorf("init script:\n%s", h.wb.initScript)
	}
}

// TestDesignerShowsDependencyProblems: renaming a column a computed
// column refers to is a problem in the dialog, not a failure half-way.
func TestDesignerShowsDependencyProblems(t *testing.T) {
	h := newHarness(t)
	dd, _ := openSensors(h)
	if !dd.apply.Disabled() || !strings.Contains(dd.problems.Text, "✕ column 4 doubled: the expression refers to reading, which is renamed to val: change the expression too") {
		t.Fatalf("apply enabled %v; problems:\n%s", !dd.apply.Disabled(), dd.problems.Text)
	}
	dd.rows[3].expr.SetText("val * 2")
	if dd.apply.Disabled() {
		t.Fatalf("problems:\n%s", dd.problems.Text)
	}
	// the preview shows what runs: doubled dropped and added back
	got := dd.preview.Text()
	for _, w := range []string{"DROP (doubled)", "RENAME reading TO val", "MODIFY val DECIMAL(12, 3)", "ADD doubled AS val * 2", "ADD c5 STRING", "ADD WATERMARK FOR ts AS ts - INTERVAL '2' SECOND"} {
		if !strings.Contains(got, w) {
			t.Errorf("preview lacks %q:\n%s", w, got)
		}
	}
	if err := h.applyDesign(dd); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.wb.initScript, "doubled AS val * 2") || strings.Contains(h.wb.initScript, "reading") {
		t.Errorf("init script:\n%s", h.wb.initScript)
	}
}

// TestDesignerRefusesAPlanThatFailsOnACopy: a statement that would fail
// part-way is found on a scratch copy; nothing runs.
func TestDesignerRefusesAPlanThatFailsOnACopy(t *testing.T) {
	h := newHarness(t)
	dd, saved := openSensors(h)
	dd.rows[3].expr.SetText("no_such_function(val)")
	ran := 0
	h.wb.authoring().beforeChange = func(int) { ran++ }
	err := h.applyDesign(dd)
	if err == nil || !strings.HasPrefix(err.Error(), "Nothing was changed: tried on a copy of the table, statement 5 of 7 fails.\nALTER TABLE") ||
		!strings.Contains(err.Error(), "no_such_function") {
		t.Fatalf("apply: %v", err)
	}
	if ran != 0 {
		t.Errorf("%d statements ran", ran)
	}
	if !strings.HasPrefix(dd.problems.Text, "✕ Nothing was changed") || dd.apply.Disabled() {
		t.Errorf("problems %q, apply enabled %v", dd.problems.Text, !dd.apply.Disabled())
	}
	h.sensorsUnchanged(saved)
}

// TestDesignerPutsTheTableBackWhenAStatementFails: should a statement
// fail for real after others ran, the table is created again from its
// saved DDL, and the init script (unchanged) agrees with the session.
func TestDesignerPutsTheTableBackWhenAStatementFails(t *testing.T) {
	h := newHarness(t)
	dd, saved := openSensors(h)
	dd.rows[3].expr.SetText("val * 2")
	h.wb.authoring().beforeChange = func(i int) {
		if i == 5 { // ADD c5 STRING: someone added c5 meanwhile
			if _, err := h.wb.Env().ExecuteSQL("ALTER TABLE `my-sensors` ADD c5 INT"); err != nil {
				t.Error(err)
			}
		}
	}
	err := h.applyDesign(dd)
	if err == nil || !strings.HasPrefix(err.Error(), "Statement 6 of 7 failed.\nALTER TABLE") ||
		!strings.HasSuffix(err.Error(), "The table was put back as it was before: dropped and created again from its saved DDL.") {
		t.Fatalf("apply: %v", err)
	}
	h.sensorsUnchanged(saved)
	if !strings.Contains(h.messages(), "The table was put back") {
		t.Errorf("messages:\n%s", h.messages())
	}
}

// TestStreamingSortStaysInTheGrid: Sort on a streaming result neither
// rewrites the query (a streaming ORDER BY must start with a time
// attribute) nor stops its job: disabled while it runs, a sort of the
// grid once it has ended.
func TestStreamingSortStaysInTheGrid(t *testing.T) {
	h := newHarness(t)
	if _, err := h.wb.Env().ExecuteSQL("CREATE TABLE gen (k INT, v STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '50', 'fields.k.min' = '1', 'fields.k.max' = '1000')"); err != nil {
		t.Fatal(err)
	}
	tab := h.newTab("")
	tab.ed.SetText("SELECT k, v FROM gen")
	tab.mode = modeStreaming
	tab.ed.SetCursorOffset(1)
	rt := h.runStatement()
	if rt == nil || !rt.streaming {
		t.Fatalf("result %+v", rt)
	}
	h.until("rows", func() bool { rt.refresh(true); return rt.grid.total >= 5 })
	items := rt.headerActions(1)
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
		if strings.HasPrefix(it.Label, "Sort") && !it.Disabled {
			t.Errorf("%q is enabled while the streaming query runs", it.Label)
		}
	}
	if labels[2] != "Sort ascending — after Stop or when finished (a streaming ORDER BY needs a time attribute)" {
		t.Errorf("labels %q", labels)
	}
	rt.stop()
	h.waitDone(rt)
	rt.refresh(true)
	n := len(h.wb.results)
	for _, it := range rt.headerActions(1) {
		if it.Label == "Sort descending (in the grid)" {
			if it.Disabled {
				t.Fatal("disabled after Stop")
			}
			it.Action()
		}
	}
	h.settle()
	rt.refresh(true)
	if tab.ed.Text() != "SELECT k, v FROM gen" || len(h.wb.results) != n {
		t.Fatalf("the query was rewritten: %q, %d results", tab.ed.Text(), len(h.wb.results))
	}
	got := rows(rt.grid)
	prev := 1 << 30
	for _, r := range got {
		k, err := strconv.Atoi(strings.Split(r, " | ")[0])
		if err != nil || k > prev {
			t.Fatalf("not sorted descending: %q", got)
		}
		prev = k
	}
	if len(got) < 5 {
		t.Fatalf("rows %q", got)
	}
}

// TestDesignerMovingACSVColumnNeedsConfirmation: csv reads fields by
// position; a moved column is a problem until the user confirms it.
func TestDesignerMovingACSVColumnNeedsConfirmation(t *testing.T) {
	h := newHarness(t)
	dd := h.wb.showTableDesigner(&catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "flights", Kind: catalogbrowser.KindTable})
	if dd.positions.Visible() {
		t.Fatal("confirmation shown for an unchanged table")
	}
	test.Tap(dd.rows[2].up)
	if !dd.apply.Disabled() || !dd.positions.Visible() ||
		!strings.Contains(dd.problems.Text, "✕ columns: csv maps the fields of each record to the columns by position: ") {
		t.Fatalf("apply enabled %v, confirmation %v; problems:\n%s", !dd.apply.Disabled(), dd.positions.Visible(), dd.problems.Text)
	}
	dd.positions.SetChecked(true)
	if dd.apply.Disabled() || !strings.Contains(dd.problems.Text, "⚠ columns: csv maps") || !strings.Contains(dd.preview.Text(), "MODIFY") {
		t.Fatalf("confirmed: apply enabled %v; problems:\n%s\npreview:\n%s", !dd.apply.Disabled(), dd.problems.Text, dd.preview.Text())
	}
	test.Tap(dd.rows[1].down) // back in place
	if dd.positions.Visible() || dd.preview.Text() != "-- no changes" {
		t.Errorf("moved back: confirmation %v, preview %q", dd.positions.Visible(), dd.preview.Text())
	}
}

// TestFilterByValueOfACollection: ARRAY, MAP and ROW cells have no
// literal to filter with: the item says so, disabled; NULL and scalar
// cells keep their filters.
func TestFilterByValueOfACollection(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SELECT a, m, r, n FROM (VALUES (ARRAY['x', 'y'], MAP['k', 1], ROW(1, 'b'), 7), (CAST(NULL AS ARRAY<STRING>), MAP['j', 2], ROW(2, 'c'), 8)) AS t(a, m, r, n)")
	for col, typ := range map[int]string{1: "ARRAY<STRING> values", 2: "MAP<", 3: "ROW<"} {
		items := rt.cellActions(widget.TableCellID{Row: 0, Col: col})
		if len(items) != 1 || !items[0].Disabled || !strings.HasPrefix(items[0].Label, "Filter by value: not for "+typ) {
			var labels []string
			for _, it := range items {
				labels = append(labels, it.Label)
			}
			t.Errorf("column %d: %q", col, labels)
		}
	}
	// a NULL array filters with IS NULL
	tab := h.tab()
	rt2 := h.action(rt.cellActions(widget.TableCellID{Row: 1, Col: 1}), "Filter = NULL")
	if got := tab.ed.Text(); !strings.Contains(got, "WHERE a IS NULL") {
		t.Errorf("editor: %q", got)
	}
	if got := rows(rt2.grid); len(got) != 1 || !strings.HasSuffix(got[0], " | 8") {
		t.Errorf("rows %q", got)
	}
	if items := rt.cellActions(widget.TableCellID{Row: 0, Col: 4}); len(items) != 4 || items[0].Label != "Filter = 7" {
		t.Errorf("scalar cell: %d items", len(items))
	}
}
