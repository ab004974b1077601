package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

// EXPLAIN CHANGELOG_MODE and a batch EXPLAIN as Apache Flink 2.3.0's SQL
// Gateway answered them (a union reusing a node; a MultipleInput over two
// hash exchanges whose source is reused).
const flinkStreamExplain = `== Abstract Syntax Tree ==
LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
+- LogicalUnion(all=[true])
   :- LogicalProject(k=[$0])
   :  +- LogicalTableScan(table=[[default_catalog, default_database, a]])
   +- LogicalProject(k=[$0])
      +- LogicalTableScan(table=[[default_catalog, default_database, a]])

== Optimized Physical Plan ==
GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$1], changelogMode=[I,UA])
+- Exchange(distribution=[hash[k]], changelogMode=[I])
   +- Union(all=[true], union=[k], changelogMode=[I])
      :- Calc(select=[k], changelogMode=[I])
      :  +- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, v], changelogMode=[I])
      +- Calc(select=[k], changelogMode=[I])
         +- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, v], changelogMode=[I])

== Optimized Execution Plan ==
GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$1])
+- Exchange(distribution=[hash[k]])
   +- Union(all=[true], union=[k])
      :- Calc(select=[k])(reuse_id=[1])
      :  +- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, v])
      +- Reused(reference_id=[1])
`

const flinkBatchExecution = `== Optimized Execution Plan ==
Calc(select=[k, c])
+- MultipleInput(readOrder=[0,1], members=[\nHashJoin(joinType=[InnerJoin], where=[(k = k0)], select=[k, k0, c], build=[left])\n:- HashAggregate(isMerge=[true], groupBy=[k], select=[k])\n:  +- [#1] Exchange(distribution=[hash[k]])\n+- HashAggregate(isMerge=[true], groupBy=[k], select=[k, Final_COUNT(count1$0) AS c])\n   +- [#2] Exchange(distribution=[hash[k]])\n])
   :- Exchange(distribution=[hash[k]])
   :  +- LocalHashAggregate(groupBy=[k], select=[k])
   :     +- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, v])(reuse_id=[1])
   +- Exchange(distribution=[hash[k]])
      +- LocalHashAggregate(groupBy=[k], select=[k, Partial_COUNT(*) AS count1$0])
         +- Calc(select=[k])
            +- Reused(reference_id=[1])
`

// EXPLAIN of an INSERT of a TUMBLE window aggregate, as Flink 2.3.0 printed it.
const flinkWindowInsert = `== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.sensor_averages], fields=[window_start, sensor_id, EXPR$2])
+- Calc(select=[window_start, sensor_id, EXPR$2])
   +- GlobalWindowAggregate(groupBy=[sensor_id], window=[TUMBLE(slice_end=[$slice_end], size=[10 s])], select=[sensor_id, AVG((sum$0, count$1)) AS EXPR$2, start('w$) AS window_start, end('w$) AS window_end])
      +- Exchange(distribution=[hash[sensor_id]])
         +- LocalWindowAggregate(groupBy=[sensor_id], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[sensor_id, AVG(reading) AS (sum$0, count$1), slice_end('w$) AS $slice_end])
            +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
               +- Calc(select=[sensor_id, reading, LOCALTIMESTAMP() AS ts])
                  +- TableSourceScan(table=[[default_catalog, default_database, readings_src]], fields=[sensor_id, reading])
`

func graphEdges(g *plangraph.Graph) string {
	var out []string
	for _, e := range g.Edges {
		out = append(out, g.Nodes[e.From].Op+" -"+e.Label+"-> "+g.Nodes[e.To].Op)
	}
	return strings.Join(out, "; ")
}

