package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

func TestRunToFileWritesEveryRowWithoutAGrid(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin ORDER BY n DESC LIMIT 3")
	tab.mode = modeBatch
	target := filepath.Join(t.TempDir(), "top.csv")
	f := h.wb.runToFileCurrent()
	f.Path.SetText(target)
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
	h.wb.env.Config().Set("parallelism.default", "1") // the lines in one task's order
	tab := h.newTab("")
	tab.ed.SetText(`CREATE TEMPORARY TABLE s (k BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000',
  'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '100000000');
SELECT k FROM s`)
	h.runAll() // registers s (the query then runs into a grid: stop it)
	h.wb.results[0].Stop()
	tab.ed.SetCursor(2, 3)
	dir := t.TempDir()
	target := filepath.Join(dir, "stream.csv")
	f := h.wb.runToFileCurrent()
	f.Path.SetText(target)
	f.Header.SetChecked(false)
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
	h.wb.results[0].Stop()
	tab.ed.SetCursor(1, 3)
	dir := t.TempDir()
	target := filepath.Join(dir, "old.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := h.wb.runToFileCurrent()
	f.Path.SetText(target)
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

// Run to CSV file writes as an export does (results.WriteFileAtomic): a
// symbolic link is written through and stays a link, the file it points
// to keeps its mode 0600, the temporary files killed runs left beside it
// are removed (those of a running process are kept), and a directory is
// refused with an error that leaves it untouched.
func TestRunToFileKeepsLinksModesAndCleansUp(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin ORDER BY n DESC LIMIT 2")
	tab.mode = modeBatch
	dir, linkDir := t.TempDir(), t.TempDir()
	target := filepath.Join(dir, "real.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(linkDir, "link.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	ended := exec.Command("true") // a process that is gone: its files are leftovers
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, fmt.Sprintf(".real.csv.riffle-%d-123.partial", ended.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf(".real.csv.riffle-%d-456.partial", os.Getpid()))
	oldTmp := filepath.Join(dir, ".real.csv.12345.tmp") // the naming before WriteFileAtomic
	recentTmp := filepath.Join(dir, ".real.csv.67890.tmp")
	for _, p := range []string{stale, live, oldTmp, recentTmp} {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dayAgo := time.Now().Add(-25 * time.Hour)
	if err := os.Chtimes(oldTmp, dayAgo, dayAgo); err != nil {
		t.Fatal(err)
	}

	f := h.wb.runToFileCurrent()
	f.Path.SetText(link)
	h.wb.startFromForm(f) // the dialog would ask before replacing
	h.settle()
	h.until("the file", func() bool { return len(h.wb.fileRuns) == 0 })
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v; messages:\n%s", err, h.messages())
	}
	b, err := os.ReadFile(target)
	if err != nil || string(b) != "origin,n\nORD,12498\nDFW,12053\n" {
		t.Fatalf("target holds %q (%v); messages:\n%s", b, err, h.messages())
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600 kept", st.Mode().Perm())
	}
	for p, want := range map[string]bool{stale: false, live: true, oldTmp: false, recentTmp: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	if entries, _ := os.ReadDir(linkDir); len(entries) != 1 {
		t.Errorf("files beside the link: %v", entries)
	}

	// a directory is refused; nothing is written into it or beside it
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir)
	f = h.wb.runToFileCurrent()
	f.Path.SetText(sub)
	h.wb.startFromForm(f)
	h.settle()
	h.until("the run to end", func() bool { return len(h.wb.fileRuns) == 0 })
	if !strings.Contains(h.messages(), "[ERROR] Writing "+sub+" failed (the file was not changed): export: "+sub+" is not a regular file") {
		t.Errorf("messages:\n%s", h.messages())
	}
	if st, err := os.Stat(sub); err != nil || !st.IsDir() {
		t.Errorf("the directory is gone: %v", err)
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("files before %v, after %v", before, after)
	}
}
