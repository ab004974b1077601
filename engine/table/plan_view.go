package table

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/types"
)

// PlanNode is one operator of a physical plan as EXPLAIN and a plan graph
// show it: a read-only view with plain fields. JobClient.Plan gives a
// running job's plan (whose nodes JobClient.NodeMetrics reads metrics of),
// TableEnvironment.ExplainPlan a statement's, and ParseExplainPlan reads
// one back from EXPLAIN's text (a gateway's, Flink's), whose nodes carry
// what the text says and nothing more (no columns, no parallelism, no
// metrics). Changing a PlanNode changes nothing in the engine.
type PlanNode struct {
	// Name is Flink's operator name: TableSourceScan, Calc,
	// GroupAggregate, Exchange, Join, Rank, Sink, ...
	Name string
	// Attrs are the attributes EXPLAIN prints for the operator, in
	// EXPLAIN's order ("groupBy=[carrier]", "select=[...]").
	Attrs []PlanAttr
	// Inputs are the node's inputs in order (a join's left, then right).
	// A node feeding several consumers (a statement set's shared source)
	// is the same *PlanNode in each.
	Inputs []*PlanNode
	// Columns are the output columns (names and types); none for a plan
	// read from text.
	Columns []types.Field
	// ChangelogMode is the kinds of rows the node produces in streaming
	// mode (zero in batch mode, and in text that does not print it).
	ChangelogMode types.ChangelogMode
	// Parallelism is the number of parallel instances (0 when unknown:
	// EXPLAIN's text does not say).
	Parallelism int
	// Distribution is how an Exchange distributes rows to its consumer's
	// instances ("" for other operators); DistributionKeys are the key
	// columns of a hash distribution, by name.
	Distribution     Distribution
	DistributionKeys []string
	// Keys are the grouping or partitioning columns of a keyed operator
	// (GroupAggregate, WindowAggregate, Rank, Deduplicate, OVER,
	// ChangelogNormalize, ...), by name.
	Keys []string
	// Table is the table a TableSourceScan reads (its object name, such as
	// "flights") or a Sink writes (as EXPLAIN names it); "" for other
	// operators and for a query's collect sink (see CollectsResult).
	Table string
	// CollectsResult marks the sink that collects a query's rows for its
	// result (Flink's *anonymous_collect$N*).
	CollectsResult bool
	// Members are the operators a batch MultipleInput runs, by name, each
	// once, in the order EXPLAIN lists them (read from text only).
	Members []string

	// phys is the planner's node behind the view (nil for a plan read
	// from text): the key of the job's metrics and what ExplainText
	// renders.
	phys *physical.Node
}

// PlanAttr is one attribute of an EXPLAIN line, printed "Name=[Value]".
type PlanAttr struct {
	Name, Value string
	// bare marks text that is not of the form name=[value]: Name holds
	// all of it
	bare bool
}

// String renders the attribute as EXPLAIN prints it: "name=[value]", or
// the text as it was for an attribute of another shape.
func (a PlanAttr) String() string {
	if a.bare {
		return a.Name
	}
	return a.Name + "=[" + a.Value + "]"
}

// ParsePlanAttr splits an EXPLAIN attribute "name=[value]"; text of
// another shape is kept whole as the attribute's Name and printed as it
// was.
func ParsePlanAttr(s string) PlanAttr {
	if i := strings.Index(s, "=["); i > 0 && strings.HasSuffix(s, "]") {
		return PlanAttr{Name: s[:i], Value: s[i+2 : len(s)-1]}
	}
	return PlanAttr{Name: s, bare: true}
}

// ParsePlanAttrs is ParsePlanAttr of each of attrs.
func ParsePlanAttrs(attrs ...string) []PlanAttr {
	out := make([]PlanAttr, len(attrs))
	for i, a := range attrs {
		out[i] = ParsePlanAttr(a)
	}
	return out
}

// Attr returns the value of the node's attribute named name.
func (n *PlanNode) Attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Describe renders the node as an EXPLAIN line: "Calc(select=[a, b])", or
// the name alone for an operator without attributes.
func (n *PlanNode) Describe() string {
	if len(n.Attrs) == 0 {
		return n.Name
	}
	parts := make([]string, len(n.Attrs))
	for i, a := range n.Attrs {
		parts[i] = a.String()
	}
	return n.Name + "(" + strings.Join(parts, ", ") + ")"
}

