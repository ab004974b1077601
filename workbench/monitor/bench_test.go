package monitor

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

// BenchmarkPlanRefresh measures one metrics refresh of a 16-operator plan
// view's model: reading every counter, deriving rates and formatting the
// lines of every box (what the plan view does once a second).
func BenchmarkPlanRefresh(b *testing.B) {
	var root *table.PlanNode
	ms := map[*table.PlanNode]*table.OperatorMetrics{}
	for i := range 16 {
		n := &table.PlanNode{Name: "Calc", Parallelism: 2}
		if root != nil {
			n.Inputs = []*table.PlanNode{root}
		}
		root = n
		ms[n] = &table.OperatorMetrics{Watermark: int64(i) * 1000, HasWatermark: true}
	}
	g := plangraph.FromPlan(true, root)
	pm := NewPlanMetrics(g)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lookup := func(p *table.PlanNode) (table.OperatorMetrics, bool) {
		m, ok := ms[p]
		if !ok {
			return table.OperatorMetrics{}, false
		}
		return *m, true
	}
	for b.Loop() {
		for _, m := range ms {
			m.RecordsIn += 1000
			m.RecordsOut += 900
		}
		now = now.Add(time.Second)
		pm.Sample(now, lookup)
		for i := range g.Nodes {
			_ = pm.Node(i)
		}
	}
}
