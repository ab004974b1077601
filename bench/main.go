// Command bench runs the same queries over the bundled flights data in
// Riffle, DuckDB and SQLite in one process and prints the median times and
// their ratios.
//
// Riffle runs twice: reading the CSV files through its filesystem
// connector on every query (batch mode, parallelism 1), and over the same
// data loaded once into memory (the CSV tables read once into Arrow
// records, registered with TableEnvironment.FromArrow as temporary views
// of the same names). DuckDB reads the files with read_csv on one thread
// (SET threads=1); SQLite, which cannot query CSV files, runs over
// in-memory tables loaded once before timing. Load times are printed
// separately. Every engine returns its full result to Go, which counts
// the rows. The fair comparison with SQLite is Riffle in memory.
//
//	cd bench && go run . [-runs 7] [-only group-by] [-cpuprofile riffle.pprof [-profile-mem | -profile-parquet]]
//	cd bench && go run ./flightsdata && go run . -data ~/.cache/riffle/bench [-threads 1] [-sqlite=false]
//
// -data takes the flights data from a folder made by ./flightsdata (3 M
// rows as flights-3m.csv and flights-3m.parquet, and airports.csv); with a
// Parquet file there, a second table compares Riffle reading it through
// the filesystem connector ('format' = 'parquet') with DuckDB reading it
// (read_parquet). Every engine runs the same query text over tables or
// views named flights(ts, delay, distance, origin, destination) and
// airports (DuckDB's views read the files on every query), with -threads
// threads (Riffle's parallelism.default, DuckDB's SET threads). Each
// answer is compared with DuckDB's (rows sorted, doubles to 9 significant
// digits) and a difference is printed.
//
// -cpuprofile profiles Riffle's timed runs of the first query run (pick it
// with -only), over the CSV files or, with -profile-mem, in memory, or with
// -profile-parquet, over the Parquet file.
//
// The module has its own go.mod so the product never depends on DuckDB or
// on this harness.
package main

