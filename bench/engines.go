package main

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"os"
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

// csvSource is DuckDB's reader of the flights CSV, typed as Riffle's table.
func csvSource(flights string) string {
	return fmt.Sprintf("read_csv('%s', header=true, columns={'date': 'TIMESTAMP', 'delay': 'BIGINT', 'distance': 'BIGINT', 'origin': 'VARCHAR', 'destination': 'VARCHAR'})", flights)
}

type riffleEnv struct{ env *table.TableEnvironment }

// readValues (-read-values) has Riffle's runner read each row's values
// with RowIterator.Values into one reused slice, as DuckDB's runner scans
// each row into one, instead of RowIterator.Row, a *types.Row each (the
// default, as every figure of issue 19 was measured).
var readValues bool

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
	envs, load, err := newRiffleInMemoryEnvs(flights, airports, threads)
	if err != nil {
		return nil, 0, err
	}
	return envs[0], load, nil
}

// newRiffleInMemoryEnvs is newRiffleInMemory with one environment per
// entry of threads (its parallelism.default), all over the same records,
// loaded once.
func newRiffleInMemoryEnvs(flights, airports string, threads ...int) ([]*riffleEnv, time.Duration, error) {
	start := time.Now()
	csv, err := newRiffle(flights, airports, threads[0])
	if err != nil {
		return nil, 0, err
	}
	envs := make([]*table.TableEnvironment, len(threads))
	for i, n := range threads {
		envs[i] = table.MustCreate(table.InBatchMode())
		if _, err := envs[i].ExecuteSQL(fmt.Sprintf("SET 'parallelism.default' = '%d'", n)); err != nil {
			return nil, 0, err
		}
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
		for _, env := range envs {
			mem, err := env.FromArrow(recs, nil)
			if err != nil {
				return nil, 0, err
			}
			if err := env.CreateTemporaryView(name, mem); err != nil {
				return nil, 0, err
			}
		}
	}
	out := make([]*riffleEnv, len(envs))
	for i, env := range envs {
		out[i] = &riffleEnv{env: env}
	}
	return out, time.Since(start), nil
}

// run returns a runner of q: it reads the whole result, every row's
// values, and counts the rows; with answer set it also returns the rows,
// canonical and sorted.
func (r *riffleEnv) run(q string) runner {
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
		var vals []any
		for it.Next() {
			n++
			// every row's values are read, as DuckDB's runner scans
			// each row into Go values: a *types.Row each
			// (RowIterator.Row), or with -read-values into one reused
			// slice (RowIterator.Values)
			if readValues {
				vals = it.Values(vals)
			} else {
				vals = it.Row().Values
			}
			if answer {
				rows = append(rows, canonical(vals))
			}
		}
		sort.Strings(rows)
		return n, rows, it.Err()
	}
}

// newDuck opens DuckDB with threads threads (SET threads) and the
// relations flights (over the flights source, its time column named ts)
// and airports (over the CSV file). As views (inMemory false) every query
// reads the files; as tables (inMemory true) the files are read once, here,
// and the returned duration is that load.
func newDuck(threads int, flightsSource, airports string, inMemory bool) (*sql.DB, time.Duration, error) {
	start := time.Now()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, 0, err
	}
	db.SetMaxOpenConns(1)
	kind := "VIEW"
	if inMemory {
		kind = "TABLE"
	}
	for _, s := range []string{
		fmt.Sprintf("SET threads=%d", threads),
		"CREATE " + kind + ` flights AS SELECT "date" AS ts, delay, distance, origin, destination FROM ` + flightsSource,
		fmt.Sprintf("CREATE "+kind+" airports AS SELECT * FROM read_csv('%s', header=true, columns={'iata': 'VARCHAR', 'name': 'VARCHAR', 'city': 'VARCHAR', 'state': 'VARCHAR', 'country': 'VARCHAR', 'latitude': 'DOUBLE', 'longitude': 'DOUBLE'})", airports),
	} {
		if _, err := db.Exec(s); err != nil {
			db.Close()
			return nil, 0, fmt.Errorf("%s: %v", s, err)
		}
	}
	return db, time.Since(start), nil
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
func sqlRows(db *sql.DB, q string) runner {
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
