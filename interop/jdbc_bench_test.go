//go:build interop

package interop

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestJdbcScanSpeed measures the jdbc scan of a 1 M-row PostgreSQL table
// against psql's \copy of the same table to /dev/null (the floor). It
// runs only with JDBC_BENCH=1 (it takes a minute and its figures go into
// docs/jdbc.md):
//
//	JDBC_BENCH=1 go test -tags interop,migrated_fynedo -run TestJdbcScanSpeed -v ./interop/
func TestJdbcScanSpeed(t *testing.T) {
	if os.Getenv("JDBC_BENCH") != "1" {
		t.Skip("set JDBC_BENCH=1 to measure the jdbc scan")
	}
	const n = 1_000_000
	pg := PostgresFromEnv(t).CreateDatabase(t, "jdbc_bench")
	pg.Exec(t, "CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, name TEXT, amount NUMERIC(12, 2), ts TIMESTAMP(6))",
		fmt.Sprintf("INSERT INTO t SELECT g, g %% 1000, 'name-' || g, g / 100.0, TIMESTAMP '2024-01-01' + g * INTERVAL '1 second' FROM generate_series(1, %d) g", n),
		"VACUUM ANALYZE t")
	load := func() string {
		out, _ := exec.Command("uptime").Output()
		return strings.TrimSpace(string(out))
	}
	// the floor: psql \copy to /dev/null, best of 3
	copyBest := time.Duration(1 << 62)
	for i := 0; i < 3; i++ {
		start := time.Now()
		cmd := exec.Command("psql", "-X", "-q", "-d", pg.DSN, "-c", `\copy (select * from t) to /dev/null`)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("psql: %v: %s", err, out)
		}
		copyBest = min(copyBest, time.Since(start))
	}
	t.Logf("psql \\copy (select * from t) to /dev/null: %d rows in %v = %.0f rows/s (best of 3); %s", n, copyBest.Round(time.Millisecond), float64(n)/copyBest.Seconds(), load())

	names := []string{"id", "v", "name", "amount", "ts"}
	ts := []*types.DataType{types.BigIntType(), types.IntType(), types.StringType(), types.DecimalType(12, 2), types.TimestampType(6)}
	s := jdbcServer{kind: "PostgreSQL", url: pg.URL, user: pg.User, password: pg.Password}
	for _, parts := range []int{1, 4} {
		var more []string
		if parts > 1 {
			more = []string{"'scan.partition.column' = 'id'", fmt.Sprintf("'scan.partition.num' = '%d'", parts),
				"'scan.partition.lower-bound' = '1'", fmt.Sprintf("'scan.partition.upper-bound' = '%d'", n)}
		}
		best := time.Duration(1 << 62)
		for i := 0; i < 3; i++ {
			src := jdbcSource(t, s, "t", names, ts, more...)
			splits, err := src.Splits(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			var wg sync.WaitGroup
			var mu sync.Mutex
			total := 0
			for _, sp := range splits {
				wg.Add(1)
				go func(sp connector.Split) {
					defer wg.Done()
					r, err := src.Open(context.Background(), sp, connector.ReadSpec{Columns: []int{0, 1, 2, 3, 4}, Limit: -1})
					if err != nil {
						t.Error(err)
						return
					}
					defer r.Close()
					c := 0
					for {
						b, err := r.Next(context.Background())
						if err == io.EOF {
							break
						}
						if err != nil {
							t.Error(err)
							return
						}
						c += b.Len
					}
					mu.Lock()
					total += c
					mu.Unlock()
				}(sp)
			}
			wg.Wait()
			d := time.Since(start)
			if total != n {
				t.Fatalf("read %d rows, want %d", total, n)
			}
			best = min(best, d)
		}
		t.Logf("jdbc scan, %d partition(s) in %d goroutine(s), 5 columns into Arrow batches: %d rows in %v = %.0f rows/s (best of 3, %.2fx psql's time); %s",
			parts, parts, n, best.Round(time.Millisecond), float64(n)/best.Seconds(), best.Seconds()/copyBest.Seconds(), load())
	}
	// end to end through SQL, every column used
	for _, parts := range []int{1, 4} {
		env := jdbcEnv(t, false)
		with := s.with("t")
		if parts > 1 {
			with = s.with("t", "'scan.partition.column' = 'id'", fmt.Sprintf("'scan.partition.num' = '%d'", parts),
				"'scan.partition.lower-bound' = '1'", fmt.Sprintf("'scan.partition.upper-bound' = '%d'", n))
		}
		env.GetConfig().Set("parallelism.default", fmt.Sprint(parts))
		jdbcExec(t, env, "CREATE TABLE t (id BIGINT, v INT, name STRING, amount DECIMAL(12, 2), ts TIMESTAMP(6)) "+with)
		start := time.Now()
		got := jdbcQuery(t, env, "SELECT COUNT(*), SUM(v), MAX(name), SUM(amount), MAX(ts) FROM t")
		d := time.Since(start)
		t.Logf("SQL SELECT COUNT(*), SUM(v), MAX(name), SUM(amount), MAX(ts) FROM t, %d partition(s), parallelism %d: %v in %v = %.0f rows/s; %s",
			parts, parts, got, d.Round(time.Millisecond), float64(n)/d.Seconds(), load())
	}
	// the sink: 200,000 rows copied by INSERT … SELECT, upserts by the key
	const m = 200_000
	for _, rows := range []int{100, 5000} {
		pg.Exec(t, "DROP TABLE IF EXISTS t_copy", "CREATE TABLE t_copy (LIKE t INCLUDING ALL)")
		env := jdbcEnv(t, false)
		jdbcExec(t, env, "CREATE TABLE t (id BIGINT, v INT, name STRING, amount DECIMAL(12, 2), ts TIMESTAMP(6)) "+s.with("t"),
			"CREATE TABLE t_copy (id BIGINT, v INT, name STRING, amount DECIMAL(12, 2), ts TIMESTAMP(6), PRIMARY KEY (id) NOT ENFORCED) "+
				s.with("t_copy", fmt.Sprintf("'sink.buffer-flush.max-rows' = '%d'", rows)))
		start := time.Now()
		jdbcExec(t, env, fmt.Sprintf("INSERT INTO t_copy SELECT * FROM t WHERE id <= %d", m))
		d := time.Since(start)
		var got int
		if err := pg.DB(t).QueryRow("SELECT COUNT(*) FROM t_copy").Scan(&got); err != nil || got != m {
			t.Fatalf("t_copy holds %d rows (%v), want %d", got, err, m)
		}
		t.Logf("jdbc sink, upsert by key, sink.buffer-flush.max-rows = %d (one transaction per flush): %d rows in %v = %.0f rows/s; %s",
			rows, m, d.Round(time.Millisecond), float64(m)/d.Seconds(), load())
	}
}