import (
	"database/sql"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	_ "github.com/duckdb/duckdb-go/v2"
	_ "github.com/mattn/go-sqlite3"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

// query is one benchmark query: the same text for every engine; lite,
// when set, replaces it for SQLite, which lacks a function used.
type query struct {
	name string
	sql  string
	lite string
}

// The queries use flights(ts, delay, distance, origin, destination) and
// airports(iata, name, city, state, country, latitude, longitude).
// AVG(delay) casts to DOUBLE: Flink's AVG of an integer column is an
// integer, DuckDB's a double.
var queries = []query{
	{name: "filtered scan",
		sql: "SELECT origin, destination, delay FROM flights WHERE delay > 60 AND distance < 1000"},
	{name: "group-by",
		sql: "SELECT origin, COUNT(*), AVG(CAST(delay AS DOUBLE)) FROM flights GROUP BY origin"},
	{name: "join airports",
		sql: "SELECT a.state, COUNT(*), SUM(f.distance) FROM flights f JOIN airports a ON f.origin = a.iata GROUP BY a.state"},
	{name: "top-n",
		sql: "SELECT origin, destination, delay FROM flights ORDER BY delay DESC, origin, destination LIMIT 10"},
	{name: "count distinct",
		sql: "SELECT origin, COUNT(DISTINCT destination) FROM flights GROUP BY origin"},
	{name: "window (OVER)",
		sql: "SELECT origin, delay, ROW_NUMBER() OVER (PARTITION BY origin ORDER BY delay DESC) FROM flights"},
	{name: "hourly EXTRACT",
		sql:  "SELECT EXTRACT(HOUR FROM ts), COUNT(*), AVG(CAST(delay AS DOUBLE)) FROM flights GROUP BY EXTRACT(HOUR FROM ts)",
		lite: "SELECT CAST(strftime('%H', ts) AS INTEGER), COUNT(*), AVG(CAST(delay AS DOUBLE)) FROM flights GROUP BY 1"},
}

func main() {
	runs := flag.Int("runs", 7, "timed runs per query and engine (the median is printed)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of Riffle's runs to this file")
	only := flag.String("only", "", "run only queries whose name contains this text")
	profMem := flag.Bool("profile-mem", false, "profile Riffle's in-memory runs instead of its CSV runs")
	profPq := flag.Bool("profile-parquet", false, "profile Riffle's Parquet runs instead of its CSV runs")
	assets := flag.String("assets", "../assets", "directory with flights-2001-01-01_14.csv and airports.csv")
	data := flag.String("data", "", "directory made by ./flightsdata (flights-3m.csv, flights-3m.parquet, airports.csv); overrides -assets")
	threads := flag.Int("threads", 1, "threads of each engine: Riffle's parallelism.default, DuckDB's SET threads")
	withLite := flag.Bool("sqlite", true, "run SQLite too (loading 3 M rows takes a while)")
	withMem := flag.Bool("mem", true, "run Riffle over the tables loaded into memory too")
	withCSV := flag.Bool("csv", true, "run the queries over the CSV files (with -data and a Parquet file, -csv=false runs only the Parquet table)")
	flag.Parse()
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 1))

	flights, _ := filepath.Abs(filepath.Join(*assets, "flights-2001-01-01_14.csv"))
	airports, _ := filepath.Abs(filepath.Join(*assets, "airports.csv"))
	parquet := ""
	if *data != "" {
		flights, _ = filepath.Abs(filepath.Join(*data, "flights-3m.csv"))
		airports, _ = filepath.Abs(filepath.Join(*data, "airports.csv"))
		if p, _ := filepath.Abs(filepath.Join(*data, "flights-3m.parquet")); fileExists(p) {
			parquet = p
		}
	}

	rf, err := newRiffle(flights, airports, *threads)
	check(err)
	var rm *riffleEnv
	var memLoad time.Duration
	if *withMem {
		rm, memLoad, err = newRiffleInMemory(flights, airports, *threads)
		check(err)
	}
	duck, err := newDuck(*threads, csvSource(flights), airports)
	check(err)
	defer duck.Close()
	var lite *sql.DB
	var load time.Duration
	if *withLite {
		lite, load, err = newSQLite(flights, airports)
		check(err)
		defer lite.Close()
	}
	var rp *riffleEnv
	var duckPq *sql.DB
	if parquet != "" {
		rp, err = newRiffleParquet(parquet, airports, *threads)
		check(err)
		duckPq, err = newDuck(*threads, fmt.Sprintf("read_parquet('%s')", parquet), airports)
		check(err)
		defer duckPq.Close()
	}

	st, _ := os.Stat(flights)
	fmt.Printf("flights: %s (%.1f MB); %d cores, GOMAXPROCS %d, %d thread(s) per engine; load into memory: SQLite %v, Riffle %v\n",
		flights, float64(st.Size())/1e6, runtime.NumCPU(), runtime.GOMAXPROCS(0), *threads, load.Round(time.Millisecond), memLoad.Round(time.Millisecond))
	if parquet != "" {
		st, _ := os.Stat(parquet)
		fmt.Printf("parquet: %s (%.1f MB)\n", parquet, float64(st.Size())/1e6)
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average before: %s", b)
	}
	fmt.Println()
	var prof *os.File
	if *cpuprofile != "" {
		prof, err = os.Create(*cpuprofile)
		check(err)
		defer prof.Close()
	}
	profiled := false
	type pqRow struct {
		name       string
		rows       int
		rt, dt     time.Duration
		rc, dc     time.Duration // CPU time
		rerr, derr error
		same       string
	}
	var pqRows []pqRow
	fmt.Printf("%-16s %8s %10s %10s %10s %10s %14s %14s %14s  %s\n", "query", "rows", "riffle", "riffle-mem", "duckdb", "sqlite", "riffle/duckdb", "sqlite/riffle", "sqlite/r-mem", "answers")
	for _, q := range queries {
		if *only != "" && !strings.Contains(q.name, *only) {
			continue
		}
		// the CPU profile covers the timed Riffle runs of the first query run
		var p *os.File
		if prof != nil && !profiled {
			p, profiled = prof, true
		}
		pc, pm, pp := p, (*os.File)(nil), (*os.File)(nil)
		switch {
		case *profMem:
			pc, pm = nil, p
		case *profPq:
			pc, pp = nil, p
		}
		if !*withCSV && rp != nil {
			goto parquetRuns
		}
		{
			rt, rn, rans, rerr := timeRuns(*runs, rf.run(q.sql), pc)
			var mt time.Duration
			var mn int
			var mans []string
			merr := errSkipped
			if rm != nil {
				mt, mn, mans, merr = timeRuns(*runs, rm.run(q.sql), pm)
			}
			dt, dn, dans, derr := timeRuns(*runs, sqlRows(duck, q.sql), nil)
			var stt time.Duration
			serr := errSkipped
			if lite != nil {
				lq := q.sql
				if q.lite != "" {
					lq = q.lite
				}
				stt, _, _, serr = timeRuns(*runs, sqlRows(lite, lq), nil)
			}
			rows := rn
			if rerr != nil {
				rows = dn
			}
			fmt.Printf("%-16s %8d %10s %10s %10s %10s %14s %14s %14s  %s\n", q.name, rows, show(rt, rerr), show(mt, merr), show(dt, derr), show(stt, serr),
				ratio(rt, rerr, dt, derr), ratio(stt, serr, rt, rerr), ratio(stt, serr, mt, merr), compare(rans, rerr, dans, derr))
			if merr == nil && rerr == nil && (mn != rn || compare(mans, merr, rans, rerr) != "same") {
				fmt.Printf("  ! riffle in memory answers differently from riffle over CSV (%d rows against %d)\n", mn, rn)
			}
			if rerr != nil {
				fmt.Printf("  riffle: %v\n", firstLine(rerr))
			}
			if merr != nil && merr != errSkipped && (rerr == nil || firstLine(merr) != firstLine(rerr)) {
				fmt.Printf("  riffle in memory: %v\n", firstLine(merr))
			}
			if diff := firstDiff(rans, dans); rerr == nil && derr == nil && diff != "" {
				fmt.Printf("  ! %s\n", diff)
			}
		}
	parquetRuns:
		if rp != nil {
			row := pqRow{name: q.name}
			var pn, qn int
			var pans, qans []string
			row.rt, pn, pans, row.rerr = timeRuns(*runs, rp.run(q.sql), pp)
			row.rc = lastCPU
			row.dt, qn, qans, row.derr = timeRuns(*runs, sqlRows(duckPq, q.sql), nil)
			row.dc = lastCPU
			row.rows = pn
			if row.rerr != nil {
				row.rows = qn
			}
			row.same = compare(pans, row.rerr, qans, row.derr)
			if d := firstDiff(pans, qans); d != "" && row.same != "same" {
				row.same += " (" + d + ")"
			}
			pqRows = append(pqRows, row)
		}
	}
	if len(pqRows) > 0 {
		fmt.Printf("\nParquet (%s): Riffle's filesystem connector with 'format' = 'parquet' against DuckDB's read_parquet\n\n", filepath.Base(parquet))
		fmt.Printf("%-16s %8s %12s %12s %14s %12s %12s %10s  %s\n", "query", "rows", "riffle-pq", "duckdb-pq", "riffle/duckdb", "riffle cpu", "duckdb cpu", "cpu ratio", "answers")
		for _, r := range pqRows {
			fmt.Printf("%-16s %8d %12s %12s %14s %12s %12s %10s  %s\n", r.name, r.rows, show(r.rt, r.rerr), show(r.dt, r.derr), ratio(r.rt, r.rerr, r.dt, r.derr),
				show(r.rc, r.rerr), show(r.dc, r.derr), ratio(r.rc, r.rerr, r.dc, r.derr), r.same)
			if r.rerr != nil {
				fmt.Printf("  riffle: %v\n", firstLine(r.rerr))
			}
			if r.derr != nil {
				fmt.Printf("  duckdb: %v\n", firstLine(r.derr))
			}
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("\nload average after: %s", b)
	}
	if prof != nil {
		fmt.Printf("\nCPU profile of the Riffle runs: %s (go tool pprof -top %s)\n", *cpuprofile, *cpuprofile)
	}
}

