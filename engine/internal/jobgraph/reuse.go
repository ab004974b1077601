package jobgraph

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
)

// planReuse makes the equal subtrees of a job one runtime node, as
// Flink's SubplanReuser does (table.optimizer.reuse-sub-plan-enabled and
// reuse-source-enabled, both on by default) and as EXPLAIN's
// "Reused(reference_id=[n])" shows: a query that reads a table in two
// branches (Nexmark q8's person and auction views of one topic, a UNION
// ALL of two projections of one table) reads and decodes it once, and both
// branches see the same rows (a datagen table's random values included);
// a view or CTE used twice (an aggregate joined with an aggregate of
// itself, Nexmark q5's windowed counts) runs once, its rows sent to each
// use. Without it each branch ran its own source: q8 read its Kafka topic
// twice.
//
// Two table scans are equal when their table, pushed-down parts, OPTIONS
// hints, columns (names and types), read spec (columns, metadata, limit),
// batch size, boundedness and parallelism are (sourceKey). Two other
// nodes are equal when their operators, columns, changelog modes and
// parallelism are deeply equal (reflect.DeepEqual: a function of the
// registry, built-in or user-defined, is one pointer, so two calls of it
// are equal; an operator holding any other function value is equal to no
// other), so are the job's rewrites of them (a narrowed join output, a
// Calc's rewritten projections), and their
// inputs are equal nodes in order, an exchange equal when its partitioning
// and input are. Sinks, sources other than table scans, nodes the job
// rewrites for a single consumer (a scan with a run-time row filter, a
// Top-N sharing its bound with its scan), and lookup, temporal and
// table-function operators (they hold connectors and user objects, which
// are not compared deeply) are equal to no other node.
//
// A node equal to an earlier one in the plan's post-order is built as
// that one (b.alias), unless reuse (the session's options) says no:
// without Source a scan keeps its own source (the nodes above equal scans
// are still one, as in Flink), without SubPlan nothing is shared. Equal nodes stay apart
// when they would reach one operator as two of its inputs (the runtime
// has one edge from a producer to a consumer: a self-join, a UNION ALL
// of a table with itself) or reach a build side and a probe side of batch
// hash joins (a join reads its build side to the end first: one producer
// would wait on the probe side forever; Flink makes that exchange blocking
// instead). A shared source decodes the fields any of its scans reads
// (scanUses merged).
func (b *builder) planReuse(roots []*physical.Node, reuse physical.Reuse) {
	b.alias = map[*physical.Node]*physical.Node{}
	if !reuse.SubPlan {
		return
	}
	// in the plan's order, so that the first node of a group (the one
	// built) does not depend on map order
	nodes := postOrder(roots)
	group := b.groupEqualNodes(nodes, reuse.Source)
	b.keepApart(nodes, group)
	b.mergeSharedScanUses(group)
}

// groupEqualNodes makes every node equal to an earlier one of nodes (in
// post-order) an alias of that first one, scans only when sources are
// reused, and returns the aliases of each first node.
func (b *builder) groupEqualNodes(nodes []*physical.Node, sources bool) map[*physical.Node][]*physical.Node {
	group := map[*physical.Node][]*physical.Node{}
	// class maps every node to the first node of the plan equal to it
	// (itself when none is); byKey holds those first nodes by a key that
	// equal nodes share
	class := map[*physical.Node]*physical.Node{}
	byKey := map[string][]*physical.Node{}
	for _, p := range nodes {
		class[p] = p
		key, ok := b.reuseKey(p, class)
		if !ok {
			continue
		}
		var f *physical.Node
		for _, c := range byKey[key] {
			if b.sameNode(p, c) {
				f = c
				break
			}
		}
		if f == nil {
			byKey[key] = append(byKey[key], p)
			continue
		}
		class[p] = f
		switch p.Op.(type) {
		case *physical.Exchange:
			continue // not a runtime node: its consumer's edge
		case *physical.TableSourceScan:
			if !sources {
				continue
			}
		}
		b.alias[p] = f
		group[f] = append(group[f], p)
	}
	return group
}

// keepApart gives the groups the runtime cannot share their own runtime
// nodes again (see planReuse): those reaching one operator as two of its
// inputs, and those reaching a build side and a probe side of batch hash
// joins.
func (b *builder) keepApart(nodes []*physical.Node, group map[*physical.Node][]*physical.Node) {
	unshare := func(f *physical.Node) {
		for _, o := range group[f] {
			delete(b.alias, o)
		}
		delete(group, f)
	}
	// leader is the runtime node p's output comes from (through
	// exchanges, which are edges)
	leader := func(p *physical.Node) *physical.Node {
		for {
			if _, ok := p.Op.(*physical.Exchange); !ok || len(p.Inputs) != 1 {
				break
			}
			p = p.Inputs[0]
		}
		if f, ok := b.alias[p]; ok {
			return f
		}
		return p
	}
	// the runtime takes one edge from a producer to a consumer: a self-
	// join, a UNION ALL of a table with itself
	for _, c := range nodes {
		if len(c.Inputs) < 2 {
			continue
		}
		reached := map[*physical.Node]bool{}
		for _, in := range c.Inputs {
			f := leader(in)
			if reached[f] && group[f] != nil {
				unshare(f)
			}
			reached[f] = true
		}
	}
	// the batch hash join reads its build side to its end before its
	// probe side: a producer feeding both sides would fill the probe
	// side's channel and wait on it forever, while the build side waits
	// for the producer's end (Flink makes the probe side's exchange
	// blocking instead). The probe side need not be the same join's: in
	// a UNION ALL of a JOIN b and b JOIN a, a feeds the first join's
	// probe side and the second's build side, b the other way round, and
	// each build side waits on a producer that waits on the other join's
	// probe side. So a shared node that reaches the build side of any
	// batch join and the probe side of any batch join stays apart.
	reaches := map[*physical.Node]map[*physical.Node]bool{}
	var shared func(p *physical.Node) map[*physical.Node]bool
	shared = func(p *physical.Node) map[*physical.Node]bool {
		if r, ok := reaches[p]; ok {
			return r
		}
		r := map[*physical.Node]bool{}
		if _, ok := b.alias[p]; ok || group[p] != nil {
			r[leader(p)] = true
		}
		for _, in := range p.Inputs {
			maps.Copy(r, shared(in))
		}
		reaches[p] = r
		return r
	}
	probe, build := map[*physical.Node]bool{}, map[*physical.Node]bool{}
	for _, c := range nodes {
		if j, ok := c.Op.(*physical.Join); !ok || j.Streaming || len(c.Inputs) < 2 {
			continue
		}
		maps.Copy(probe, shared(c.Inputs[0]))
		for _, in := range c.Inputs[1:] {
			maps.Copy(build, shared(in))
		}
	}
	for f := range build {
		if probe[f] && group[f] != nil {
			unshare(f)
		}
	}
}

