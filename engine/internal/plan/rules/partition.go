package rules

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
)

// pushPartitionFilters copies the conjuncts of a Filter directly over a
// Scan of a partitioned table that refer to partition columns only into
// the Scan's PartFilter (Flink's PushPartitionIntoTableSourceScanRule).
// The Filter keeps them too: pruning selects whole partitions, the
// Filter stays correct for sources that cannot prune.
func pushPartitionFilters(n plan.Node) plan.Node {
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]plan.Node, len(in))
		for i, c := range in {
			next[i] = pushPartitionFilters(c)
		}
		n = n.WithInputs(next)
	}
	f, ok := n.(*plan.Filter)
	if !ok {
		return n
	}
	s, ok := f.Input.(*plan.Scan)
	if !ok || len(s.Table.PartitionKeys) == 0 {
		return n
	}
	isKey := map[string]bool{}
	for _, k := range s.Table.PartitionKeys {
		isKey[k] = true
	}
	phys := s.Table.TableSchema.Physical()
	// scan output column -> physical column index (-1 for metadata)
	toPhys := make([]int, len(s.Cols))
	for i := range toPhys {
		toPhys[i] = -1
		switch {
		case s.Projection == nil && i < len(phys):
			toPhys[i] = i
		case i < len(s.Projection):
			toPhys[i] = s.Projection[i]
		}
	}
	var pushed []expr.Expr
	for _, c := range plan.Conjuncts(f.Cond) {
		refs := expr.InputRefs(c)
		if len(refs) == 0 || !expr.IsDeterministic(c) {
			continue
		}
		onKeys := true
		for _, r := range refs {
			if r >= len(toPhys) || toPhys[r] < 0 || !isKey[phys[toPhys[r]].Name] {
				onKeys = false
			}
		}
		if !onKeys {
			continue
		}
		pushed = append(pushed, expr.Rewrite(c, func(x expr.Expr) expr.Expr {
			if r, ok := x.(*expr.InputRef); ok {
				pc := phys[toPhys[r.Index]]
				return &expr.InputRef{Index: toPhys[r.Index], Name: pc.Name, T: pc.Type}
			}
			return x
		}))
	}
	if len(pushed) == 0 {
		return n
	}
	ns := *s
	if ns.PartFilter != nil {
		pushed = append(plan.Conjuncts(ns.PartFilter), pushed...)
	}
	ns.PartFilter = plan.AndOf(pushed)
	return &plan.Filter{Input: &ns, Cond: f.Cond}
}