var errSkipped = errors.New("skipped")

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// csvSource is DuckDB's reader of the flights CSV, typed as Riffle's table.
func csvSource(flights string) string {
	return fmt.Sprintf("read_csv('%s', header=true, columns={'date': 'TIMESTAMP', 'delay': 'BIGINT', 'distance': 'BIGINT', 'origin': 'VARCHAR', 'destination': 'VARCHAR'})", flights)
}

// canonical renders a row for comparison: values as text, doubles to 9
// significant digits (the engines sum in different orders), integers of
// every width alike.
func canonical(vals []any) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteByte('|')
		}
		switch x := v.(type) {
		case nil:
			b.WriteString("NULL")
		case float64:
			b.WriteString(strconv.FormatFloat(x, 'g', 9, 64))
		case float32:
			b.WriteString(strconv.FormatFloat(float64(x), 'g', 9, 64))
		case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64:
			fmt.Fprintf(&b, "%d", x)
		case *big.Int:
			b.WriteString(x.String())
		case time.Time:
			b.WriteString(x.UTC().Format("2006-01-02 15:04:05.999999999"))
		case []byte:
			b.Write(x)
		default:
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

// compare says whether two engines' answers (sorted canonical rows) agree.
func compare(a []string, aerr error, b []string, berr error) string {
	if aerr != nil || berr != nil {
		return "n/a"
	}
	if firstDiff(a, b) == "" {
		return "same"
	}
	return "DIFFERENT"
}

// firstDiff describes the first difference of two sorted answers ("" when
// equal).
func firstDiff(a, b []string) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d rows against DuckDB's %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("row %d of the sorted answers: %q against DuckDB's %q", i+1, a[i], b[i])
		}
	}
	return ""
}

