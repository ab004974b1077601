package table

import (
	"strings"
	"testing"
)

func TestExplainPlan(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE gen (k INT, v DOUBLE) WITH ('connector' = 'datagen')`); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT k, COUNT(*) AS n FROM gen GROUP BY k"
	p, err := env.ExplainPlan(q)
	if err != nil {
		t.Fatal(err)
	}
	text, err := env.ExplainSQL(q)
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != text || !p.Streaming || len(p.Roots) != 1 || p.Roots[0].Name != "Sink" {
		t.Fatalf("plan %+v", p)
	}
	var ops []string
	for n := p.Roots[0]; n != nil; {
		ops = append(ops, n.Name)
		if len(n.Inputs) == 0 {
			break
		}
		n = n.Inputs[0]
	}
	// datagen reads every column (no projection pushdown, as in Flink):
	// a Calc keeps k over the scan
	if got := strings.Join(ops, " <- "); got != "Sink <- Exchange <- Calc <- GroupAggregate <- Exchange <- Calc <- TableSourceScan" {
		t.Errorf("plan chain %s", got)
	}
	// an EXPLAIN statement is planned as its inner statement, with details
	// (a query is explained without -U rows at its root, as Flink does)
	p2, err := env.ExplainPlan("EXPLAIN CHANGELOG_MODE " + q)
	if err != nil || !strings.Contains(p2.Text, "GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$1], changelogMode=[I,UA])") {
		t.Errorf("explain with details: %v\n%s", err, p2.Text)
	}
	if _, err := env.ExplainPlan("SELECT nope FROM gen"); err == nil {
		t.Error("bad column planned")
	}
	if _, err := env.ExplainPlan("CREATE TABLE x (a INT)"); err == nil {
		t.Error("DDL planned")
	}
}
