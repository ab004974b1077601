package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// withWorkspaceCatalog turns the workspace catalog on (the harness keeps
// it off for the tests written against default_catalog).
func withWorkspaceCatalog(o *Options) { o.NoWorkspaceCatalog = false }

// errorMessages lists the Messages panel's errors and warnings.
func errorMessages(h *harness) []string {
	var out []string
	for _, m := range h.wb.messages.msgs {
		if m.level == levelError || m.level == levelWarning && !strings.HasPrefix(m.text, "Read-only:") {
			out = append(out, m.text)
		}
	}
	return out
}

func currentCatalog(t *testing.T, h *harness) string {
	t.Helper()
	return h.wb.env.CurrentCatalog() + "." + h.wb.env.CurrentDatabase()
}

func permanent(h *harness, name string) (catalog.ResolvedTable, bool) {
	rt, ok, err := h.wb.env.Catalogs().GetTable(catalog.ObjectIdentifier{Catalog: workspaceCatalogName, Database: "default", Object: name})
	return rt, ok && err == nil
}

const keptTab = `CREATE TABLE kept (a INT, b STRING) COMMENT 'kept across restarts' WITH ('connector' = 'datagen', 'number-of-rows' = '4');
CREATE VIEW kept_view AS SELECT a FROM kept;
CREATE TEMPORARY TABLE scratch (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SELECT count(*) AS n FROM kept_view`

func TestWorkspaceCatalogKeepsTablesAcrossARestart(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path, withWorkspaceCatalog)
	if got := currentCatalog(t, h); got != "workspace.default" {
		t.Fatalf("current catalog %s", got)
	}
	// a new workspace's demo tables went into the catalog, not the init script
	if _, ok := permanent(h, "flights"); !ok {
		t.Fatalf("the demo's flights table is not in the workspace catalog; messages:\n%s", h.messages())
	}
	if strings.Contains(h.wb.initScript, "CREATE TABLE") {
		t.Fatalf("the init script still creates tables:\n%s", h.wb.initScript)
	}
	if strings.Contains(h.messages(), "now live in the workspace catalog") {
		t.Errorf("a new workspace explains a move its user never saw:\n%s", h.messages())
	}
	if _, err := os.Stat(persistence.CatalogPath(path)); err != nil {
		t.Fatalf("no catalog file beside the workspace: %v", err)
	}
	h.newTab(keptTab)
	h.runAll()
	if errs := errorMessages(h); len(errs) > 0 {
		t.Fatalf("errors running the tab: %q", errs)
	}
	if !strings.Contains(h.messages(), "Saved in the workspace catalog.") {
		t.Errorf("messages:\n%s", h.messages())
	}
	if strings.Contains(h.wb.initScript, "kept") || strings.Contains(h.wb.initScript, "scratch") {
		t.Errorf("the DDL was recorded in the init script:\n%s", h.wb.initScript)
	}
	h.close()

	// the restart: the table and view are there without any replay
	h2 := open(t, path, withWorkspaceCatalog)
	defer h2.close()
	if rt, ok := permanent(h2, "kept"); !ok || rt.Temporary || rt.Table.Comment() != "kept across restarts" {
		t.Fatalf("kept after the restart: %+v %v", rt, ok)
	}
	if _, ok := permanent(h2, "kept_view"); !ok {
		t.Fatal("kept_view is gone after the restart")
	}
	if _, ok := permanent(h2, "scratch"); ok {
		t.Fatal("a temporary table became permanent")
	}
	h2.newTab("")
	rt := h2.run("SELECT count(*) AS n FROM kept")
	h2.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "4" {
		t.Fatalf("count(*) of kept after the restart: %q", got)
	}
	// the same tab, restored, runs again without "already exists"
	var tab *editorTab
	for _, et := range h2.wb.editors.list {
		if strings.Contains(et.ed.Text(), "CREATE VIEW kept_view") {
			tab = et
		}
	}
	if tab == nil {
		t.Fatal("the tab did not come back")
	}
	h2.wb.editors.tabs.Select(tab.item)
	h2.runAll()
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("running the tab again after the restart: %q", errs)
	}
	msgs := h2.messages()
	if !strings.Contains(msgs, "Table workspace.default.kept already exists with this very definition: kept as it is.") ||
		!strings.Contains(msgs, "View workspace.default.kept_view already exists with this very definition") {
		t.Errorf("messages:\n%s", msgs)
	}
	// ... and once more in the same session (the temporary table too)
	h2.runAll()
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("running the tab a third time: %q", errs)
	}
	// a different definition under the same name still fails, as in Flink
	h2.newTab("CREATE TABLE kept (a BIGINT) WITH ('connector' = 'datagen')")
	h2.runAll()
	if errs := errorMessages(h2); len(errs) != 1 || !strings.Contains(errs[0], "already exists") {
		t.Fatalf("a changed definition: %q", errs)
	}
	// the catalog is visible as one: SHOW CATALOGS, DESCRIBE CATALOG
	res, err := h2.wb.env.ExecuteSQL("DESCRIBE CATALOG workspace")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.PrintTo(&b)
	if !strings.Contains(b.String(), "riffle") || !strings.Contains(b.String(), "ws.catalog.db") {
		t.Errorf("DESCRIBE CATALOG workspace:\n%s", b.String())
	}
}

