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
	// Attrs are the full attributes EXPLAIN prints (for a tooltip).
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
		n := &Node{ID: len(g.Nodes), Phys: p, Op: p.Op, Attrs: slices.Clone(p.Attrs), Parallelism: max(p.Parallelism, 1)}
		if streaming {
			n.Mode = p.Mode.String()
		}
		ids[p] = n.ID
		g.Nodes = append(g.Nodes, n)
		describe(n, p, streaming)
		for i, in := range p.Inputs {
			e := &Edge{To: n.ID, Input: i}
			src := in
			for src.Op == "Exchange" && len(src.Inputs) == 1 {
				e.Kind, e.Keys = exchangeKind(src)
				src = src.Inputs[0]
			}
			if e.Kind == "" {
				// what plan.BuildGraph does without an Exchange
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

// exchangeKind names an Exchange's distribution and its key columns.
func exchangeKind(x *plan.PhysNode) (string, []string) {
	switch x.Dist {
	case opspec.Hash:
		var keys []string
		if len(x.Inputs) == 1 {
			cols := x.Inputs[0].Cols
			for _, k := range x.Keys {
				if k >= 0 && k < len(cols) {
					keys = append(keys, cols[k].Name)
				}
			}
		}
		if len(keys) == 0 {
			// fall back on the printed distribution=[hash[a, b]]
			if d, ok := attr(x.Attrs, "distribution"); ok {
				d = strings.TrimSuffix(strings.TrimPrefix(d, "hash["), "]")
				keys = splitList(d)
			}
		}
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

// maxLine is the longest detail line (longer ones end in "…").
const maxLine = 44

// describe fills a node's detail lines from its attributes.
func describe(n *Node, p *plan.PhysNode, streaming bool) {
	add := func(label, value string) {
		if value != "" {
			n.Lines = append(n.Lines, shorten(label+": "+value, maxLine))
		}
	}
	if t, ok := attr(p.Attrs, "table"); ok {
		if strings.HasPrefix(t, "*anonymous_collect") {
			add("to", "query result")
		} else {
			add("table", tableName(t))
		}
	}
	for _, k := range []string{"groupBy", "partitionBy", "key"} {
		if v, ok := attr(p.Attrs, k); ok && v != "" {
			n.Keys = splitList(v)
			add("keys", v)
			break
		}
	}
	if w, ok := attr(p.Attrs, "window"); ok {
		n.Window = w
		add("window", w)
	}
	if jt, ok := attr(p.Attrs, "joinType"); ok {
		add("join", jt)
	}
	if w, ok := attr(p.Attrs, "where"); ok {
		label := "filter"
		if _, join := attr(p.Attrs, "joinType"); join {
			label = "on"
		}
		add(label, w)
	}
	if r, ok := attr(p.Attrs, "rowtime"); ok {
		wm, _ := attr(p.Attrs, "watermark")
		add("watermark", r+" ← "+wm)
	}
	if o, ok := attr(p.Attrs, "orderBy"); ok {
		add("order", o)
	}
	if f, ok := attr(p.Attrs, "fetch"); ok {
		add("fetch", f)
	}
	par := "parallelism " + strconv.Itoa(n.Parallelism)
	if streaming && n.Mode != "" {
		par = "changelog [" + n.Mode + "] · " + par
	}
	n.Lines = append(n.Lines, par)
}

// attr returns the value of key=[value] among attrs.
func attr(attrs []string, key string) (string, bool) {
	for _, a := range attrs {
		if strings.HasPrefix(a, key+"=[") && strings.HasSuffix(a, "]") {
			return a[len(key)+2 : len(a)-1], true
		}
	}
	return "", false
}

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
