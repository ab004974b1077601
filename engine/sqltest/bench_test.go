package sqltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
)

// BenchmarkFlightsGroupByCSV is issue 2's CSV target end to end: SELECT
// origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin over the
// bundled flights CSV (228,738 rows) in batch mode with parallelism 1,
// through parsing, planning, the CSV reader, the aggregate and result
// collection. It reports rows/s and MB/s of CSV scanned.
func BenchmarkFlightsGroupByCSV(b *testing.B) {
	path := filepath.Join(RepoRoot(), "assets", "flights-2001-01-01_14.csv")
	st, err := os.Stat(path)
	if err != nil {
		b.Skip(err)
	}
	env := table.MustCreate(table.InBatchMode())
	if _, err := env.ExecuteSQL("CREATE TABLE flights (`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING) " +
		"WITH ('connector' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv', 'csv.ignore-first-line' = 'true')"); err != nil {
		b.Fatal(err)
	}
	const rows = 228738
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		res, err := env.ExecuteSQL("SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin")
		if err != nil {
			b.Fatal(err)
		}
		it, err := res.Collect()
		if err != nil {
			b.Fatal(err)
		}
		groups := 0
		for it.Next() {
			groups++
		}
		if err := it.Err(); err != nil {
			b.Fatal(err)
		}
		it.Close()
		if groups == 0 {
			b.Fatal("no groups")
		}
	}
	b.StopTimer()
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(rows)*float64(b.N)/secs, "rows/s")
	b.ReportMetric(float64(st.Size())*float64(b.N)/secs/1e6, "MB/s")
}
