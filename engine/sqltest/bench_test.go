package sqltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

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
		groups := benchQueryRows(b, env, "SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin")
		if groups == 0 {
			b.Fatal("no groups")
		}
	}
	b.StopTimer()
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(rows)*float64(b.N)/secs, "rows/s")
	b.ReportMetric(float64(st.Size())*float64(b.N)/secs/1e6, "MB/s")
}

// BenchmarkFlightsInMemory runs the cross-engine harness's queries (bench/)
// over the flights data loaded once into memory: the CSV table read into
// Arrow, cut into records of 8,192 rows and registered with FromArrow, as
// the harness's "Riffle mem" column. Each run plans the query, executes it
// with parallelism 1 and reads every result row through Collect.
func BenchmarkFlightsInMemory(b *testing.B) {
	path := filepath.Join(RepoRoot(), "assets", "flights-2001-01-01_14.csv")
	if _, err := os.Stat(path); err != nil {
		b.Skip(err)
	}
	csvEnv := table.MustCreate(table.InBatchMode())
	if _, err := csvEnv.ExecuteSQL("CREATE TABLE flights (`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING) " +
		"WITH ('connector' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv', 'csv.ignore-first-line' = 'true')"); err != nil {
		b.Fatal(err)
	}
	t, err := csvEnv.SQLQuery("SELECT * FROM flights")
	if err != nil {
		b.Fatal(err)
	}
	rec, err := t.ToArrow()
	if err != nil {
		b.Fatal(err)
	}
	var recs []arrow.RecordBatch
	for off := int64(0); off < rec.NumRows(); off += 8192 {
		part := rec.NewSlice(off, min(off+8192, rec.NumRows()))
		cols := make([]arrow.Array, part.NumCols())
		for i := range cols {
			if cols[i], err = array.Concatenate([]arrow.Array{part.Column(i)}, memory.DefaultAllocator); err != nil {
				b.Fatal(err)
			}
		}
		recs = append(recs, array.NewRecordBatch(part.Schema(), cols, part.NumRows()))
	}
	env := table.MustCreate(table.InBatchMode())
	mem, err := env.FromArrow(recs, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := env.CreateTemporaryView("flights", mem); err != nil {
		b.Fatal(err)
	}
	// airports, in memory too, for the join
	if _, err := csvEnv.ExecuteSQL("CREATE TABLE airports (iata STRING, name STRING, city STRING, state STRING, country STRING, latitude DOUBLE, longitude DOUBLE) " +
		"WITH ('connector' = 'filesystem', 'path' = '" + filepath.Join(RepoRoot(), "assets", "airports.csv") + "', 'format' = 'csv', 'csv.ignore-first-line' = 'true')"); err != nil {
		b.Fatal(err)
	}
	at, err := csvEnv.SQLQuery("SELECT * FROM airports")
	if err != nil {
		b.Fatal(err)
	}
	arec, err := at.ToArrow()
	if err != nil {
		b.Fatal(err)
	}
	amem, err := env.FromArrow([]arrow.RecordBatch{arec}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := env.CreateTemporaryView("airports", amem); err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct {
		name, sql string
		rows      int
	}{
		{"filtered", "SELECT origin, destination, delay FROM flights WHERE delay > 60 AND distance < 1000", 9748},
		{"groupby", "SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin", 223},
		{"join", "SELECT a.state, COUNT(*), SUM(f.distance) FROM flights f JOIN airports a ON f.origin = a.iata GROUP BY a.state", 51},
		{"countdistinct", "SELECT origin, COUNT(DISTINCT destination) FROM flights GROUP BY origin", 223},
		{"over", "SELECT origin, delay, ROW_NUMBER() OVER (PARTITION BY origin ORDER BY delay DESC) FROM flights", 228738},
	} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for n := 0; n < b.N; n++ {
				rows := benchQueryRows(b, env, q.sql)
				if rows != q.rows {
					b.Fatalf("%d rows, want %d", rows, q.rows)
				}
			}
		})
	}
}

// benchQueryRows runs query in env, reads its whole result through
// Collect (every row's values, as a user of the rows does) and returns
// the number of rows; an error fails b.
func benchQueryRows(b *testing.B, env *table.TableEnvironment, query string) int {
	res, err := env.ExecuteSQL(query)
	if err != nil {
		b.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	rows := 0
	for it.Next() {
		if it.Row() != nil {
			rows++
		}
	}
	if err := it.Err(); err != nil {
		b.Fatal(err)
	}
	return rows
}
