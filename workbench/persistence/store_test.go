package persistence

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

var ctx = context.Background()

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRoundTripOfEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "w.riffle")
	s := open(t, path)
	tabs, err := s.SaveTabs(ctx, []Tab{
		{Title: "Delays", Text: "SELECT 1;\n-- ünïcode ✓", CursorLine: 1, CursorCol: 4, Order: 0},
		{Title: "Live", Text: "SELECT *\nFROM t", CursorLine: 0, CursorCol: 0, Order: 1},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tabs[0].ID == 0 || tabs[1].ID == 0 || tabs[0].ID == tabs[1].ID {
		t.Fatalf("ids %d %d", tabs[0].ID, tabs[1].ID)
	}
	must(t, s.SetSelectedTab(ctx, tabs[1].ID))
	must(t, s.SaveWindow(ctx, Window{Width: 1280, Height: 800, Splits: map[string]float64{"catalog": 0.2, "results": 0.55}}))
	must(t, s.SaveInitScript(ctx, "CREATE TABLE x (a INT) WITH ('connector' = 'datagen');"))
	exp := ExportSettings{Delimiter: ";", Quote: `"`, Header: true, QuotePolicy: "all-but-nulls", NullText: `\N`,
		CRLF: true, BOM: true, ReplaceNewlines: true, NewlineReplacement: " ", DecimalSeparator: ",", LastDir: "/home/u"}
	must(t, s.SaveExportSettings(ctx, exp))
	conns := []Connection{
		{Name: "cluster", Kind: KindGateway, URL: "http://localhost:8083", Token: "s3cret", Properties: map[string]string{"execution.runtime-mode": "batch"},
			ClusterREST: "http://localhost:8081"},
		{Name: "local", Kind: KindEmbedded, Properties: map[string]string{}},
	}
	for _, c := range conns {
		must(t, s.SaveConnection(ctx, c))
	}
	if err := s.SaveConnection(ctx, Connection{Name: "bad", Kind: "jdbc"}); err == nil {
		t.Error("unknown connection kind accepted")
	}
	chart := json.RawMessage(`{"type":"line","x":"window_start","y":["departures"]}`)
	must(t, s.SaveChart(ctx, tabs[0].ID, chart))
	if err := s.SaveChart(ctx, tabs[0].ID, json.RawMessage(`{bad`)); err == nil {
		t.Error("invalid chart JSON accepted")
	}
	must(t, s.SetSetting(ctx, "theme", "dark"))
	must(t, s.SetSetting(ctx, "theme", "light"))
	started := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	for i, h := range []HistoryEntry{
		{Statement: "SELECT 1", Started: started, Duration: 1500 * time.Millisecond, Rows: 1},
		{Statement: "SELEC 2", Started: started.Add(time.Minute), Duration: 3 * time.Millisecond, Error: "line 1, column 1: did you mean SELECT?"},
	} {
		id, err := s.AddHistory(ctx, h)
		if err != nil || id != int64(i+1) {
			t.Fatalf("history id %d %v", id, err)
		}
	}
	s.Close()

	s = open(t, path)
	w, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Problems) != 0 {
		t.Errorf("problems: %v", w.Problems)
	}
	if !reflect.DeepEqual(w.Tabs, tabs) || w.SelectedTab != tabs[1].ID {
		t.Errorf("tabs %+v selected %d", w.Tabs, w.SelectedTab)
	}
	if w.Window.Width != 1280 || w.Window.Splits["results"] != 0.55 {
		t.Errorf("window %+v", w.Window)
	}
	if !strings.Contains(w.InitScript, "datagen") || w.Export != exp {
		t.Errorf("init %q export %+v", w.InitScript, w.Export)
	}
	if !reflect.DeepEqual(w.Connections, conns) {
		t.Errorf("connections %+v", w.Connections)
	}
	if string(w.Charts[tabs[0].ID]) != string(chart) || w.Settings["theme"] != "light" {
		t.Errorf("charts %v settings %v", w.Charts, w.Settings)
	}
	hist, problems, err := s.History(ctx, 10)
	if err != nil || len(problems) != 0 || len(hist) != 2 {
		t.Fatalf("history %v %v %v", hist, problems, err)
	}
	if hist[0].Statement != "SELEC 2" || hist[0].Error == "" || !hist[1].Started.Equal(started) ||
		hist[1].Duration != 1500*time.Millisecond || hist[1].Rows != 1 {
		t.Errorf("history %+v", hist)
	}
	if v, ok, _ := s.Setting(ctx, "missing"); ok || v != "" {
		t.Error("missing setting found")
	}
	must(t, s.DeleteConnection(ctx, "local"))
	must(t, s.ClearHistory(ctx))
	if h, _, _ := s.History(ctx, 0); len(h) != 0 {
		t.Error("history not cleared")
	}
	// Deleting a tab deletes its chart settings.
	must(t, s.DeleteTab(ctx, tabs[0].ID))
	if w, _ := s.Load(ctx); len(w.Charts) != 0 || len(w.Tabs) != 1 || len(w.Connections) != 1 {
		t.Errorf("after deletes: %+v", w)
	}
	if v, _ := s.SchemaVersion(ctx); v != CurrentVersion {
		t.Errorf("schema %d", v)
	}
	if mode := pragma(t, s, "journal_mode"); mode != "wal" {
		t.Errorf("journal_mode %q", mode)
	}
	if sync := pragma(t, s, "synchronous"); sync != "1" { // NORMAL
		t.Errorf("synchronous %q", sync)
	}
}

