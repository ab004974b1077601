package jobgraph

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
)

// planSourceReuse makes the table scans of a job that read one table the
// same way one source, as Flink's sub-plan reuser does for sources
// (table.optimizer.reuse-source-enabled, on by default) and as EXPLAIN's
// "Reused(reference_id=[n])" already shows: a query that reads a table in
// two branches (Nexmark q8's person and auction views of one topic, a
// UNION ALL of two projections of one table) reads and decodes it once, and both branches see the same rows (a datagen table's random
// values included). Without it each branch ran its own source: q8 read
// its Kafka topic twice.
//
// Two scans are one source when their table, pushed-down parts, OPTIONS
// hints, columns (names and types), read spec (columns, metadata, limit),
// batch size, boundedness and parallelism are equal. A scan with a
// run-time row filter (scan_filter.go: a filter or a Top-N bound of its
// only consumer) keeps its own source, and so do scans that would reach
// one operator as two of its inputs (the runtime has one edge from a
// producer to a consumer), and so do scans that reach both sides of a
// batch hash join (it reads its build side to the end first: one source
// would wait on the probe side forever). The shared source decodes the
// fields any of its scans reads (scanUses merged).
func (b *builder) planSourceReuse(roots []*physical.Node) {
	b.sourceAlias = map[*physical.Node]*physical.Node{}
	first := map[string]*physical.Node{}
	group := map[*physical.Node][]*physical.Node{}
	// in the plan's order, so that the first scan of a group (the one
	// built) does not depend on map order
	nodes := postOrder(roots)
	for _, p := range nodes {
		key, ok := b.sourceKey(p)
		if !ok {
			continue
		}
		if f, ok := first[key]; ok {
			b.sourceAlias[p] = f
			group[f] = append(group[f], p)
			continue
		}
		first[key] = p
	}
	// unshare gives the scans of f's group their own sources again
	unshare := func(f *physical.Node) {
		for _, o := range group[f] {
			delete(b.sourceAlias, o)
		}
		delete(group, f)
	}
	// the runtime takes one edge from a producer to a consumer: scans
	// that reach one operator as two of its inputs (a self-join, a UNION
	// ALL of a table with itself) keep their own sources
	leader := func(p *physical.Node) *physical.Node {
		for {
			if _, ok := p.Op.(*physical.Exchange); !ok || len(p.Inputs) != 1 {
				break
			}
			p = p.Inputs[0]
		}
		if f, ok := b.sourceAlias[p]; ok {
			return f
		}
		return p
	}
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
	// probe side: a source feeding both sides would fill the probe side's
	// channel and wait on it forever, while the build side waits for the
	// source's end. Such scans keep their own sources (Flink makes the
	// probe side's exchange blocking instead).
	reaches := map[*physical.Node]map[*physical.Node]bool{}
	var sources func(p *physical.Node) map[*physical.Node]bool
	sources = func(p *physical.Node) map[*physical.Node]bool {
		if r, ok := reaches[p]; ok {
			return r
		}
		r := map[*physical.Node]bool{}
		if _, ok := b.sourceAlias[p]; ok || group[p] != nil {
			r[leader(p)] = true
		}
		for _, in := range p.Inputs {
			maps.Copy(r, sources(in))
		}
		reaches[p] = r
		return r
	}
	for _, c := range nodes {
		if j, ok := c.Op.(*physical.Join); !ok || j.Streaming || len(c.Inputs) < 2 {
			continue
		}
		probe := sources(c.Inputs[0])
		for _, in := range c.Inputs[1:] {
			for f := range sources(in) {
				if probe[f] && group[f] != nil {
					unshare(f)
				}
			}
		}
	}
	for f, others := range group {
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
