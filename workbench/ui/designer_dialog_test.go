package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/ui/designer"
)

const sensorsDDL = "CREATE TABLE `my-sensors` (\n  id BIGINT NOT NULL,\n  reading DECIMAL(10, 3),\n  ts TIMESTAMP(3),\n  doubled AS reading * 2,\n" +
	"  PRIMARY KEY (id) NOT ENFORCED,\n  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND\n)\nWITH (\n  'connector' = 'datagen'\n)"

var sensorsPath = []string{"default_catalog", "default_database", "my-sensors"}

// openSensors creates my-sensors (recorded in the init script) and opens
// the designer on it with the QA edit made through the form: reading
// renamed to val and widened, the watermark delay shortened, a column
// added.
func openSensors(h *harness) (*designer.Dialog, *authoring.SavedTable) {
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
	dd.Rows[1].Name.SetText("val")
	dd.Rows[1].Params.Objects[0].(*fyne.Container).Objects[0].(*widget.Entry).SetText("12")
	dd.WmDelay.SetText("2")
	test.Tap(dd.AddColumn)
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
	if !dd.Apply.Disabled() || !strings.Contains(dd.Problems.Text, "✕ column 4 doubled: the expression refers to reading, which is renamed to val: change the expression too") {
		t.Fatalf("apply enabled %v; problems:\n%s", !dd.Apply.Disabled(), dd.Problems.Text)
	}
	dd.Rows[3].Expr.SetText("val * 2")
	if dd.Apply.Disabled() {
		t.Fatalf("problems:\n%s", dd.Problems.Text)
	}
	// the preview shows what runs: doubled dropped and added back
	got := dd.Preview.Text()
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
	dd.Rows[3].Expr.SetText("no_such_function(val)")
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
	if !strings.HasPrefix(dd.Problems.Text, "✕ Nothing was changed") || dd.Apply.Disabled() {
		t.Errorf("problems %q, apply enabled %v", dd.Problems.Text, !dd.Apply.Disabled())
	}
	h.sensorsUnchanged(saved)
}

// TestDesignerPutsTheTableBackWhenAStatementFails: should a statement
// fail for real after others ran, the table is created again from its
// saved DDL, and the init script (unchanged) agrees with the session.
func TestDesignerPutsTheTableBackWhenAStatementFails(t *testing.T) {
	h := newHarness(t)
	dd, saved := openSensors(h)
	dd.Rows[3].Expr.SetText("val * 2")
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

// TestDesignerMovingACSVColumnNeedsConfirmation: csv reads fields by
// position; a moved column is a problem until the user confirms it.
func TestDesignerMovingACSVColumnNeedsConfirmation(t *testing.T) {
	h := newHarness(t)
	dd := h.wb.showTableDesigner(&catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "flights", Kind: catalogbrowser.KindTable})
	if dd.Positions.Visible() {
		t.Fatal("confirmation shown for an unchanged table")
	}
	test.Tap(dd.Rows[2].Up)
	if !dd.Apply.Disabled() || !dd.Positions.Visible() ||
		!strings.Contains(dd.Problems.Text, "✕ columns: csv maps the fields of each record to the columns by position: ") {
		t.Fatalf("apply enabled %v, confirmation %v; problems:\n%s", !dd.Apply.Disabled(), dd.Positions.Visible(), dd.Problems.Text)
	}
	dd.Positions.SetChecked(true)
	if dd.Apply.Disabled() || !strings.Contains(dd.Problems.Text, "⚠ columns: csv maps") || !strings.Contains(dd.Preview.Text(), "MODIFY") {
		t.Fatalf("confirmed: apply enabled %v; problems:\n%s\npreview:\n%s", !dd.Apply.Disabled(), dd.Problems.Text, dd.Preview.Text())
	}
	test.Tap(dd.Rows[1].Down) // back in place
	if dd.Positions.Visible() || dd.Preview.Text() != "-- no changes" {
		t.Errorf("moved back: confirmation %v, preview %q", dd.Positions.Visible(), dd.Preview.Text())
	}
}

