package plangraph

import (
	"cmp"
	"math"
	"slices"
	"unicode/utf8"
)

// LayoutOptions tune Layout. Zero fields take the defaults.
type LayoutOptions struct {
	// Measure returns a node's box size in layout units. The default
	// gives 7 units per character of the longest line and 16 per line,
	// plus padding.
	Measure func(n *Node) (w, h float64)
	// NodeGap is the least horizontal space between boxes (default 24).
	NodeGap float64
	// LayerGap is the vertical space between layers, where edge labels
	// go (default 48).
	LayerGap float64
	// Margin around the whole graph (default 12).
	Margin float64
	// Sweeps is the number of crossing-reduction passes (default 8).
	Sweeps int
}

func (o *LayoutOptions) defaults() {
	if o.Measure == nil {
		o.Measure = CharMeasure(7, 16, 8)
	}
	if o.NodeGap <= 0 {
		o.NodeGap = 24
	}
	if o.LayerGap <= 0 {
		o.LayerGap = 48
	}
	if o.Margin <= 0 {
		o.Margin = 12
	}
	if o.Sweeps <= 0 {
		o.Sweeps = 8
	}
}

// CharMeasure sizes a box for its operator name and lines from a fixed
// character width, line height and padding.
func CharMeasure(charW, lineH, pad float64) func(n *Node) (w, h float64) {
	return func(n *Node) (float64, float64) {
		longest := utf8.RuneCountInString(n.Op)
		for _, l := range n.Lines {
			longest = max(longest, utf8.RuneCountInString(l))
		}
		return float64(longest)*charW + 2*pad, float64(1+len(n.Lines))*lineH + 2*pad
	}
}

// dummyWidth is the width a long edge takes in a layer it passes.
const dummyWidth = 8

// vertex is a node or a dummy on a long edge during layout.
type vertex struct {
	node     *Node // nil for a dummy
	w, h     float64
	layer    int
	pos      int     // index within its layer
	x        float64 // centre
	up, down []int   // neighbour vertices in the layer above / below
}