func pragma(t *testing.T, s *Store, name string) string {
	var v string
	if err := s.db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// User report 26: restore exactly the tabs that were open, idempotently.
func TestSaveTabsRestoresExactlyTheOpenSet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.riffle")
	s := open(t, path)
	tabs, err := s.SaveTabs(ctx, []Tab{{Title: "a", Order: 0}, {Title: "b", Order: 1}, {Title: "c", Order: 2}}, 0)
	must(t, err)
	// Close "b", reorder, open "d".
	next := []Tab{tabs[2], tabs[0], {Title: "d"}}
	for i := range next {
		next[i].Order = i
	}
	saved, err := s.SaveTabs(ctx, next, tabs[2].ID)
	must(t, err)
	for range 3 { // saving the same set again changes nothing
		_, err = s.SaveTabs(ctx, saved, tabs[2].ID)
		must(t, err)
	}
	// A late autosave of the closed tab must not bring it back.
	a := s.NewAutosaver(time.Hour, nil)
	a.TabChanged(Tab{ID: tabs[1].ID, Title: "b", Text: "late edit"})
	must(t, a.Close(ctx))
	s.Close()
	s = open(t, path)
	w, err := s.Load(ctx)
	must(t, err)
	var titles []string
	for _, tab := range w.Tabs {
		titles = append(titles, tab.Title)
	}
	if strings.Join(titles, ",") != "c,a,d" || w.SelectedTab != tabs[2].ID {
		t.Errorf("restored %v selected %d", titles, w.SelectedTab)
	}
}

