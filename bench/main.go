// Command bench runs the same queries over the flights data in Riffle and
// DuckDB (and, if asked, SQLite) in one process, compares every answer
// with DuckDB's and prints the median times and their ratios as a
// Markdown table.
//
//	cd bench && go run ./flightsdata          # the 3 M-row data, once
//	cd bench && go run . -data ~/.cache/riffle/bench [-threads 1] [-runs 5] [-only group-by]
//	cd bench && go run .                      # the bundled 228,738 rows (../assets)
//
// Each engine runs the same query text (SQLite, when a function is
// missing, its own) over relations named flights(ts, delay, distance,
// origin, destination) and airports(iata, name, city, state, country,
// latitude, longitude), from three sources side by side:
//
//   - memory: the data loaded once before timing. Riffle reads the CSV
//     files itself into Arrow records (batches of 8 Ki rows) registered
//     with TableEnvironment.FromArrow as temporary views; DuckDB loads
//     them with CREATE TABLE ... AS SELECT ... FROM read_csv. SQLite
//     (-sqlite) loads them with INSERTs.
//   - CSV: every query reads the CSV files. Riffle through the filesystem
//     connector ('format' = 'csv'), DuckDB through views over read_csv.
//   - Parquet (with -data, when flights-3m.parquet is there): Riffle's
//     filesystem connector with 'format' = 'parquet', DuckDB's
//     read_parquet; airports stays CSV.
//
// -threads N sets both engines' threads: Riffle's parallelism.default and
// the Go scheduler's GOMAXPROCS (the number of threads that run Go code at
// once, so that "one thread" is one core for Riffle as for DuckDB), and
// DuckDB's SET threads (DuckDB's threads are its own, outside GOMAXPROCS).
// -procs overrides the GOMAXPROCS part (0 keeps Go's default, the number
// of cores). Every engine returns its full result to Go. Each
// query runs once per engine for its answer (rows sorted, doubles to 9
// significant digits), which is compared with DuckDB's (in memory, or the
// first DuckDB source run); then, the answers dropped, each engine's runs
// are timed. A different answer or an error is printed on stderr and
// makes the command exit with status 1, after the table.
//
// The report (stdout) is Markdown: the command, data size, threads, cores
// and the load average before and after; a table of median wall times with
// Riffle / DuckDB ratios per source; a table of median CPU times (the
// process's user + system over one run, the Go collector included).
// Progress goes to stderr.
//
// Before the queries it measures this machine's own speed-up from one
// core to two on work that shares nothing (calibrate.go; -calibrate=false
// skips it): the ceiling for issue 19 §2's goal.
//
// -cpuprofile FILE profiles Riffle's timed runs of the first query run
// (pick it with -only) over the source named by -profile (csv, mem or
// parquet; -profile-mem and -profile-parquet are kept as shorthands).
// -exectrace FILE writes a Go execution trace of the same runs (which
// goroutine ran on which core, when: go tool trace FILE).
//
// -speedup N measures Riffle alone at one thread and at N in alternate
// runs of one process (speedup.go): the speed-up from one core to N
// (issue 19 §2) without the drift of a shared machine between two
// processes. With -cpuprofile FILE or -exectrace FILE it then runs the
// first query over the -profile source -runs more times at one thread and
// as many at N, into FILE.1 and FILE.N (go tool pprof -tags FILE.1 FILE.N
// compares the tasks' CPU).
//
// The module has its own go.mod so the product never depends on DuckDB or
// on this harness.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/riffle-sql/riffle/engine/gctuning"
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
	runs := flag.Int("runs", 5, "timed runs per query and engine (the median is printed)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of Riffle's timed runs of the first query to this file")
	memprofile := flag.String("memprofile", "", "with -speedup: write the process's allocation profile (pprof -sample_index=alloc_space) to this file at the end")
	exectrace := flag.String("exectrace", "", "write a Go execution trace of the same runs as -cpuprofile to this file (go tool trace FILE)")
	profile := flag.String("profile", "csv", "the source whose Riffle runs -cpuprofile profiles: csv, mem or parquet")
	profMem := flag.Bool("profile-mem", false, "the same as -profile mem")
	profPq := flag.Bool("profile-parquet", false, "the same as -profile parquet")
	only := flag.String("only", "", "run only queries whose name contains this text")
	assets := flag.String("assets", "../assets", "directory with flights-2001-01-01_14.csv and airports.csv")
	data := flag.String("data", "", "directory made by ./flightsdata (flights-3m.csv, flights-3m.parquet, airports.csv); overrides -assets")
	threads := flag.Int("threads", 1, "threads of each engine: Riffle's parallelism.default, DuckDB's SET threads")
	withMem := flag.Bool("mem", true, "run the engines over the tables loaded into memory")
	withCSV := flag.Bool("csv", true, "run the engines over the CSV files")
	withPq := flag.Bool("parquet", true, "run the engines over the Parquet file (with -data, when it is there)")
	calib := flag.Bool("calibrate", true, "first measure this machine's own speed-up from one core to two (arithmetic and memory streaming; about 5 s) and print it in the report")
	withLite := flag.Bool("sqlite", false, "run SQLite over in-memory tables too (loading 3 M rows takes a while)")
	procs := flag.Int("procs", -1, "GOMAXPROCS while the engines run: -1 = -threads (one core per thread), 0 = Go's default (the number of cores)")
	speedup := flag.Int("speedup", 0, "N > 1: Riffle alone, one thread against N in alternate runs of one process (issue 19 §2; its columns: docs/benchmarks.md, \"One harness\"); -threads and -procs do not apply")
	flag.BoolVar(&readValues, "read-values", false, "read Riffle's rows with RowIterator.Values into one reused slice, as DuckDB's runner scans into one, instead of RowIterator.Row (a *types.Row each: the default)")
	flag.IntVar(&parProcs, "speedup-procs", 0, "with -speedup N: GOMAXPROCS of the N-thread runs (0 = N); 1 shows the CPU parallelism adds without two cores' contention")
	heapFloor := flag.Int64("heap-floor", gctuning.DefaultHeapFloor>>20, "Riffle's garbage collector heap floor in MiB, as the riffle binary sets it (engine/gctuning); 0 = Go's default (GOGC 100)")
	batchFloor := flag.Int64("batch-heap-floor", gctuning.DefaultBatchHeapFloor>>20, "the heap floor in MiB while a batch job runs (engine/gctuning), as the riffle binary sets it; at most -heap-floor: no raise")
	flag.Parse()
	gctuning.SetHeapFloor(*heapFloor << 20)
	gctuning.SetBatchHeapFloor(*batchFloor << 20)
	switch {
	case *profMem:
		*profile = "mem"
	case *profPq:
		*profile = "parquet"
	}
	if *threads < 1 || *runs < 1 {
		check(fmt.Errorf("-threads and -runs must be at least 1"))
	}
	check(checkFlags(flag.Args(), *speedup, parProcs, *procs, *profile, *only))
	switch {
	case *procs < 0:
		runtime.GOMAXPROCS(*threads)
	case *procs > 0:
		runtime.GOMAXPROCS(*procs)
	}

	flights, _ := filepath.Abs(filepath.Join(*assets, "flights-2001-01-01_14.csv"))
	airports, _ := filepath.Abs(filepath.Join(*assets, "airports.csv"))
	parquet := ""
	if *data != "" {
		flights, _ = filepath.Abs(filepath.Join(*data, "flights-3m.csv"))
		airports, _ = filepath.Abs(filepath.Join(*data, "airports.csv"))
		if p, _ := filepath.Abs(filepath.Join(*data, "flights-3m.parquet")); *withPq && fileExists(p) {
			parquet = p
		}
	}
	for _, p := range []string{flights, airports} {
		if !fileExists(p) {
			if *data != "" {
				check(fmt.Errorf("%s is missing: make the -data folder with `go run ./flightsdata -dir %s` (from bench/)", p, *data))
			}
			check(fmt.Errorf("%s is missing: without -data the bundled data is read from -assets (%q, relative to the current folder: run from bench/, or give -assets the repository's assets folder)", p, *assets))
		}
	}

	if *speedup > 1 {
		var sources []speedupSource
		var loads []string
		if *withMem {
			envs, load, err := newRiffleInMemoryEnvs(flights, airports, 1, *speedup)
			check(err)
			sources = append(sources, speedupSource{name: "memory", one: envs[0], par: envs[1]})
			loads = append(loads, seconds(load))
		}
		if *withCSV {
			one, err := newRiffle(flights, airports, 1)
			check(err)
			par, err := newRiffle(flights, airports, *speedup)
			check(err)
			sources = append(sources, speedupSource{name: "CSV", one: one, par: par})
		}
		if parquet != "" {
			one, err := newRiffleParquet(parquet, airports, 1)
			check(err)
			par, err := newRiffleParquet(parquet, airports, *speedup)
			check(err)
			sources = append(sources, speedupSource{name: "Parquet", one: one, par: par})
		}
		if len(sources) == 0 {
			check(fmt.Errorf("no source to run: -mem, -csv and -parquet are all off"))
		}
		prof := speedupProfiles{}
		for _, s := range sources {
			if s.name == map[string]string{"mem": "memory", "csv": "CSV", "parquet": "Parquet"}[*profile] {
				prof.source = s.name // else the first source
			}
		}
		for i, suffix := range []string{".1", fmt.Sprintf(".%d", *speedup)} {
			if *cpuprofile != "" {
				f, err := os.Create(*cpuprofile + suffix)
				check(err)
				defer f.Close()
				prof.cpu[i] = f
			}
			if *exectrace != "" {
				f, err := os.Create(*exectrace + suffix)
				check(err)
				defer f.Close()
				prof.trace[i] = f
			}
		}
		var machine *calibration
		if *calib {
			fmt.Fprintln(os.Stderr, "calibrating: two goroutines against one…")
			c := calibrate(3)
			machine = &c
		}
		ok := runSpeedupProfiled(os.Stdout, *speedup, *runs, *only, sources, "go run . "+strings.Join(os.Args[1:], " "), strings.Join(loads, ", "), prof, machine)
		if *memprofile != "" {
			f, err := os.Create(*memprofile)
			check(err)
			check(pprof.Lookup("allocs").WriteTo(f, 0))
			check(f.Close())
		}
		if !ok {
			fmt.Fprintln(os.Stderr, "bench: some answers differ between the thread counts or failed (see above)")
			os.Exit(1)
		}
		return
	}

	// the engines, grouped by source: the ratio columns divide each
	// group's Riffle time by its DuckDB time
	var groups []*group
	var loads []string
	if *withMem {
		g := &group{source: "memory", key: "mem"}
		rm, rload, err := newRiffleInMemory(flights, airports, *threads)
		check(err)
		dm, dload, err := newDuck(*threads, csvSource(flights), airports, true)
		check(err)
		defer dm.Close()
		g.riffle = &engine{name: "Riffle memory", run: func(q query) runner { return rm.run(q.sql) }}
		g.duck = &engine{name: "DuckDB memory", run: func(q query) runner { return sqlRows(dm, q.sql) }}
		loads = append(loads, fmt.Sprintf("Riffle %s, DuckDB %s", seconds(rload), seconds(dload)))
		if *withLite {
			lite, lload, err := newSQLite(flights, airports)
			check(err)
			defer lite.Close()
			g.lite = &engine{name: "SQLite memory", run: func(q query) runner {
				if q.lite != "" {
					return sqlRows(lite, q.lite)
				}
				return sqlRows(lite, q.sql)
			}}
			loads = append(loads, fmt.Sprintf("SQLite %s", seconds(lload)))
		}
		groups = append(groups, g)
	}
	if *withCSV {
		rf, err := newRiffle(flights, airports, *threads)
		check(err)
		dc, _, err := newDuck(*threads, csvSource(flights), airports, false)
		check(err)
		defer dc.Close()
		groups = append(groups, &group{source: "CSV", key: "csv",
			riffle: &engine{name: "Riffle CSV", run: func(q query) runner { return rf.run(q.sql) }},
			duck:   &engine{name: "DuckDB CSV", run: func(q query) runner { return sqlRows(dc, q.sql) }}})
	}
	if parquet != "" {
		rp, err := newRiffleParquet(parquet, airports, *threads)
		check(err)
		dp, _, err := newDuck(*threads, fmt.Sprintf("read_parquet('%s')", parquet), airports, false)
		check(err)
		defer dp.Close()
		groups = append(groups, &group{source: "Parquet", key: "parquet",
			riffle: &engine{name: "Riffle Parquet", run: func(q query) runner { return rp.run(q.sql) }},
			duck:   &engine{name: "DuckDB Parquet", run: func(q query) runner { return sqlRows(dp, q.sql) }}})
	}
	if len(groups) == 0 {
		check(fmt.Errorf("no source to run: -mem, -csv and -parquet are all off"))
	}
	var prof profiling
	if *cpuprofile != "" {
		var err error
		prof.cpu, err = os.Create(*cpuprofile)
		check(err)
		defer prof.cpu.Close()
	}
	if *exectrace != "" {
		var err error
		prof.trace, err = os.Create(*exectrace)
		check(err)
		defer prof.trace.Close()
	}

	var rep report
	rep.command = "go run . " + strings.Join(os.Args[1:], " ")
	rep.threads = *threads
	rep.runs = *runs
	rep.loadBefore = loadAverage()
	if *calib {
		fmt.Fprintln(os.Stderr, "calibrating: two goroutines against one…")
		c := calibrate(3)
		rep.calibration = &c
	}
	rep.heapFloor = "off (GOGC 100)"
	if *heapFloor > 0 && os.Getenv("GOGC") == "" {
		rep.heapFloor = fmt.Sprintf("%d MiB (%d MiB while a batch job runs)", *heapFloor, max(*heapFloor, *batchFloor))
	} else if g := os.Getenv("GOGC"); g != "" {
		rep.heapFloor = "off (GOGC=" + g + ")"
	}
	rep.files = []string{describeFile(flights)}
	if parquet != "" {
		rep.files = append(rep.files, describeFile(parquet))
	}
	rep.loads = strings.Join(loads, ", ")
	if _, n, err := groups[0].duck.run(query{sql: "SELECT COUNT(*) FROM flights"})(true); err == nil && len(n) == 1 {
		rep.flights = thousands(atoi(n[0]))
	}
	rep.groups = groups

	failed := false
	profiled := false
	for _, q := range queries {
		if *only != "" && !strings.Contains(q.name, *only) {
			continue
		}
		line := &line{query: q.name, cells: map[*engine]*cell{}}
		rep.lines = append(rep.lines, line)
		engines := allEngines(groups)

		// answers first: each compared with DuckDB's, then dropped
		var ref []string
		refName := ""
		for _, e := range engines {
			c := &cell{}
			line.cells[e] = c
			n, ans, err := e.run(q)(true)
			c.rows, c.err = n, err
			if err != nil {
				continue
			}
			if refName == "" && strings.HasPrefix(e.name, "DuckDB") {
				ref, refName = ans, e.name
				line.rows = n
			}
			c.answer = ans
		}
		for _, e := range engines {
			c := line.cells[e]
			switch {
			case c.err != nil:
				failed = true
				line.problems = append(line.problems, e.name+": error")
				fmt.Fprintf(os.Stderr, "%s, %s: %v\n", q.name, e.name, firstLine(c.err))
			case refName == "":
				failed = true
			case e.name != refName:
				if d := firstDiff(c.answer, ref, refName); d != "" {
					failed = true
					line.problems = append(line.problems, e.name+": DIFFERENT")
					fmt.Fprintf(os.Stderr, "%s, %s answers differently: %s\n", q.name, e.name, d)
				}
			}
			c.answer = nil
		}
		if refName == "" {
			line.problems = append(line.problems, "no DuckDB answer")
		}
		ref = nil

		// then the timed runs, engine after engine
		for _, g := range groups {
			for _, e := range g.engines() {
				c := line.cells[e]
				if c.err != nil {
					continue
				}
				var p profiling
				if prof.any() && !profiled && e == g.riffle && g.key == *profile {
					p, profiled = prof, true
				}
				c.t, c.err = measure(*runs, e.run(q), p)
				if c.err != nil {
					failed = true
					line.problems = append(line.problems, e.name+": error")
					fmt.Fprintf(os.Stderr, "%s, %s: %v\n", q.name, e.name, firstLine(c.err))
					continue
				}
				fmt.Fprintf(os.Stderr, "%-16s %-15s %10s  cpu %10s  %d rows\n", q.name, e.name, ms(c.t.wall), ms(c.t.cpu), c.rows)
			}
		}
	}
	rep.loadAfter = loadAverage()
	rep.write(os.Stdout)
	if prof.cpu != nil {
		fmt.Printf("\nCPU profile of Riffle's %s runs: %s (go tool pprof -top %s)\n", *profile, *cpuprofile, *cpuprofile)
	}
	if failed {
		fmt.Fprintln(os.Stderr, "bench: some answers differ from DuckDB's or failed (see above)")
		os.Exit(1)
	}
}

