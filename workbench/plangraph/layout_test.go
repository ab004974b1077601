package plangraph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// dump prints a laid-out graph: one line per node and edge.
func dump(g *Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "graph %vx%v\n", g.Width, g.Height)
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "node %d %s layer=%d order=%d at (%v,%v) size %vx%v\n", n.ID, n.Op, n.Layer, n.Order, n.X, n.Y, n.W, n.H)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "edge %d->%d %s %v label at %v\n", e.From, e.To, e.Label, e.Points, e.LabelAt)
	}
	return b.String()
}

func TestLayoutChain(t *testing.T) {
	g := FromPlan(true, windowedPlan())
	g.Layout(LayoutOptions{Measure: func(n *Node) (float64, float64) { return 100, 40 }, NodeGap: 20, LayerGap: 30, Margin: 10})
	want := `graph 120x340
node 0 Sink layer=4 order=0 at (10,290) size 100x40
node 1 Calc layer=3 order=0 at (10,220) size 100x40
node 2 WindowAggregate layer=2 order=0 at (10,150) size 100x40
node 3 WatermarkAssigner layer=1 order=0 at (10,80) size 100x40
node 4 TableSourceScan layer=0 order=0 at (10,10) size 100x40
edge 4->3 forward [{60 50} {60 80}] label at {60 65}
edge 3->2 hash[carrier] [{60 120} {60 150}] label at {60 135}
edge 2->1 forward [{60 190} {60 220}] label at {60 205}
edge 1->0 single [{60 260} {60 290}] label at {60 275}
`
	if got := dump(g); got != want {
		t.Errorf("layout:\n%s\nwant:\n%s", got, want)
	}
}

func TestLayoutJoin(t *testing.T) {
	g := FromPlan(true, joinPlan())
	g.Layout(LayoutOptions{Measure: func(n *Node) (float64, float64) { return 100, 40 }, NodeGap: 20, LayerGap: 30, Margin: 10})
	byOp := map[string]*Node{}
	for _, n := range g.Nodes {
		byOp[n.Op+n.Lines[0]] = n
	}
	flights, airports := byOp["TableSourceScan"+"table: flights"], byOp["TableSourceScan"+"table: airports"]
	join := byOp["Join"+"join: InnerJoin"]
	// the airports scan sits just above the join (longest path to the
	// sink), the flights side three layers higher
	if airports.Layer != join.Layer-1 || flights.Layer != 0 || join.Layer != 3 {
		t.Errorf("layers: flights %d airports %d join %d", flights.Layer, airports.Layer, join.Layer)
	}
	// the join's left input (the aggregate) stays left of the right one
	agg := byOp["GroupAggregate"+"keys: origin"]
	if agg.X >= airports.X {
		t.Errorf("left input at %v, right input at %v", agg.X, airports.X)
	}
	// the join sits between its inputs
	jc := join.X + join.W/2
	if jc <= agg.X+agg.W/2 || jc >= airports.X+airports.W/2 {
		t.Errorf("join centre %v not between %v and %v", jc, agg.X+agg.W/2, airports.X+airports.W/2)
	}
	// boxes in a layer do not overlap
	for _, a := range g.Nodes {
		for _, b := range g.Nodes {
			if a != b && a.Layer == b.Layer && a.X < b.X && a.X+a.W+20 > b.X+1e-6 {
				t.Errorf("%s and %s overlap", a.Op, b.Op)
			}
		}
	}
	// every edge runs from the producer's bottom to the consumer's top
	for _, e := range g.Edges {
		from, to := g.Nodes[e.From], g.Nodes[e.To]
		first, last := e.Points[0], e.Points[len(e.Points)-1]
		if first.Y != from.Y+from.H || last.Y != to.Y || first.X < from.X || first.X > from.X+from.W || last.X < to.X || last.X > to.X+to.W {
			t.Errorf("edge %d->%d points %v", e.From, e.To, e.Points)
		}
	}
	// the two join inputs attach at different points of the join's top
	ins := g.Inputs(join.ID)
	if len(ins) != 2 || ins[0].Points[len(ins[0].Points)-1].X >= ins[1].Points[len(ins[1].Points)-1].X {
		t.Errorf("join inputs %v", ins)
	}
	if ins[0].Label != "hash[origin]" || ins[1].Label != "hash[iata]" {
		t.Errorf("labels %q %q", ins[0].Label, ins[1].Label)
	}
}