// riffle holds a batch-mode TableEnvironment with the two CSV tables.
type riffleEnv struct{ env *table.TableEnvironment }

func newRiffle(flights, airports string, threads int) (*riffleEnv, error) {
	env := table.MustCreate(table.InBatchMode())
	ddl := []string{
		fmt.Sprintf("SET 'parallelism.default' = '%d'", threads),
		fmt.Sprintf(`CREATE TABLE flights (ts TIMESTAMP(0), delay BIGINT, distance BIGINT, origin STRING, destination STRING)
			WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')`, flights),
		fmt.Sprintf(`CREATE TABLE airports (iata STRING, name STRING, city STRING, state STRING, country STRING, latitude DOUBLE, longitude DOUBLE)
			WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')`, airports),
	}
	for _, d := range ddl {
		if _, err := env.ExecuteSQL(d); err != nil {
			return nil, err
		}
	}
	return &riffleEnv{env: env}, nil
}

// newRiffleParquet declares the Parquet file as a filesystem table with
// 'format' = 'parquet' (its columns as the file has them: date
// TIMESTAMP(6), delay and distance BIGINT) and the view flights over it
// that names the time column ts, as the other engines' tables do.
func newRiffleParquet(parquet, airports string, threads int) (*riffleEnv, error) {
	env := table.MustCreate(table.InBatchMode())
	ddl := []string{
		fmt.Sprintf("SET 'parallelism.default' = '%d'", threads),
		fmt.Sprintf(`CREATE TABLE flights_parquet (`+"`date`"+` TIMESTAMP(6), delay BIGINT, distance BIGINT, origin STRING, destination STRING)
			WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet')`, parquet),
		"CREATE TEMPORARY VIEW flights AS SELECT `date` AS ts, delay, distance, origin, destination FROM flights_parquet",
		fmt.Sprintf(`CREATE TABLE airports (iata STRING, name STRING, city STRING, state STRING, country STRING, latitude DOUBLE, longitude DOUBLE)
			WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')`, airports),
	}
	for _, d := range ddl {
		if _, err := env.ExecuteSQL(d); err != nil {
			return nil, err
		}
	}
	return &riffleEnv{env: env}, nil
}

// newRiffleInMemory loads the two CSV tables once into Arrow records (read
// by Riffle itself, so the columns have its types) and registers them with
// FromArrow as temporary views named flights and airports.
func newRiffleInMemory(flights, airports string, threads int) (*riffleEnv, time.Duration, error) {
	start := time.Now()
	csv, err := newRiffle(flights, airports, threads)
	if err != nil {
		return nil, 0, err
	}
	env := table.MustCreate(table.InBatchMode())
	if _, err := env.ExecuteSQL(fmt.Sprintf("SET 'parallelism.default' = '%d'", threads)); err != nil {
		return nil, 0, err
	}
	for _, name := range []string{"flights", "airports"} {
		t, err := csv.env.SQLQuery("SELECT * FROM " + name)
		if err != nil {
			return nil, 0, err
		}
		rec, err := t.ToArrow()
		if err != nil {
			return nil, 0, err
		}
		// batches of 8 Ki rows, as a source emits them (copied, so that
		// every array starts at offset 0)
		var recs []arrow.RecordBatch
		for off := int64(0); off < rec.NumRows(); off += 8192 {
			part := rec.NewSlice(off, min(off+8192, rec.NumRows()))
			cols := make([]arrow.Array, part.NumCols())
			for i := range cols {
				if cols[i], err = array.Concatenate([]arrow.Array{part.Column(i)}, memory.DefaultAllocator); err != nil {
					return nil, 0, err
				}
			}
			recs = append(recs, array.NewRecordBatch(part.Schema(), cols, part.NumRows()))
		}
		mem, err := env.FromArrow(recs, nil)
		if err != nil {
			return nil, 0, err
		}
		if err := env.CreateTemporaryView(name, mem); err != nil {
			return nil, 0, err
		}
	}
	return &riffleEnv{env: env}, time.Since(start), nil
}

// run returns a runner of q: it reads the whole result and counts the
// rows; with answer set it also returns the rows, canonical and sorted.
func (r *riffleEnv) run(q string) func(answer bool) (int, []string, error) {
	return func(answer bool) (int, []string, error) {
		res, err := r.env.ExecuteSQL(q)
		if err != nil {
			return 0, nil, err
		}
		it, err := res.Collect()
		if err != nil {
			return 0, nil, err
		}
		defer it.Close()
		n := 0
		var rows []string
		for it.Next() {
			n++
			if answer {
				rows = append(rows, canonical(it.Row().Values))
			}
		}
		sort.Strings(rows)
		return n, rows, it.Err()
	}
}

