package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/ui/exportform"
)

// tricky has commas, quotes, line breaks, unicode, NULL and ”.
const tricky = `SELECT * FROM (VALUES
  (1, 'plain', 1.5),
  (2, 'a,b', CAST(NULL AS DECIMAL(3, 1))),
  (3, 'say "hi"', 2.0),
  (4, 'two
lines', 3.0),
  (5, 'Ünïcødé ✓', 4.0),
  (6, CAST(NULL AS STRING), 5.0),
  (7, '', 6.0)
) AS t(id, s, d)`

func TestExportDialogWritesTheFileByteForByte(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText(tricky)
	rt := h.runStatement()
	h.waitDone(rt)
	dir := t.TempDir()
	target := filepath.Join(dir, "out.csv")

	f := h.wb.showExportDialog(rt)
	if f.RowsLabel.Text != "7 rows of the table view" {
		t.Errorf("rows label %q", f.RowsLabel.Text)
	}
	f.Path.SetText(target)
	f.Delimiter.SetSelected("Semicolon ;")
	f.Policy.SetSelected("As needed")
	f.NullText.SetText("NULL")
	f.EOL.SetSelected(exportform.EOLChoices[1]) // CRLF
	f.BOM.SetChecked(true)
	f.dlg.Confirm()
	h.settle()
	h.until("the export to finish", func() bool { return len(h.wb.exports) == 0 })

	got, err := os.ReadFile(target)
	if err != nil {
		t.Fatalf("%v; messages:\n%s", err, h.messages())
	}
	want := "\xEF\xBB\xBFid;s;d\r\n" +
		"1;plain;1.5\r\n" +
		"2;a,b;NULL\r\n" +
		"3;\"say \"\"hi\"\"\";2.0\r\n" +
		"4;\"two\nlines\";3.0\r\n" +
		"5;Ünïcødé ✓;4.0\r\n" +
		"6;NULL;5.0\r\n" +
		"7;;6.0\r\n"
	if string(got) != want {
		t.Errorf("file:\n%q\nwant:\n%q", got, want)
	}
	if !strings.Contains(h.messages(), "Exported 7 rows to "+target) {
		t.Errorf("messages:\n%s", h.messages())
	}
	// The choices are remembered in the workspace.
	f2 := h.wb.newExportForm(rt)
	if f2.Delimiter.Selected != "Semicolon ;" || !f2.BOM.Checked || f2.NullText.Text != "NULL" || f2.EOL.Selected != exportform.EOLChoices[1] ||
		filepath.Dir(f2.Path.Text) != dir {
		t.Errorf("remembered: %q %v %q %q %q", f2.Delimiter.Selected, f2.BOM.Checked, f2.NullText.Text, f2.EOL.Selected, f2.Path.Text)
	}
}

func TestExportQuoteAllKeepsNullApartFromEmpty(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText(tricky)
	rt := h.runStatement()
	h.waitDone(rt)
	target := filepath.Join(t.TempDir(), "q.csv")
	f := h.wb.showExportDialog(rt)
	f.Path.SetText(target)
	f.Policy.SetSelected("All but NULLs")
	f.Header.SetChecked(false)
	f.dlg.Confirm()
	h.until("the export to finish", func() bool { return len(h.wb.exports) == 0 })
	got, _ := os.ReadFile(target)
	lines := strings.Split(string(got), "\n")
	if lines[1] != `"2","a,b",` || lines[6] != `"6",,"5.0"` || lines[7] != `"7","","6.0"` {
		t.Errorf("lines %q", lines)
	}
}

func TestCancelledExportLeavesNoFile(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT 1 AS a")
	rt := h.runStatement()
	h.waitDone(rt)
	// Hold the export in the middle of writing until it is cancelled.
	writing := make(chan string, 1)
	h.wb.exportCSV = func(ctx context.Context, rows results.Rows, path string, opts results.CSVOptions, progress func(int, int)) error {
		return results.ExportCSV(ctx, &slowRows{Rows: rows, ctx: ctx, started: writing}, path, opts, progress)
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "never.csv")
	f := h.wb.showExportDialog(rt)
	f.Path.SetText(target)
	f.dlg.Confirm()
	<-writing // the temporary file exists now
	if len(h.wb.exports) != 1 {
		t.Fatal("no export running")
	}
	job := h.wb.exports[0]
	h.wb.Tick()
	if job.label.Text != "0 of 1 row written" {
		t.Errorf("progress label %q", job.label.Text)
	}
	test.Tap(job.cancelB) // the progress dialog's Cancel
	h.until("the export to stop", func() bool { return len(h.wb.exports) == 0 })
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
	if !strings.Contains(h.messages(), "Export canceled; "+target+" was not changed.") {
		t.Errorf("messages:\n%s", h.messages())
	}
}

