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
	path, _ := filepath.Abs(filepath.Join("..", "..", "engine", "connector", "testdata", "flights-head2000.csv"))
	dd := h.wb.showTableDesigner(nil)
	h.q.drain()
	in, ok := dd.OptionInputs["path"].(*widget.Entry)
	if !ok {
		t.Fatalf("no path entry: %T", dd.OptionInputs["path"])
	}
	in.SetText(path)
	h.waitBG()
	var cols []string
	for _, c := range dd.Design().Columns {
		cols = append(cols, c.Name+" "+c.Type.SQL())
	}
	if got := strings.Join(cols, ", "); got != "date TIMESTAMP(0), delay BIGINT, distance BIGINT, origin STRING, destination STRING" {
		t.Errorf("columns %q", got)
	}
	if v, _ := dd.Design().Option("csv.ignore-first-line"); v != "true" {
		t.Errorf("csv.ignore-first-line %q", v)
	}
	if len(dd.Design().Path) != 1 || !strings.HasPrefix(dd.Design().Path[0], "flights") || dd.Name.Text != dd.Design().Path[0] {
		t.Errorf("table name %q, entry %q", dd.Design().Path, dd.Name.Text)
	}
	if !strings.Contains(dd.Problems.Text, "No problems") || dd.Apply.Disabled() {
		t.Errorf("problems:\n%s", dd.Problems.Text)
	}
	// without the header option the designer says why reading would fail
	dd.Design().RemoveOption("csv.ignore-first-line")
	dd.Changed()
	if !strings.Contains(dd.Problems.Text, "starts with a header row (date, delay, distance, origin, …)") || !dd.Apply.Disabled() {
		t.Errorf("problems without the header option:\n%s", dd.Problems.Text)
	}
	dd.Design().SetOption("csv.ignore-first-line", "true")
	dd.Design().Columns = dd.Design().Columns[:3]
	dd.Changed()
	if !strings.Contains(dd.Problems.Text, "has 5 fields a row, the table 3 physical columns") {
		t.Errorf("problems with 3 columns:\n%s", dd.Problems.Text)
	}
	// once the columns are the user's, another path checks but keeps them
	in.SetText(filepath.Join(filepath.Dir(path), "no-such-file.csv"))
	h.waitBG()
	if len(dd.Design().Columns) != 3 || strings.Contains(dd.Problems.Text, "fields a row") {
		t.Errorf("after a missing file: %d columns, problems:\n%s", len(dd.Design().Columns), dd.Problems.Text)
	}
	dd.Hide()
}