// engine is one engine over one source.
type engine struct {
	name string // "Riffle memory", "DuckDB CSV", ...
	run  func(q query) runner
}

// group is the engines over one source.
type group struct {
	source, key        string // "memory", "mem"; "CSV", "csv"; "Parquet", "parquet"
	riffle, duck, lite *engine
}

func (g *group) engines() []*engine {
	es := []*engine{g.riffle, g.duck}
	if g.lite != nil {
		es = append(es, g.lite)
	}
	return es
}

// allEngines lists the groups' engines, the DuckDB ones first (the first
// DuckDB answer is the reference).
func allEngines(groups []*group) []*engine {
	var es []*engine
	for _, g := range groups {
		es = append(es, g.duck)
	}
	for _, g := range groups {
		es = append(es, g.riffle)
		if g.lite != nil {
			es = append(es, g.lite)
		}
	}
	return es
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// checkFlags refuses what the flag package lets through but the harness
// would otherwise ignore or misread: words after the flags (Go's flag
// parsing stops at the first one, so the flags after it were silently
// dropped), -speedup 1 or below zero, a negative -speedup-procs, -procs
// below -1, an unknown -profile source, and an -only that names no query.
func checkFlags(args []string, speedup, speedupProcs, procs int, profile, only string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected argument %q: the harness takes flags only, and Go stops reading flags at the first other word (-h lists them)", args[0])
	}
	if speedup < 0 || speedup == 1 {
		return fmt.Errorf("-speedup %d: N must be at least 2 (one thread against N), or 0 for the cross-engine comparison", speedup)
	}
	if speedupProcs < 0 {
		return fmt.Errorf("-speedup-procs %d: must be 0 (= N) or at least 1", speedupProcs)
	}
	if procs < -1 {
		return fmt.Errorf("-procs %d: must be -1 (= -threads), 0 (Go's default) or at least 1", procs)
	}
	switch profile {
	case "csv", "mem", "parquet":
	default:
		return fmt.Errorf("-profile %q: must be csv, mem or parquet", profile)
	}
	if only != "" {
		var names []string
		for _, q := range queries {
			if strings.Contains(q.name, only) {
				return nil
			}
			names = append(names, q.name)
		}
		return fmt.Errorf("-only %q matches no query (they are: %s; the match is case-sensitive)", only, strings.Join(names, ", "))
	}
	return nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
