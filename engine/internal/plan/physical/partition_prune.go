package physical

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
)

// prunePartitions installs a Scan's partition filter into its source and
// returns the EXPLAIN attribute listing the partitions kept, as Flink's
// TableSourceScan prints it: partitions=[{k1=v1, k2=v2}, ...].
func (pl *planner) prunePartitions(s *plan.Scan, src connector.Source) string {
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
