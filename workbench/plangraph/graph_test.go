package plangraph

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

func cols(names ...string) []types.Field {
	out := make([]types.Field, len(names))
	for i, n := range names {
		out[i] = types.Field{Name: n, Type: types.BigIntType()}
	}
	return out
}

// attrs is a list of EXPLAIN attributes.
func attrs(a ...string) []string { return a }

// op is an operator read from EXPLAIN text (table.TextPlanNode) with what
// the text does not give: parallelism, changelog mode, columns, inputs.
func op(name string, attrs []string, par int, mode types.ChangelogMode, cols []types.Field, inputs ...*table.PlanNode) *table.PlanNode {
	n := table.TextPlanNode(name, attrs...)
	n.Parallelism, n.ChangelogMode, n.Columns, n.Inputs = par, mode, cols, inputs
	return n
}

// hashExchange is a planner's Exchange by hash of keys.
func hashExchange(par int, in *table.PlanNode, keys ...string) *table.PlanNode {
	return &table.PlanNode{Name: "Exchange", Attrs: table.ParsePlanAttrs("distribution=[hash[" + strings.Join(keys, ", ") + "]]"),
		Distribution: table.DistributionHash, DistributionKeys: keys, Inputs: []*table.PlanNode{in}, Columns: in.Columns, Parallelism: par}
}

// windowedPlan is a streaming windowed aggregate:
// Sink <- Calc <- WindowAggregate <- Exchange(hash[carrier]) <- WatermarkAssigner <- TableSourceScan.
func windowedPlan() *table.PlanNode {
	scan := op("TableSourceScan", attrs("table=[[default_catalog, default_database, flights]]", "fields=[ts, carrier, delay]"), 2, types.InsertOnlyMode,
		cols("ts", "carrier", "delay"))
	wm := op("WatermarkAssigner", attrs("rowtime=[ts]", "watermark=[-(ts, 5000:INTERVAL SECOND)]"), 2, types.InsertOnlyMode, scan.Columns, scan)
	ex := hashExchange(2, wm, "carrier")
	agg := op("WindowAggregate", attrs("groupBy=[carrier]", "window=[TUMBLE(time_col=[ts], size=[1 min])]",
		"select=[carrier, COUNT(*) AS flights, start('w$) AS window_start, end('w$) AS window_end]"), 2, types.InsertOnlyMode,
		cols("carrier", "flights", "window_start", "window_end"), ex)
	calc := op("Calc", attrs("select=[window_start, window_end, carrier, flights]", "where=[>(flights, 10)]"), 2, types.InsertOnlyMode,
		cols("window_start", "window_end", "carrier", "flights"), agg)
	return op("Sink", attrs("table=[*anonymous_collect$1*]", "fields=[window_start, window_end, carrier, flights]"), 1, types.InsertOnlyMode,
		calc.Columns, calc)
}

// joinPlan joins a deep left side with a shallow right side.
func joinPlan() *table.PlanNode {
	a := op("TableSourceScan", attrs("table=[[c, d, flights]]"), 1, types.ChangelogMode{}, cols("origin", "delay"))
	ac := op("Calc", attrs("select=[origin, delay]", "where=[>(delay, 0)]"), 1, types.ChangelogMode{}, a.Columns, a)
	aagg := op("GroupAggregate", attrs("groupBy=[origin]", "select=[origin, AVG(delay) AS d]"), 1, types.RetractMode, cols("origin", "d"),
		hashExchange(1, ac, "origin"))
	b := op("TableSourceScan", attrs("table=[[c, d, airports]]"), 1, types.ChangelogMode{}, cols("iata", "state"))
	join := op("Join", attrs("joinType=[InnerJoin]", "where=[=(origin, iata)]", "select=[origin, d, iata, state]"), 1, types.RetractMode,
		cols("origin", "d", "iata", "state"), hashExchange(1, aagg, "origin"), hashExchange(1, b, "iata"))
	return op("Sink", attrs("table=[*anonymous_collect$1*]"), 1, types.RetractMode, nil, join)
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
	scan := op("TableSourceScan", attrs("table=[[c, d, t]]"), 1, types.ChangelogMode{}, nil)
	s1 := op("Sink", attrs("table=[c.d.a]"), 1, types.ChangelogMode{}, nil, scan)
	s2 := op("Sink", attrs("table=[c.d.b]"), 1, types.ChangelogMode{}, nil, scan)
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
		scan := op("TableSourceScan", attrs(attr), 1, types.ChangelogMode{}, cols("a"))
		n := &Node{}
		describe(n, scan, false)
		if len(n.Lines) == 0 || n.Lines[0] != want {
			t.Errorf("%s: lines %q, want %q first", attr, n.Lines, want)
		}
	}
}

// A planner's typed operators are drawn from their fields (as
// engine/table's view gives them): the scan's table, the aggregate's
// keys, the exchange's hash keys and the collect sink; the tooltip lists
// the attributes EXPLAIN prints.
func TestFromTypedPlan(t *testing.T) {
	scan := &table.PlanNode{Name: "TableSourceScan", Attrs: table.ParsePlanAttrs("table=[[c, d, flights, project=[carrier, delay]]]", "fields=[carrier, delay]"),
		Table: "flights", Columns: cols("carrier", "delay"), ChangelogMode: types.InsertOnlyMode, Parallelism: 2}
	ex := hashExchange(2, scan, "carrier")
	agg := &table.PlanNode{Name: "GroupAggregate", Attrs: table.ParsePlanAttrs("groupBy=[carrier]", "select=[carrier]"), Keys: []string{"carrier"},
		Inputs: []*table.PlanNode{ex}, Columns: cols("carrier"), ChangelogMode: types.InsertOnlyMode, Parallelism: 2}
	sink := &table.PlanNode{Name: "Sink", Attrs: table.ParsePlanAttrs("table=[*anonymous_collect$1*]", "fields=[carrier]"), CollectsResult: true,
		Inputs: []*table.PlanNode{agg}, Columns: agg.Columns, ChangelogMode: types.InsertOnlyMode, Parallelism: 1}
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