func TestRemoteExplainPlanReadsFlinksText(t *testing.T) {
	// CHANGELOG_MODE: the physical plan, which carries the modes
	roots, streaming, err := remoteExplainPlan(flinkStreamExplain)
	if err != nil || !streaming || len(roots) != 1 {
		t.Fatalf("roots %d streaming %v err %v", len(roots), streaming, err)
	}
	g := remotePlanGraph(streaming, roots)
	if len(g.Nodes) != 6 || g.Nodes[0].Op != "GroupAggregate" || g.Nodes[0].Mode != "I,UA" || g.Nodes[1].Mode != "I" {
		t.Errorf("nodes %+v", g.Nodes)
	}
	if got := graphEdges(g); got != "TableSourceScan -forward-> Calc; Calc -forward-> Union; TableSourceScan -forward-> Calc; Calc -forward-> Union; Union -hash[k]-> GroupAggregate" {
		t.Errorf("edges %s", got)
	}
	if lines := strings.Join(g.Nodes[0].Lines, " | "); lines != "keys: k | changelog [I,UA]" {
		t.Errorf("GroupAggregate's lines %q (EXPLAIN gives no parallelism)", lines)
	}
	if lines := strings.Join(g.Nodes[len(g.Nodes)-1].Lines, " | "); lines != "table: a | changelog [I]" {
		t.Errorf("the scan's lines %q", lines)
	}

	// the execution plan: a reused node is one node with two consumers
	roots, streaming, err = remoteExplainPlan(flinkBatchExecution)
	if err != nil || streaming || len(roots) != 1 {
		t.Fatalf("roots %d streaming %v err %v", len(roots), streaming, err)
	}
	g = remotePlanGraph(streaming, roots)
	if len(g.Nodes) != 6 {
		t.Errorf("%d nodes: %s", len(g.Nodes), graphEdges(g))
	}
	if got := graphEdges(g); got != "TableSourceScan -forward-> LocalHashAggregate; LocalHashAggregate -hash[k]-> MultipleInput; TableSourceScan -forward-> Calc; "+
		"Calc -forward-> LocalHashAggregate; LocalHashAggregate -hash[k]-> MultipleInput; MultipleInput -forward-> Calc" {
		t.Errorf("edges %s", got)
	}
	if a := g.Nodes[1].Attrs; len(a) != 2 || !strings.HasPrefix(a[1], "members=[\\nHashJoin(joinType=[InnerJoin]") {
		t.Errorf("MultipleInput's attributes %q", a)
	}
	if l := g.Nodes[1].Lines; len(l) != 1 || l[0] != "runs: HashJoin, HashAggregate" {
		t.Errorf("MultipleInput's lines %q", l)
	}

	// several sinks: a tree each
	roots, _, err = remoteExplainPlan("== Optimized Execution Plan ==\nSink(table=[a])\n+- Calc(select=[x])(reuse_id=[1])\n   +- Values(tuples=[[{ 1 }]])\n\nSink(table=[b])\n+- Reused(reference_id=[1])\n")
	if err != nil || len(roots) != 2 || roots[1].Inputs[0] != roots[0].Inputs[0] {
		t.Errorf("statement set: %d roots, %v", len(roots), err)
	}
	// what is not a plan is said to be none
	for _, bad := range []string{"", "== Optimized Execution Plan ==\n", "== Optimized Execution Plan ==\n   +- Calc()\n",
		"== Optimized Execution Plan ==\nCalc()\n+- Reused(reference_id=[9])\n", "{\"nodes\": []}"} {
		if roots, _, err := remoteExplainPlan(bad); err == nil {
			t.Errorf("%q read as %d roots", bad, len(roots))
		}
	}
	// Flink prints window properties with an unpaired quote: start('w$)
	roots, streaming, err = remoteExplainPlan(flinkWindowInsert)
	if err != nil || !streaming || len(roots) != 1 {
		t.Fatalf("window INSERT: %d roots, streaming %v, %v", len(roots), streaming, err)
	}
	g = remotePlanGraph(streaming, roots)
	if got := graphEdges(g); got != "TableSourceScan -forward-> Calc; Calc -forward-> WatermarkAssigner; WatermarkAssigner -forward-> LocalWindowAggregate; "+
		"LocalWindowAggregate -hash[sensor_id]-> GlobalWindowAggregate; GlobalWindowAggregate -forward-> Calc; Calc -forward-> Sink" {
		t.Errorf("window INSERT edges %s", got)
	}
	if l := g.Nodes[0].Lines; len(l) != 1 || l[0] != "table: sensor_averages" {
		t.Errorf("the sink's lines %q", l)
	}
	if a := g.Nodes[2].Attrs; len(a) != 3 || a[2] != "select=[sensor_id, AVG((sum$0, count$1)) AS EXPR$2, start('w$) AS window_start, end('w$) AS window_end]" {
		t.Errorf("GlobalWindowAggregate's attributes %q", a)
	}
	// a literal's quote printed undoubled, brackets inside literals
	roots, _, err = remoteExplainPlan("== Optimized Execution Plan ==\nUnion(all=[true], union=[k, EXPR$1, EXPR$2])\n" +
		":- Calc(select=[k, 'a,b' AS EXPR$1, 'it's' AS EXPR$2], where=[LIKE(k, '%(x%')])\n:  +- Values(tuples=[[{ _UTF-16LE'x' }]])\n" +
		"+- Calc(select=[name, 'c' AS EXPR$1, 'd' AS EXPR$2])\n   +- Values(tuples=[[{ _UTF-16LE'y' }]])\n")
	if err != nil || len(roots) != 1 || len(roots[0].Inputs) != 2 {
		t.Fatalf("literals: %v", err)
	}
	if a := roots[0].Inputs[0].Attrs; len(a) != 2 || a[1].String() != "where=[LIKE(k, '%(x%')]" {
		t.Errorf("Calc's attributes %q", a)
	}
	// whatever the text, no panic
	for _, s := range []string{"== Optimized Execution Plan ==\nA(x=[)])(", "== Optimized Execution Plan ==\n)(\n+- (", "== Optimized Execution Plan ==\nA((((\n"} {
		_, _, _ = remoteExplainPlan(s)
	}
	// a quoted bracket or comma does not split an attribute (more in
	// engine/table's TestParseExplainPlanSplitsAtTopLevel)
	if roots, _, err := remoteExplainPlan("== Optimized Execution Plan ==\nCalc(select=[k], where=[(s = ')],x')])\n"); err != nil || len(roots[0].Attrs) != 2 {
		t.Errorf("quoted bracket: %v", err)
	}
}