// Layout places the nodes top to bottom: producers above consumers,
// sinks at the bottom. It is a layered (Sugiyama-style) layout:
//
//  1. layers by longest path to a sink, so every source sits just above
//     its first consumer;
//  2. edges across several layers get a dummy vertex per layer passed;
//  3. the order within each layer comes from barycentre sweeps, keeping
//     the order with the fewest crossings (ties keep input order: a
//     join's left input stays left);
//  4. x positions pull every vertex towards its neighbours' mean under
//     the minimum spacing (solved exactly by pool-adjacent-violators);
//  5. edges become polylines through their dummies.
//
// The result depends only on the graph and the options.
func (g *Graph) Layout(o LayoutOptions) {
	o.defaults()
	if len(g.Nodes) == 0 {
		g.Width, g.Height = 2*o.Margin, 2*o.Margin
		return
	}
	n := len(g.Nodes)
	// 1. depth = longest path to a sink; layer = maxDepth - depth
	outs := make([][]int, n)
	for _, e := range g.Edges {
		outs[e.From] = append(outs[e.From], e.To)
	}
	depth := make([]int, n)
	state := make([]uint8, n) // 0 new, 1 visiting, 2 done
	var dfs func(v int) int
	dfs = func(v int) int {
		switch state[v] {
		case 2:
			return depth[v]
		case 1:
			return 0 // a cycle cannot come from a plan; do not loop
		}
		state[v] = 1
		d := 0
		for _, c := range outs[v] {
			d = max(d, dfs(c)+1)
		}
		depth[v], state[v] = d, 2
		return d
	}
	maxDepth := 0
	for v := range n {
		maxDepth = max(maxDepth, dfs(v))
	}
	layers := make([][]int, maxDepth+1)
	verts := make([]*vertex, 0, n)
	for _, nd := range g.Nodes {
		w, h := o.Measure(nd)
		nd.W, nd.H = w, h
		nd.Layer = maxDepth - depth[nd.ID]
		verts = append(verts, &vertex{node: nd, w: w, h: h, layer: nd.Layer})
	}

	// 2. edges as chains of vertices from producer (up) to consumer (down)
	chains := make([][]int, len(g.Edges))
	for i, e := range g.Edges {
		chain := []int{e.From}
		for l := verts[e.From].layer + 1; l < verts[e.To].layer; l++ {
			verts = append(verts, &vertex{w: dummyWidth, layer: l})
			chain = append(chain, len(verts)-1)
		}
		chain = append(chain, e.To)
		for k := 0; k+1 < len(chain); k++ {
			a, b := chain[k], chain[k+1]
			verts[a].down = append(verts[a].down, b)
			verts[b].up = append(verts[b].up, a)
		}
		chains[i] = chain
	}

	// initial order: a depth-first walk from the sinks (bottom), through
	// inputs in order, so inputs appear left to right
	placed := make([]bool, len(verts))
	var walk func(v int)
	walk = func(v int) {
		if placed[v] {
			return
		}
		placed[v] = true
		for _, u := range verts[v].up {
			walk(u)
		}
		layers[verts[v].layer] = append(layers[verts[v].layer], v)
	}
	for l := maxDepth; l >= 0; l-- {
		for v := range verts {
			if verts[v].layer == l && len(verts[v].down) == 0 {
				walk(v)
			}
		}
	}
	for v := range verts {
		walk(v) // anything left (cannot happen in a DAG with sinks)
	}
	setPos := func() {
		for _, layer := range layers {
			for i, v := range layer {
				verts[v].pos = i
			}
		}
	}
	setPos()

	// 3. barycentre sweeps, keeping the best order seen
	best := cloneLayers(layers)
	bestCross := crossings(layers, verts)
	for s := 0; s < o.Sweeps && bestCross > 0; s++ {
		if s%2 == 0 {
			for l := 1; l < len(layers); l++ {
				sortByBarycentre(layers[l], verts, true)
				setPosLayer(layers[l], verts)
			}
		} else {
			for l := len(layers) - 2; l >= 0; l-- {
				sortByBarycentre(layers[l], verts, false)
				setPosLayer(layers[l], verts)
			}
		}
		if c := crossings(layers, verts); c < bestCross {
			best, bestCross = cloneLayers(layers), c
		}
	}
	layers = best
	setPos()

	// 4. x coordinates
	for _, layer := range layers {
		x := 0.0
		for _, v := range layer {
			x += verts[v].w / 2
			verts[v].x = x
			x += verts[v].w/2 + o.NodeGap
		}
	}
	for it := 0; it < 6; it++ {
		if it%2 == 0 {
			for l := 1; l < len(layers); l++ {
				place(layers[l], verts, o.NodeGap, func(v *vertex) []int { return v.up })
			}
		} else {
			for l := len(layers) - 2; l >= 0; l-- {
				place(layers[l], verts, o.NodeGap, func(v *vertex) []int { return v.down })
			}
		}
	}
	// a final pass balancing both neighbours
	for l := range layers {
		place(layers[l], verts, o.NodeGap, func(v *vertex) []int { return append(slices.Clone(v.up), v.down...) })
	}
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, v := range verts {
		minX, maxX = min(minX, v.x-v.w/2), max(maxX, v.x+v.w/2)
	}
	shift := o.Margin - minX

	// y: each layer is as tall as its tallest box; boxes are centred in it
	layerTop := make([]float64, len(layers))
	layerH := make([]float64, len(layers))
	y := o.Margin
	for l, layer := range layers {
		for _, v := range layer {
			layerH[l] = max(layerH[l], verts[v].h)
		}
		layerTop[l] = y
		y += layerH[l] + o.LayerGap
	}
	g.Width = maxX - minX + 2*o.Margin
	g.Height = y - o.LayerGap + o.Margin

	for _, v := range verts {
		v.x += shift
		if nd := v.node; nd != nil {
			nd.Order = v.pos
			nd.X = round2(v.x - v.w/2)
			nd.Y = round2(layerTop[v.layer] + (layerH[v.layer]-v.h)/2)
		}
	}

	// 5. edges: attach points spread along the boxes' edges
	for i, e := range g.Edges {
		chain := chains[i]
		from, to := g.Nodes[e.From], g.Nodes[e.To]
		outs := g.Outputs(e.From)
		ins := g.Inputs(e.To)
		start := Point{from.X + from.W*float64(indexOf(outs, e)+1)/float64(len(outs)+1), from.Y + from.H}
		end := Point{to.X + to.W*float64(indexOf(ins, e)+1)/float64(len(ins)+1), to.Y}
		pts := []Point{start}
		for _, d := range chain[1 : len(chain)-1] {
			v := verts[d]
			pts = append(pts, Point{v.x, layerTop[v.layer]}, Point{v.x, layerTop[v.layer] + layerH[v.layer]})
		}
		pts = append(pts, end)
		for k := range pts {
			pts[k] = Point{round2(pts[k].X), round2(pts[k].Y)}
		}
		e.Points = pts
		// the label sits in the gap just above the consumer
		a, b := pts[len(pts)-2], pts[len(pts)-1]
		e.LabelAt = Point{round2((a.X + b.X) / 2), round2((a.Y + b.Y) / 2)}
	}
}

