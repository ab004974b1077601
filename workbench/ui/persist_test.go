package ui

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/dialogs"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

func TestCloseAndReopenBringsEverythingBack(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	// Edit the demo's second tab, add two tabs, rename, reorder, close one.
	demo2 := h.wb.editors.list[1]
	demo2.ed.SetText("SELECT 2;\nSELECT hour_of_day FROM flights")
	demo2.ed.SetCursor(1, 7)
	a := h.newTab("CREATE TABLE kept (a INT) WITH ('connector' = 'datagen')")
	h.runStatement()
	h.wb.editors.rename(a, "DDL")
	b := h.newTab("SELECT 'b'")
	h.wb.editors.move(b, -1) // before "DDL"
	h.wb.editors.close(h.wb.editors.list[0], false)
	h.wb.editors.tabs.Select(demo2.item)
	h.wb.editors.list[1].mode = modeBatch
	h.wb.editors.saveMode(h.wb.editors.list[1])
	h.wb.vsplit.SetOffset(0.35)
	want := []string{"Flights by hour", "Live stream", "Live flights", "Kafka flights", "Query 1", "DDL"}
	var got []string
	for _, t := range h.wb.editors.list {
		got = append(got, t.title)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("tabs before closing %q", got)
	}
	h.close()

	h2 := open(t, path)
	defer h2.close()
	got = nil
	for _, t := range h2.wb.editors.list {
		got = append(got, t.title+"/"+t.mode)
	}
	if want := "Flights by hour/Batch|Live stream/Batch|Live flights/Streaming|Kafka flights/Streaming|Query 1/Streaming|DDL/Streaming"; strings.Join(got, "|") != want {
		t.Errorf("tabs after reopening %q, want %q", got, want)
	}
	cur := h2.tab()
	if cur.title != "Flights by hour" || cur.ed.Text() != "SELECT 2;\nSELECT hour_of_day FROM flights" {
		t.Errorf("selected tab %q: %q", cur.title, cur.ed.Text())
	}
	if l, c := cur.ed.CursorPosition(); l != 1 || c != 7 {
		t.Errorf("cursor %d:%d, want 1:7", l, c)
	}
	if off := h2.wb.vsplit.Offset; off < 0.34 || off > 0.36 {
		t.Errorf("results split %v, want 0.35", off)
	}
	// The table created by DDL came back through the init script.
	if _, err := h2.wb.env.ExecuteSQL("DESCRIBE kept"); err != nil {
		t.Errorf("table kept is gone: %v", err)
	}
	// History keeps the statements, newest first.
	if len(h2.wb.history.Entries()) == 0 || !strings.HasPrefix(h2.wb.history.Entries()[0].Statement, "CREATE TABLE kept") {
		t.Errorf("history %+v", h2.wb.history.Entries())
	}
}

func TestHistoryReopensAStatementInTheEditor(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT 7 AS seven")
	h.runStatement()
	h.wb.history.Open(0)
	if got := h.tab().ed.Text(); got != "SELECT 7 AS seven;\n" || h.tab().title != "Query 2" {
		t.Errorf("reopened %q in %q", got, h.tab().title)
	}
	h.wb.history.Insert(0)
	if got := h.tab().ed.Text(); got != "SELECT 7 AS sevenSELECT 7 AS seven;\n" {
		t.Errorf("after insert %q", got)
	}
}

func TestEditsAreSavedWithoutClosing(t *testing.T) {
	// What a killed process leaves behind: the autosaver writes within two
	// seconds, Flush writes at once.
	h := newHarness(t)
	tab := h.newTab("SELECT 'unsaved'")
	if err := h.wb.saver.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	tabs, err := h.wb.store.Tabs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	last := tabs[len(tabs)-1]
	if last.ID != tab.id || last.Text != "SELECT 'unsaved'" || last.CursorCol != 16 || last.Order != 5 {
		t.Errorf("stored %+v", last)
	}
}

