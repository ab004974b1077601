package monitor

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/runtime"
	"github.com/riffle-sql/riffle/plangraph"
)

// BenchmarkPlanRefresh measures one metrics refresh of a 16-operator plan
// view's model: reading every counter, deriving rates and formatting the
// lines of every box (what the plan view does once a second).
func BenchmarkPlanRefresh(b *testing.B) {
	var root *plan.PhysNode
	ms := map[*plan.PhysNode]*runtime.OperatorMetrics{}
	for i := range 16 {
		n := &plan.PhysNode{Op: &plan.TextOp{Op: "Calc"}, Parallelism: 2}
		if root != nil {
			n.Inputs = []*plan.PhysNode{root}
		}
		root = n
		m := &runtime.OperatorMetrics{}
		m.Watermark.Store(int64(i) * 1000)
		ms[n] = m
	}
	g := plangraph.FromPlan(true, root)
	pm := NewPlanMetrics(g)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lookup := func(p *plan.PhysNode) *runtime.OperatorMetrics { return ms[p] }
	for b.Loop() {
		for _, m := range ms {
			m.RecordsIn.Add(1000)
			m.RecordsOut.Add(900)
		}
		now = now.Add(time.Second)
		pm.Sample(now, lookup)
		for i := range g.Nodes {
			_ = pm.Node(i)
		}
	}
}