// The autosaver's delays are measured on a manual clock that the test
// steps; after each step synctest.Wait lets the timer's goroutine finish
// the save that came due (or find none due). The test checks the exact
// instants of the documented delays without sleeping and without reading
// the wall clock.
func TestAutosaverDebouncesAndFlushes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := open(t, filepath.Join(t.TempDir(), "w.riffle"))
		tabs, err := s.SaveTabs(ctx, []Tab{{Title: "t"}}, 0)
		must(t, err)
		clock := newManualClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
		step := func(d time.Duration) {
			clock.Advance(d)
			synctest.Wait() // the save that came due has run
		}
		errs := make(chan error, 10)
		const delay = 200 * time.Millisecond
		a := s.NewAutosaver(delay, func(err error) { errs <- err })
		a.SetClock(clock)
		id := tabs[0].ID
		for i := range 5 {
			a.TabChanged(Tab{ID: id, Title: "t", Text: fmt.Sprintf("SELECT %d", i), CursorCol: i})
		}
		step(delay - time.Millisecond)
		if got := text(t, s, id); got != "" || !a.Pending() {
			t.Errorf("saved before the delay: %q", got)
		}
		step(time.Millisecond)
		if got := text(t, s, id); got != "SELECT 4" {
			t.Fatalf("after the delay: %q, want the last edit", got)
		}
		// Continuous typing (an edit every 100 ms, Delay an hour) is still
		// saved MaxAutosaveDelay after the first unsaved edit, not later.
		b := s.NewAutosaver(time.Hour, nil)
		b.SetClock(clock)
		const every = 100 * time.Millisecond
		last := int(MaxAutosaveDelay/every) - 1 // the last edit before the bound
		for i := 0; i <= last; i++ {
			b.TabChanged(Tab{ID: id, Title: "t", Text: fmt.Sprintf("typing %d", i)})
			step(every)
			got := text(t, s, id)
			switch {
			case i < last && got != "SELECT 4":
				t.Fatalf("saved %q after edit %d, before MaxAutosaveDelay", got, i)
			case i == last && got != fmt.Sprintf("typing %d", last):
				t.Fatalf("continuous edits not saved at MaxAutosaveDelay: %q", got)
			}
		}
		// Flush writes at once.
		b.TabChanged(Tab{ID: id, Title: "t", Text: "flushed"})
		if !b.Pending() {
			t.Error("no pending edit")
		}
		must(t, b.Flush(ctx))
		if text(t, s, id) != "flushed" || b.Pending() {
			t.Error("Flush did not save")
		}
		b.Forget(id)
		must(t, b.Close(ctx))
		b.TabChanged(Tab{ID: id, Text: "after close"})
		must(t, a.Close(ctx))
		step(time.Hour) // no timer is left to fire
		if text(t, s, id) != "flushed" || b.Pending() {
			t.Error("edit after Close was kept or saved")
		}
		select {
		case err := <-errs:
			t.Errorf("autosave error: %v", err)
		default:
		}
	})
}

func text(t *testing.T, s *Store, id int64) string {
	t.Helper()
	tabs, err := s.Tabs(ctx)
	must(t, err)
	for _, tab := range tabs {
		if tab.ID == id {
			return tab.Text
		}
	}
	return "<missing>"
}

// User report 26: after an upgrade, data written by an old version must
// still be there. This writes a schema-1 workspace by hand.
func TestMigrationFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.riffle")
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	for _, stmt := range []string{
		`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
		`INSERT INTO schema_version VALUES (1)`,
		`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`CREATE TABLE tabs (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, position INTEGER NOT NULL)`,
		`CREATE TABLE history (id INTEGER PRIMARY KEY, statement TEXT NOT NULL, started_at TEXT NOT NULL,
		   duration_ms INTEGER NOT NULL, row_count INTEGER NOT NULL, error TEXT NOT NULL DEFAULT '')`,
		`INSERT INTO tabs VALUES (7, 'Old tab', 'SELECT ''kept'' FROM t', 0), (9, 'Second', '', 1)`,
		`INSERT INTO settings VALUES ('theme', 'dark')`,
		`INSERT INTO history VALUES (1, 'SELECT 1', '2025-05-01T10:00:00Z', 12, 1, '')`,
		`INSERT INTO history VALUES (2, 'SELECT 2', 'yesterday-ish', 12, 1, '')`, // damaged
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()

	s := open(t, path)
	if v, _ := s.SchemaVersion(ctx); v != CurrentVersion {
		t.Fatalf("schema %d after migration", v)
	}
	w, err := s.Load(ctx)
	must(t, err)
	if len(w.Tabs) != 2 || w.Tabs[0].ID != 7 || w.Tabs[0].Text != "SELECT 'kept' FROM t" || w.Tabs[0].CursorLine != 0 {
		t.Errorf("tabs %+v", w.Tabs)
	}
	if w.Settings["theme"] != "dark" || len(w.Problems) != 0 {
		t.Errorf("settings %v problems %v", w.Settings, w.Problems)
	}
	hist, problems, err := s.History(ctx, 0)
	must(t, err)
	if len(hist) != 1 || hist[0].Statement != "SELECT 1" || len(problems) != 1 {
		t.Errorf("history %+v problems %v", hist, problems)
	}
	// New columns work on migrated rows; opening again is a no-op.
	must(t, s.UpdateTab(ctx, Tab{ID: 9, Title: "Second", Text: "x", CursorLine: 3, CursorCol: 2, Order: 1}))
	s.Close()
	s = open(t, path)
	tabs, _ := s.Tabs(ctx)
	if tabs[1].CursorLine != 3 {
		t.Errorf("tab %+v", tabs[1])
	}
}

