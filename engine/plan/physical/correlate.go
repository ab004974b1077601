package physical

import "github.com/riffle-sql/riffle/engine/plan"

// translateCorrelate plans a Correlate node.
func (pl *planner) translateCorrelate(c *plan.Correlate) *PhysNode {
	in := pl.translate(c.Input)
	return &PhysNode{Op: &PhysCorrelate{Call: c.Call, Left: c.Left, Cond: c.Cond}, Inputs: []*PhysNode{in}, Cols: c.Cols, Mode: in.Mode,
		Parallelism: in.Parallelism, rows: in.rows * 2}
}
