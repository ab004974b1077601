package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestRunToFileWritesEveryRowWithoutAGrid(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin ORDER BY n DESC LIMIT 3")
	tab.mode = modeBatch
	target := filepath.Join(t.TempDir(), "top.csv")
	f := h.wb.runToFileCurrent()
	f.path.SetText(target)
	f.dlg.Confirm()
	h.settle()
	h.until("the file", func() bool { return len(h.wb.fileRuns) == 0 })
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatalf("%v; messages:\n%s", err, h.messages())
	}
	// Counts checked with sqlite3 over the same CSV file.
	if got := string(b); got != "origin,n\nORD,12498\nDFW,12053\nATL,9552\n" {
		t.Errorf("file %q", got)
	}
	if len(h.wb.results) != 0 {
		t.Error("a grid was filled")
	}
	if !strings.Contains(h.messages(), "Wrote 3 rows to "+target) {
		t.Errorf("messages:\n%s", h.messages())
	}
}

func TestRunToFileOfAStreamKeepsWhatWasWritten(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText(`CREATE TEMPORARY TABLE s (k BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000',
  'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '100000000');
SELECT k FROM s`)
	h.runAll() // registers s (the query then runs into a grid: stop it)
	h.wb.results[0].stop()
	tab.ed.SetCursor(2, 3)
	dir := t.TempDir()
	target := filepath.Join(dir, "stream.csv")
	f := h.wb.runToFileCurrent()
	f.path.SetText(target)
	f.header.SetChecked(false)
	f.dlg.Confirm()
	h.settle()
	if len(h.wb.fileRuns) != 1 {
		t.Fatalf("no file run; messages:\n%s", h.messages())
	}
	fr := h.wb.fileRuns[0]
	h.until("rows", func() bool { return fr.written.Load() >= 50 })
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the target exists before the run ends: %v", err)
	}
	test.Tap(fr.keepB)
	h.until("the file", func() bool { return len(h.wb.fileRuns) == 0 })
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatalf("%v; messages:\n%s", err, h.messages())
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) < 50 || lines[0] != "+I,1" || lines[49] != "+I,50" {
		t.Errorf("%d lines: %q …", len(lines), lines[:min(3, len(lines))])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files: %v", entries)
	}
}

func TestRunToFileCancelLeavesTheTargetAlone(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText(`CREATE TEMPORARY TABLE s (k BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000');
SELECT k FROM s`)
	h.runAll()
	h.wb.results[0].stop()
	tab.ed.SetCursor(1, 3)
	dir := t.TempDir()
	target := filepath.Join(dir, "old.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := h.wb.runToFileCurrent()
	f.path.SetText(target)
	h.wb.startFromForm(f) // the dialog would ask before replacing
	h.settle()
	fr := h.wb.fileRuns[0]
	h.until("rows", func() bool { return fr.written.Load() > 0 })
	test.Tap(fr.cancelB)
	h.until("the run to end", func() bool { return len(h.wb.fileRuns) == 0 })
	if b, _ := os.ReadFile(target); string(b) != "old\n" {
		t.Errorf("target now %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
	if !strings.Contains(h.messages(), "Canceled; "+target+" was not changed.") {
		t.Errorf("messages:\n%s", h.messages())
	}
}
