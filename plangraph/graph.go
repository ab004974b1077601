// Package plangraph turns a physical plan (plan.PhysNode trees, what
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

	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/plan"
)

// Node is one operator of the graph.
type Node struct {
	// ID is the node's index in Graph.Nodes: the order of a depth-first
	// walk from the roots through inputs in order.
	ID int
	// Phys is the plan node shown (for JobClient.NodeMetrics).
	Phys *plan.PhysNode
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
func FromPlan(streaming bool, roots ...*plan.PhysNode) *Graph {
	g := &Graph{Streaming: streaming}
	ids := map[*plan.PhysNode]int{}
	var visit func(p *plan.PhysNode) int
	visit = func(p *plan.PhysNode) int {
		if id, ok := ids[p]; ok {
			return id
		}
		attrs := p.Attrs()
		n := &Node{ID: len(g.Nodes), Phys: p, Op: p.Name(), Parallelism: max(p.Parallelism, 1)}
		for _, a := range attrs {
			n.Attrs = append(n.Attrs, a.String())
		}
		if streaming {
			n.Mode = p.Mode.String()
		}
		ids[p] = n.ID
		g.Nodes = append(g.Nodes, n)
		describe(n, p, attrs, streaming)
		for i, in := range p.Inputs {
			e := &Edge{To: n.ID, Input: i}
			src := in
			for isExchange(src) && len(src.Inputs) == 1 {
				e.Kind, e.Keys = exchangeKind(src)
				src = src.Inputs[0]
			}
			if e.Kind == "" {
				// what jobgraph.Build does without an Exchange
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

// isExchange reports an Exchange node: a plan's, or one read from
// EXPLAIN text.
func isExchange(p *plan.PhysNode) bool {
	switch x := p.Op.(type) {
	case *plan.PhysExchange:
		return true
	case *plan.TextOp:
		return x.Op == "Exchange"
	}
	return false
}

// exchangeKind names an Exchange's distribution and its key columns.
func exchangeKind(x *plan.PhysNode) (string, []string) {
	var dist opspec.Partitioning
	var keys []string
	switch op := x.Op.(type) {
	case *plan.PhysExchange:
		dist = op.Dist
		if len(x.Inputs) == 1 {
			keys = colNames(x.Inputs[0].Cols, op.Keys)
		}
	case *plan.TextOp:
		dist, keys = op.Dist, op.KeyNames
	}
	switch dist {
	case opspec.Hash:
		return "hash", keys
	case opspec.Broadcast:
		return "broadcast", nil
	case opspec.Single:
		return "single", nil
	case opspec.Rebalance:
		return "rebalance", nil
	}
	return "forward", nil
}

// colNames are the names of columns keys of cols (out of range ones
// left out).
func colNames(cols []plan.Column, keys []int) []string {
	var out []string
	for _, k := range keys {
		if k >= 0 && k < len(cols) {
			out = append(out, cols[k].Name)
		}
	}
	return out
}

// maxLine is the longest detail line (longer ones end in "…").
const maxLine = 44

// describe fills a node's detail lines from its operator's fields and
// attributes.
func describe(n *Node, p *plan.PhysNode, attrs []plan.Attr, streaming bool) {
	add := func(label, value string) {
		if value != "" {
			n.Lines = append(n.Lines, shorten(label+": "+value, maxLine))
		}
	}
	attr := func(name string) (string, bool) {
		for _, a := range attrs {
			if a.Name == name {
				return a.Value, true
			}
		}
		return "", false
	}
	switch x := p.Op.(type) {
	case *plan.PhysTableSourceScan:
		add("table", x.Table[2])
	case *plan.PhysSink:
		if x.Collect {
			add("to", "query result")
		} else {
			add("table", x.Table)
		}
	case *plan.TextOp:
		if t, ok := attr("table"); ok {
			if strings.HasPrefix(t, "*anonymous_collect") {
				add("to", "query result")
			} else {
				add("table", tableName(t))
			}
		}
	}
	n.Keys = keyNames(p)
	for _, k := range []string{"groupBy", "partitionBy", "key"} {
		if v, ok := attr(k); ok && v != "" {
			if _, text := p.Op.(*plan.TextOp); text {
				n.Keys = splitList(v)
			}
			add("keys", v)
			break
		}
	}
	if w, ok := attr("window"); ok {
		n.Window = w
		add("window", w)
	}
	jt, join := attr("joinType")
	if join {
		add("join", jt)
	}
	if w, ok := attr("where"); ok {
		label := "filter"
		if join {
			label = "on"
		}
		add(label, w)
	}
	if r, ok := attr("rowtime"); ok {
		wm, _ := attr("watermark")
		add("watermark", r+" ← "+wm)
	}
	if o, ok := attr("orderBy"); ok {
		add("order", o)
	}
	if f, ok := attr("fetch"); ok {
		add("fetch", f)
	}
	par := "parallelism " + strconv.Itoa(n.Parallelism)
	if streaming && n.Mode != "" {
		par = "changelog [" + n.Mode + "] · " + par
	}
	n.Lines = append(n.Lines, par)
}

// keyNames are the grouping or partitioning keys of a keyed operator.
func keyNames(p *plan.PhysNode) []string {
	if len(p.Inputs) == 0 {
		return nil
	}
	in := p.Inputs[0].Cols
	var keys []int
	switch x := p.Op.(type) {
	case *plan.PhysGroupAggregate:
		keys = x.Keys
	case *plan.PhysWindowAggregate:
		keys = x.Keys
	case *plan.PhysRank:
		keys = x.PartitionKeys
	case *plan.PhysWindowRank:
		if !x.Dedup() { // a WindowDeduplicate shows partitionKeys=[...]
			keys = x.PartitionKeys
		}
	case *plan.PhysWindowTableFunction:
		keys = x.PartitionKeys
	case *plan.PhysOverAggregate:
		keys = x.Groups[0].PartitionKeys
	case *plan.PhysDeduplicate:
		keys = x.Keys
	case *plan.PhysChangelogNormalize:
		return colNames(p.Cols, x.Keys)
	}
	return colNames(in, keys)
}

// The helpers below read a plan read back from EXPLAIN text (TextOp),
// whose attributes are all there is to it.

// tableName shortens "[default_catalog, default_database, flights]" to
// "flights".
func tableName(t string) string {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "["), "]")
	parts := splitList(t)
	// the object name is the last part that is not a pushed-down ability
	// (project=[...], filter=[...], partitions=[...], limit=[...], ...)
	for i := len(parts) - 1; i >= 0; i-- {
		if !strings.Contains(parts[i], "=") {
			return parts[i]
		}
	}
	return t
}

// splitList splits "a, f(b, c), d" at top-level commas.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
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
