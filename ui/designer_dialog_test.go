package ui

import (
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
