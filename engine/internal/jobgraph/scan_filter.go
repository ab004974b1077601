package jobgraph

import (
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// planScanFilters gives a bounded table scan that is read directly (same
// parallelism, forward, the scan its reader's only input and the reader
// its only consumer; for a Top-N, also through an exchange and a Calc
// that only picks columns, see topNScan) a run-time
// row filter (connector.RowFilter), so that a CSV reader builds its
// string columns only for the rows that can reach the result (late
// materialization):
//   - under a Calc with a condition: that condition. The Calc still
//     evaluates it; the scan only drops rows the Calc would drop.
//   - under a Top-N Sort whose first key is integral or temporal: the
//     Sort's bound on that key (runtime.TopNScanBound), which drops rows
//     that cannot enter the top N.
//
// The plan and EXPLAIN are unchanged (Flink's filesystem source takes no
// filter for CSV).
func (b *builder) planScanFilters(roots []*physical.Node) {
	consumers, seen := countConsumers(roots)
	b.scanFilters = map[*physical.Node]connector.RowFilter{}
	b.sortBounds = map[*physical.Node]*runtime.TopNScanBound{}
	for p := range seen {
		if len(p.Inputs) != 1 {
			continue
		}
		switch x := p.Op.(type) {
		case *physical.Calc:
			scan := p.Inputs[0]
			if x.Where == nil || !isBoundedScan(scan) || consumers[scan] != 1 || scan.Parallelism != p.Parallelism {
				continue
			}
			if f, ok := runtime.NewScanRowFilter(x.Where); ok {
				b.scanFilters[scan] = f
			}
		case *physical.Sort:
			// a Top-N (runtime.Sort's heap path) shares the bound on its
			// first key: the scan drops the rows that cannot enter
			if x.Fetch < 0 || x.Offset+x.Fetch > runtime.TopNLimit || len(x.Keys) == 0 {
				continue
			}
			scan, key, ok := topNScan(p.Inputs[0], x.Keys[0], consumers)
			if !ok {
				continue
			}
			if f, ok := runtime.NewTopNScanBound(key, scan.Cols[key.Col].Type); ok {
				b.scanFilters[scan] = f
				b.sortBounds[p] = f
			}
		}
	}
}

func isBoundedScan(p *physical.Node) bool {
	_, ok := p.Op.(*physical.TableSourceScan)
	return ok && p.Bounded()
}

// topNScan finds the scan under a Top-N's input in: the scan itself, or
// reached through an exchange (a Top-N's bound holds for the rows of every
// instance) and a Calc that only picks columns (no condition, every
// projection a column: dropping a row then hides no error), each the only
// consumer of the node below. key is the Top-N's first key renumbered to
// the scan's columns.
func topNScan(in *physical.Node, key opspec.SortKey, consumers map[*physical.Node]int) (*physical.Node, opspec.SortKey, bool) {
	if _, ok := in.Op.(*physical.Exchange); ok && len(in.Inputs) == 1 {
		if consumers[in.Inputs[0]] != 1 {
			return nil, key, false
		}
		in = in.Inputs[0]
	}
	if c, ok := in.Op.(*physical.Calc); ok && len(in.Inputs) == 1 {
		if c.Where != nil || c.Projs == nil || key.Col >= len(c.Projs) || consumers[in.Inputs[0]] != 1 {
			return nil, key, false
		}
		for _, e := range c.Projs {
			if _, ok := e.(*expr.InputRef); !ok {
				return nil, key, false
			}
		}
		key.Col = c.Projs[key.Col].(*expr.InputRef).Index
		in = in.Inputs[0]
	}
	return in, key, isBoundedScan(in) && consumers[in] == 1
}
