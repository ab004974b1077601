package table

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/types"
)

// The view of a planner's typed operators takes the scan's table, the
// aggregate's keys, the exchange's distribution and hash keys and the
// collect sink from their fields, and the attributes EXPLAIN prints.
func TestPlanViewOfTypedPlan(t *testing.T) {
	cols := []plan.Column{{Name: "carrier", Type: types.StringType()}, {Name: "delay", Type: types.BigIntType()}}
	scan := &physical.Node{Op: &physical.TableSourceScan{Table: [3]string{"c", "d", "flights"}, PushedDown: []string{"project=[carrier, delay]"}},
		Cols: cols, Mode: types.InsertOnlyMode, Parallelism: 2}
	ex := &physical.Node{Op: &physical.Exchange{Dist: opspec.Hash, Keys: []int{0}}, Inputs: []*physical.Node{scan}, Cols: scan.Cols, Parallelism: 2}
	agg := &physical.Node{Op: &physical.GroupAggregate{Keys: []int{0}, Streaming: true}, Inputs: []*physical.Node{ex}, Cols: cols[:1],
		Mode: types.InsertOnlyMode, Parallelism: 2}
	sink := &physical.Node{Op: &physical.Sink{Table: "*anonymous_collect$1*", Collect: true}, Inputs: []*physical.Node{agg}, Cols: agg.Cols,
		Mode: types.InsertOnlyMode, Parallelism: 1}
	roots := planViewsOf([]*physical.Node{sink, agg})
	s := roots[0]
	if s.Name != "Sink" || !s.CollectsResult || s.Table != "" || s.Parallelism != 1 || s.ChangelogMode != types.InsertOnlyMode || roots[1] != s.Inputs[0] {
		t.Fatalf("sink %+v", s)
	}
	a := s.Inputs[0]
	var attrs []string
	for _, x := range a.Attrs {
		attrs = append(attrs, x.String())
	}
	if a.Name != "GroupAggregate" || !slices.Equal(a.Keys, []string{"carrier"}) || !slices.Equal(attrs, []string{"groupBy=[carrier]", "select=[carrier]"}) ||
		len(a.Columns) != 1 || a.Columns[0].Name != "carrier" {
		t.Errorf("aggregate %+v", a)
	}
	e := a.Inputs[0]
	if e.Name != "Exchange" || e.Distribution != DistributionHash || !slices.Equal(e.DistributionKeys, []string{"carrier"}) {
		t.Errorf("exchange %+v", e)
	}
	if sc := e.Inputs[0]; sc.Table != "flights" || sc.Distribution != "" || len(sc.Inputs) != 0 {
		t.Errorf("scan %+v", sc)
	}
}

// EXPLAIN's text read back: a quoted bracket or comma does not split an
// attribute; an Exchange's distribution, the keys, a scan's table and the
// changelog mode are read from the attributes.
func TestParseExplainPlan(t *testing.T) {
	if _, groups := splitOperator("Calc(select=[k], where=[(s = ')],x')])"); len(groups) != 1 || len(splitTopLevel(groups[0])) != 2 {
		t.Errorf("groups %q", groups)
	}
	p, err := ParseExplainPlan("== Optimized Physical Plan ==\n" +
		"GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS n], changelogMode=[I,UA])\n" +
		"+- Exchange(distribution=[hash[k]], changelogMode=[I])\n" +
		"   +- TableSourceScan(table=[[default_catalog, default_database, gen, project=[k]]], fields=[k], changelogMode=[I])\n")
	if err != nil || !p.Streaming || len(p.Roots) != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	agg := p.Roots[0]
	ex := agg.Inputs[0]
	scan := ex.Inputs[0]
	if !slices.Equal(agg.Keys, []string{"k"}) || agg.ChangelogMode != types.UpsertMode.Union(types.ChangelogModeOf(types.Insert)) && agg.ChangelogMode.String() != "I,UA" {
		t.Errorf("aggregate %+v", agg)
	}
	if ex.Distribution != DistributionHash || !slices.Equal(ex.DistributionKeys, []string{"k"}) || scan.Table != "gen" || scan.CollectsResult {
		t.Errorf("exchange %+v, scan %+v", ex, scan)
	}
	if got := agg.ExplainText(); !strings.HasPrefix(got, "GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS n], changelogMode=[I,UA])\n+- Exchange(") {
		t.Errorf("text\n%s", got)
	}
}

// A job's plan view is built once; NodeMetrics reads its operators'
// metrics (the final watermark of an input that ended is flagged), and
// ExplainText prints what EXPLAIN's execution plan prints.
func TestJobClientPlanView(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE gen (k INT, v DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '100', 'fields.k.min' = '1', 'fields.k.max' = '3')`); err != nil {
		t.Fatal(err)
	}
	res, err := env.ExecuteSQL("SELECT k, COUNT(*) AS n FROM gen GROUP BY k")
	if err != nil {
		t.Fatal(err)
	}
	jc := res.JobClient()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, err := range res.Rows(ctx) {
		if err != nil {
			t.Fatal(err)
		}
	}
	root := jc.Plan()
	if root == nil || root != jc.Plan() || !root.CollectsResult {
		t.Fatalf("plan %+v", root)
	}
	var ex, agg *PlanNode
	for n := root; len(n.Inputs) > 0; n = n.Inputs[0] {
		switch n.Name {
		case "Exchange":
			ex = n
		case "GroupAggregate":
			agg = n
		}
	}
	if ex == nil || ex.Distribution != DistributionHash {
		t.Errorf("exchange %+v", ex)
	}
	if m, ok := jc.NodeMetrics(agg); !ok || m.RecordsIn != 100 || !m.HasWatermark || !m.WatermarkAtEnd || m.Watermark != math.MaxInt64 {
		t.Errorf("aggregate metrics %+v %v", m, ok)
	}
	if _, ok := (*JobClient)(nil).NodeMetrics(agg); ok {
		t.Error("a nil JobClient has metrics")
	}
	text, err := env.ExplainSQL("SELECT k, COUNT(*) AS n FROM gen GROUP BY k")
	if err != nil {
		t.Fatal(err)
	}
	if _, exec, _ := strings.Cut(text, "== Optimized Execution Plan ==\n"); root.ExplainText() != exec {
		t.Errorf("ExplainText\n%s\nEXPLAIN's execution plan\n%s", root.ExplainText(), exec)
	}
}