// mergeSharedScanUses makes a shared source decode the fields any of its
// scans reads (scanUses merged; every column whole when one scan reads
// it whole).
func (b *builder) mergeSharedScanUses(group map[*physical.Node][]*physical.Node) {
	for f, others := range group {
		if _, ok := f.Op.(*physical.TableSourceScan); !ok {
			continue
		}
		uses, partial := b.scanUses[f], true
		for _, o := range others {
			u, ok := b.scanUses[o]
			if !ok || uses == nil {
				partial = false // a scan reads every column whole
				break
			}
			merged := make([]*connector.FieldUse, len(uses))
			for i := range uses {
				merged[i] = connector.MergeUses(uses[i], u[i])
			}
			uses = merged
		}
		if !partial {
			delete(b.scanUses, f)
			continue
		}
		b.scanUses[f] = uses
	}
}

// reuseKey is a key that p shares with every node equal to it (see
// planReuse; class maps p's inputs to their first equal nodes), and false
// for a node equal to no other.
func (b *builder) reuseKey(p *physical.Node, class map[*physical.Node]*physical.Node) (string, bool) {
	if _, ok := p.Op.(*physical.TableSourceScan); ok {
		k, ok := b.sourceKey(p)
		return "scan|" + k, ok
	}
	if p.IsSource() || b.sortBounds[p] != nil || b.scanFilters[p] != nil {
		return "", false
	}
	switch p.Op.(type) {
	case *physical.Sink, *physical.TemporalJoin, *physical.LookupJoin, *physical.ProcessTableFunction, *physical.Correlate:
		// a sink writes once; the others hold connectors, plans or user
		// function objects that are compared by identity, not deeply
		return "", false
	}
	var k strings.Builder
	fmt.Fprintf(&k, "%T|%s|%d|%v|", p.Op, p.Describe(), p.Parallelism, p.Mode)
	for _, in := range p.Inputs {
		fmt.Fprintf(&k, "%p,", class[in])
	}
	return k.String(), true
}

// sameNode reports whether p, of the same reuseKey as f, is equal to it:
// for table scans the key says it; other nodes' inputs are equal (the key
// holds their classes), and so must be their operators, columns, modes
// and the job's rewrites of them.
func (b *builder) sameNode(p, f *physical.Node) bool {
	if _, ok := p.Op.(*physical.TableSourceScan); ok {
		return true
	}
	return reflect.DeepEqual(p.Op, f.Op) && reflect.DeepEqual(p.Cols, f.Cols) && reflect.DeepEqual(p.Mode, f.Mode) &&
		reflect.DeepEqual(b.joinOut[p], b.joinOut[f]) && reflect.DeepEqual(b.calcRefs[p], b.calcRefs[f])
}

// sourceKey is what makes table scan p the same source as another, and
// false for a node that is no table scan or must keep its own source.
func (b *builder) sourceKey(p *physical.Node) (string, bool) {
	x, ok := p.Op.(*physical.TableSourceScan)
	if !ok || b.scanFilters[p] != nil || x.Spec.RowFilter != nil || x.Spec.Uses != nil {
		return "", false
	}
	var k strings.Builder
	fmt.Fprintf(&k, "%q|%q|", x.Table, x.PushedDown)
	for _, name := range slices.Sorted(maps.Keys(x.Hints)) {
		fmt.Fprintf(&k, "%q=%q,", name, x.Hints[name])
	}
	k.WriteString("|")
	for _, c := range p.Cols {
		fmt.Fprintf(&k, "%q %s,", c.Name, c.Type.String())
	}
	fmt.Fprintf(&k, "|%v|%q|%d|%d|%t|%d", x.Spec.Columns, x.Spec.Metadata, x.Spec.Limit, x.BatchSize, x.Bounded, p.Parallelism)
	return k.String(), true
}

// postOrder returns the nodes of the plan under roots once each, every
// node after its inputs, in the order of the roots and of each node's
// inputs.
func postOrder(roots []*physical.Node) []*physical.Node {
	var out []*physical.Node
	seen := map[*physical.Node]bool{}
	var walk func(p *physical.Node)
	walk = func(p *physical.Node) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, in := range p.Inputs {
			walk(in)
		}
		out = append(out, p)
	}
	for _, r := range roots {
		walk(r)
	}
	return out
}
