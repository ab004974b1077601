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
//	cd bench && go run . [-runs 7] [-only group-by] [-cpuprofile riffle.pprof [-profile-mem]]
//
// -cpuprofile profiles Riffle's timed runs of the first query run (pick it
// with -only), over the CSV files or, with -profile-mem, in memory.
//
// The module has its own go.mod so the product never depends on DuckDB or
// on this harness.
package main

import (
	"database/sql"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	_ "github.com/duckdb/duckdb-go/v2"
	_ "github.com/mattn/go-sqlite3"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

// query is one benchmark query in the three dialects; "" skips an engine.
type query struct {
	name   string
	riffle string
	duck   string
	lite   string
}

// The queries use the tables flights(date, delay, distance, origin,
// destination) and airports(iata, name, city, state, country, latitude,
// longitude). DuckDB reads the CSV files in place: {F} and {A} are
// replaced by read_csv calls.
var queries = []query{
	{name: "filtered scan",
		riffle: "SELECT origin, destination, delay FROM flights WHERE delay > 60 AND distance < 1000",
		duck:   "SELECT origin, destination, delay FROM {F} WHERE delay > 60 AND distance < 1000",
		lite:   "SELECT origin, destination, delay FROM flights WHERE delay > 60 AND distance < 1000"},
	{name: "group-by",
		riffle: "SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin",
		duck:   "SELECT origin, COUNT(*), AVG(delay) FROM {F} GROUP BY origin",
		lite:   "SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin"},
	{name: "join airports",
		riffle: "SELECT a.state, COUNT(*), SUM(f.distance) FROM flights f JOIN airports a ON f.origin = a.iata GROUP BY a.state",
		duck:   "SELECT a.state, COUNT(*), SUM(f.distance) FROM {F} f JOIN {A} a ON f.origin = a.iata GROUP BY a.state",
		lite:   "SELECT a.state, COUNT(*), SUM(f.distance) FROM flights f JOIN airports a ON f.origin = a.iata GROUP BY a.state"},
	{name: "top-n",
		riffle: "SELECT origin, destination, delay FROM flights ORDER BY delay DESC, origin, destination LIMIT 10",
		duck:   "SELECT origin, destination, delay FROM {F} ORDER BY delay DESC, origin, destination LIMIT 10",
		lite:   "SELECT origin, destination, delay FROM flights ORDER BY delay DESC, origin, destination LIMIT 10"},
	{name: "count distinct",
		riffle: "SELECT origin, COUNT(DISTINCT destination) FROM flights GROUP BY origin",
		duck:   "SELECT origin, COUNT(DISTINCT destination) FROM {F} GROUP BY origin",
		lite:   "SELECT origin, COUNT(DISTINCT destination) FROM flights GROUP BY origin"},
	{name: "window (OVER)",
		riffle: "SELECT origin, delay, ROW_NUMBER() OVER (PARTITION BY origin ORDER BY delay DESC) FROM flights",
		duck:   "SELECT origin, delay, ROW_NUMBER() OVER (PARTITION BY origin ORDER BY delay DESC) FROM {F}",
		lite:   "SELECT origin, delay, ROW_NUMBER() OVER (PARTITION BY origin ORDER BY delay DESC) FROM flights"},
}

func main() {
	runs := flag.Int("runs", 7, "timed runs per query and engine (the median is printed)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of Riffle's runs to this file")
	only := flag.String("only", "", "run only queries whose name contains this text")
	profMem := flag.Bool("profile-mem", false, "profile Riffle's in-memory runs instead of its CSV runs")
	assets := flag.String("assets", "../assets", "directory with flights-2001-01-01_14.csv and airports.csv")
	flag.Parse()
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 1))

	flights, _ := filepath.Abs(filepath.Join(*assets, "flights-2001-01-01_14.csv"))
	airports, _ := filepath.Abs(filepath.Join(*assets, "airports.csv"))

	rf, err := newRiffle(flights, airports)
	check(err)
	rm, memLoad, err := newRiffleInMemory(flights, airports)
	check(err)
	duck, err := newDuck()
	check(err)
	defer duck.Close()
	lite, load, err := newSQLite(flights, airports)
	check(err)
	defer lite.Close()

	fReplace := strings.NewReplacer(
		"{F}", fmt.Sprintf("read_csv('%s', header=true, columns={'date': 'TIMESTAMP', 'delay': 'INTEGER', 'distance': 'INTEGER', 'origin': 'VARCHAR', 'destination': 'VARCHAR'})", flights),
		"{A}", fmt.Sprintf("read_csv('%s', header=true, columns={'iata': 'VARCHAR', 'name': 'VARCHAR', 'city': 'VARCHAR', 'state': 'VARCHAR', 'country': 'VARCHAR', 'latitude': 'DOUBLE', 'longitude': 'DOUBLE'})", airports))

	fmt.Printf("flights: %s (%d cores, GOMAXPROCS %d); load into memory: SQLite %v, Riffle %v\n\n", flights, runtime.NumCPU(), runtime.GOMAXPROCS(0),
		load.Round(time.Millisecond), memLoad.Round(time.Millisecond))
	fmt.Printf("%-16s %8s %10s %10s %10s %10s %14s %14s %14s\n", "query", "rows", "riffle", "riffle-mem", "duckdb", "sqlite", "riffle/duckdb", "sqlite/riffle", "sqlite/r-mem")
	var prof *os.File
	if *cpuprofile != "" {
		prof, err = os.Create(*cpuprofile)
		check(err)
		defer prof.Close()
	}
	profiled := false
	for _, q := range queries {
		if *only != "" && !strings.Contains(q.name, *only) {
			continue
		}
		// the CPU profile covers the timed Riffle runs of the first query run
		var p *os.File
		if prof != nil && !profiled {
			p, profiled = prof, true
		}
		pc, pm := p, (*os.File)(nil)
		if *profMem {
			pc, pm = nil, p
		}
		rt, rn, rerr := timeRuns(*runs, func() (int, error) {
			return rf.run(q.riffle)
		}, pc)
		mt, mn, merr := timeRuns(*runs, func() (int, error) { return rm.run(q.riffle) }, pm)
		dt, dn, derr := timeRuns(*runs, func() (int, error) { return sqlRows(duck, fReplace.Replace(q.duck)) }, nil)
		st, _, serr := timeRuns(*runs, func() (int, error) { return sqlRows(lite, q.lite) }, nil)
		rows := rn
		if rerr != nil {
			rows = dn
		}
		fmt.Printf("%-16s %8d %10s %10s %10s %10s %14s %14s %14s\n", q.name, rows, show(rt, rerr), show(mt, merr), show(dt, derr), show(st, serr),
			ratio(rt, rerr, dt, derr), ratio(st, serr, rt, rerr), ratio(st, serr, mt, merr))
		if rerr == nil && derr == nil && rn != dn {
			fmt.Printf("  ! row counts differ: riffle %d, duckdb %d\n", rn, dn)
		}
		if rerr == nil && merr == nil && rn != mn {
			fmt.Printf("  ! row counts differ: riffle %d, riffle in memory %d\n", rn, mn)
		}
		if rerr != nil {
			fmt.Printf("  riffle: %v\n", firstLine(rerr))
		}
		if merr != nil && (rerr == nil || firstLine(merr) != firstLine(rerr)) {
			fmt.Printf("  riffle in memory: %v\n", firstLine(merr))
		}
	}
	if prof != nil {
		fmt.Printf("\nCPU profile of the Riffle runs: %s (go tool pprof -top %s)\n", *cpuprofile, *cpuprofile)
	}
}

