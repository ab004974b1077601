package ui

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// testGateway is Riffle's SQL Gateway served in-process on loopback.
type testGateway struct {
	srv *gateway.Server
	url string
	hs  *httptest.Server
}

func startGateway(t *testing.T, cfg gateway.Config) *testGateway {
	t.Helper()
	cfg.PrintOutput = io.Discard
	srv := gateway.NewServer(cfg)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
	})
	return &testGateway{srv: srv, url: hs.URL, hs: hs}
}

// addConnection adds a gateway connection through File ▸ Connections…
// and makes the current tab use it.
func (h *harness) addConnection(name, url, token, props string) *connection {
	h.t.Helper()
	cd := h.wb.openConnectionsDialog()
	test.Tap(cd.NewButton())
	cd.NameEntry().SetText(name)
	test.Type(cd.URLEntry(), url)
	cd.TokenEntry().SetText(token)
	cd.PropsEntry().SetText(props)
	test.Tap(cd.UseButton())
	h.q.drain()
	c := h.wb.conns.byName(name)
	if c == nil {
		h.t.Fatalf("no connection %q after Save: %s", name, cd.Status())
	}
	if h.wb.currentConn() != c {
		h.t.Fatalf("the tab runs on %q", h.wb.currentConn().cfg.Name)
	}
	return c
}

// catalog waits until the catalog tree has no loading node and returns it.
func (h *harness) catalog() string {
	h.t.Helper()
	var got string
	h.until("the catalog to load", func() bool {
		got = strings.Join(h.wb.catalog.VisibleLabels(), "\n")
		return !strings.Contains(got, "loading…")
	})
	return got
}

// run types a script into a new tab of the current connection, runs it
// all and returns the last result tab (nil if none opened).
func (h *harness) run(script string) *resultTab {
	h.t.Helper()
	before := len(h.wb.results)
	tab := h.tab()
	tab.ed.SetText(script)
	h.runAll()
	if len(h.wb.results) == before {
		return nil
	}
	return h.wb.results[len(h.wb.results)-1]
}