func TestDesignerCreatesANewTable(t *testing.T) {
	h := newHarness(t)
	dd := h.wb.showTableDesigner(nil)
	if dd.Apply.Disabled() == false {
		t.Error("a design without a name or path can be applied")
	}
	dd.Name.SetText("orders")
	// columns through the form
	dd.Rows[0].Name.SetText("order_id")
	dd.Rows[0].NotNull.SetChecked(true)
	test.Tap(dd.AddColumn)
	dd.Rows[1].Name.SetText("amount")
	dd.Rows[1].Type.SetSelected("DECIMAL")
	dd.Rows[1].Params.Objects[0].(*fyne.Container).Objects[0].(*widget.Entry).SetText("10")
	dd.Rows[1].Params.Objects[1].(*fyne.Container).Objects[0].(*widget.Entry).SetText("2")
	test.Tap(dd.AddColumn)
	dd.Rows[2].Name.SetText("ts")
	dd.Rows[2].Type.SetSelected("TIMESTAMP")
	dd.Rows[2].Params.Objects[0].(*fyne.Container).Objects[0].(*widget.Entry).SetText("3")
	test.Tap(dd.AddColumn)
	dd.Rows[3].Name.SetText("total")
	dd.Rows[3].Kind.SetSelected("computed")
	dd.Rows[3].Expr.SetText("amount * 2")
	dd.PK.SetSelected([]string{"order_id"})
	dd.WmCheck.SetChecked(true)
	dd.WmColumn.SetSelected("ts")
	dd.WmDelay.SetText("5")
	// options: required path, a bad delimiter shown next to its field
	if p := dd.OptionProblems["path"]; p == nil || p.Text != "required" {
		t.Fatalf("path problem %v", p)
	}
	dir := t.TempDir()
	dd.OptionInputs["path"].(*widget.Entry).SetText(dir)
	dd.OptionInputs["csv.field-delimiter"].(*widget.Entry).SetText(";;")
	if p := dd.OptionProblems["csv.field-delimiter"].Text; p == "" || !dd.Apply.Disabled() {
		t.Errorf("bad delimiter: problem %q, apply enabled %v", p, !dd.Apply.Disabled())
	}
	dd.OptionInputs["csv.field-delimiter"].(*widget.Entry).SetText(";")
	want := "CREATE TABLE orders (\n" +
		"  order_id BIGINT NOT NULL,\n" +
		"  amount DECIMAL(10, 2),\n" +
		"  ts TIMESTAMP(3),\n" +
		"  total AS amount * 2,\n" +
		"  PRIMARY KEY (order_id) NOT ENFORCED,\n" +
		"  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND\n" +
		")\n" +
		"WITH (\n" +
		"  'connector' = 'filesystem',\n" +
		"  'path' = '" + dir + "',\n" +
		"  'format' = 'csv',\n" +
		"  'csv.field-delimiter' = ';'\n" +
		");"
	if got := dd.Preview.Text(); got != want {
		t.Fatalf("preview:\n%s\nwant\n%s\nproblems: %s", got, want, dd.Problems.Text)
	}
	if err := h.applyDesign(dd); err != nil {
		t.Fatal(err)
	}
	tab, err := h.wb.Env().FromPath("orders")
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.GetResolvedSchema().String(); !strings.Contains(got, "`total` DECIMAL(21, 2)") || !strings.Contains(got, "`ts` TIMESTAMP(3) *ROWTIME*") {
		t.Errorf("schema %s", got)
	}
	if !strings.Contains(h.wb.initScript, "CREATE TABLE orders (") {
		t.Errorf("init script:\n%s", h.wb.initScript)
	}
	if got := strings.Join(h.wb.catalog.VisibleLabels(), "\n"); !strings.Contains(got, "orders") {
		t.Errorf("catalog:\n%s", got)
	}
}

