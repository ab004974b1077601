package parquet_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/parquet"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// flightsParquet writes the bundled flights CSV (228 738 rows) copies
// times into one Parquet file through the engine (INSERT with
// sink.parallelism 1) and returns the file's path.
func flightsParquet(tb testing.TB, dir string, copies int) string {
	tb.Helper()
	csvPath, _ := filepath.Abs("../../../../assets/flights-2001-01-01_14.csv")
	if _, err := os.Stat(csvPath); err != nil {
		tb.Skip("no flights CSV:", err)
	}
	env := table.MustCreate(table.InBatchMode())
	out := filepath.Join(dir, "flights")
	var unions []string
	for i := 0; i < copies; i++ {
		unions = append(unions, "SELECT * FROM fcsv")
	}
	for _, s := range []string{
		fmt.Sprintf("CREATE TABLE fcsv (`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')", csvPath),
		fmt.Sprintf("CREATE TABLE fpq (`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet', 'parquet.write.int64.timestamp' = 'true', 'parquet.utc-timezone' = 'true', 'sink.parallelism' = '1')", out),
	} {
		if _, err := env.ExecuteSQL(s); err != nil {
			tb.Fatal(err)
		}
	}
	res, err := env.ExecuteSQL("INSERT INTO fpq " + strings.Join(unions, " UNION ALL "))
	if err != nil {
		tb.Fatal(err)
	}
	if err := res.Wait(10 * time.Minute); err != nil {
		tb.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "part-*"))
	if len(files) != 1 {
		tb.Fatalf("files: %v", files)
	}
	return files[0]
}

// TestFlightsReadThroughput measures reading ~3 M flights rows from one
// Parquet file: the decoder alone (all columns) and SQL queries through
// the filesystem connector, in batch mode with parallelism 1. Run with
// RIFFLE_PARQUET_BENCH=1 (skipped otherwise: it writes a 3 M-row file);
// docs/parquet.md has the figures.
func TestFlightsReadThroughput(t *testing.T) {
	if os.Getenv("RIFFLE_PARQUET_BENCH") == "" {
		t.Skip("set RIFFLE_PARQUET_BENCH=1 to measure")
	}
	dir := os.Getenv("RIFFLE_PARQUET_BENCH_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	names := []string{"date", "delay", "distance", "origin", "destination"}
	ts := []*types.DataType{types.TimestampType(0), types.IntType(), types.IntType(), types.StringType(), types.StringType()}
	ddl := "`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING"
	path := os.Getenv("RIFFLE_PARQUET_BENCH_FILE") // e.g. the bench module's flights-3m.parquet (Polars)
	if path == "" {
		start := time.Now()
		path = flightsParquet(t, dir, 13)
		t.Logf("wrote %s in %v", path, time.Since(start).Round(time.Millisecond))
	} else {
		ts[0], ts[1], ts[2] = types.TimestampType(6), types.BigIntType(), types.BigIntType()
		ddl = "`date` TIMESTAMP(6), delay BIGINT, distance BIGINT, origin STRING, destination STRING"
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", path, st.Size())
	// Each measurement is the best of RIFFLE_PARQUET_BENCH_RUNS runs (5
	// by default), wall time and, steadier on a shared machine, the
	// process's CPU time (user + system, the collector included).
	runs := 5
	if v, err := strconv.Atoi(os.Getenv("RIFFLE_PARQUET_BENCH_RUNS")); err == nil && v > 0 {
		runs = v
	}
	cpuTime := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	var cpu time.Duration // of the last best()
	best := func(f func() int64) (time.Duration, int64) {
		var min time.Duration
		var n int64
		for i := 0; i < runs; i++ {
			runtime.GC()
			s, c := time.Now(), cpuTime()
			n = f()
			if d := time.Since(s); i == 0 || d < min {
				min = d
			}
			if c := cpuTime() - c; i == 0 || c < cpu {
				cpu = c
			}
		}
		return min, n
	}
	d, n := best(func() int64 {
		dec, err := parquet.Factory{}.CreateDecoder(&connector.FormatContext{Names: names, Types: ts, AllNames: names, AllTypes: ts,
			Options: map[string]string{"utc-timezone": "true"}})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		br, err := dec.(connector.FileDecoder).NewFileReader(f, st.Size(), path, 8192, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rows int64
		for {
			b, err := br.Next()
			if errors.Is(err, io.EOF) {
				return rows
			}
			if err != nil {
				t.Fatal(err)
			}
			rows += int64(b.Len)
		}
	})
	t.Logf("decoder, all 5 columns: %d rows in %v = %.1f M rows/s, CPU %v", n, d.Round(time.Millisecond), float64(n)/d.Seconds()/1e6, cpu.Round(time.Millisecond))

	env := table.MustCreate(table.InBatchMode())
	env.GetConfig().Set("parallelism.default", "1")
	if _, err := env.ExecuteSQL(fmt.Sprintf("CREATE TABLE flights (%s) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet', 'parquet.utc-timezone' = 'true')", ddl, path)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT COUNT(*) FROM flights",
		"SELECT SUM(CAST(delay AS BIGINT)), SUM(CAST(distance AS BIGINT)) FROM flights",
		"SELECT COUNT(DISTINCT origin) FROM flights",
		"SELECT origin, destination, delay FROM flights WHERE delay > 60 AND distance < 1000",
		"SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin",
		"SELECT COUNT(*) FROM flights WHERE `date` >= TIMESTAMP '2001-01-10 00:00:00'",
	} {
		d, n := best(func() int64 {
			res, err := env.ExecuteSQL(q)
			if err != nil {
				t.Fatal(err)
			}
			it, err := res.Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			var rows int64
			for it.Next() {
				rows++
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			return rows
		})
		t.Logf("%-90s %8v CPU %8v (%d result rows)", q, d.Round(time.Millisecond), cpu.Round(time.Millisecond), n)
	}
}
