package physical

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Node is a node of the physical plan: the fields every operator has
// (inputs, columns, changelog mode, parallelism, upsert keys, row
// estimate) and Op, the operator itself with its own typed fields
// (*Calc, *GroupAggregate, *Join, ... in ops*.go). EXPLAIN and
// the plan graph read Op's attributes (Op.Explain); engine/internal/jobgraph turns
// a tree of Nodes into a runtime job graph.
//
// Rewrites after translation (leaving out -U rows, removing a
// ChangelogNormalize) replace a node's operator in place, so a *Node
// keeps its identity for the job graph's metrics.
type Node struct {
	// Op is the operator.
	Op Operator
	// Inputs are the node's inputs in order (a join's left, then right).
	Inputs []*Node
	// Cols are the output columns.
	Cols []plan.Column
	// Mode is the node's changelog mode (streaming).
	Mode types.ChangelogMode
	// Parallelism of the operator.
	Parallelism int

	// upsertKeys are column sets that identify a row of an updating
	// output (Flink's upsert keys, upsert.go).
	upsertKeys [][]int
	// hidden nodes are left out of EXPLAIN (the key-by in front of an
	// upsert-materializing sink, which Flink adds when translating the
	// sink rather than as a plan node)
	hidden bool
	// rows is the rowcount estimate for EXPLAIN ESTIMATED_COST.
	rows float64
}

// Operator is a physical operator: its Flink name and the attributes
// EXPLAIN prints for it, rendered from its fields and its node's inputs
// and columns.
type Operator interface {
	// Name is Flink's operator name: TableSourceScan, Calc,
	// GroupAggregate, HashAggregate, Exchange, Join, HashJoin, Sort,
	// SortLimit, Limit, Rank, Union, Values, WatermarkAssigner, Sink, ...
	Name() string
	// Explain lists the node's attributes in EXPLAIN's order.
	Explain(n *Node) []Attr
}

// Attr is one attribute of an EXPLAIN line, printed "Name=[Value]".
type Attr struct {
	Name, Value string
	// Exec is the value in the execution plan's notation where it differs
	// from Value (expressions infix: (a + 1) for +(a, 1)); "" when not.
	Exec string
	// PhysicalOnly leaves the attribute out of the execution plan (a
	// streaming Values' type=[RecordType(...)]).
	PhysicalOnly bool
}

// String renders the attribute as EXPLAIN prints it.
func (a Attr) String() string {
	return a.Name + "=[" + a.Value + "]"
}

// Name is Flink's name of the node's operator.
func (p *Node) Name() string { return p.Op.Name() }

// Attrs are the node's EXPLAIN attributes.
func (p *Node) Attrs() []Attr { return p.Op.Explain(p) }

// Attr returns the value of the attribute named name.
func (p *Node) Attr(name string) (string, bool) {
	for _, a := range p.Attrs() {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Describe renders the node as an EXPLAIN line: "Calc(select=[a, b])",
// or the name alone for an operator without attributes
// (DropUpdateBefore).
func (p *Node) Describe() string { return describeAttrs(p.Name(), p.Attrs()) }

func describeAttrs(name string, attrs []Attr) string {
	if len(attrs) == 0 {
		return name
	}
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		parts[i] = a.String()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// Rows is the node's rowcount estimate.
func (p *Node) Rows() float64 { return p.rows }

// IsSource reports a node that reads rows rather than consuming inputs: a
// TableSourceScan or Values.
func (p *Node) IsSource() bool {
	switch p.Op.(type) {
	case *TableSourceScan, *Values:
		return true
	}
	return false
}

// Bounded reports whether a source node ends by itself.
func (p *Node) Bounded() bool {
	switch x := p.Op.(type) {
	case *TableSourceScan:
		return x.Bounded
	case *Values:
		return true
	}
	return false
}

// isOp reports whether p's operator is a T.
func isOp[T Operator](p *Node) bool {
	_, ok := p.Op.(T)
	return ok
}