func TestCancelledExportKeepsTheOldFile(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT 1 AS a")
	rt := h.runStatement()
	h.waitDone(rt)
	writing := make(chan string, 1)
	h.wb.exportCSV = func(ctx context.Context, rows results.Rows, path string, opts results.CSVOptions, progress func(int, int)) error {
		return results.ExportCSV(ctx, &slowRows{Rows: rows, ctx: ctx, started: writing}, path, opts, progress)
	}
	target := filepath.Join(t.TempDir(), "old.csv")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := h.wb.startExport(rt, rt.Res.Freeze(results.TableView), target, results.FormatCSV, results.DefaultCSVOptions())
	<-writing
	j.canceled.Store(true)
	j.cancel()
	h.until("the export to stop", func() bool { return len(h.wb.exports) == 0 })
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("target now %q", b)
	}
}

func TestExportOfARunningStreamWritesItsSnapshot(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '500');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Res.Len(results.TableView) >= 20 })
	f := h.wb.showExportDialog(rt)
	n := f.frozen.Len()
	if !strings.Contains(f.RowsLabel.Text, "(a snapshot: the query is still running)") {
		t.Errorf("rows label %q", f.RowsLabel.Text)
	}
	target := filepath.Join(t.TempDir(), "snap.csv")
	f.Path.SetText(target)
	f.dlg.Confirm()
	h.until("the export to finish", func() bool { return len(h.wb.exports) == 0 })
	b, _ := os.ReadFile(target)
	if lines := strings.Count(string(b), "\n"); lines != n+1 {
		t.Errorf("%d lines for a snapshot of %d rows", lines, n)
	}
	if !rt.IsRunning() {
		t.Error("the export stopped the query")
	}
	rt.Stop()
	h.waitDone(rt)
}

// slowRows blocks after the first row until ctx is cancelled, so that a
// test can cancel an export in the middle.
type slowRows struct {
	results.Rows
	ctx     context.Context
	started chan string
	once    bool
}

func (s *slowRows) Len() int { return 1_000_000 }

func (s *slowRows) AppendText(dst []byte, row, col int) ([]byte, bool) {
	if row > 0 {
		if !s.once {
			s.once = true
			s.started <- "writing"
		}
		<-s.ctx.Done()
		return append(dst, 'x'), false
	}
	return s.Rows.AppendText(dst, row, col)
}

func TestExportDialogJSONLinesAndParquet(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText(tricky)
	rt := h.runStatement()
	h.waitDone(rt)
	dir := t.TempDir()

	f := h.wb.showExportDialog(rt)
	if f.FormatSelect.Selected != "CSV" || !strings.HasSuffix(f.Path.Text, ".csv") || f.Delimiter.Disabled() {
		t.Fatalf("defaults: %q %q %v", f.FormatSelect.Selected, f.Path.Text, f.Delimiter.Disabled())
	}
	f.Path.SetText(filepath.Join(dir, "out.csv"))
	f.FormatSelect.SetSelected("JSON Lines")
	if f.Path.Text != filepath.Join(dir, "out.jsonl") || !f.Delimiter.Disabled() || !f.BOM.Disabled() {
		t.Errorf("JSON Lines: path %q, CSV options disabled %v", f.Path.Text, f.Delimiter.Disabled())
	}
	f.dlg.Confirm()
	h.until("the export to finish", func() bool { return len(h.wb.exports) == 0 })
	got, err := os.ReadFile(filepath.Join(dir, "out.jsonl"))
	if err != nil {
		t.Fatalf("%v; messages:\n%s", err, h.messages())
	}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != 7 || lines[0] != `{"id":1,"s":"plain","d":1.5}` || lines[1] != `{"id":2,"s":"a,b","d":null}` ||
		lines[2] != `{"id":3,"s":"say \"hi\"","d":2.0}` || lines[3] != `{"id":4,"s":"two\nlines","d":3.0}` || lines[5] != `{"id":6,"s":null,"d":5.0}` {
		t.Errorf("lines:\n%s", got)
	}

	// Parquet: the extension follows, the choice is remembered
	f = h.wb.showExportDialog(rt)
	if f.FormatSelect.Selected != "JSON Lines" || !strings.HasSuffix(f.Path.Text, ".jsonl") {
		t.Errorf("remembered: %q %q", f.FormatSelect.Selected, f.Path.Text)
	}
	f.FormatSelect.SetSelected("Parquet")
	if !strings.HasSuffix(f.Path.Text, ".parquet") {
		t.Errorf("parquet path %q", f.Path.Text)
	}
	target := filepath.Join(dir, "out.parquet")
	f.Path.SetText(target)
	f.dlg.Confirm()
	h.until("the export to finish", func() bool { return len(h.wb.exports) == 0 })
	if !strings.Contains(h.messages(), "Exported 7 rows to "+target) {
		t.Fatalf("messages:\n%s", h.messages())
	}
	res, err := infer.File(target, infer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 7 || len(res.Columns) != 3 || res.Columns[0].Name != "id" || res.Columns[1].Type.String() != "STRING" {
		t.Errorf("read back: %d rows, columns %+v", res.Records, res.Columns)
	}
	if res.Columns[2].Nulls != 1 || res.Columns[1].Example != "plain" {
		t.Errorf("read back: nulls %d example %q", res.Columns[2].Nulls, res.Columns[1].Example)
	}
}