// riffle holds a batch-mode TableEnvironment with the two CSV tables.
type riffleEnv struct{ env *table.TableEnvironment }

func newRiffle(flights, airports string) (*riffleEnv, error) {
	env := table.MustCreate(table.InBatchMode())
	ddl := []string{
		fmt.Sprintf(`CREATE TABLE flights (`+"`date`"+` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING)
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

// newRiffleInMemory loads the two CSV tables once into Arrow records (read
// by Riffle itself, so the columns have its types) and registers them with
// FromArrow as temporary views named flights and airports.
func newRiffleInMemory(flights, airports string) (*riffleEnv, time.Duration, error) {
	start := time.Now()
	csv, err := newRiffle(flights, airports)
	if err != nil {
		return nil, 0, err
	}
	env := table.MustCreate(table.InBatchMode())
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

func (r *riffleEnv) run(q string) (int, error) {
	res, err := r.env.ExecuteSQL(q)
	if err != nil {
		return 0, err
	}
	it, err := res.Collect()
	if err != nil {
		return 0, err
	}
	defer it.Close()
	n := 0
	for it.Next() {
		n++
	}
	return n, it.Err()
}

func newDuck() (*sql.DB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads=1"); err != nil {
		return nil, err
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
		"CREATE TABLE flights (date TEXT, delay INTEGER, distance INTEGER, origin TEXT, destination TEXT)",
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

func sqlRows(db *sql.DB, q string) (int, error) {
	rows, err := db.Query(q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// timeRuns runs f once to warm up, then runs times and returns the median
// duration. With prof set, the timed runs are added to the CPU profile.
func timeRuns(runs int, f func() (int, error), prof *os.File) (time.Duration, int, error) {
	n, err := f()
	if err != nil {
		return 0, 0, err
	}
	if prof != nil {
		if err := pprof.StartCPUProfile(prof); err == nil {
			defer pprof.StopCPUProfile()
		}
	}
	ds := make([]time.Duration, runs)
	for i := range ds {
		start := time.Now()
		if _, err := f(); err != nil {
			return 0, 0, err
		}
		ds[i] = time.Since(start)
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	return ds[len(ds)/2], n, nil
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
