package jobgraph

import (
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// planScanFilters hands the condition of a Calc that reads a bounded
// table scan directly (same parallelism, forward, the scan's only
// consumer) to that scan as a run-time row filter (connector.RowFilter):
// a CSV reader then builds the string columns the condition does not read
// only for the rows it keeps (late materialization). The plan and EXPLAIN
// are unchanged (Flink's filesystem source takes no filter for CSV) and
// the Calc still evaluates its whole condition; the scan only drops rows
// the Calc would drop.
func (b *builder) planScanFilters(roots []*physical.Node) {
	consumers, seen := countConsumers(roots)
	b.scanFilters = map[*physical.Node]connector.RowFilter{}
	for p := range seen {
		calc, ok := p.Op.(*physical.Calc)
		if !ok || calc.Where == nil || len(p.Inputs) != 1 {
			continue
		}
		scan := p.Inputs[0]
		if _, ok := scan.Op.(*physical.TableSourceScan); !ok || consumers[scan] != 1 ||
			scan.Parallelism != p.Parallelism || !scan.Bounded() {
			continue
		}
		if f, ok := runtime.NewScanRowFilter(calc.Where); ok {
			b.scanFilters[scan] = f
		}
	}
}
