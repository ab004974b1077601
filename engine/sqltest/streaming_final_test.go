package sqltest

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

const flightsDDL = `CREATE TABLE flights (
  ` + "`date`" + ` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING
) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')`

const airportsDDL = `CREATE TABLE airports (
  iata STRING, name STRING, city STRING, state STRING, country STRING, latitude DOUBLE, longitude DOUBLE
) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')`

func flightsEnv(t *testing.T, streaming bool) *table.TableEnvironment {
	t.Helper()
	settings := table.InBatchMode()
	if streaming {
		settings = table.InStreamingMode()
	}
	env := table.MustCreate(settings)
	assets := filepath.Join(RepoRoot(), "assets")
	for _, ddl := range []string{
		sprintf(flightsDDL, filepath.Join(assets, "flights-2001-01-01_14.csv")),
		sprintf(airportsDDL, filepath.Join(assets, "airports.csv")),
	} {
		if _, err := env.ExecuteSQL(ddl); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

// materialize applies a changelog (+I/+U add, -U/-D remove one equal row)
// and returns the final rows as sorted strings.
func materialize(t *testing.T, res *table.TableResult) []string {
	t.Helper()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	counts := map[string]int{}
	for it.Next() {
		r := it.Row()
		key := (&types.Row{Values: r.Values}).String()
		if r.Kind.IsRetract() {
			counts[key]--
			if counts[key] < 0 {
				t.Fatalf("retraction of a row that is not in the result: %s", r)
			}
		} else {
			counts[key]++
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k, n := range counts {
		for i := 0; i < n; i++ {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// TestStreamingFinalResultEqualsBatch checks that the changelog a streaming
// query emits materialises to the batch result, for aggregates and joins.
func TestStreamingFinalResultEqualsBatch(t *testing.T) {
	queries := []string{
		"SELECT origin, COUNT(*), AVG(delay), MIN(delay), MAX(distance), SUM(distance) FROM flights GROUP BY origin",
		"SELECT a.state, COUNT(*) AS n FROM flights f JOIN airports a ON f.origin = a.iata GROUP BY a.state",
		"SELECT COUNT(DISTINCT destination) FROM flights WHERE origin = 'ORD'",
		"SELECT origin, destination, delay FROM flights WHERE delay > 1000",
		"SELECT n, COUNT(*) FROM (SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin) GROUP BY n",
	}
	batch := flightsEnv(t, false)
	stream := flightsEnv(t, true)
	for _, q := range queries {
		br, err := batch.ExecuteSQL(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		sr, err := stream.ExecuteSQL(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want, got := materialize(t, br), materialize(t, sr)
		if len(want) == 0 {
			t.Fatalf("%s: empty batch result", q)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: streaming has %d rows, batch %d", q, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: row %d differs: streaming %s, batch %s", q, i, got[i], want[i])
			}
		}
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
