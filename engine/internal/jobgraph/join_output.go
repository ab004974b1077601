package jobgraph

import (
	"slices"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
)

// planJoinOutputs narrows the rows of batch hash joins to the columns
// their parent reads. Flink's plan shows a HashJoin emitting its whole
// joined row (select=[...]) and a Calc above it keeping a few columns;
// EXPLAIN keeps that shape, but at run time a join whose only consumer
// is such a Calc gathers only the columns the Calc's projections and
// condition refer to (runtime.HashJoin.Out), and the Calc's expressions
// are renumbered to that narrower row. Gathering a column costs a copy
// per result row, so a join of 3 M probe rows whose Calc keeps two of
// four columns saves half of that work.
func (b *builder) planJoinOutputs(roots []*physical.Node) {
	consumers, seen := countConsumers(roots)
	b.joinOut = map[*physical.Node][]int{}
	b.calcRefs = map[*physical.Node]*physical.Calc{}
	for p := range seen {
		calc, ok := p.Op.(*physical.Calc)
		if !ok || calc.Projs == nil || len(p.Inputs) != 1 {
			continue
		}
		jn := p.Inputs[0]
		j, ok := jn.Op.(*physical.Join)
		if !ok || j.Streaming || len(j.Spec.LeftKeys) == 0 || consumers[jn] != 1 {
			continue
		}
		used := make([]int, 0, len(jn.Cols)) // non-nil: an empty Out emits no column
		for _, e := range calc.Projs {
			used = append(used, expr.InputRefs(e)...)
		}
		if calc.Where != nil {
			used = append(used, expr.InputRefs(calc.Where)...)
		}
		slices.Sort(used)
		used = slices.Compact(used)
		if len(used) == len(jn.Cols) {
			continue
		}
		pos := make(map[int]int, len(used))
		for k, c := range used {
			pos[c] = k
		}
		renumber := func(e expr.Expr) expr.Expr {
			if e == nil {
				return nil
			}
			return expr.ShiftInputs(e, func(i int) int { return pos[i] })
		}
		narrowed := &physical.Calc{Where: renumber(calc.Where)}
		for _, e := range calc.Projs {
			narrowed.Projs = append(narrowed.Projs, renumber(e))
		}
		b.joinOut[jn] = used
		b.calcRefs[p] = narrowed
	}
}

// countConsumers walks the plan under roots: seen holds its nodes,
// consumers the number of parents of each (a root counts its job).
func countConsumers(roots []*physical.Node) (consumers map[*physical.Node]int, seen map[*physical.Node]bool) {
	parents, seen := planParents(roots)
	consumers = make(map[*physical.Node]int, len(parents)+len(roots))
	for n, ps := range parents {
		consumers[n] = len(ps)
	}
	for _, r := range roots {
		consumers[r]++ // a root is consumed by its job
	}
	return consumers, seen
}

// planParents walks the plan under roots: seen holds its nodes, parents
// the nodes that read each one (once per input that reads it).
func planParents(roots []*physical.Node) (parents map[*physical.Node][]*physical.Node, seen map[*physical.Node]bool) {
	parents = map[*physical.Node][]*physical.Node{}
	nodes := postOrder(roots)
	seen = make(map[*physical.Node]bool, len(nodes))
	for _, p := range nodes {
		seen[p] = true
		for _, in := range p.Inputs {
			parents[in] = append(parents[in], p)
		}
	}
	return parents, seen
}
