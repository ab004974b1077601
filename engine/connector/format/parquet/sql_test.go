package parquet_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

func exec(t *testing.T, env *table.TableEnvironment, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		res, err := env.ExecuteSQL(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if strings.HasPrefix(strings.TrimSpace(strings.ToUpper(s)), "INSERT") {
			if err := res.Wait(2 * time.Minute); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
}

func collect(t *testing.T, env *table.TableEnvironment, q string) []*types.Row {
	t.Helper()
	res, err := env.ExecuteSQL(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []*types.Row
	for it.Next() {
		out = append(out, it.Row())
	}
	if err := it.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func newEnv() *table.TableEnvironment {
	env := table.MustCreate(table.InBatchMode())
	env.GetConfig().Set("table.local-time-zone", "UTC")
	return env
}

// The columns of the SQL round trip and a row of literals for them.
var sqlColumns = []struct{ name, typ, value string }{
	{"b", "BOOLEAN", "TRUE"},
	{"ti", "TINYINT", "CAST(-128 AS TINYINT)"},
	{"si", "SMALLINT", "CAST(32767 AS SMALLINT)"},
	{"i", "INT", "-2147483648"},
	{"bi", "BIGINT", "9223372036854775807"},
	{"f", "FLOAT", "CAST(1.5 AS FLOAT)"},
	{"d", "DOUBLE", "CAST(-2.25E300 AS DOUBLE)"},
	{"d5", "DECIMAL(5, 2)", "-999.99"},
	{"d18", "DECIMAL(18, 4)", "12345678901234.5678"},
	{"d38", "DECIMAL(38, 10)", "CAST('-1234567890123456789012345678.0123456789' AS DECIMAL(38, 10))"},
	{"c", "CHAR(3)", "'ab'"},
	{"vc", "VARCHAR(10)", "'héllo'"},
	{"s", "STRING", "'a longer string'"},
	{"bin", "BINARY(3)", "X'000102'"},
	{"vb", "VARBINARY(10)", "X'FF00'"},
	{"by", "BYTES", "X''"},
	{"dt", "DATE", "DATE '1969-07-20'"},
	{"tm", "TIME(3)", "TIME '01:02:03.456'"},
	{"ts0", "TIMESTAMP(0)", "TIMESTAMP '1900-01-01 00:00:01'"},
	{"ts3", "TIMESTAMP(3)", "TIMESTAMP '2024-02-29 23:59:59.123'"},
	{"ts6", "TIMESTAMP(6)", "TIMESTAMP '2024-02-29 23:59:59.123456'"},
	{"ts9", "TIMESTAMP(9)", "TIMESTAMP '2024-02-29 23:59:59.123456789'"},
	{"ltz3", "TIMESTAMP_LTZ(3)", "TO_TIMESTAMP_LTZ(-1, 3)"},
	{"ltz6", "TIMESTAMP_LTZ(6)", "CAST(TIMESTAMP '2024-05-06 07:08:09.123456' AS TIMESTAMP_LTZ(6))"},
	{"arr", "ARRAY<INT>", "ARRAY[1, CAST(NULL AS INT), 3]"},
	{"m", "MAP<STRING, DECIMAL(10, 2)>", "MAP['k1', CAST(1.5 AS DECIMAL(10, 2)), 'k2', CAST(NULL AS DECIMAL(10, 2))]"},
	{"r", "ROW<a INT, b STRING, c ARRAY<DOUBLE>>", "ROW(7, 'seven', ARRAY[CAST(1.0 AS DOUBLE), CAST(NULL AS DOUBLE)])"},
	{"nested", "ARRAY<ROW<x TIMESTAMP(6), y MAP<INT, ARRAY<STRING>>>>", "ARRAY[ROW(TIMESTAMP '2000-01-01 00:00:00.000001', MAP[1, ARRAY['p', CAST(NULL AS STRING)]])]"},
}

// INSERT through the engine writes parquet part files; reading them back
// gives exactly the inserted values, for every type, including a row of
// NULLs.
// sqlSource is the table's column list and a query giving a row of
// sqlColumns' values and a row of NULLs.
func sqlSource() (cols, src string) {
	var cs, vals, nulls []string
	for _, c := range sqlColumns {
		cs = append(cs, fmt.Sprintf("`%s` %s", c.name, c.typ))
		vals = append(vals, fmt.Sprintf("CAST(%s AS %s)", c.value, c.typ))
		nulls = append(nulls, fmt.Sprintf("CAST(NULL AS %s)", c.typ))
	}
	return strings.Join(cs, ", "), fmt.Sprintf("SELECT %s UNION ALL SELECT %s", strings.Join(vals, ", "), strings.Join(nulls, ", "))
}

func TestSQLRoundTripEveryType(t *testing.T) {
	dir := t.TempDir()
	if keep := os.Getenv("RIFFLE_PARQUET_KEEP"); keep != "" {
		dir = keep // the files stay for other readers (DuckDB, Flink)
	}
	env := newEnv()
	cols, src := sqlSource()
	for _, opts := range []string{"", ", 'parquet.write.int64.timestamp' = 'true', 'parquet.timestamp.time.unit' = 'nanos', 'parquet.compression' = 'GZIP'"} {
		path := filepath.Join(dir, fmt.Sprint(len(opts)))
		exec(t, env, "DROP TABLE IF EXISTS t",
			fmt.Sprintf("CREATE TABLE t (%s) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet'%s)", cols, path, opts),
			"INSERT INTO t "+src)
		want := collect(t, env, src)
		got := collect(t, env, "SELECT * FROM t")
		sortRows(want)
		sortRows(got)
		if len(got) != 2 || len(want) != 2 {
			t.Fatalf("got %d rows, want 2", len(got))
		}
		for i := range want {
			if got[i].String() != want[i].String() {
				t.Errorf("%s\ngot  %s\nwant %s", opts, got[i], want[i])
			}
			for c := range sqlColumns {
				if !reflect.DeepEqual(got[i].Values[c], want[i].Values[c]) {
					t.Errorf("%s column %s: got %#v, want %#v", opts, sqlColumns[c].name, got[i].Values[c], want[i].Values[c])
				}
			}
		}
		// The files are Parquet (magic PAR1 at both ends), committed.
		files, _ := filepath.Glob(filepath.Join(path, "part-*"))
		if len(files) == 0 {
			t.Fatalf("no part files in %s", path)
		}
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if !bytes.HasPrefix(b, []byte("PAR1")) || !bytes.HasSuffix(b, []byte("PAR1")) {
				t.Fatalf("%s is not a Parquet file", f)
			}
		}
	}
}

// MULTISET (COLLECT) is stored as a MAP of counts, as Flink does.
func TestSQLMultiset(t *testing.T) {
	env := newEnv()
	exec(t, env, fmt.Sprintf("CREATE TABLE ms (k INT, bag MULTISET<STRING>) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet')", t.TempDir()),
		"INSERT INTO ms SELECT k, COLLECT(v) FROM (VALUES (1, 'a'), (1, 'a'), (1, 'b'), (2, 'c')) AS x(k, v) GROUP BY k")
	got := collect(t, env, "SELECT k, bag FROM ms ORDER BY k")
	want := collect(t, env, "SELECT k, COLLECT(v) FROM (VALUES (1, 'a'), (1, 'a'), (1, 'b'), (2, 'c')) AS x(k, v) GROUP BY k ORDER BY k")
	if fmt.Sprint(got) != fmt.Sprint(want) || !reflect.DeepEqual(got[0].Values, want[0].Values) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// A partitioned table keeps k=v directories of parquet files; a WHERE on
// the partition column prunes directories, one on a stored column is
// offered to the source (EXPLAIN shows it) and the Filter still applies.
func TestSQLPartitionedPruningAndFilters(t *testing.T) {
	dir := t.TempDir()
	env := newEnv()
	exec(t, env, fmt.Sprintf(`CREATE TABLE p (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet')`, dir),
		"INSERT INTO p VALUES (1, 'a', '2024-01-01'), (2, 'b', '2024-01-01'), (3, 'c', '2024-01-02'), (4, 'd', '2024-01-03'), (5, CAST(NULL AS STRING), '2024-01-03')")
	for _, d := range []string{"dt=2024-01-01", "dt=2024-01-02", "dt=2024-01-03"} {
		files, _ := filepath.Glob(filepath.Join(dir, d, "part-*"))
		if len(files) != 1 {
			t.Fatalf("%s: %v", d, files)
		}
	}
	got := collect(t, env, "SELECT id, name, dt FROM p WHERE dt >= '2024-01-02' AND id > 3")
	if fmt.Sprint(got) != "[+I[4, d, 2024-01-03] +I[5, <NULL>, 2024-01-03]]" && fmt.Sprint(got) != "[+I[4, d, 2024-01-03] +I[5, null, 2024-01-03]]" {
		t.Fatalf("got %v", got)
	}
	got = collect(t, env, "SELECT COUNT(*) FROM p WHERE name IS NULL OR id = 1")
	if fmt.Sprint(got) != "[+I[2]]" {
		t.Fatalf("got %v", got)
	}
	res, err := env.ExecuteSQL("EXPLAIN SELECT id FROM p WHERE dt = '2024-01-01' AND id > 1")
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	it.Next()
	plan := fmt.Sprint(it.Row().Values[0])
	it.Close()
	if !strings.Contains(plan, "partitions=[{dt=2024-01-01}]") || !strings.Contains(plan, ">(id, 1))]") || !strings.Contains(plan, "filter=[") {
		t.Fatalf("plan:\n%s", plan)
	}
	got = collect(t, env, "SELECT id FROM p WHERE dt = '2024-01-01' AND id > 1")
	if fmt.Sprint(got) != "[+I[2]]" {
		t.Fatalf("got %v", got)
	}
}

// A corrupt file in the table's directory fails the query with the file's
// name.
func TestSQLCorruptFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.parquet"), []byte("PAR1 not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newEnv()
	exec(t, env, fmt.Sprintf("CREATE TABLE bad (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet')", dir))
	res, err := env.ExecuteSQL("SELECT * FROM bad")
	if err == nil {
		it, _ := res.Collect()
		for it.Next() {
		}
		err = it.Err()
		it.Close()
	}
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "bad.parquet")) {
		t.Fatalf("err = %v", err)
	}
}

func sortRows(rows []*types.Row) {
	sort.Slice(rows, func(i, j int) bool { return rows[i].String() < rows[j].String() })
}

// A file DuckDB 1.5 wrote (testdata/duckdb_types.parquet, made with COPY
// ... TO (FORMAT parquet): decimals as INT32/INT64/FIXED, TIME as INT64
// micros, timestamps as INT64 millis/micros/nanos, TIMESTAMPTZ adjusted to
// UTC, UINT_32) reads into the declared Flink types, also into wider ones.
// DuckDB stores wall-clock time as is: 'parquet.utc-timezone' = 'true'
// reads it so in any process zone.
func TestSQLReadsDuckDBFile(t *testing.T) {
	path, _ := filepath.Abs("testdata/duckdb_types.parquet")
	env := newEnv()
	exec(t, env, fmt.Sprintf(`CREATE TABLE duck (id INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE,
  d5 DECIMAL(5, 2), d18 DECIMAL(18, 4), d38 DECIMAL(38, 10), s STRING, bl BYTES, dt DATE, tm TIME(3), ts6 TIMESTAMP(6),
  ts3 TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(6), arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<a INT, b STRING>,
  nested ARRAY<ROW<x DOUBLE, y ARRAY<STRING>>>, u BIGINT)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet', 'parquet.utc-timezone' = 'true')`, path),
		fmt.Sprintf(`CREATE TABLE wide (id BIGINT, ti INT, d5 DECIMAL(10, 3), d18 DECIMAL(38, 6), ts9 TIMESTAMP(3), s VARCHAR(20), gone STRING)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet', 'parquet.utc-timezone' = 'true')`, path))
	got := fmt.Sprint(collect(t, env, "SELECT * FROM duck ORDER BY id"))
	want := "[+I[1, true, -128, 32767, -2147483648, 9223372036854775807, 1.5, -2.25, -999.99, 12345678901234.5678, " +
		"-1234567890123456789012345678.0123456789, héllo, [0, 1], 1969-07-20, 01:02:03.456, 2024-02-29T23:59:59.123456, " +
		"2024-02-29T23:59:59.123, 2024-02-29T23:59:59.123456789, 2024-05-06T07:08:09.123456, [1, null, 3], {k1=1, k2=null}, " +
		"+I[7, seven], [+I[1.5, [p, null]]], 42] " +
		"+I[2, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]]"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = fmt.Sprint(collect(t, env, "SELECT * FROM wide ORDER BY id"))
	want = "[+I[1, -128, -999.990, 12345678901234.567800, 2024-02-29T23:59:59.123, héllo, null] +I[2, null, null, null, null, null, null]]"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Files Flink 2.3.0 wrote (testdata/PqInterop.java, 'write' mode: INSERT of
// sqlColumns' values with Flink's filesystem connector and parquet format,
// JVM zone UTC) with INT96 timestamps and with INT64 nanosecond ones read
// back with exactly the values Flink was given, or Flink reads back (a
// pre-1970 INT96 timestamp has a negative nanosecond-of-day, which
// int96.go reads as Flink does). Flink itself reads Riffle's INT96 file,
// every column; it fails on its own INT64 file (and on Riffle's) with
// "nanos > 999999999 or < 0" for a timestamp before 1970.
func TestSQLReadsFlinkFiles(t *testing.T) {
	env := newEnv()
	cols, src := sqlSource()
	want := collect(t, env, strings.SplitN(src, " UNION ALL ", 2)[0])
	for _, f := range []string{"flink_int96.parquet", "flink_int64_nanos.parquet"} {
		path, _ := filepath.Abs(filepath.Join("testdata", f))
		exec(t, env, "DROP TABLE IF EXISTS fl",
			// Flink wrote in a UTC JVM; utc-timezone keeps the test
			// independent of this process's zone.
			fmt.Sprintf("CREATE TABLE fl (%s) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet', 'parquet.utc-timezone' = 'true')", cols, path))
		got := collect(t, env, "SELECT * FROM fl")
		if len(got) != 1 {
			t.Fatalf("%s: %v", f, got)
		}
		for c := range sqlColumns {
			w := want[0].Values[c]
			if f == "flink_int96.parquet" && sqlColumns[c].name == "ltz3" {
				// Flink 2.3.0 writes TO_TIMESTAMP_LTZ(-1, 3) as INT96 day 0
				// plus 999 ms, and reads its own file back as this value.
				w = time.Date(1970, 1, 1, 0, 0, 0, 999000000, time.UTC)
			}
			if !reflect.DeepEqual(got[0].Values[c], w) {
				t.Errorf("%s column %s: got %#v, want %#v", f, sqlColumns[c].name, got[0].Values[c], w)
			}
		}
	}
}

// A file of several row groups is read as one split per row group
// (parallel readers share it); the rows are those of the file, once.
func TestSQLSplitsByRowGroup(t *testing.T) {
	dir := t.TempDir()
	env := newEnv()
	// one writer, so that the INSERT writes one file (the datagen source
	// and the sink run at parallelism.default, the cores by default)
	env.GetConfig().Set("parallelism.default", "1")
	exec(t, env, fmt.Sprintf(`CREATE TABLE big (id BIGINT, name STRING) WITH ('connector' = 'filesystem', 'path' = '%s',
  'format' = 'parquet', 'parquet.block.size' = '64kb', 'sink.parallelism' = '1')`, dir),
		"CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '50000', 'number-of-rows' = '50000', 'rows-per-second' = '100000000')",
		"INSERT INTO big SELECT id, CONCAT('name-', CAST(id AS STRING)) FROM gen")
	files, _ := filepath.Glob(filepath.Join(dir, "part-*"))
	if len(files) != 1 {
		t.Fatalf("files: %v", files)
	}
	src, err := connector.CreateSource(&connector.Context{Table: "big", Schema: types.NewPhysicalSchema([]string{"id", "name"},
		[]*types.DataType{types.BigIntType(), types.StringType()}),
		Options: map[string]string{"connector": "filesystem", "path": dir, "format": "parquet"}, Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	splits, err := src.Splits(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) < 3 || !strings.HasSuffix(splits[1].String(), fmt.Sprintf("[row group 2 of %d]", len(splits))) {
		t.Fatalf("%d splits: %v", len(splits), splits)
	}
	env.GetConfig().Set("parallelism.default", "2")
	got := collect(t, env, "SELECT COUNT(*), COUNT(DISTINCT id), SUM(id), MIN(name), MAX(name) FROM big")
	if fmt.Sprint(got) != "[+I[50000, 50000, 1250025000, name-1, name-9999]]" {
		t.Fatalf("got %v", got)
	}
	// A filter skips the row groups outside the range.
	got = collect(t, env, "SELECT COUNT(*) FROM big WHERE id BETWEEN 20000 AND 20009")
	if fmt.Sprint(got) != "[+I[10]]" {
		t.Fatalf("got %v", got)
	}
}