func indexOf(es []*Edge, e *Edge) int {
	return max(slices.Index(es, e), 0)
}

// round2 rounds to 1/100 of a unit so coordinates print stably.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

func cloneLayers(ls [][]int) [][]int {
	out := make([][]int, len(ls))
	for i, l := range ls {
		out[i] = slices.Clone(l)
	}
	return out
}

func setPosLayer(layer []int, verts []*vertex) {
	for i, v := range layer {
		verts[v].pos = i
	}
}

// sortByBarycentre orders a layer by the mean position of each vertex's
// neighbours above (fromAbove) or below; vertices without such
// neighbours keep their position.
func sortByBarycentre(layer []int, verts []*vertex, fromAbove bool) {
	bary := make(map[int]float64, len(layer))
	for _, v := range layer {
		nb := verts[v].down
		if fromAbove {
			nb = verts[v].up
		}
		if len(nb) == 0 {
			bary[v] = float64(verts[v].pos)
			continue
		}
		sum := 0.0
		for _, u := range nb {
			sum += float64(verts[u].pos)
		}
		bary[v] = sum / float64(len(nb))
	}
	slices.SortStableFunc(layer, func(a, b int) int { return cmp.Compare(bary[a], bary[b]) })
}

// crossings counts edge crossings between adjacent layers.
func crossings(layers [][]int, verts []*vertex) int {
	pos := make(map[int]int)
	for _, layer := range layers {
		for i, v := range layer {
			pos[v] = i
		}
	}
	total := 0
	for l := 0; l+1 < len(layers); l++ {
		var segs [][2]int
		for _, v := range layers[l] {
			for _, d := range verts[v].down {
				segs = append(segs, [2]int{pos[v], pos[d]})
			}
		}
		for i := range segs {
			for j := i + 1; j < len(segs); j++ {
				a, b := segs[i], segs[j]
				if (a[0]-b[0])*(a[1]-b[1]) < 0 {
					total++
				}
			}
		}
	}
	return total
}

// place moves the vertices of a layer (in order) as close as possible to
// the mean x of their neighbours, keeping their order and the gap. It
// minimises the sum of squared distances to those targets exactly: with
// offsets o_i (the least distance from the first vertex), y_i = x_i - o_i
// must be non-decreasing, which is isotonic regression, solved by
// pooling adjacent violators.
func place(layer []int, verts []*vertex, gap float64, neighbours func(*vertex) []int) {
	k := len(layer)
	if k == 0 {
		return
	}
	offset := make([]float64, k)
	target := make([]float64, k)
	weight := make([]float64, k)
	for i, v := range layer {
		if i > 0 {
			prev := verts[layer[i-1]]
			offset[i] = offset[i-1] + prev.w/2 + gap + verts[v].w/2
		}
		nb := neighbours(verts[v])
		t := verts[v].x
		weight[i] = 0.2 // a vertex without neighbours stays about where it is
		if len(nb) > 0 {
			sum := 0.0
			for _, u := range nb {
				sum += verts[u].x
			}
			t = sum / float64(len(nb))
			weight[i] = 1
			if verts[v].node == nil {
				weight[i] = 2 // keep long edges straight
			}
		}
		target[i] = t - offset[i]
	}
	// pool adjacent violators
	type block struct {
		start, end int
		sum, w     float64
	}
	var blocks []block
	for i := range k {
		blocks = append(blocks, block{i, i + 1, target[i] * weight[i], weight[i]})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/a.w <= b.sum/b.w {
				break
			}
			blocks = blocks[:len(blocks)-2]
			blocks = append(blocks, block{a.start, b.end, a.sum + b.sum, a.w + b.w})
		}
	}
	for _, b := range blocks {
		y := b.sum / b.w
		for i := b.start; i < b.end; i++ {
			verts[layer[i]].x = y + offset[i]
		}
	}
}
