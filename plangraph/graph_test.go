package plangraph

import (
	"fmt"
	"slices"
	"testing"

	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

func cols(names ...string) []plan.Column {
	out := make([]plan.Column, len(names))
	for i, n := range names {
		out[i] = plan.Column{Name: n, Type: types.BigIntType()}
	}
	return out
}

// windowedPlan is a streaming windowed aggregate:
// Sink <- Calc <- WindowAggregate <- Exchange(hash[carrier]) <- WatermarkAssigner <- TableSourceScan.
func windowedPlan() *plan.PhysNode {
	scan := &plan.PhysNode{Op: &plan.TextOp{Op: "TableSourceScan", Attrs: plan.ParseAttrs("table=[[default_catalog, default_database, flights]]", "fields=[ts, carrier, delay]")},
		Cols: cols("ts", "carrier", "delay"), Mode: types.InsertOnlyMode, Parallelism: 2}
	wm := &plan.PhysNode{Op: &plan.TextOp{Op: "WatermarkAssigner", Attrs: plan.ParseAttrs("rowtime=[ts]", "watermark=[-(ts, 5000:INTERVAL SECOND)]")},
		Inputs: []*plan.PhysNode{scan}, Cols: scan.Cols, Mode: types.InsertOnlyMode, Parallelism: 2}
	ex := &plan.PhysNode{Op: &plan.PhysExchange{Dist: opspec.Hash, Keys: []int{1}}, Inputs: []*plan.PhysNode{wm},
		Cols: wm.Cols, Parallelism: 2}
	agg := &plan.PhysNode{Op: &plan.TextOp{Op: "WindowAggregate", Attrs: plan.ParseAttrs("groupBy=[carrier]", "window=[TUMBLE(time_col=[ts], size=[1 min])]",
		"select=[carrier, COUNT(*) AS flights, start('w$) AS window_start, end('w$) AS window_end]")},
		Inputs: []*plan.PhysNode{ex}, Cols: cols("carrier", "flights", "window_start", "window_end"), Mode: types.InsertOnlyMode, Parallelism: 2}
	calc := &plan.PhysNode{Op: &plan.TextOp{Op: "Calc", Attrs: plan.ParseAttrs("select=[window_start, window_end, carrier, flights]", "where=[>(flights, 10)]")},
		Inputs: []*plan.PhysNode{agg}, Cols: cols("window_start", "window_end", "carrier", "flights"), Mode: types.InsertOnlyMode, Parallelism: 2}
	return &plan.PhysNode{Op: &plan.TextOp{Op: "Sink", Attrs: plan.ParseAttrs("table=[*anonymous_collect$1*]", "fields=[window_start, window_end, carrier, flights]")},
		Inputs: []*plan.PhysNode{calc}, Cols: calc.Cols, Mode: types.InsertOnlyMode, Parallelism: 1}
}

// joinPlan joins a deep left side with a shallow right side.
func joinPlan() *plan.PhysNode {
	a := &plan.PhysNode{Op: &plan.TextOp{Op: "TableSourceScan", Attrs: plan.ParseAttrs("table=[[c, d, flights]]")}, Cols: cols("origin", "delay"), Parallelism: 1}
	ac := &plan.PhysNode{Op: &plan.TextOp{Op: "Calc", Attrs: plan.ParseAttrs("select=[origin, delay]", "where=[>(delay, 0)]")}, Inputs: []*plan.PhysNode{a}, Cols: a.Cols, Parallelism: 1}
	aagg := &plan.PhysNode{Op: &plan.TextOp{Op: "GroupAggregate", Attrs: plan.ParseAttrs("groupBy=[origin]", "select=[origin, AVG(delay) AS d]")},
		Inputs: []*plan.PhysNode{{Op: &plan.PhysExchange{Dist: opspec.Hash, Keys: []int{0}}, Inputs: []*plan.PhysNode{ac}, Cols: ac.Cols, Parallelism: 1}},
		Cols:   cols("origin", "d"), Mode: types.RetractMode, Parallelism: 1}
	b := &plan.PhysNode{Op: &plan.TextOp{Op: "TableSourceScan", Attrs: plan.ParseAttrs("table=[[c, d, airports]]")}, Cols: cols("iata", "state"), Parallelism: 1}
	join := &plan.PhysNode{Op: &plan.TextOp{Op: "Join", Attrs: plan.ParseAttrs("joinType=[InnerJoin]", "where=[=(origin, iata)]", "select=[origin, d, iata, state]")},
		Inputs: []*plan.PhysNode{
			{Op: &plan.PhysExchange{Dist: opspec.Hash, Keys: []int{0}}, Inputs: []*plan.PhysNode{aagg}, Cols: aagg.Cols, Parallelism: 1},
			{Op: &plan.PhysExchange{Dist: opspec.Hash, Keys: []int{0}}, Inputs: []*plan.PhysNode{b}, Cols: b.Cols, Parallelism: 1},
		}, Cols: cols("origin", "d", "iata", "state"), Mode: types.RetractMode, Parallelism: 1}
	return &plan.PhysNode{Op: &plan.TextOp{Op: "Sink", Attrs: plan.ParseAttrs("table=[*anonymous_collect$1*]")}, Inputs: []*plan.PhysNode{join}, Mode: types.RetractMode, Parallelism: 1}
}

func TestFromPlan(t *testing.T) {
	g := FromPlan(true, windowedPlan())
	var ops []string
	for _, n := range g.Nodes {
		ops = append(ops, n.Op)
	}
	if want := []string{"Sink", "Calc", "WindowAggregate", "WatermarkAssigner", "TableSourceScan"}; !slices.Equal(ops, want) {
		t.Fatalf("nodes %v", ops)
	}
	agg := g.Nodes[2]
	if !slices.Equal(agg.Keys, []string{"carrier"}) || agg.Window != "TUMBLE(time_col=[ts], size=[1 min])" || agg.Mode != "I" || agg.Parallelism != 2 {
		t.Errorf("aggregate %+v", agg)
	}
	if want := []string{"keys: carrier", "window: TUMBLE(time_col=[ts], size=[1 min])", "changelog [I] · parallelism 2"}; !slices.Equal(agg.Lines, want) {
		t.Errorf("aggregate lines %q", agg.Lines)
	}
	if want := []string{"table: flights", "changelog [I] · parallelism 2"}; !slices.Equal(g.Nodes[4].Lines, want) {
		t.Errorf("scan lines %q", g.Nodes[4].Lines)
	}
	if want := []string{"filter: >(flights, 10)", "changelog [I] · parallelism 2"}; !slices.Equal(g.Nodes[1].Lines, want) {
		t.Errorf("calc lines %q", g.Nodes[1].Lines)
	}
	var edges []string
	for _, e := range g.Edges {
		edges = append(edges, fmt.Sprintf("%d->%d %s", e.From, e.To, e.Label))
	}
	// the Exchange became the hash edge; the calc feeds the sink of
	// parallelism 1 through a "single" edge
	if want := []string{"4->3 forward", "3->2 hash[carrier]", "2->1 forward", "1->0 single"}; !slices.Equal(edges, want) {
		t.Errorf("edges %q", edges)
	}
	if want := []string{"to: query result", "changelog [I] · parallelism 1"}; !slices.Equal(g.Nodes[0].Lines, want) {
		t.Errorf("sink lines %q", g.Nodes[0].Lines)
	}
	// batch mode shows no changelog mode
	gb := FromPlan(false, windowedPlan())
	if gb.Nodes[2].Mode != "" || gb.Nodes[2].Lines[2] != "parallelism 2" {
		t.Errorf("batch lines %q", gb.Nodes[2].Lines)
	}
}

func TestSharedNodesAppearOnce(t *testing.T) {
	scan := &plan.PhysNode{Op: &plan.TextOp{Op: "TableSourceScan", Attrs: plan.ParseAttrs("table=[[c, d, t]]")}, Parallelism: 1}
	s1 := &plan.PhysNode{Op: &plan.TextOp{Op: "Sink", Attrs: plan.ParseAttrs("table=[c.d.a]")}, Inputs: []*plan.PhysNode{scan}, Parallelism: 1}
	s2 := &plan.PhysNode{Op: &plan.TextOp{Op: "Sink", Attrs: plan.ParseAttrs("table=[c.d.b]")}, Inputs: []*plan.PhysNode{scan}, Parallelism: 1}
	g := FromPlan(true, s1, s2)
	if len(g.Nodes) != 3 || len(g.Edges) != 2 {
		t.Fatalf("%d nodes %d edges", len(g.Nodes), len(g.Edges))
	}
	g.Layout(LayoutOptions{})
	// the source sits centred above its two sinks
	src, a, b := g.Nodes[1], g.Nodes[0], g.Nodes[2]
	if src.Layer != 0 || a.Layer != 1 || b.Layer != 1 || a.X >= b.X {
		t.Errorf("layers %d %d %d, sinks at %v %v", src.Layer, a.Layer, b.Layer, a.X, b.X)
	}
	mid := (a.X + a.W/2 + b.X + b.W/2) / 2
	if c := src.X + src.W/2; c < mid-1 || c > mid+1 {
		t.Errorf("source centre %v, sinks' middle %v", c, mid)
	}
	// its two out-edges leave from different points
	if g.Edges[0].Points[0] == g.Edges[1].Points[0] {
		t.Error("out-edges share their start")
	}
}

// A scan with pushed-down projection, partitions or a limit is labelled
// with its table's name, not with the last pushed-down item.
func TestScanLabelIsTheTableName(t *testing.T) {
	for attr, want := range map[string]string{
		"table=[[default_catalog, default_database, flights, project=[delay, origin]]]":                         "table: flights",
		"table=[[c, d, parted, partitions=[{dt=2024-01-01}], project=[a]]]":                                     "table: parted",
		"table=[[default_catalog, default_database, airports, project=[iata, state], metadata=[], limit=[10]]]": "table: airports",
		"table=[[default_catalog, default_database, plain]]":                                                    "table: plain",
	} {
		scan := &plan.PhysNode{Op: &plan.TextOp{Op: "TableSourceScan", Attrs: plan.ParseAttrs(attr)}, Cols: cols("a"), Parallelism: 1}
		n := &Node{}
		describe(n, scan, scan.Attrs(), false)
		if len(n.Lines) == 0 || n.Lines[0] != want {
			t.Errorf("%s: lines %q, want %q first", attr, n.Lines, want)
		}
	}
}

// A planner's typed operators are drawn from their fields: the scan's
// table, the aggregate's keys, the exchange's hash keys and the collect
// sink; the tooltip lists the attributes EXPLAIN prints.
func TestFromTypedPlan(t *testing.T) {
	scan := &plan.PhysNode{Op: &plan.PhysTableSourceScan{Table: [3]string{"c", "d", "flights"}, PushedDown: []string{"project=[carrier, delay]"}},
		Cols: cols("carrier", "delay"), Mode: types.InsertOnlyMode, Parallelism: 2}
	ex := &plan.PhysNode{Op: &plan.PhysExchange{Dist: opspec.Hash, Keys: []int{0}}, Inputs: []*plan.PhysNode{scan}, Cols: scan.Cols, Parallelism: 2}
	agg := &plan.PhysNode{Op: &plan.PhysGroupAggregate{Keys: []int{0}, Streaming: true}, Inputs: []*plan.PhysNode{ex}, Cols: cols("carrier"),
		Mode: types.InsertOnlyMode, Parallelism: 2}
	sink := &plan.PhysNode{Op: &plan.PhysSink{Table: "*anonymous_collect$1*", Collect: true}, Inputs: []*plan.PhysNode{agg}, Cols: agg.Cols,
		Mode: types.InsertOnlyMode, Parallelism: 1}
	g := FromPlan(true, sink)
	if len(g.Nodes) != 3 {
		t.Fatalf("nodes %d", len(g.Nodes))
	}
	if want := []string{"to: query result", "changelog [I] · parallelism 1"}; !slices.Equal(g.Nodes[0].Lines, want) {
		t.Errorf("sink lines %q", g.Nodes[0].Lines)
	}
	if a := g.Nodes[1]; !slices.Equal(a.Keys, []string{"carrier"}) || !slices.Equal(a.Attrs, []string{"groupBy=[carrier]", "select=[carrier]"}) {
		t.Errorf("aggregate keys %q attrs %q", a.Keys, a.Attrs)
	}
	if want := []string{"table: flights", "changelog [I] · parallelism 2"}; !slices.Equal(g.Nodes[2].Lines, want) {
		t.Errorf("scan lines %q", g.Nodes[2].Lines)
	}
	if e := g.Inputs(1); len(e) != 1 || e[0].Label != "hash[carrier]" {
		t.Errorf("aggregate input %+v", e)
	}
}