// A schema-2 workspace's gateway connections keep their settings after
// the migration that adds the cluster REST URL, which starts empty.
func TestMigrationFromVersion2KeepsConnections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.riffle")
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	for _, stmt := range []string{migrations[0], migrations[1], `UPDATE schema_version SET version = 2`,
		`INSERT INTO connections(name, kind, url, token, properties) VALUES ('flink', 'gateway', 'http://127.0.0.1:8083', 't', '{"a":"b"}')`} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()
	s := open(t, path)
	w, err := s.Load(ctx)
	must(t, err)
	want := []Connection{{Name: "flink", Kind: KindGateway, URL: "http://127.0.0.1:8083", Token: "t", Properties: map[string]string{"a": "b"}}}
	if !reflect.DeepEqual(w.Connections, want) {
		t.Fatalf("connections %+v", w.Connections)
	}
	want[0].ClusterREST = "http://127.0.0.1:8081"
	must(t, s.SaveConnection(ctx, want[0]))
	if w, _ := s.Load(ctx); !reflect.DeepEqual(w.Connections, want) {
		t.Errorf("after saving the cluster REST URL: %+v", w.Connections)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.riffle")
	s := open(t, path)
	_, err := s.db.Exec(`UPDATE schema_version SET version = ?`, CurrentVersion+1)
	must(t, err)
	s.Close()
	if _, err := Open(ctx, path); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("err %v", err)
	}
}

// User report 25: a damaged row is skipped and reported, never fatal.
func TestCorruptRowsAreSkipped(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "w.riffle"))
	tabs, err := s.SaveTabs(ctx, []Tab{{Title: "a"}, {Title: "b"}}, 0)
	must(t, err)
	must(t, s.SaveConnection(ctx, Connection{Name: "good", Kind: KindEmbedded}))
	must(t, s.SaveChart(ctx, tabs[1].ID, json.RawMessage(`{"ok":true}`)))
	for _, stmt := range []string{
		`INSERT INTO connections(name, kind, properties) VALUES ('broken', 'gateway', '{"a": ')`,
		fmt.Sprintf(`INSERT INTO charts(tab_id, settings) VALUES (%d, 'not json')`, tabs[0].ID),
		`UPDATE workspace SET window_json = '[1,2', export_json = '{"header": "yes"}'`,
	} {
		_, err := s.db.Exec(stmt)
		must(t, err)
	}
	w, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Problems) != 4 {
		t.Errorf("problems %v", w.Problems)
	}
	var re *RowError
	if !errors.As(w.Problems[0], &re) || re.Table != "workspace" {
		t.Errorf("problem %v", w.Problems[0])
	}
	if len(w.Tabs) != 2 || len(w.Connections) != 1 || w.Connections[0].Name != "good" ||
		len(w.Charts) != 1 || w.Export.Header {
		t.Errorf("workspace %+v", w)
	}
}