// Over a gateway, EXPLAIN's result shows the plan graph beside the text,
// and a query's Plan view asks the gateway for EXPLAIN when first shown.
func TestGatewayExplainAndQueryPlanView(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	h.newTab("")
	h.addConnection("gw", g.url, "", "")
	h.run("CREATE TEMPORARY TABLE s (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')")
	rt := h.run("EXPLAIN SELECT k, COUNT(*) AS n FROM s GROUP BY k")
	if rt == nil || rt.mon.plan == nil {
		t.Fatalf("no plan graph for EXPLAIN; messages:\n%s", h.messages())
	}
	ops := []string{}
	for _, n := range rt.mon.plan.Plan().Nodes {
		ops = append(ops, n.Op)
	}
	// a datagen scan reads every column, a Calc keeps k (as in Flink)
	if got := strings.Join(ops, ","); got != "Calc,GroupAggregate,Calc,TableSourceScan" {
		t.Errorf("operators %s", got)
	}
	if !strings.Contains(rt.mon.plan.Status(), "4 operators, 1 exchange") {
		t.Errorf("status %q", rt.mon.plan.Status())
	}

	rt = h.run("SELECT k, COUNT(*) AS n FROM s GROUP BY k")
	if rt == nil || rt.mon.planItem == nil {
		t.Fatalf("no Plan view for a gateway query; messages:\n%s", h.messages())
	}
	rt.mon.tabs.Select(rt.mon.planItem)
	h.until("the gateway's plan", func() bool { return rt.mon.plan != nil })
	if st := rt.mon.plan.Status(); !strings.Contains(st, "EXPLAIN on gw, no live metrics") || len(rt.mon.plan.Plan().Nodes) != 4 {
		t.Errorf("status %q, %d nodes", st, len(rt.mon.plan.Plan().Nodes))
	}
	if !strings.Contains(rt.mon.plan.Text(), "== Optimized Execution Plan ==") {
		t.Errorf("text %q", rt.mon.plan.Text())
	}
	test.Tap(rt.StopButton())
	h.waitDone(rt)
}