// newDuck opens DuckDB with threads threads and the views flights (over
// the flights source, its time column named ts) and airports (over the
// CSV): every query reads the files.
func newDuck(threads int, flightsSource, airports string) (*sql.DB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		fmt.Sprintf("SET threads=%d", threads),
		`CREATE VIEW flights AS SELECT "date" AS ts, delay, distance, origin, destination FROM ` + flightsSource,
		fmt.Sprintf("CREATE VIEW airports AS SELECT * FROM read_csv('%s', header=true, columns={'iata': 'VARCHAR', 'name': 'VARCHAR', 'city': 'VARCHAR', 'state': 'VARCHAR', 'country': 'VARCHAR', 'latitude': 'DOUBLE', 'longitude': 'DOUBLE'})", airports),
	} {
		if _, err := db.Exec(s); err != nil {
			return nil, fmt.Errorf("%s: %v", s, err)
		}
	}
	return db, nil
}

// newSQLite loads both files into an in-memory database.
func newSQLite(flights, airports string) (*sql.DB, time.Duration, error) {
	start := time.Now()
	db, err := sql.Open("sqlite3", "file::memory:?cache=shared")
	if err != nil {
		return nil, 0, err
	}
	db.SetMaxOpenConns(1)
	stmts := []string{
		"CREATE TABLE flights (ts TEXT, delay INTEGER, distance INTEGER, origin TEXT, destination TEXT)",
		"CREATE TABLE airports (iata TEXT, name TEXT, city TEXT, state TEXT, country TEXT, latitude REAL, longitude REAL)",
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return nil, 0, err
		}
	}
	if err := loadCSV(db, "flights", flights, 5); err != nil {
		return nil, 0, err
	}
	if err := loadCSV(db, "airports", airports, 7); err != nil {
		return nil, 0, err
	}
	return db, time.Since(start), nil
}

func loadCSV(db *sql.DB, tbl, path string, ncol int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	if _, err := r.Read(); err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", ncol), ",")
	st, err := tx.Prepare(fmt.Sprintf("INSERT INTO %s VALUES (%s)", tbl, marks))
	if err != nil {
		return err
	}
	args := make([]any, ncol)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		for i := range args {
			if rec[i] == "" {
				args[i] = nil
			} else {
				args[i] = rec[i]
			}
		}
		if _, err := st.Exec(args...); err != nil {
			return err
		}
	}
	st.Close()
	return tx.Commit()
}

// sqlRows returns a runner of q on db, as riffleEnv.run.
func sqlRows(db *sql.DB, q string) func(answer bool) (int, []string, error) {
	return func(answer bool) (int, []string, error) {
		rows, err := db.Query(q)
		if err != nil {
			return 0, nil, err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		n := 0
		var out []string
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return n, nil, err
			}
			n++
			if answer {
				out = append(out, canonical(vals))
			}
		}
		sort.Strings(out)
		return n, out, rows.Err()
	}
}

// timeRuns runs f once to warm up, keeping its answer, then runs times
// and returns the median duration. With prof set, the timed runs are added
// to the CPU profile.
func timeRuns(runs int, f func(answer bool) (int, []string, error), prof *os.File) (time.Duration, int, []string, error) {
	n, answer, err := f(true)
	if err != nil {
		return 0, 0, nil, err
	}
	if prof != nil {
		if err := pprof.StartCPUProfile(prof); err == nil {
			defer pprof.StopCPUProfile()
		}
	}
	ds := make([]time.Duration, runs)
	cs := make([]time.Duration, runs)
	for i := range ds {
		c0 := cpuTime()
		start := time.Now()
		if _, _, err := f(false); err != nil {
			return 0, 0, nil, err
		}
		ds[i] = time.Since(start)
		cs[i] = cpuTime() - c0
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	sort.Slice(cs, func(a, b int) bool { return cs[a] < cs[b] })
	lastCPU = cs[len(cs)/2]
	return ds[len(ds)/2], n, answer, nil
}

// lastCPU is the median CPU time of the process (user + system, every
// thread: the engine's work and Go's garbage collector) over the timed
// runs of the last timeRuns. On a machine shared with other work it is
// steadier than wall time, which includes waiting for a core.
var lastCPU time.Duration

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func show(d time.Duration, err error) string {
	if err != nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
}

func ratio(a time.Duration, aerr error, b time.Duration, berr error) string {
	if aerr != nil || berr != nil || b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
