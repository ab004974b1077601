// Package plangraph turns a physical plan (table.PlanNode trees, what
// EXPLAIN prints) into a graph for drawing: operators become boxes that
// name the operator, its keys, window, changelog mode and parallelism;
// Exchange nodes become the edges between them, labelled forward,
// hash[keys], broadcast, single or rebalance. Layout places the boxes top
// to bottom (sources above, sinks below) with a layered layout whose
// coordinates are deterministic.
//
// The package has no GUI imports; the workbench's plan view draws a
// laid-out Graph with canvas objects and adds live metrics per node.
package plangraph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/table"
)

// Node is one operator of the graph.
type Node struct {
	// ID is the node's index in Graph.Nodes: the order of a depth-first
	// walk from the roots through inputs in order.
	ID int
	// PlanNode is the plan node shown (for JobClient.NodeMetrics).
	PlanNode *table.PlanNode
	// Op is Flink's operator name (GroupAggregate, WindowAggregate, ...).
	Op string
	// Lines are short details shown under the name: table, keys, window,
	// filter, changelog mode, parallelism.
	Lines []string
	// Attrs are the full attributes EXPLAIN prints, "name=[value]" (for
	// a tooltip).
	Attrs []string
	// Keys are the grouping / partitioning keys, Window the window
	// specification, Mode the changelog mode ("I", "I,UB,UA,D"; empty in
	// batch mode), Parallelism the number of parallel instances.
	Keys        []string
	Window      string
	Mode        string
	Parallelism int

	// Layout results (see Graph.Layout): Layer counts from the top,
	// Order from the left within the layer; X, Y is the top-left corner.
	Layer, Order int
	X, Y, W, H   float64
}

// Edge connects a producer to one input of a consumer.
type Edge struct {
	From, To int // node IDs
	// Input is the consumer's input index (0 = left/first).
	Input int
	// Kind is forward, hash, broadcast, single or rebalance; Label adds
	// the keys of a hash exchange ("hash[carrier]").
	Kind, Label string
	Keys        []string

	// Points is the polyline from the producer's bottom to the
	// consumer's top (set by Layout), LabelAt where the label goes.
	Points  []Point
	LabelAt Point
}

// Point is a position in layout units (the units of Measure).
type Point struct{ X, Y float64 }

// Graph is a plan as nodes and edges.
type Graph struct {
	Nodes []*Node
	Edges []*Edge
	// Width and Height of the laid-out graph, margins included.
	Width, Height float64
	// Streaming says the plan runs in streaming mode (changelog modes
	// are shown).
	Streaming bool
}

// FromPlan builds the graph of one or more plan roots (a statement set
// has several). Nodes shared between roots appear once.
func FromPlan(streaming bool, roots ...*table.PlanNode) *Graph {
	g := &Graph{Streaming: streaming}
	ids := map[*table.PlanNode]int{}
	var visit func(p *table.PlanNode) int
	visit = func(p *table.PlanNode) int {
		if id, ok := ids[p]; ok {
			return id
		}
		n := &Node{ID: len(g.Nodes), PlanNode: p, Op: p.Name, Parallelism: max(p.Parallelism, 1)}
		for _, a := range p.Attrs {
			n.Attrs = append(n.Attrs, a.String())
		}
		if streaming {
			n.Mode = p.ChangelogMode.String()
		}
		ids[p] = n.ID
		g.Nodes = append(g.Nodes, n)
		describe(n, p, streaming)
		for i, in := range p.Inputs {
			e := &Edge{To: n.ID, Input: i}
			src := in
			for isExchange(src) && len(src.Inputs) == 1 {
				e.Kind, e.Keys = exchangeKind(src)
				src = src.Inputs[0]
			}
			if e.Kind == "" {
				// what the engine's job graph does without an Exchange
				e.Kind = "forward"
				if max(src.Parallelism, 1) != n.Parallelism {
					e.Kind = "rebalance"
					if n.Parallelism == 1 {
						e.Kind = "single"
					}
				}
			}
			e.Label = e.Kind
			if e.Kind == "hash" {
				e.Label = "hash[" + strings.Join(e.Keys, ", ") + "]"
			}
			e.From = visit(src)
			g.Edges = append(g.Edges, e)
		}
		return n.ID
	}
	for _, r := range roots {
		if r != nil {
			visit(r)
		}
	}
	return g
}

// isExchange reports an Exchange node.
func isExchange(p *table.PlanNode) bool { return p.Name == "Exchange" }

// exchangeKind names an Exchange's distribution and its key columns.
func exchangeKind(x *table.PlanNode) (string, []string) {
	switch x.Distribution {
	case table.DistributionHash:
		return "hash", x.DistributionKeys
	case table.DistributionBroadcast, table.DistributionSingle, table.DistributionRebalance:
		return string(x.Distribution), nil
	}
	return "forward", nil
}

// maxLine is the longest detail line (longer ones end in "…").
const maxLine = 44

// describe fills a node's detail lines from its plan node's fields and
// attributes.
func describe(n *Node, p *table.PlanNode, streaming bool) {
	add := func(label, value string) {
		if value != "" {
			n.Lines = append(n.Lines, shorten(label+": "+value, maxLine))
		}
	}
	if p.CollectsResult {
		add("to", "query result")
	} else {
		add("table", p.Table)
	}
	n.Keys = p.Keys
	for _, k := range []string{"groupBy", "partitionBy", "key"} {
		if v, ok := p.Attr(k); ok && v != "" {
			add("keys", v)
			break
		}
	}
	if w, ok := p.Attr("window"); ok {
		n.Window = w
		add("window", w)
	}
	jt, join := p.Attr("joinType")
	if join {
		add("join", jt)
	}
	if w, ok := p.Attr("where"); ok {
		label := "filter"
		if join {
			label = "on"
		}
		add(label, w)
	}
	if r, ok := p.Attr("rowtime"); ok {
		wm, _ := p.Attr("watermark")
		add("watermark", r+" ← "+wm)
	}
	if o, ok := p.Attr("orderBy"); ok {
		add("order", o)
	}
	if f, ok := p.Attr("fetch"); ok {
		add("fetch", f)
	}
	par := "parallelism " + strconv.Itoa(n.Parallelism)
	if streaming && n.Mode != "" {
		par = "changelog [" + n.Mode + "] · " + par
	}
	n.Lines = append(n.Lines, par)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Inputs returns the edges into node id, by input index.
func (g *Graph) Inputs(id int) []*Edge {
	var out []*Edge
	for _, e := range g.Edges {
		if e.To == id {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Edge) int { return a.Input - b.Input })
	return out
}

// Outputs returns the edges out of node id.
func (g *Graph) Outputs(id int) []*Edge {
	var out []*Edge
	for _, e := range g.Edges {
		if e.From == id {
			out = append(out, e)
		}
	}
	return out
}