func TestLayoutDeterministic(t *testing.T) {
	first := ""
	for i := range 20 {
		g := FromPlan(true, joinPlan(), windowedPlan())
		g.Layout(LayoutOptions{})
		d := dump(g)
		if i == 0 {
			first = d
		} else if d != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, d, first)
		}
	}
}

func TestLayoutLongEdge(t *testing.T) {
	// a statement set: one source feeds a sink directly and, through
	// three operators, another sink. Both sinks sit on the bottom layer,
	// so the direct edge passes two layers on dummies and bends there.
	scan := op("TableSourceScan", nil, 1, types.ChangelogMode{}, nil)
	c := op("Calc", nil, 1, types.ChangelogMode{}, nil, scan)
	a := op("GroupAggregate", nil, 1, types.ChangelogMode{}, nil, c)
	deep := op("Sink", attrs("table=[deep]"), 1, types.ChangelogMode{}, nil, a)
	direct := op("Sink", attrs("table=[direct]"), 1, types.ChangelogMode{}, nil, scan)
	g := FromPlan(false, deep, direct)
	g.Layout(LayoutOptions{Measure: func(n *Node) (float64, float64) { return 100, 40 }, NodeGap: 20, LayerGap: 30, Margin: 10})
	var long *Edge
	for _, e := range g.Edges {
		if g.Nodes[e.To].Lines[0] == "table: direct" {
			long = e
		}
	}
	from, to := g.Nodes[long.From], g.Nodes[long.To]
	if from.Layer != 0 || to.Layer != 3 {
		t.Fatalf("layers %d -> %d", from.Layer, to.Layer)
	}
	// start, two points per passed layer (its top and bottom), end
	if len(long.Points) != 6 {
		t.Fatalf("points %v", long.Points)
	}
	// the dummies keep the edge vertical through the layers it passes
	if long.Points[1].X != long.Points[2].X || long.Points[3].X != long.Points[4].X || long.Points[1].Y != 80 || long.Points[4].Y != 190 {
		t.Errorf("bends %v", long.Points)
	}
	// and clear of the boxes in those layers
	for _, n := range g.Nodes {
		if n.Layer == 1 || n.Layer == 2 {
			if x := long.Points[1].X; x > n.X-1 && x < n.X+n.W+1 {
				t.Errorf("edge at x=%v crosses %s [%v, %v]", x, n.Op, n.X, n.X+n.W)
			}
		}
	}
}

func TestCrossingReduction(t *testing.T) {
	// X feeds both sinks. The depth-first order from the sinks places
	// X, A, B on the top layer, where X->S2 crosses A->S1; barycentre
	// ordering moves X between A and B, and no crossing remains.
	g := &Graph{}
	for i, op := range []string{"S1", "S2", "A", "B", "X"} {
		g.Nodes = append(g.Nodes, &Node{ID: i, Op: op})
	}
	g.Edges = []*Edge{{From: 4, To: 0}, {From: 2, To: 0, Input: 1}, {From: 3, To: 1}, {From: 4, To: 1, Input: 1}}
	g.Layout(LayoutOptions{})
	s1, s2, a, b, x := g.Nodes[0], g.Nodes[1], g.Nodes[2], g.Nodes[3], g.Nodes[4]
	if !(a.Order < x.Order && x.Order < b.Order && s1.Order < s2.Order) {
		t.Errorf("orders: A %d X %d B %d, S1 %d S2 %d", a.Order, x.Order, b.Order, s1.Order, s2.Order)
	}
	if !(a.X < x.X && x.X < b.X && s1.X < s2.X) {
		t.Errorf("x: A %v X %v B %v, S1 %v S2 %v", a.X, x.X, b.X, s1.X, s2.X)
	}
}

func TestLayoutEmpty(t *testing.T) {
	g := FromPlan(true)
	g.Layout(LayoutOptions{})
	if len(g.Nodes) != 0 || g.Width != 24 || g.Height != 24 {
		t.Errorf("empty graph %+v", g)
	}
}