// User report 25: kill -9 while the workspace is being written. A child
// process (this test binary) saves tabs, flushes, reports "flushed", keeps
// writing, and is killed with SIGKILL. Everything flushed must come back,
// read from the WAL, and every saved tab set must be whole.
func TestReopenAfterKill(t *testing.T) {
	if os.Getenv("RIFFLE_PERSIST_CHILD") != "" {
		return
	}
	path := filepath.Join(t.TempDir(), "killed.riffle")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledChild$")
	cmd.Env = append(os.Environ(), "RIFFLE_PERSIST_CHILD="+path)
	out, err := cmd.StdoutPipe()
	must(t, err)
	cmd.Stderr = os.Stderr
	must(t, cmd.Start())
	sc := bufio.NewScanner(out)
	// The child says "flushed", then "wrote N" after each of its first
	// tab-set generations and goes on writing: once it has written a few,
	// it is killed while it writes more, mid-transaction.
	ready := false
	for sc.Scan() {
		if sc.Text() == fmt.Sprintf("wrote %d", childReports-1) {
			ready = true
			break
		}
	}
	if !ready {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("child never flushed and wrote")
	}
	// While the child holds the workspace, it cannot be opened for writing.
	var le *LockedError
	if s, err := Open(ctx, path); !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("opened a workspace another process holds: %v", err)
	}
	if le.PID != cmd.Process.Pid || !strings.Contains(le.Error(), fmt.Sprintf("process %d", cmd.Process.Pid)) {
		t.Errorf("lock holder %d (%v), want the child %d", le.PID, le, cmd.Process.Pid)
	}
	must(t, cmd.Process.Kill())
	cmd.Wait()
	// The killed holder's lock went with it.
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("no WAL left behind by the killed process: %v", err)
	}
	s := open(t, path)
	w, err := s.Load(ctx)
	must(t, err)
	if w.InitScript != "CREATE TABLE flushed (a INT)" {
		t.Errorf("init script %q", w.InitScript)
	}
	byTitle := map[string]Tab{}
	gen := ""
	for _, tab := range w.Tabs {
		byTitle[tab.Title] = tab
		if strings.HasPrefix(tab.Title, "gen ") {
			if gen == "" {
				gen = tab.Text
			} else if tab.Text != gen {
				t.Errorf("torn tab set: %q vs %q", tab.Text, gen)
			}
		}
	}
	if tab, ok := byTitle["typed"]; !ok || tab.Text != "SELECT * FROM flights WHERE delay > 60" || tab.CursorCol != 38 {
		t.Errorf("flushed tab lost: %+v", w.Tabs)
	}
	if len(w.Tabs) != 4 {
		t.Errorf("%d tabs, want 4", len(w.Tabs))
	}
}

// TestKilledChild is the child half of TestReopenAfterKill.
func TestKilledChild(t *testing.T) {
	path := os.Getenv("RIFFLE_PERSIST_CHILD")
	if path == "" {
		t.Skip("child process of TestReopenAfterKill")
	}
	s, err := Open(ctx, path)
	must(t, err)
	tabs, err := s.SaveTabs(ctx, []Tab{{Title: "typed"}, {Title: "gen a"}, {Title: "gen b"}, {Title: "gen c"}}, 0)
	must(t, err)
	must(t, s.SaveInitScript(ctx, "CREATE TABLE flushed (a INT)"))
	a := s.NewAutosaver(time.Hour, nil)
	a.TabChanged(Tab{ID: tabs[0].ID, Title: "typed", Text: "SELECT * FROM flights WHERE delay > 60", CursorCol: 38})
	must(t, a.Flush(ctx))
	fmt.Println("flushed")
	os.Stdout.Sync()
	a.TabChanged(Tab{ID: tabs[0].ID, Title: "typed", Text: "never flushed"}) // pending for an hour
	for i := 0; ; i++ {
		set := append([]Tab(nil), tabs...)
		for j := 1; j < len(set); j++ {
			set[j].Text = fmt.Sprintf("generation %d", i)
		}
		set[0].Text = "SELECT * FROM flights WHERE delay > 60"
		set[0].CursorCol = 38
		if _, err := s.SaveTabs(ctx, set, 0); err != nil {
			t.Fatal(err)
		}
		if i < childReports {
			fmt.Printf("wrote %d\n", i)
			os.Stdout.Sync()
		}
	}
}

// childReports is how many tab-set generations TestKilledChild reports
// before it goes on writing silently.
const childReports = 3

func TestUpdateHistoryRecordsTheOutcome(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "w.riffle"))
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	id, err := s.AddHistory(ctx, HistoryEntry{Statement: "SELECT * FROM clicks", Started: started})
	must(t, err)
	must(t, s.UpdateHistory(ctx, HistoryEntry{ID: id, Duration: 1500 * time.Millisecond, Rows: 42, Error: "canceled"}))
	must(t, s.UpdateHistory(ctx, HistoryEntry{ID: id + 100, Rows: 1})) // gone: not an error
	h, _, err := s.History(ctx, 0)
	must(t, err)
	if len(h) != 1 || h[0].Statement != "SELECT * FROM clicks" || h[0].Rows != 42 ||
		h[0].Duration != 1500*time.Millisecond || h[0].Error != "canceled" || !h[0].Started.Equal(started) {
		t.Errorf("history after update: %+v", h)
	}
}

