package physical

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// PhysNode is a node of the physical plan: the fields every operator has
// (inputs, columns, changelog mode, parallelism, upsert keys, row
// estimate) and Op, the operator itself with its own typed fields
// (*PhysCalc, *PhysGroupAggregate, *Join, ... in physical_ops*.go). EXPLAIN and
// the plan graph read Op's attributes (Op.Explain); engine/jobgraph turns
// a tree of PhysNodes into a runtime job graph.
//
// Rewrites after translation (leaving out -U rows, removing a
// ChangelogNormalize) replace a node's operator in place, so a *PhysNode
// keeps its identity for the job graph's metrics.
type PhysNode struct {
	// Op is the operator.
	Op Operator
	// Inputs are the node's inputs in order (a join's left, then right).
	Inputs []*PhysNode
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
	Explain(n *PhysNode) []Attr
}

// Attr is one attribute of an EXPLAIN line, printed "Name=[Value]".
type Attr struct {
	Name, Value string
	// bare marks a text attribute not of the form name=[value] (ParseAttr):
	// Name holds all of it
	bare bool
}

// String renders the attribute as EXPLAIN prints it.
func (a Attr) String() string {
	if a.bare {
		return a.Name
	}
	return a.Name + "=[" + a.Value + "]"
}

// Name is Flink's name of the node's operator.
func (p *PhysNode) Name() string { return p.Op.Name() }

// Attrs are the node's EXPLAIN attributes.
func (p *PhysNode) Attrs() []Attr { return p.Op.Explain(p) }

// Attr returns the value of the attribute named name.
func (p *PhysNode) Attr(name string) (string, bool) {
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
func (p *PhysNode) Describe() string { return describeAttrs(p.Name(), p.Attrs()) }

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
func (p *PhysNode) Rows() float64 { return p.rows }

// IsSource reports a node that reads rows rather than consuming inputs: a
// TableSourceScan or Values.
func (p *PhysNode) IsSource() bool {
	switch p.Op.(type) {
	case *PhysTableSourceScan, *PhysValues:
		return true
	}
	return false
}

// Bounded reports whether a source node ends by itself.
func (p *PhysNode) Bounded() bool {
	switch x := p.Op.(type) {
	case *PhysTableSourceScan:
		return x.Bounded
	case *PhysValues:
		return true
	}
	return false
}

// TextOp is an operator known only by its EXPLAIN text: a plan read back
// from a gateway's EXPLAIN (the workbench's plan view of a remote job),
// or a test's plan. It cannot be run. Dist and KeyNames describe an
// Exchange read from text ("distribution=[hash[a, b]]").
type TextOp struct {
	Op       string
	Attrs    []Attr
	Dist     opspec.Partitioning
	KeyNames []string
}

// Name implements Operator.
func (t *TextOp) Name() string { return t.Op }

// Explain implements Operator.
func (t *TextOp) Explain(*PhysNode) []Attr { return t.Attrs }

// ParseAttr splits an EXPLAIN attribute "name=[value]" (as a gateway's
// EXPLAIN text prints it); an attribute of another shape is all name.
func ParseAttr(s string) Attr {
	if i := strings.Index(s, "=["); i > 0 && strings.HasSuffix(s, "]") {
		return Attr{Name: s[:i], Value: s[i+2 : len(s)-1]}
	}
	return Attr{Name: s, bare: true}
}

// ParseAttrs is ParseAttr of each of attrs.
func ParseAttrs(attrs ...string) []Attr {
	out := make([]Attr, len(attrs))
	for i, a := range attrs {
		out[i] = ParseAttr(a)
	}
	return out
}

// isOp reports whether p's operator is a T.
func isOp[T Operator](p *PhysNode) bool {
	_, ok := p.Op.(T)
	return ok
}