func TestGatewayConnectionBrowseRunAndSwitchBack(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	h.newTab("")
	c := h.addConnection("local gateway", g.url, "", "")

	// The switch, the catalog's header and the status bar show it.
	if h.wb.connSel.Selected != "local gateway" || len(h.wb.connSel.Options) != 2 {
		t.Errorf("switch %q of %q", h.wb.connSel.Selected, h.wb.connSel.Options)
	}
	// (the branches open on the embedded engine stay open)
	h.until("the remote catalog", func() bool { return h.catalog() == "default_catalog\n  default_database (current)\n    no tables" })
	host := strings.TrimPrefix(g.url, "http://")
	if h.wb.connHeader.Text != "local gateway" || !strings.HasPrefix(h.wb.connDetail.Text, "Riffle ") || !strings.HasSuffix(h.wb.connDetail.Text, " at "+host) ||
		!strings.Contains(h.wb.statusRight.Text, "local gateway") {
		t.Errorf("header %q / %q, status %q", h.wb.connHeader.Text, h.wb.connDetail.Text, h.wb.statusRight.Text)
	}

	// DDL over the gateway shows in the tree; the embedded engine has none of it.
	h.run("CREATE VIEW letters AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, CAST(NULL AS STRING))) AS t(n, s);\n" +
		"CREATE TABLE nums (id BIGINT NOT NULL, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED, " +
		"WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')")
	if strings.Contains(h.messages(), "ERROR") {
		t.Fatalf("messages:\n%s", h.messages())
	}
	h.wb.catalog.OpenPath("default_catalog", "default_database", "nums")
	want := strings.Join([]string{
		"default_catalog",
		"  default_database (current)",
		"    letters view",
		"    nums",
		"      id BIGINT NOT NULL · PK",
		"      ts TIMESTAMP(3) · ROWTIME",
		"      WATERMARK FOR ts AS `ts` - INTERVAL '1' SECOND",
	}, "\n")
	h.until("the new objects in the tree", func() bool { return h.catalog() == want })
	if _, err := h.wb.env.ExecuteSQL("DESCRIBE letters"); err == nil {
		t.Error("the view was created in the embedded engine")
	}
	if strings.Contains(h.wb.initScript, "letters") {
		t.Error("a gateway's DDL was recorded in the init script")
	}

	// A query's rows, with the same headers as on the embedded engine.
	rt := h.run("SELECT n, s FROM letters")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := strings.Join(rows(rt.Grid()), ";"); got != "1 | a;2 | b;3 | ∅" || rt.State() != resulttab.Finished {
		t.Errorf("rows %q, state %s; messages:\n%s", got, rt.State(), h.messages())
	}
	if hs := drawnHeaders(rt.Grid()); hs[1] == nil || hs[1].Name()+" "+hs[1].TypeName() != "n INT NOT NULL" {
		t.Errorf("header %+v", hs[1])
	}
	if rt.conn != c || rt.JobID == "" || rt.Job != nil {
		t.Errorf("result on %v, job %q / %v", rt.conn, rt.JobID, rt.Job)
	}

	// Switching the tab back to the embedded engine: its catalog, its engine.
	h.wb.connSel.SetSelected(embeddedConnName)
	h.q.drain()
	if h.wb.currentConn() != h.wb.conns.embedded || h.wb.EmbeddedEnv() != h.wb.env {
		t.Fatal("still on the gateway")
	}
	h.wb.catalog.OpenPath("default_catalog", "default_database")
	if got := h.catalog(); !strings.Contains(got, "    flights") || strings.Contains(got, "letters") {
		t.Errorf("embedded catalog:\n%s", got)
	}
	rt = h.run("SELECT * FROM airports LIMIT 2")
	h.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 2 || rt.conn != h.wb.conns.embedded || rt.Job == nil {
		t.Errorf("embedded rows %q on %v", got, rt.conn.cfg.Name)
	}
}

// labelsText joins the texts of the labels shown under o.
func labelsText(o fyne.CanvasObject) string {
	var out []string
	for _, x := range shown(o) {
		if l, ok := x.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, " | ")
}