// Two Stores on one workspace (two windows): the second cannot open it for
// writing, and gets the lock once the first is closed. A read-only Store
// reads the workspace as it is and never writes it.
func TestWorkspaceLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.riffle")
	first, err := Open(ctx, path)
	must(t, err)
	tabs, err := first.SaveTabs(ctx, []Tab{{Title: "mine", Text: "SELECT 1"}}, 0)
	must(t, err)
	second, err := Open(ctx, path)
	if !errors.Is(err, ErrLocked) || second != nil {
		t.Fatalf("second Open: %v", err)
	}
	var le *LockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() || le.Since.IsZero() || !strings.Contains(err.Error(), "open in another Riffle window") {
		t.Errorf("lock error %#v", err)
	}

	ro, err := OpenReadOnly(ctx, path)
	must(t, err)
	if !ro.ReadOnly() || first.ReadOnly() || ro.Path() != path {
		t.Errorf("ReadOnly %v/%v, path %q", ro.ReadOnly(), first.ReadOnly(), ro.Path())
	}
	w, err := ro.Load(ctx)
	must(t, err)
	if len(w.Tabs) != 1 || w.Tabs[0].Text != "SELECT 1" {
		t.Fatalf("read-only store reads %+v", w.Tabs)
	}
	before, err := os.ReadFile(path)
	must(t, err)
	beforeWAL, _ := os.ReadFile(path + "-wal")
	// Everything the read-only store saves stays in its copy.
	must(t, ro.UpdateTab(ctx, Tab{ID: tabs[0].ID, Title: "mine", Text: "overwritten?"}))
	_, err = ro.SaveTabs(ctx, []Tab{{Title: "theirs"}}, 0)
	must(t, err)
	must(t, ro.SaveInitScript(ctx, "DROP TABLE everything"))
	must(t, ro.Close())
	after, err := os.ReadFile(path)
	must(t, err)
	afterWAL, _ := os.ReadFile(path + "-wal")
	if string(before) != string(after) || string(beforeWAL) != string(afterWAL) {
		t.Error("the read-only store changed the workspace file")
	}
	w, err = first.Load(ctx)
	must(t, err)
	if len(w.Tabs) != 1 || w.Tabs[0].Text != "SELECT 1" || w.InitScript != "" {
		t.Errorf("the writer's workspace changed: %+v, %q", w.Tabs, w.InitScript)
	}

	must(t, first.Close())
	second, err = Open(ctx, path)
	must(t, err)
	w, err = second.Load(ctx)
	must(t, err)
	if len(w.Tabs) != 1 || w.Tabs[0].Title != "mine" {
		t.Errorf("reopened: %+v", w.Tabs)
	}
	must(t, second.Close())
	if _, err := os.Stat(LockPath(path)); err != nil {
		t.Errorf("lock file: %v", err)
	}
}

// A second window cannot reach an open workspace through a symbolic link
// or a hard link to its file: the lock follows the file, not the path.
func TestLockFollowsTheFileNotThePath(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "ws.riffle")
	first, err := Open(ctx, path)
	must(t, err)
	defer first.Close()
	sym := filepath.Join(t.TempDir(), "sym.riffle")
	must(t, os.Symlink(path, sym))
	hard := filepath.Join(dir, "hard.riffle")
	must(t, os.Link(path, hard))
	for _, p := range []string{sym, hard} {
		second, err := Open(ctx, p)
		if err == nil {
			second.Close()
			t.Fatalf("%s: opened while the workspace is open", p)
		}
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("%s: %v", p, err)
		}
	}
	// once closed, it opens again (and the identity lock is free)
	must(t, first.Close())
	second, err := Open(ctx, path)
	must(t, err)
	must(t, second.Close())
}