func TestNewerWorkspaceIsRefused(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	h.close()
	// Pretend a newer Riffle wrote it.
	db := openSQLite(t, path)
	if _, err := db.Exec(`UPDATE schema_version SET version = 999`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := New(test.NewWindow(nil), Options{Workspace: path, DataDir: sharedDataDir(t), NoTicker: true}); err == nil ||
		!strings.Contains(err.Error(), "newer version") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}

func openSQLite(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestClosingStopsRunningQueriesAsCanceled(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	h.newTab("CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');\nSELECT k FROM s")
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Res.Len(0) > 0 })
	h.close()
	if rt.State() != resulttab.Canceled {
		t.Errorf("state after closing: %s", rt.State())
	}
	h2 := open(t, path)
	defer h2.close()
	if e := h2.wb.history.Entries()[0]; !strings.HasPrefix(e.Statement, "SELECT k FROM s") || e.Error != "canceled" {
		t.Errorf("history %+v", e)
	}
}

func TestSampleDataComesBackWhenTheCacheWasCleaned(t *testing.T) {
	test.NewTempApp(t)
	data := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path, func(o *Options) { o.DataDir = data })
	h.close()
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	h2 := open(t, path, func(o *Options) { o.DataDir = data })
	defer h2.close()
	h2.newTab("SELECT COUNT(*) AS n FROM flights")
	h2.tab().mode = modeBatch
	rt := h2.runStatement()
	h2.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "228738" {
		t.Errorf("count %q; messages:\n%s", got, h2.messages())
	}
}

func TestUnwritableDataFolderStillOpensTheWorkspace(t *testing.T) {
	test.NewTempApp(t)
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h := open(t, filepath.Join(t.TempDir(), "ws.riffle"), func(o *Options) { o.DataDir = filepath.Join(blocker, "data") })
	defer h.close()
	if len(h.wb.editors.list) != 1 || h.tab().ed.Text() != "" {
		t.Errorf("%d tabs", len(h.wb.editors.list))
	}
	if !strings.Contains(h.messages(), "sample data could not be extracted") {
		t.Errorf("messages:\n%s", h.messages())
	}
}

// A second window on an open workspace: New refuses it with ErrLocked, the
// dialog's text names the file and the holder, and the read-only window
// shows the workspace but saves nothing of what is edited in it.
func TestSecondWindowOnAWorkspaceIsReadOnly(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "shared.riffle")
	first := open(t, path)
	first.wb.editors.list[0].ed.SetText("SELECT 'first window'")
	if err := first.wb.saver.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tab := range first.wb.editors.list {
		want = append(want, tab.title)
	}

	_, err := New(test.NewWindow(nil), Options{Workspace: path, DataDir: sharedDataDir(t), NoTicker: true})
	if !errors.Is(err, persistence.ErrLocked) {
		t.Fatalf("second writable window: %v", err)
	}
	msg := dialogs.WorkspaceLockedMessage(err)
	if !strings.HasPrefix(msg, "shared.riffle is already open in another Riffle window (process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("dialog text %q", msg)
	}

	ro := open(t, path, func(o *Options) { o.ReadOnly = true })
	if !strings.HasSuffix(ro.w.Title(), "(read-only)") || !strings.Contains(ro.wb.statusRight.Text, "(read-only)") {
		t.Errorf("title %q, status %q", ro.w.Title(), ro.wb.statusRight.Text)
	}
	if got := ro.wb.editors.list[0].ed.Text(); got != "SELECT 'first window'" {
		t.Errorf("read-only window shows %q", got)
	}
	ro.wb.editors.list[0].ed.SetText("SELECT 'lost'")
	ro.newTab("SELECT 'also lost'")
	if err := ro.wb.saver.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	ro.close()
	first.close()

	again := open(t, path)
	defer again.close()
	var titles []string
	for _, tab := range again.wb.editors.list {
		titles = append(titles, tab.title)
	}
	if got := again.wb.editors.list[0].ed.Text(); got != "SELECT 'first window'" || strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("after the read-only window: %q, tabs %q", got, titles)
	}
}