func TestDesignerEditsATableWithAlter(t *testing.T) {
	h := newHarness(t)
	h.wb.catalog.OpenPath("default_catalog", "default_database", "airports")
	m := h.wb.catalog.MenuFor("o\x1fdefault_catalog\x1fdefault_database\x1fairports")
	var edit *fyne.MenuItem
	for _, it := range m.Items {
		if it.Label == "Edit table…" {
			edit = it
		}
	}
	if edit == nil {
		t.Fatal("no Edit table… in the catalog menu")
	}
	edit.Action()
	dd := h.wb.authoring().designer
	if dd == nil || dd.Design().IsNew() || len(dd.Rows) != 7 || dd.Rows[0].Name.Text != "iata" {
		t.Fatalf("designer not filled: %+v", dd)
	}
	if dd.Preview.Text() != "-- no changes" || !dd.Apply.Disabled() {
		t.Errorf("unchanged table: preview %q", dd.Preview.Text())
	}
	// rename a column, change a type, drop one, add one, set an option
	dd.Rows[1].Name.SetText("airport_name")
	test.Tap(dd.Rows[4].Del) // country
	test.Tap(dd.AddColumn)
	last := dd.Rows[len(dd.Rows)-1]
	last.Name.SetText("elevation")
	last.Type.SetSelected("INT")
	dd.PK.SetSelected([]string{"iata"})
	dd.OptionInputs["csv.ignore-parse-errors"].(*widget.Select).SetSelected("true")
	// csv reads fields by position: dropping country shifts the columns
	// after it, which the user must confirm
	if !dd.Apply.Disabled() || !dd.Positions.Visible() || !strings.Contains(dd.Problems.Text, "latitude would read field 5 instead of 6") {
		t.Fatalf("dropping a csv column: apply enabled %v, confirmation shown %v; problems:\n%s", !dd.Apply.Disabled(), dd.Positions.Visible(), dd.Problems.Text)
	}
	dd.Positions.SetChecked(true)
	got := dd.Preview.Text()
	for _, w := range []string{
		"ALTER TABLE default_catalog.default_database.airports\n  DROP (country)",
		"ALTER TABLE default_catalog.default_database.airports\n  RENAME name TO airport_name",
		"ALTER TABLE default_catalog.default_database.airports\n  ADD elevation INT",
		"ALTER TABLE default_catalog.default_database.airports\n  ADD PRIMARY KEY (iata) NOT ENFORCED",
		"ALTER TABLE default_catalog.default_database.airports\n  SET (\n  'csv.ignore-parse-errors' = 'true'\n)",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("preview lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "DROP TABLE") {
		t.Errorf("drop-and-create for alterable changes:\n%s", got)
	}
	if err := h.applyDesign(dd); err != nil {
		t.Fatal(err)
	}
	tab, _ := h.wb.Env().FromPath("airports")
	names := strings.Join(tab.GetSchema().GetFieldNames(), ",")
	if names != "iata,airport_name,city,state,latitude,longitude,elevation" {
		t.Errorf("columns after ALTER: %s", names)
	}
	// the init script's CREATE TABLE now is the new definition
	if !strings.Contains(h.wb.initScript, "airport_name STRING") || strings.Contains(h.wb.initScript, "country") {
		t.Errorf("init script:\n%s", h.wb.initScript)
	}
}

func TestDesignerAsksBeforeDropAndCreate(t *testing.T) {
	h := newHarness(t)
	dd := h.wb.showTableDesigner(&catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "flights", Kind: catalogbrowser.KindTable})
	dd.Comment.SetText("departures")
	if got := dd.Preview.Text(); !strings.Contains(got, "-- Flink cannot ALTER this: the table comment cannot be altered") || !strings.Contains(got, "DROP TABLE default_catalog.default_database.flights;") {
		t.Fatalf("preview:\n%s", got)
	}
	if err := h.applyDesign(dd); err != nil {
		t.Fatal(err)
	}
	if h.wb.authoring().confirm == nil {
		t.Fatal("not asked")
	}
	rt := h.runBatch("SELECT COUNT(*) FROM flights")
	if got := rows(rt.Grid()); len(got) != 1 || got[0] == "0" {
		t.Errorf("flights after drop-and-create: %q; messages:\n%s", got, h.messages())
	}
	if !strings.Contains(h.wb.initScript, "COMMENT 'departures'") {
		t.Errorf("init script:\n%s", h.wb.initScript)
	}
}

// createFlightsWithRowtime opens the flights extract with its rowtime.
func (h *harness) createFlightsWithRowtime() string {
	h.t.Helper()
	path, _ := filepath.Abs(filepath.Join("..", "..", "engine", "connector", "testdata", "flights-head2000.csv"))
	h.wb.openDataFile(path)
	h.waitBG()
	r := h.wb.authoring().review
	test.Tap(r.CreateButton())
	h.waitBG()
	if r.Created() == "" {
		h.t.Fatalf("flights not created: %s", r.StatusLabel().Text)
	}
	return r.Created()
}
