package sqltest

import (
	"fmt"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
)

// BenchmarkJobStartup is a batch job's fixed cost: a GROUP BY over a
// three-row VALUES table (plan, job graph, tasks, exchange, result), at
// parallelism 1 and 2. The in-memory harness queries (bench/) take 8–70
// ms at 3 M rows, so this cost is part of their speed-up from one core
// to two.
func BenchmarkJobStartup(b *testing.B) {
	for _, p := range []int{1, 2} {
		b.Run(fmt.Sprintf("p%d", p), func(b *testing.B) {
			env := table.MustCreate(table.InBatchMode())
			if _, err := env.ExecuteSQL(fmt.Sprintf("SET 'parallelism.default' = '%d'", p)); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for n := 0; n < b.N; n++ {
				rows := benchQueryRows(b, env, "SELECT k, COUNT(*) FROM (VALUES ('a'), ('b'), ('a')) AS t(k) GROUP BY k")
				if rows != 2 {
					b.Fatalf("%d rows, want 2", rows)
				}
			}
		})
	}
}