// ExplainText renders the plan below n as the "Optimized Execution Plan"
// section of EXPLAIN prints it, one operator a line with its inputs
// indented below it; a query's collect sink is left out, as Flink
// explains a query. The text of a plan read from EXPLAIN is rendered from
// its nodes' names and attributes.
func (n *PlanNode) ExplainText() string {
	if n == nil {
		return ""
	}
	if n.phys != nil {
		shown := n.phys
		if s, ok := shown.Op.(*physical.Sink); ok && s.Collect {
			shown = physical.QueryRoot(shown)
		}
		return physical.Explain(shown, physical.ExplainDetail{Execution: true}, false)
	}
	var b strings.Builder
	var rec func(p *PlanNode, prefix string, last, root bool)
	rec = func(p *PlanNode, prefix string, last, root bool) {
		childPrefix := prefix
		switch {
		case root:
			b.WriteString(p.Describe())
		case last:
			b.WriteString(prefix + "+- " + p.Describe())
			childPrefix += "   "
		default:
			b.WriteString(prefix + ":- " + p.Describe())
			childPrefix += ":  "
		}
		b.WriteByte('\n')
		for i, c := range p.Inputs {
			rec(c, childPrefix, i == len(p.Inputs)-1, false)
		}
	}
	root := n
	if n.CollectsResult && len(n.Inputs) == 1 {
		root = n.Inputs[0]
	}
	rec(root, "", true, true)
	return b.String()
}

// Distribution is how an Exchange sends rows to the instances of its
// consumer (Flink's exchange kinds, by their EXPLAIN names).
type Distribution string

// Distributions.
const (
	// DistributionForward keeps instance i's rows at instance i.
	DistributionForward Distribution = "forward"
	// DistributionHash routes each row by the hash of its key columns.
	DistributionHash Distribution = "hash"
	// DistributionBroadcast sends every row to every instance.
	DistributionBroadcast Distribution = "broadcast"
	// DistributionSingle sends every row to one instance.
	DistributionSingle Distribution = "single"
	// DistributionRebalance spreads rows round-robin.
	DistributionRebalance Distribution = "rebalance"
)

// planViews builds the views of physical plan nodes, each node once (a
// node shared by several consumers or roots has one view).
type planViews map[*physical.Node]*PlanNode

// of returns the view of p and of the nodes below it.
func (v planViews) of(p *physical.Node) *PlanNode {
	if p == nil {
		return nil
	}
	if n, ok := v[p]; ok {
		return n
	}
	n := &PlanNode{Name: p.Name(), ChangelogMode: p.Mode, Parallelism: p.Parallelism, phys: p}
	v[p] = n
	for _, a := range p.Attrs() {
		n.Attrs = append(n.Attrs, PlanAttr{Name: a.Name, Value: a.Value, bare: a.String() != a.Name+"=["+a.Value+"]"})
	}
	for _, c := range p.Cols {
		n.Columns = append(n.Columns, types.Field{Name: c.Name, Type: c.Type})
	}
	switch x := p.Op.(type) {
	case *physical.TableSourceScan:
		n.Table = x.Table[2]
	case *physical.Sink:
		if x.Collect {
			n.CollectsResult = true
		} else {
			n.Table = x.Table
		}
	case *physical.Exchange:
		n.Distribution = distributionOf(x.Dist)
		if x.Dist == opspec.Hash && len(p.Inputs) == 1 {
			n.DistributionKeys = colNames(p.Inputs[0].Cols, x.Keys)
		}
	}
	n.Keys = keyNames(p)
	for _, in := range p.Inputs {
		n.Inputs = append(n.Inputs, v.of(in))
	}
	return n
}

// planViewsOf returns the views of roots, sharing the nodes they share.
func planViewsOf(roots []*physical.Node) []*PlanNode {
	v := planViews{}
	out := make([]*PlanNode, len(roots))
	for i, r := range roots {
		out[i] = v.of(r)
	}
	return out
}

// distributionOf names a partitioning.
func distributionOf(d opspec.Partitioning) Distribution {
	switch d {
	case opspec.Hash:
		return DistributionHash
	case opspec.Broadcast:
		return DistributionBroadcast
	case opspec.Single:
		return DistributionSingle
	case opspec.Rebalance:
		return DistributionRebalance
	}
	return DistributionForward
}

// keyNames are the grouping or partitioning keys of a keyed operator.
func keyNames(p *physical.Node) []string {
	if len(p.Inputs) == 0 {
		return nil
	}
	in := p.Inputs[0].Cols
	var keys []int
	switch x := p.Op.(type) {
	case *physical.GroupAggregate:
		keys = x.Keys
	case *physical.WindowAggregate:
		keys = x.Keys
	case *physical.Rank:
		keys = x.PartitionKeys
	case *physical.WindowRank:
		if !x.Dedup() { // a WindowDeduplicate shows partitionKeys=[...]
			keys = x.PartitionKeys
		}
	case *physical.WindowTableFunction:
		keys = x.PartitionKeys
	case *physical.OverAggregate:
		keys = x.Groups[0].PartitionKeys
	case *physical.Deduplicate:
		keys = x.Keys
	case *physical.ChangelogNormalize:
		return colNames(p.Cols, x.Keys)
	}
	return colNames(in, keys)
}

// colNames are the names of columns keys of cols (out of range ones left
// out).
func colNames(cols []plan.Column, keys []int) []string {
	var out []string
	for _, k := range keys {
		if k >= 0 && k < len(cols) {
			out = append(out, cols[k].Name)
		}
	}
	return out
}
