package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestATabReplacesTheInitScriptsTemporaryTable: a reopened workspace
// whose init script makes a temporary table and view runs its tab's
// CREATE TEMPORARY TABLE/VIEW again, changed or not, without "already
// exists" (issue 21); after that the objects are the session's and a
// changed CREATE fails as in Flink.
func TestATabReplacesTheInitScriptsTemporaryTable(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path, withWorkspaceCatalog)
	for _, s := range []string{
		"CREATE TEMPORARY TABLE tmp_r (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2')",
		"CREATE TEMPORARY VIEW tmp_v AS SELECT a FROM tmp_r",
	} {
		if err := h.wb.addToInitScript(s); err != nil {
			t.Fatal(err)
		}
	}
	h.close()

	h2 := open(t, path, withWorkspaceCatalog)
	defer h2.close()
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("start: %q", errs)
	}
	count := func(from string) string {
		t.Helper()
		h2.newTab("")
		rt := h2.run("SELECT count(*) AS n FROM " + from)
		h2.waitDone(rt)
		got := rows(rt.Grid())
		if len(got) != 1 {
			t.Fatalf("count(*) of %s: %q; messages:\n%s", from, got, h2.messages())
		}
		return got[0]
	}
	if n := count("tmp_v"); n != "2" {
		t.Fatalf("the init script's view counts %s rows", n)
	}
	// the tab, with its definition changed since
	tab := h2.newTab("CREATE TEMPORARY TABLE tmp_r (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n" +
		"CREATE TEMPORARY VIEW tmp_v AS SELECT a, b FROM tmp_r")
	h2.runAll()
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("running the tab after the restart: %q", errs)
	}
	msgs := h2.messages()
	for _, want := range []string{
		"Temporary table workspace.default.tmp_r replaced the one the workspace's init script made at start.",
		"Temporary view workspace.default.tmp_v replaced the one the workspace's init script made at start.",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no %q in the messages:\n%s", want, msgs)
		}
	}
	if n := count("tmp_v"); n != "3" {
		t.Errorf("after the tab ran, tmp_v counts %s rows, want 3", n)
	}
	// the same tab once more: the same definition is kept
	h2.wb.editors.tabs.Select(tab.item)
	h2.runAll()
	if errs := errorMessages(h2); len(errs) > 0 {
		t.Fatalf("running the tab a second time: %q", errs)
	}
	// now the table is the session's: a different definition fails, as
	// in Flink, and the table stays as it was
	h2.newTab("CREATE TEMPORARY TABLE tmp_r (x BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '9')")
	h2.runAll()
	if errs := errorMessages(h2); len(errs) != 1 || !strings.Contains(errs[0], "already exists") {
		t.Fatalf("a changed CREATE of the session's own table: %q", errs)
	}
	if n := count("tmp_r"); n != "3" {
		t.Errorf("tmp_r counts %s rows after the failed CREATE, want 3", n)
	}
}
