package ui

import (
	"slices"
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

// TestBuilderSelfJoin: the second flights is f2, no key is guessed, and
// columns of both with the same name get unique output names.
func TestBuilderSelfJoin(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	b.tableSel.SetSelected("flights")
	b.joinTable.SetSelected("flights")
	test.Tap(b.addJoin)
	if !strings.Contains(b.status.Text, "incomplete key") || b.joinRows[0].left.Selected != "" {
		t.Fatalf("self-join: status %q, key %q; SQL:\n%s", b.status.Text, b.joinRows[0].left.Selected, b.stmt())
	}
	// plain names in the pickers
	if !slices.Contains(b.joinRows[0].left.Options, "f.date") || !slices.Contains(b.joinRows[0].right.Options, "date") {
		t.Errorf("key choices %q / %q", b.joinRows[0].left.Options, b.joinRows[0].right.Options)
	}
	b.joinRows[0].left.SetSelected("f.destination")
	b.joinRows[0].right.SetSelected("origin")
	b.colChecks[authoring.ColumnRef{Table: "f", Name: "origin"}].SetChecked(true)
	b.colChecks[authoring.ColumnRef{Table: "f2", Name: "origin"}].SetChecked(true)
	want := "SELECT\n  f.origin,\n  f2.origin AS f2_origin\nFROM flights AS f\nJOIN flights AS f2\n  ON f.destination = f2.origin"
	if got := b.stmt(); got != want {
		t.Fatalf("self-join:\n%s\nwant\n%s", got, want)
	}
	// the engine's names (authoring's TestSelfJoin runs it on an extract)
	tab, err := h.wb.Env().SQLQuery(want)
	if err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(tab.GetSchema().GetFieldNames(), ","); names != "origin,f2_origin" {
		t.Errorf("columns %s", names)
	}
}

// TestBuilderChecksNumbersAndTakesDates: a number out of the column's
// range is refused before it runs; a TIMESTAMP filter takes a date alone;
// the filter's column choice shows plain names; BETWEEN's inputs are one
// under the other.
func TestBuilderChecksNumbersAndTakesDates(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	b.tableSel.SetSelected("flights")
	test.Tap(b.addFilter)
	r := b.filterRows[0]
	if !slices.Contains(r.column.Options, "date") || slices.Contains(r.column.Options, "`date`") {
		t.Errorf("column choices %q", r.column.Options)
	}
	r.column.SetSelected("delay")
	r = b.filterRows[0]
	r.values[0].SetText("1e400")
	if !strings.Contains(b.status.Text, "✕ filter on delay: '1e400' is out of the range of DOUBLE") || strings.Contains(b.stmt(), "1e400") {
		t.Errorf("1e400: status %q, SQL %q", b.status.Text, b.stmt())
	}
	b.filterRows[0].values[0].SetText("3000000000")
	if !strings.Contains(b.status.Text, "out of the range of INT") || strings.Contains(b.stmt(), "3000000000") {
		t.Errorf("3000000000: status %q, SQL %q", b.status.Text, b.stmt())
	}
	b.filterRows[0].values[0].SetText("30")
	if got := b.stmt(); got != "SELECT *\nFROM flights\nWHERE delay = 30" {
		t.Errorf("SQL %q, status %q", got, b.status.Text)
	}
	test.Tap(b.filterRows[0].remove)
	test.Tap(b.addFilter)
	b.filterRows[0].column.SetSelected("date")
	b.filterRows[0].op.SetSelected("BETWEEN")
	r = b.filterRows[0]
	r.values[0].SetText("2001-01-01")
	r.values[1].SetText("2001-01-02")
	if got := b.stmt(); got != "SELECT *\nFROM flights\nWHERE `date` BETWEEN TIMESTAMP '2001-01-01 00:00:00' AND TIMESTAMP '2001-01-02 00:00:00'" {
		t.Errorf("SQL %q, status %q", got, b.status.Text)
	}
	if r.values[0].Size().Width < 150 || r.values[1].Size().Width < 150 {
		t.Errorf("BETWEEN inputs %v and %v wide", r.values[0].Size().Width, r.values[1].Size().Width)
	}
}

// TestBuilderMessagesGiveEditorLines: SQL the builder cannot show is
// located by its line in the editor, not in the statement.
func TestBuilderMessagesGiveEditorLines(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := b.tab
	tab.ed.SetText("SELECT 1;\n\n-- the next one\n\n\n\nSELECT origin\nFROM flights\nGROUP BY origin HAVING COUNT(*) > 1")
	tab.ed.SetCursorOffset(len(tab.ed.Text()) - 2)
	h.wb.builderEditorChanged(tab)
	if !strings.Contains(b.status.Text, "HAVING") || !strings.Contains(b.status.Text, "(line 9, column 24)") {
		t.Errorf("status %q", b.status.Text)
	}
}

// TestBuilderRewriteScrollsToTheLeft: after the builder replaces the
// statement, the editor shows its lines from column 0.
func TestBuilderRewriteScrollsToTheLeft(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := b.tab
	long := "SELECT origin, destination, delay, distance FROM flights WHERE origin = 'SFO' AND destination = 'LAX' AND delay > 10"
	tab.ed.SetText(long)
	tab.ed.SetCursorOffset(len(long))
	h.wb.builderEditorChanged(tab)
	if tab.ed.FirstVisibleColumn() == 0 {
		t.Skipf("the editor (%v wide) shows the whole line", tab.ed.Size().Width)
	}
	b.colChecks[authoring.ColumnRef{Name: "distance"}].SetChecked(false)
	if !strings.HasPrefix(tab.ed.Text(), "SELECT\n  origin,") || tab.ed.FirstVisibleColumn() != 0 {
		t.Errorf("after the rewrite: left column %d, text %q", tab.ed.FirstVisibleColumn(), tab.ed.Text())
	}
}