func TestGatewayStreamingQueryUpdatesAndStops(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	// The changelog view keeps every change: its first row stays the
	// query's first change however slowly the test runs (the default cap,
	// 10,000 changes, is 2.5 s of this query).
	h := newHarness(t, func(o *Options) { o.MaxChangelogRows = -1 })
	h.newTab("")
	h.addConnection("gw", g.url, "", "")
	rt := h.run(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000',
  'fields.k.min' = '1', 'fields.k.max' = '3');
SELECT k, COUNT(*) AS n FROM s GROUP BY k`)
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	if rt.State() != resulttab.Running || rt.StopButton() == nil {
		t.Fatalf("state %s, stop button %v", rt.State(), rt.StopButton())
	}
	total := func() int {
		sum := 0
		for _, r := range rows(rt.Grid()) {
			var k, n int
			fmt.Sscanf(r, "%d | %d", &k, &n)
			sum += n
		}
		return sum
	}
	h.until("three keys in the grid", func() bool { return len(rows(rt.Grid())) == 3 })
	first := total()
	h.until("the counts to grow", func() bool { return total() > first+100 })
	rt.ViewSelect().SetSelected("Changelog")
	h.until("updates in the changelog view", func() bool {
		for i := 0; i < min(rt.Grid().Total(), 50); i++ {
			if op, _, _ := rt.Grid().CellText(i, 1); op == "-U" {
				return true
			}
		}
		return false
	})
	if op, _, _ := rt.Grid().CellText(0, 1); op != "+I" {
		t.Errorf("first change %q", op)
	}
	rt.ViewSelect().SetSelected("Table")
	// what the gateway cannot give is said, not made up
	// (at the end of the status line, after the counts, which a narrow
	// window must not cut off)
	if st := rt.StatusLabel().Text; !strings.HasSuffix(st, " · on gw · operator metrics unavailable") || !strings.Contains(st, " rows · ") {
		t.Errorf("status line: %q", st)
	}
	jobs, err := h.wb.jobsOf(context.Background(), h.wb.currentConn())
	if err != nil || len(jobs) != 1 || jobs[0].JobID() != rt.JobID || jobs[0].Plan() != nil || jobs[0].Status().IsTerminal() {
		t.Errorf("jobs %v %v", jobs, err)
	}
	// Esc stops it: the gateway cancels the job.
	h.tab().ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.waitDone(rt)
	if rt.State() != resulttab.Canceled {
		t.Errorf("after Stop: %s", rt.State())
	}
	h.until("the job to be canceled on the gateway", func() bool {
		jobs, err := h.wb.jobsOf(context.Background(), h.wb.currentConn())
		return err == nil && len(jobs) == 1 && jobs[0].Status().IsTerminal()
	})
}

func TestGatewayErrorsMarkTheEditor(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	tab := h.newTab("")
	h.addConnection("gw", g.url, "", "")

	tab.ed.SetText("SELECT 1;\nSELECT pric\nFROM (VALUES (1)) AS t(price);")
	tab.ed.SetCursor(1, 3)
	h.runStatement()
	m := tab.ed.ErrorMarkers()
	if len(m) != 1 || m[0].Line != 1 || m[0].Col != 7 || !strings.Contains(m[0].Message, "Column 'pric' not found") {
		t.Fatalf("markers %+v; messages:\n%s", m, h.messages())
	}
	// a syntax error (sent to the gateway as typed: it may know more SQL)
	tab.ed.SetText("SELECT 1;\n\n  SELEC 2")
	tab.ed.SetCursor(2, 4)
	h.runStatement()
	if m := tab.ed.ErrorMarkers(); len(m) != 1 || m[0].Line != 2 || m[0].Col != 2 {
		t.Errorf("syntax error markers %+v; messages:\n%s", m, h.messages())
	}
	// EXPLAIN's error points into the editor's text, not the EXPLAIN sent
	tab.ed.SetText("SELECT nope FROM (VALUES (1)) AS t(a)")
	h.wb.explain(tab, tab.ed.Text(), 0)
	h.settle()
	if m := tab.ed.ErrorMarkers(); len(m) != 1 || m[0].Line != 0 || m[0].Col != 7 || !strings.Contains(m[0].Message, "line 1, column 8") {
		t.Errorf("EXPLAIN markers %+v", m)
	}
	// an unreachable gateway fails the statement, not the workbench
	h.addConnection("nowhere", "http://127.0.0.1:1", "", "")
	tab.ed.SetText("SELECT 1")
	h.runStatement()
	h.until("the failure in the catalog's header", func() bool { return strings.HasPrefix(h.wb.connDetail.Text, "not connected: ") })
	if !strings.Contains(h.messages(), "[ERROR] Cannot reach the SQL Gateway at 127.0.0.1:1: connection refused") || len(tab.ed.ErrorMarkers()) != 0 {
		t.Errorf("header %q, markers %v; messages:\n%s", h.wb.connDetail.Text, tab.ed.ErrorMarkers(), h.messages())
	}
}

func TestGatewayTokenIsHiddenAndChecked(t *testing.T) {
	g := startGateway(t, gateway.Config{Token: "s3cret"})
	h := newHarness(t)
	h.newTab("")
	cd := h.wb.openConnectionsDialog()
	if !cd.TokenEntry().Password {
		t.Error("the token entry shows the token")
	}
	// examples are worded as examples, not as values already there
	for _, e := range []*widget.Entry{cd.URLEntry(), cd.PropsEntry()} {
		if !strings.HasPrefix(e.PlaceHolder, "e.g. ") || e.Text != "" {
			t.Errorf("placeholder %q, text %q", e.PlaceHolder, e.Text)
		}
	}
	cd.Hide()
	h.addConnection("wrong", g.url, "nope", "")
	h.catalog()
	if !strings.Contains(h.messages(), "refused the token (401)") || strings.Contains(h.messages(), "nope") {
		t.Errorf("messages:\n%s", h.messages())
	}
	c := h.addConnection("right", g.url, "s3cret", "'table.local-time-zone' = 'Asia/Tokyo'")
	if got := h.catalog(); !strings.HasPrefix(got, "default_catalog") {
		t.Errorf("catalog %q", got)
	}
	rt := h.run("SELECT CURRENT_DATE IS NOT NULL AS ok")
	h.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "TRUE" {
		t.Errorf("rows %q; messages:\n%s", got, h.messages())
	}
	// the session properties reached the gateway
	if conf, err := c.open().(*gateway.RemoteEngine).Config(context.Background()); err != nil || conf["table.local-time-zone"] != "Asia/Tokyo" {
		t.Errorf("session configuration %v %v", conf, err)
	}
	// a workspace holding a token is private to its owner
	if fi, err := os.Stat(h.wb.store.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("workspace file mode %v %v", fi.Mode(), err)
	}
	if strings.Contains(h.wb.statusRight.Text, "s3cret") || strings.Contains(h.wb.connDetail.Text, "s3cret") {
		t.Error("the token is shown")
	}
}

func TestGatewayCompletionExportInsertAndReopen(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	tab := h.newTab("")
	// one datagen split on the gateway: the rows in sequence order
	h.addConnection("gw", g.url, "", "'parallelism.default' = '1'")
	h.run("CREATE TABLE generated (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.n.kind' = 'sequence', " +
		"'fields.n.start' = '1', 'fields.n.end' = '5');\nCREATE TABLE sink (n INT) WITH ('connector' = 'blackhole')")

	// Ctrl+Space asks the gateway (complete-statement).
	tab.ed.SetText("SELECT * FROM gene")
	tab.ed.SetCursorOffset(len(tab.ed.Text()))
	h.wb.complete(tab)
	h.until("the completion", func() bool { return tab.ed.Text() == "SELECT * FROM generated" })

	// the rows, and a CSV export of them
	rt := h.run("SELECT n FROM generated")
	h.waitDone(rt)
	if got := strings.Join(rows(rt.Grid()), ","); got != "1,2,3,4,5" {
		t.Fatalf("rows %q; messages:\n%s", got, h.messages())
	}
	target := filepath.Join(t.TempDir(), "out.csv")
	f := h.wb.showExportDialog(rt)
	f.Path.SetText(target)
	f.dlg.Confirm()
	h.settle()
	h.until("the export to finish", func() bool { return len(h.wb.exports) == 0 })
	if got, err := os.ReadFile(target); err != nil || string(got) != "n\n1\n2\n3\n4\n5\n" {
		t.Errorf("export %q %v", got, err)
	}

	// an INSERT's job is followed to its end
	h.run("INSERT INTO sink SELECT n FROM generated")
	h.until("the job's end", func() bool { return strings.Contains(h.messages(), "finished in") })
	if !strings.Contains(h.messages(), "Job ID: ") {
		t.Errorf("messages:\n%s", h.messages())
	}

	// The connection and the tab's choice come back with the workspace.
	id := tab.id
	h.close()
	h2 := open(t, path)
	defer h2.close()
	c := h2.wb.conns.byName("gw")
	if c == nil || c.cfg.URL != g.url {
		t.Fatalf("connections %q", h2.wb.conns.names())
	}
	h2.wb.editors.selectStored(id)
	h2.q.drain()
	if h2.wb.currentConn() != c || h2.wb.connSel.Selected != "gw" {
		t.Errorf("the tab runs on %q", h2.wb.currentConn().cfg.Name)
	}
	ws, err := h2.wb.store.Load(context.Background())
	if err != nil || len(ws.Connections) != 1 || ws.Connections[0].Kind != persistence.KindGateway {
		t.Errorf("stored %+v %v", ws.Connections, err)
	}
}

func TestGatewaySessionLostIsReopened(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	h.newTab("")
	c := h.addConnection("gw", g.url, "", "")
	rt := h.run("SELECT 1 AS a")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	// the gateway forgets the session (as after a restart)
	re := c.open().(*gateway.RemoteEngine)
	if err := re.Client().CloseSession(context.Background(), re.SessionHandle()); err != nil {
		t.Fatal(err)
	}
	rt = h.run("SELECT 2 AS b")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "2" {
		t.Errorf("rows %q", got)
	}
	if !strings.Contains(h.messages(), "no longer knows the session") {
		t.Errorf("messages:\n%s", h.messages())
	}
}

func TestConnectionsDialogEditRenameDelete(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	h.newTab("")
	c := h.addConnection("gw", g.url, "", "")
	h.catalog()
	first := c.open()
	if first == nil {
		t.Fatal("not connected")
	}

	cd := h.wb.openConnectionsDialog()
	if cd.Editing() != "gw" || cd.URLEntry().Text != g.url {
		t.Fatalf("the dialog shows %q %q", cd.Editing(), cd.URLEntry().Text)
	}
	// bad input is refused with a reason
	cd.URLEntry().SetText("ftp://x")
	test.Tap(cd.SaveButton())
	if !strings.Contains(cd.Status(), "http://") {
		t.Errorf("status %q", cd.Status())
	}
	cd.URLEntry().SetText(g.url)
	cd.NameEntry().SetText(embeddedConnName)
	test.Tap(cd.SaveButton())
	if !strings.Contains(cd.Status(), "embedded") {
		t.Errorf("status %q", cd.Status())
	}
	// renaming keeps the session; new properties open a new one
	cd.NameEntry().SetText("renamed")
	test.Tap(cd.SaveButton())
	if h.wb.conns.byName("renamed") != c || c.open() != first || h.wb.connSel.Selected != "renamed" {
		t.Errorf("after rename: %q, switch %q", h.wb.conns.names(), h.wb.connSel.Selected)
	}
	cd.PropsEntry().SetText("execution.runtime-mode = batch")
	test.Tap(cd.SaveButton())
	if c.open() == first {
		t.Error("the old session is still used")
	}
	h.catalog()
	if c.open() == nil || c.open() == first {
		t.Error("no new session")
	}
	ws, _ := h.wb.store.Load(context.Background())
	if len(ws.Connections) != 1 || ws.Connections[0].Name != "renamed" || ws.Connections[0].Properties["execution.runtime-mode"] != "batch" {
		t.Errorf("stored %+v", ws.Connections)
	}
	// deleting moves the tab back to the embedded engine
	cd.Delete(c.cfg.Name)
	h.q.drain()
	if h.wb.currentConn() != h.wb.conns.embedded || len(h.wb.connSel.Options) != 1 {
		t.Errorf("after delete: %q on %q", h.wb.connSel.Options, h.wb.currentConn().cfg.Name)
	}
	if ws, _ := h.wb.store.Load(context.Background()); len(ws.Connections) != 0 {
		t.Errorf("stored %+v", ws.Connections)
	}
	h.until("the session to close", func() bool { return g.srv.SessionCount() == 0 })
}

func TestGatewayConnectionRunsTheInitScriptWhenAsked(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	demo := h.wb.editors.list[0]
	h.newTab("")
	cd := h.wb.openConnectionsDialog()
	test.Tap(cd.NewButton())
	cd.NameEntry().SetText("with demo")
	cd.URLEntry().SetText(g.url)
	cd.RunInitCheck().SetChecked(true)
	test.Tap(cd.UseButton())
	h.q.drain()
	h.wb.catalog.OpenPath("default_catalog", "default_database")
	h.until("the demo tables on the gateway", func() bool { return strings.Contains(h.catalog(), "    flights") })
	if !strings.Contains(h.messages(), "Init script run on with demo.") {
		t.Errorf("messages:\n%s", h.messages())
	}
	// the demo tab, never moved, still runs on the embedded engine
	h.wb.editors.tabs.Select(demo.item)
	h.q.drain()
	if h.wb.currentConn() != h.wb.conns.embedded {
		t.Errorf("the demo tab runs on %q", h.wb.currentConn().cfg.Name)
	}
}

// TestGatewayMatchesEmbedded runs the same statements on the embedded
// engine and over a gateway and compares what the result tabs show:
// state, headers, cells (or text) and the status line's row count.
func TestGatewayMatchesEmbedded(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	local := h.newTab("")
	remote := h.newTab("")
	h.addConnection("gw", g.url, "", "")
	setup := "CREATE TEMPORARY VIEW IF NOT EXISTS v AS SELECT * FROM (VALUES " +
		"(1, 'a', CAST(1.50 AS DECIMAL(5, 2)), TIMESTAMP '2024-01-01 10:00:00.123', DATE '2024-02-29', TRUE, ARRAY[1, 2], MAP['k', 1.5e0])," +
		"(2, CAST(NULL AS STRING), CAST(-2 AS DECIMAL(5, 2)), CAST(NULL AS TIMESTAMP(3)), DATE '1970-01-01', FALSE, CAST(NULL AS ARRAY<INT>), MAP['x', -0.25e0])," +
		"(3, '', CAST(NULL AS DECIMAL(5, 2)), TIMESTAMP '1999-12-31 23:59:59', CAST(NULL AS DATE), CAST(NULL AS BOOLEAN), ARRAY[CAST(NULL AS INT)], CAST(NULL AS MAP<STRING, DOUBLE>))" +
		") AS t(n, s, d, ts, dt, b, arr, m)"
	scripts := []string{
		"SET 'execution.runtime-mode' = 'batch';\nSELECT * FROM v",
		"SET 'execution.runtime-mode' = 'batch';\nSELECT s IS NULL AS no_s, COUNT(*) AS c, SUM(d) AS total, MAX(ts) AS latest FROM v GROUP BY s IS NULL",
		"SET 'execution.runtime-mode' = 'streaming';\nSELECT b, COUNT(*) AS c FROM v GROUP BY b",
		"SELECT n, ROW(n, s) AS r, CAST(ts AS STRING) AS ts_text, TIMESTAMPDIFF(DAY, dt, DATE '2024-03-01') AS days FROM v",
		"DESCRIBE v",
		"SHOW FUNCTIONS",
		"EXPLAIN SELECT n FROM v WHERE n > 1",
	}
	unordered := map[string]bool{scripts[2]: true}
	show := func(tab *editorTab, script string) string {
		h.wb.editors.tabs.Select(tab.item)
		h.q.drain()
		rt := h.run(setup + ";\n" + script)
		if rt == nil {
			t.Fatalf("%s: no result on %s; messages:\n%s", script, h.wb.currentConn().cfg.Name, h.messages())
		}
		h.waitDone(rt)
		h.wb.Tick()
		if rt.Text != "" {
			return rt.State() + "\n" + rt.Text
		}
		var hs []string
		for c, hc := range drawnHeaders(rt.Grid()) {
			hs = append(hs, fmt.Sprintf("%d:%s %s", c, hc.Name(), hc.TypeName()))
		}
		sort.Strings(hs)
		status, _, _ := strings.Cut(rt.StatusLabel().Text, " · ")
		cells := rows(rt.Grid())
		if unordered[script] {
			// a streaming GROUP BY's groups come from as many instances as
			// the parallelism, in no fixed order (Flink's too)
			sort.Strings(cells)
		}
		return rt.State() + "\n" + strings.Join(hs, ", ") + "\n" + strings.Join(cells, "\n") + "\n" + status
	}
	for _, s := range scripts {
		want := show(local, s)
		got := show(remote, s)
		if got != want {
			t.Errorf("%s\nover the gateway:\n%s\nembedded:\n%s", s, got, want)
		}
	}
	if h.wb.conns.of(local) != h.wb.conns.embedded || h.wb.conns.of(remote).cfg.Name != "gw" {
		t.Error("the tabs changed connections")
	}
}

// TestGatewayGoneIsAConnectionErrorNotASQLError: a gateway that stops
// after the session was opened fails the next statement with a connection
// error in Messages and no marker in the editor.
func TestGatewayGoneIsAConnectionErrorNotASQLError(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	tab := h.newTab("")
	h.addConnection("gw", g.url, "", "")
	if rt := h.run("SELECT 41"); rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	g.hs.CloseClientConnections()
	g.hs.Close()
	h.wb.messages.clear()
	tab.ed.SetText("SELECT 42")
	h.runStatement()
	addr := strings.TrimPrefix(g.url, "http://")
	want := "[ERROR] Cannot reach the SQL Gateway at " + addr + ": connection refused"
	if got := h.messages(); !strings.Contains(got, want) || strings.Contains(got, "http://") || strings.Contains(got, "line 1") {
		t.Errorf("messages:\n%s\nwant %q", got, want)
	}
	if m := tab.ed.ErrorMarkers(); len(m) != 0 {
		t.Errorf("markers %+v", m)
	}
	// the catalog, read again after the statement, does not say it twice
	h.until("the catalog's failure", func() bool { return strings.HasPrefix(h.wb.connDetail.Text, "not connected") || h.wb.catalogErr != "" })
	h.settle()
	// (a catalog read in flight when the server went away may have said so
	// before the statement did, with another cause; nothing may follow it)
	got := h.messages()
	i := strings.Index(got, want)
	if i < 0 {
		return // reported above
	}
	rest := got[i+len(want):]
	if n := strings.Count(rest, "Cannot reach the SQL Gateway") + strings.Count(rest, "cannot reach the SQL Gateway"); n != 0 {
		t.Errorf("said again after the statement:\n%s", got)
	}
}

// TestGatewaySetListsAndSaysSo: SET without arguments on a gateway tab
// lists the session's properties in a result and has its Messages entry.
func TestGatewaySetListsAndSaysSo(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	h.newTab("")
	// a session's SET lists what was configured (as on Flink's gateway, a
	// fresh session with no properties lists nothing)
	h.addConnection("gw", g.url, "", "'table.local-time-zone' = 'Asia/Tokyo'")
	h.wb.messages.clear()
	rt := h.run("SET")
	got := h.wb.messages.texts()
	if rt == nil {
		t.Fatalf("no result; messages %q", got)
	}
	if n := rt.Res.Stats().Rows; n == 0 || len(got) != 1 || !strings.HasPrefix(got[0], "SET\nFinished: "+widgets.Plural(n, "row")+" in ") {
		t.Errorf("%d rows, messages %q", n, got)
	}
}

// The optional cluster REST URL: checked, saved with the connection and
// shown again, a change opens a new session, and Test says when the URL
// is not a Flink cluster's REST API (here Riffle's gateway, which has none).
func TestConnectionsDialogClusterRESTURL(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	h.newTab("")
	c := h.addConnection("gw", g.url, "", "")
	h.catalog()
	first := c.open()
	if first == nil {
		t.Fatal("not connected")
	}
	cd := h.wb.openConnectionsDialog()
	if cd.RESTEntry().Text != "" {
		t.Fatalf("a new connection's cluster REST URL %q", cd.RESTEntry().Text)
	}
	cd.RESTEntry().SetText("ftp://127.0.0.1:8081")
	test.Tap(cd.SaveButton())
	if !strings.Contains(cd.Status(), "cluster REST URL") || !strings.Contains(cd.Status(), "http://") {
		t.Errorf("status %q", cd.Status())
	}
	if cfg, _, _, _ := c.snapshot(); cfg.ClusterREST != "" {
		t.Errorf("a refused URL was kept: %q", cfg.ClusterREST)
	}
	// no scheme: http:// is added, as for the gateway's URL
	rest := strings.TrimPrefix(g.url, "http://")
	cd.RESTEntry().SetText(rest + "/")
	test.Tap(cd.SaveButton())
	if cd.Status() != "Saved." || cd.RESTEntry().Text != g.url {
		t.Fatalf("status %q, field %q", cd.Status(), cd.RESTEntry().Text)
	}
	if cfg, _, _, _ := c.snapshot(); cfg.ClusterREST != g.url || c.open() == first {
		t.Errorf("connection %+v; same session: %v", cfg, c.open() == first)
	}
	// Test opens a session, then finds no Flink REST API at the URL
	test.Tap(cd.TestButton())
	h.until("the test's answer", func() bool { return strings.Contains(cd.Status(), "cluster REST URL") })
	if !strings.Contains(cd.Status(), "is not a Flink cluster's REST API (GET /config: 404") ||
		!strings.Contains(cd.Status(), "a session opened and closed") {
		t.Errorf("status %q", cd.Status())
	}
	// statements still run (the cluster REST API is only asked about jobs)
	rt := h.run("SELECT 1 AS a")
	h.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "1" {
		t.Errorf("rows %q; messages:\n%s", got, h.messages())
	}
	// stored, and shown again after a restart
	h.close()
	h2 := open(t, path)
	defer h2.close()
	if c2 := h2.wb.conns.byName("gw"); c2 == nil || c2.cfg.ClusterREST != g.url {
		t.Fatalf("connections %q", h2.wb.conns.names())
	}
	cd2 := h2.wb.openConnectionsDialog()
	cd2.Select("gw")
	if cd2.RESTEntry().Text != g.url {
		t.Errorf("the dialog shows %q", cd2.RESTEntry().Text)
	}
	// emptied: none
	cd2.RESTEntry().SetText("  ")
	test.Tap(cd2.SaveButton())
	if ws, _ := h2.wb.store.Load(context.Background()); len(ws.Connections) != 1 || ws.Connections[0].ClusterREST != "" {
		t.Errorf("stored %+v", ws.Connections)
	}
}

// TestEmbeddedConnectionShowsItsParallelism: the Connections dialog says
// which parallelism the embedded engine's jobs run at and where it comes
// from: the number of cores until the session sets parallelism.default,
// then the session's value.
func TestEmbeddedConnectionShowsItsParallelism(t *testing.T) {
	h := newHarness(t)
	h.newTab("")
	cd := h.wb.openConnectionsDialog()
	cd.Select(embeddedConnName)
	cores := strconv.Itoa(runtime.NumCPU())
	if got, want := cd.EmbeddedSettings(), "Jobs run at parallelism "+cores+": parallelism.default is not set, so it is the number of cores"; !strings.HasPrefix(got, want) {
		t.Errorf("before SET: %q, want it to start with %q", got, want)
	}
	cd.Hide()
	h.run("SET 'parallelism.default' = '3'")
	cd = h.wb.openConnectionsDialog()
	cd.Select(embeddedConnName)
	if got, want := cd.EmbeddedSettings(), "Jobs run at parallelism 3: parallelism.default is set to 3 in this session"; !strings.HasPrefix(got, want) {
		t.Errorf("after SET: %q, want it to start with %q", got, want)
	}
	cd.Hide()
}
