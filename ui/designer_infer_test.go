package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

// File ▸ New table… with the path of a CSV file takes the columns File ▸
// Open infers and skips the header row; the designer then checks the
// header option and the field count against the file (issue 21).
func TestNewTableInfersColumnsOfACSVPath(t *testing.T) {
	h := newHarness(t)
	path, _ := filepath.Abs(filepath.Join("..", "engine", "connector", "testdata", "flights-head2000.csv"))
	dd := h.wb.showTableDesigner(nil)
	h.q.drain()
	in, ok := dd.optionInputs["path"].(*widget.Entry)
	if !ok {
		t.Fatalf("no path entry: %T", dd.optionInputs["path"])
	}
	in.SetText(path)
	h.waitBG()
	var cols []string
	for _, c := range dd.d.Columns {
		cols = append(cols, c.Name+" "+c.Type.SQL())
	}
	if got := strings.Join(cols, ", "); got != "date TIMESTAMP(0), delay BIGINT, distance BIGINT, origin STRING, destination STRING" {
		t.Errorf("columns %q", got)
	}
	if v, _ := dd.d.Option("csv.ignore-first-line"); v != "true" {
		t.Errorf("csv.ignore-first-line %q", v)
	}
	if len(dd.d.Path) != 1 || !strings.HasPrefix(dd.d.Path[0], "flights") || dd.name.Text != dd.d.Path[0] {
		t.Errorf("table name %q, entry %q", dd.d.Path, dd.name.Text)
	}
	if !strings.Contains(dd.problems.Text, "No problems") || dd.apply.Disabled() {
		t.Errorf("problems:\n%s", dd.problems.Text)
	}
	// without the header option the designer says why reading would fail
	dd.d.RemoveOption("csv.ignore-first-line")
	dd.changed()
	if !strings.Contains(dd.problems.Text, "starts with a header row (date, delay, distance, origin, …)") || !dd.apply.Disabled() {
		t.Errorf("problems without the header option:\n%s", dd.problems.Text)
	}
	dd.d.SetOption("csv.ignore-first-line", "true")
	dd.d.Columns = dd.d.Columns[:3]
	dd.changed()
	if !strings.Contains(dd.problems.Text, "has 5 fields a row, the table 3 physical columns") {
		t.Errorf("problems with 3 columns:\n%s", dd.problems.Text)
	}
	// once the columns are the user's, another path checks but keeps them
	in.SetText(filepath.Join(filepath.Dir(path), "no-such-file.csv"))
	h.waitBG()
	if len(dd.d.Columns) != 3 || strings.Contains(dd.problems.Text, "fields a row") {
		t.Errorf("after a missing file: %d columns, problems:\n%s", len(dd.d.Columns), dd.problems.Text)
	}
	dd.dlg.Hide()
}