func TestAnOldWorkspaceMovesItsInitScriptIntoTheCatalogOnce(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "old.riffle")
	// a workspace of the version before: DDL recorded in the init script
	h := open(t, path) // NoWorkspaceCatalog: as Riffle was
	h.newTab("CREATE TEMPORARY TABLE old_tmp (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');\n" +
		"CREATE TABLE old_perm (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
	h.runAll()
	if !strings.Contains(h.wb.initScript, "old_tmp") || !strings.Contains(h.wb.initScript, "old_perm") {
		t.Fatalf("the old workbench did not record the DDL:\n%s", h.wb.initScript)
	}
	h.close()
	// and a session statement the init script keeps
	store, err := persistence.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	old := ws.InitScript + "\nSET 'table.exec.state.ttl' = '1 h';\n"
	if err := store.SaveInitScript(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	store.Close()

	h2 := open(t, path, withWorkspaceCatalog)
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("opening the old workspace: %q", errs)
	}
	if !strings.Contains(h2.messages(), "now live in the workspace catalog") {
		t.Errorf("messages:\n%s", h2.messages())
	}
	for _, name := range []string{"old_tmp", "old_perm", "flights", "airports"} {
		if rt, ok := permanent(h2, name); !ok || rt.Temporary {
			t.Errorf("%s is not a permanent table of the workspace catalog", name)
		}
	}
	if strings.Contains(h2.wb.initScript, "CREATE") || !strings.Contains(h2.wb.initScript, "table.exec.state.ttl") {
		t.Errorf("init script after the move:\n%s", h2.wb.initScript)
	}
	if got := h2.wb.env.Config().Get("table.exec.state.ttl", ""); got != "1 h" {
		t.Errorf("the kept SET did not run: %q", got)
	}
	before, _, _ := h2.wb.store.Setting(context.Background(), settingInitBeforeCatalog)
	if before != old {
		t.Errorf("the old init script was not kept:\n%s", before)
	}
	h2.close()

	// not again: the third start moves nothing and reports nothing
	h3 := open(t, path, withWorkspaceCatalog)
	defer h3.close()
	if strings.Contains(h3.messages(), "now live in the workspace catalog") {
		t.Errorf("moved again:\n%s", h3.messages())
	}
	if errs := errorMessages(h3); len(errs) > 0 {
		t.Fatalf("third start: %q", errs)
	}
	// the tab that made them runs again without "already exists"
	var tab *editorTab
	for _, et := range h3.wb.editors.list {
		if strings.Contains(et.ed.Text(), "old_perm") {
			tab = et
		}
	}
	if tab == nil {
		t.Fatal("the tab did not come back")
	}
	h3.wb.editors.tabs.Select(tab.item)
	h3.runAll()
	if errs := errorMessages(h3); len(errs) > 0 {
		t.Fatalf("running the old tab again: %q", errs)
	}
}

func TestReadOnlyWindowWorksOnACopyOfTheCatalog(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "shared.riffle")
	h := open(t, path, withWorkspaceCatalog)
	defer h.close()
	ro := open(t, path, withWorkspaceCatalog, func(o *Options) { o.ReadOnly = true })
	if _, ok := permanent(ro, "flights"); !ok {
		t.Fatal("the read-only window does not see the catalog's tables")
	}
	ro.newTab("CREATE TABLE only_here (a INT) WITH ('connector' = 'datagen')")
	ro.runAll()
	if errs := errorMessages(ro); len(errs) > 0 {
		t.Fatalf("%q", errs)
	}
	copyDir := ro.wb.wsCatalog.copyDir
	ro.close()
	if _, ok := permanent(h, "only_here"); ok {
		t.Error("the read-only window wrote the workspace's catalog")
	}
	if _, err := os.Stat(copyDir); !os.IsNotExist(err) {
		t.Errorf("the read-only copy %s was not removed: %v", copyDir, err)
	}
}

func TestDemoTablesInTheCatalogGetTheirSampleDataBack(t *testing.T) {
	test.NewTempApp(t)
	data := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path, withWorkspaceCatalog, func(o *Options) { o.DataDir = data })
	h.close()
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	h2 := open(t, path, withWorkspaceCatalog, func(o *Options) { o.DataDir = data })
	defer h2.close()
	h2.newTab("SELECT COUNT(*) AS n FROM flights")
	h2.tab().mode = modeBatch
	rt := h2.runStatement()
	h2.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "228738" {
		t.Errorf("count %q; messages:\n%s", got, h2.messages())
	}
}

// File ▸ Open, the designer and Kafka's Create table still add their
// CREATE to the init script; with the workspace catalog that CREATE is
// skipped at start when the catalog holds the table, even altered since.
func TestInitScriptCreateOfATableTheCatalogHoldsIsSkipped(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path, withWorkspaceCatalog)
	const create = "CREATE TABLE opened (a INT) WITH ('connector' = 'datagen')"
	h.newTab(create + ";\nALTER TABLE opened SET ('number-of-rows' = '7')")
	h.runAll()
	if err := h.wb.addToInitScript(create); err != nil {
		t.Fatal(err)
	}
	if errs := errorMessages(h); len(errs) > 0 {
		t.Fatalf("%q", errs)
	}
	h.close()
	h2 := open(t, path, withWorkspaceCatalog)
	defer h2.close()
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("start with the init script's CREATE of a kept table: %q", errs)
	}
	rt, ok := permanent(h2, "opened")
	if !ok || rt.Table.Options()["number-of-rows"] != "7" {
		t.Fatalf("opened after the restart: %+v", rt)
	}
}
