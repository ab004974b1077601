package plangraph

import "testing"

// BenchmarkLayout lays out a statement set of a join plan and a windowed
// aggregate (11 operators, 10 edges).
func BenchmarkLayout(b *testing.B) {
	j, w := joinPlan(), windowedPlan()
	for b.Loop() {
		g := FromPlan(true, j, w)
		g.Layout(LayoutOptions{})
	}
}
