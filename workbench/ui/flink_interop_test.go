//go:build interop

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/interop"
)

// TestFlinkWorkbench drives the workbench against a real Apache Flink
// (scripts/flink.sh: a session cluster and its SQL Gateway) as a user
// does: a connection with the cluster's REST URL, a batch aggregate over
// a csv file, a streaming aggregate's changelog, an INSERT job listed in
// Jobs and cancelled there, and Flink's EXPLAIN drawn as a plan graph.
//
//	go test -tags interop,migrated_fynedo -run TestFlinkWorkbench ./ui/
func TestFlinkWorkbench(t *testing.T) {
	f, err := interop.FlinkFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.newTab("")
	c := h.addConnection("flink", f.Gateway, "", "")
	cd := h.wb.openConnectionsDialog()
	cd.RESTEntry().SetText(f.REST)
	test.Tap(cd.SaveButton())
	test.Tap(cd.TestButton())
	h.until("the connection test", func() bool { return strings.Contains(cd.Status(), "Cluster REST API") })
	if want := "Cluster REST API: Flink " + f.Version + "."; !strings.HasSuffix(cd.Status(), want) || !strings.Contains(cd.Status(), "Connected to Apache Flink") {
		t.Errorf("test: %q, want it to end in %q", cd.Status(), want)
	}
	cd.Hide()

	// a batch aggregate over a csv file (Flink's csv format reads no
	// header line, so the file has none)
	csv := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(csv, []byte("a,1\nb,2\na,3\nc,5\nb,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rt := h.run("SET 'execution.runtime-mode' = 'batch';\n" +
		"CREATE TEMPORARY TABLE sales (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = 'file://" + csv + "', 'format' = 'csv');\n" +
		"SELECT k, SUM(v) AS total, COUNT(*) AS n FROM sales GROUP BY k ORDER BY k")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := strings.Join(rows(rt.Grid()), "; "); got != "a | 4 | 2; b | 6 | 2; c | 5 | 1" {
		t.Errorf("batch rows %q; messages:\n%s", got, h.messages())
	}
	// its Plan view: Flink's EXPLAIN, drawn
	rt.mon.tabs.Select(rt.mon.planItem)
	h.until("Flink's plan", func() bool { return rt.mon.plan != nil })
	ops := map[string]bool{}
	aggs := 0
	for _, n := range rt.mon.plan.Plan().Nodes {
		ops[n.Op] = true
		if strings.HasSuffix(n.Op, "Aggregate") {
			aggs++ // Flink's local and global aggregates (hash or sort)
		}
	}
	if !ops["TableSourceScan"] || aggs < 2 || !strings.Contains(rt.mon.plan.Text(), "== Optimized Execution Plan ==") {
		t.Errorf("plan operators %v", ops)
	}

	// a streaming aggregate: its changelog has updates
	rt = h.run("SET 'execution.runtime-mode' = 'streaming';\n" +
		"CREATE TEMPORARY TABLE readings (id INT, r DOUBLE) WITH ('connector' = 'datagen', 'rows-per-second' = '50', " +
		"'fields.id.min' = '1', 'fields.id.max' = '3');\n" +
		"SELECT id, COUNT(*) AS n FROM readings GROUP BY id")
	if rt == nil || rt.ViewSelect() == nil {
		t.Fatalf("no streaming result; messages:\n%s", h.messages())
	}
	rt.ViewSelect().SetSelected("Changelog")
	h.until("-U/+U changes", func() bool {
		ops := map[string]bool{}
		n, _ := rt.Grid().Shape()
		for i := 0; i < n; i++ {
			op, _, _ := rt.Grid().CellText(i, 1)
			ops[op] = true
		}
		return ops["+I"] && ops["-U"] && ops["+U"]
	})
	test.Tap(rt.StopButton())
	h.waitDone(rt)

	// an INSERT job: listed in Jobs (from the cluster's REST API), cancelled there
	// (a window aggregate: Flink's plan of it prints start('w$), a quote
	// that pairs with none)
	h.run("CREATE TEMPORARY TABLE ticks (id INT, ts AS LOCALTIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) " +
		"WITH ('connector' = 'datagen', 'rows-per-second' = '50', 'fields.id.min' = '1', 'fields.id.max' = '3');\n" +
		"CREATE TEMPORARY TABLE bh (ws TIMESTAMP(3), id INT, n BIGINT) WITH ('connector' = 'blackhole');\n" +
		"INSERT INTO bh SELECT window_start, id, COUNT(*) FROM TABLE(TUMBLE(TABLE ticks, DESCRIPTOR(ts), INTERVAL '10' SECOND)) " +
		"GROUP BY window_start, window_end, id")
	jp := h.wb.mon.jobs
	var id string
	h.until("the INSERT job running in Jobs", func() bool {
		jp.Update(time.Now()) // the cluster is asked every 2 s
		for _, r := range jp.Rows() {
			if jp.connOf[r.ID] == c.name() && r.Status == table.JobRunning && strings.HasPrefix(r.Statement, "INSERT INTO bh") {
				id = r.ID
				return true
			}
		}
		return false
	})
	if !jp.NoMetrics() {
		t.Error("metric columns shown for gateway jobs")
	}
	// Open: Flink's plan of the INSERT, explained on the connection
	jp.OpenJob(id)
	var tab *jobTab
	h.until("the INSERT job's plan tab", func() bool {
		for _, jt := range h.wb.mon.jobTabs {
			if jt.id == id {
				tab = jt
			}
		}
		return tab != nil
	})
	if n := tab.view.Plan().Nodes; len(n) < 3 || n[0].Op != "Sink" {
		t.Errorf("the INSERT's plan: %d nodes, root %v", len(n), n)
	}
	jp.Cancel(id)
	h.until("the job cancelled on Flink", func() bool {
		jp.Update(time.Now())
		r, _ := jp.Row(id)
		return r.Status == table.JobCanceled
	})
	if r, _ := jp.Row(id); r.Duration <= 0 {
		t.Errorf("no duration from the cluster's end time: %+v", r)
	}

	// an INSERT job that fails on the cluster: the cluster REST API says why
	h.run("CREATE TEMPORARY TABLE words (s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.s.length' = '5');\n" +
		"CREATE TEMPORARY TABLE ints (n INT) WITH ('connector' = 'blackhole');\n" +
		"INSERT INTO ints SELECT CAST(s AS INT) FROM words")
	h.until("the job's failure", func() bool { return strings.Contains(h.messages(), "[ERROR] Job ") })
	if m := h.messages(); !strings.Contains(m, " failed: NumberFormatException: For input string: ") {
		t.Errorf("messages:\n%s", m)
	}

	// EXPLAIN's result: the text and its graph
	rt = h.run("EXPLAIN SELECT id, COUNT(*) FROM readings GROUP BY id")
	if rt == nil || rt.mon.plan == nil || len(rt.mon.plan.Plan().Nodes) < 2 {
		t.Fatalf("no plan graph for EXPLAIN; messages:\n%s", h.messages())
	}
	if n := rt.mon.plan.Plan().Nodes[0]; n.Op != "GroupAggregate" || strings.Contains(strings.Join(n.Lines, " "), "parallelism") {
		t.Errorf("root %s %q", n.Op, n.Lines)
	}
}
