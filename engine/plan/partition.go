package plan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
)

// pushPartitionFilters copies the conjuncts of a Filter directly over a
// Scan of a partitioned table that refer to partition columns only into
// the Scan's PartFilter (Flink's PushPartitionIntoTableSourceScanRule).
// The Filter keeps them too: pruning selects whole partitions, the
// Filter stays correct for sources that cannot prune.
func pushPartitionFilters(n Node) Node {
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]Node, len(in))
		for i, c := range in {
			next[i] = pushPartitionFilters(c)
		}
		n = n.WithInputs(next)
	}
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	s, ok := f.Input.(*Scan)
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
	for _, c := range conjuncts(f.Cond) {
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
		pushed = append(conjuncts(ns.PartFilter), pushed...)
	}
	ns.PartFilter = andOf(pushed)
	return &Filter{Input: &ns, Cond: f.Cond}
}

// prunePartitions installs a Scan's partition filter into its source and
// returns the EXPLAIN attribute listing the partitions kept, as Flink's
// TableSourceScan prints it: partitions=[{k1=v1, k2=v2}, ...].
func (pl *planner) prunePartitions(s *Scan, src connector.Source) string {
	if s.PartFilter == nil {
		return ""
	}
	pr, ok := src.(connector.PartitionPruner)
	if !ok {
		return ""
	}
	phys := s.Table.TableSchema.Physical()
	ectx := &expr.Ctx{Zone: pl.zone()}
	keep := func(vals map[string]any) bool {
		e := expr.Rewrite(s.PartFilter, func(x expr.Expr) expr.Expr {
			if r, ok := x.(*expr.InputRef); ok {
				c := phys[r.Index]
				return &expr.Literal{Value: vals[c.Name], T: c.Type.WithNullable(true)}
			}
			return x
		})
		v, err := expr.EvalConst(e, ectx)
		if err != nil {
			// a predicate that fails on a partition value keeps the
			// partition: the Filter above reports the error on its rows
			return true
		}
		return v == true
	}
	parts, err := pr.PrunePartitions(context.Background(), keep)
	if err != nil {
		pl.fail("%v", err)
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(a, b int) bool {
			return indexOf(s.Table.PartitionKeys, keys[a]) < indexOf(s.Table.PartitionKeys, keys[b])
		})
		kv := make([]string, len(keys))
		for j, k := range keys {
			kv[j] = fmt.Sprintf("%s=%s", k, p[k])
		}
		out[i] = "{" + strings.Join(kv, ", ") + "}"
	}
	return "partitions=[" + strings.Join(out, ", ") + "]"
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return len(list)
}
