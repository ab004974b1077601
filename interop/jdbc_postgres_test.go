//go:build interop

package interop

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// Riffle's jdbc connector against the real PostgreSQL and MariaDB of
// scripts/db.sh, through the engine as a user runs it and, for the
// sink's and lookup's finer semantics, through the connector's API.

// jdbcServer is one database under test, on a database of its own.
type jdbcServer struct {
	kind                string // "PostgreSQL" or "MariaDB"
	pgLog               string // PostgreSQL's server log (log_statement = 'all' on the test's database)
	dbName              string
	url, user, password string
	exec                func(t testing.TB, stmts ...string)
	db                  *sql.DB
}

func jdbcServers(t *testing.T, dbName string) []jdbcServer {
	pg := PostgresFromEnv(t).CreateDatabase(t, dbName)
	my := MariaDBFromEnv(t).CreateDatabase(t, dbName)
	return []jdbcServer{
		{kind: "PostgreSQL", url: pg.URL, user: pg.User, password: pg.Password, exec: pg.Exec, db: pg.DB(t),
			pgLog: filepath.Join(pg.RunDir, "pg", "log", "postgres.log"), dbName: dbName},
		{kind: "MariaDB", url: my.URL, user: my.User, password: my.Password, exec: my.Exec, db: my.DB(t), dbName: dbName},
	}
}

func (s jdbcServer) pg() bool { return s.kind == "PostgreSQL" }

// logStatements makes PostgreSQL log every statement run on the test's
// database (sessions opened from now on) into its server log.
func (s jdbcServer) logStatements(t testing.TB) {
	t.Helper()
	s.exec(t, "ALTER DATABASE "+s.dbName+" SET log_statement = 'all'")
}

// statements lists the statements PostgreSQL logged for the test's
// database ("execute <name>: SELECT …" lines of the server log).
func (s jdbcServer) statements(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile(s.pgLog)
	if err != nil {
		t.Fatalf("reading PostgreSQL's log: %v", err)
	}
	var out []string
	marker := "@" + s.dbName + " LOG:  "
	for _, line := range strings.Split(string(data), "\n") {
		i := strings.Index(line, marker)
		if i < 0 {
			continue
		}
		msg := line[i+len(marker):]
		if j := strings.Index(msg, ": "); j >= 0 && (strings.HasPrefix(msg, "execute ") || strings.HasPrefix(msg, "statement: ")) {
			out = append(out, msg[j+2:])
		}
	}
	return out
}

func (s jdbcServer) with(tableName string, more ...string) string {
	return jdbcWith(s.url, s.user, s.password, tableName, more...)
}

// rows runs a query on the database itself and renders each row as its
// columns' text joined by '|' (NULL as "null"), in the query's order.
func (s jdbcServer) rows(t testing.TB, query string) []string {
	t.Helper()
	rs, err := s.db.Query(query)
	if err != nil {
		t.Fatalf("%s: %s: %v", s.kind, query, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []string
	for rs.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(cols))
		for i, v := range vals {
			parts[i] = "null"
			if v.Valid {
				parts[i] = v.String
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestJdbcScanPushdown reads a 100-row table in 4 range partitions with
// projection, filters and LIMIT pushed into the database's query.
func TestJdbcScanPushdown(t *testing.T) {
	for _, s := range jdbcServers(t, "jdbc_scan") {
		t.Run(s.kind, func(t *testing.T) {
			s.exec(t, "CREATE TABLE items (id BIGINT PRIMARY KEY, name VARCHAR(20), price DECIMAL(10, 2), dt DATE)")
			if s.pg() {
				s.logStatements(t)
			}
			if s.pg() {
				s.exec(t, "INSERT INTO items SELECT g, 'n' || g, g * 1.5, DATE '2024-01-01' + g FROM generate_series(1, 100) g")
			} else {
				s.exec(t, "INSERT INTO items SELECT seq, CONCAT('n', seq), seq * 1.5, DATE_ADD('2024-01-01', INTERVAL seq DAY) FROM seq_1_to_100")
			}
			env := jdbcEnv(t, false)
			jdbcExec(t, env, "CREATE TABLE items (id BIGINT, name STRING, price DECIMAL(10, 2), dt DATE) "+s.with("items",
				"'scan.partition.column' = 'id'", "'scan.partition.num' = '4'",
				"'scan.partition.lower-bound' = '1'", "'scan.partition.upper-bound' = '100'", "'scan.fetch-size' = '7'"))
			jdbcEqual(t, "count and sum", jdbcQuery(t, env, "SELECT COUNT(*), SUM(id), SUM(price), MIN(dt), MAX(name) FROM items"),
				[]string{"+I[100, 5050, 7575.00, 2024-01-02, n99]"})
			jdbcEqual(t, "projection and filter", jdbcSorted(jdbcQuery(t, env, "SELECT name FROM items WHERE id > 96")),
				[]string{"+I[n100]", "+I[n97]", "+I[n98]", "+I[n99]"})
			jdbcEqual(t, "decimal, LIKE, AND", jdbcQuery(t, env, "SELECT id, price FROM items WHERE price >= 148.5 AND name LIKE 'n9%'"),
				[]string{"+I[99, 148.50]"})
			jdbcEqual(t, "date and OR", jdbcSorted(jdbcQuery(t, env, "SELECT id FROM items WHERE dt = DATE '2024-01-05' OR name IS NULL OR id = 60")),
				[]string{"+I[4]", "+I[60]"})
			jdbcEqual(t, "limit", jdbcQuery(t, env, "SELECT COUNT(*) FROM (SELECT id FROM items LIMIT 3)"), []string{"+I[3]"})
			if s.pg() {
				// the statements PostgreSQL ran for this database
				stmts := s.statements(t)
				for _, want := range []string{
					"SELECT name FROM items WHERE (id BETWEEN $1 AND $2) AND ((id > $3))",
					"SELECT id, price FROM items WHERE (id BETWEEN $1 AND $2) AND ((price >= $3)) AND ((name LIKE $4))",
					"SELECT id FROM items WHERE (id BETWEEN $1 AND $2) LIMIT 3",
				} {
					found := false
					for _, st := range stmts {
						found = found || strings.HasSuffix(st, want)
					}
					if !found {
						t.Errorf("PostgreSQL ran no %q; it ran:\n  %s", want, strings.Join(stmts, "\n  "))
					}
				}
			}
			// in a transaction, FETCHing 7 rows at a time through a cursor on PostgreSQL
			jdbcExec(t, env, "CREATE TABLE items_tx (id BIGINT, name STRING, price DECIMAL(10, 2), dt DATE) "+s.with("items",
				"'scan.fetch-size' = '7'", "'scan.auto-commit' = 'false'"))
			jdbcEqual(t, "cursor", jdbcQuery(t, env, "SELECT COUNT(*), SUM(id), SUM(price), MIN(dt), MAX(name) FROM items_tx WHERE id > 50"),
				[]string{"+I[50, 3775, 5662.50, 2024-02-21, n99]"})

			// the connector's own splits, with the filters the planner
			// would push: every split runs valid SQL and together they
			// hold each matching row once
			src := jdbcSource(t, s, "items", []string{"id", "name", "price", "dt"},
				[]*types.DataType{types.BigIntType(), types.StringType(), types.DecimalType(10, 2), types.DateType()},
				"'scan.partition.column' = 'id'", "'scan.partition.num' = '3'", "'scan.partition.lower-bound' = '0'", "'scan.partition.upper-bound' = '90'")
			fs := src.(connector.FilterSource)
			exact := fs.ApplyFilters([]*connector.Predicate{
				{Op: connector.OpGreater, Column: 2, Name: "price", Value: types.MustDecimal("30.00")},
				{Op: connector.OpIn, Column: 0, Name: "id", Values: []any{int64(10), int64(21), int64(22), int64(50), int64(95)}},
				{Op: connector.OpNot, Args: []*connector.Predicate{{Op: connector.OpEq, Column: 3, Name: "dt", Value: types.DateOf(2024, 1, 23)}}},
			})
			if fmt.Sprint(exact) != "[true true true]" {
				t.Fatalf("exact %v", exact)
			}
			splits, err := src.Splits(context.Background())
			if err != nil || len(splits) != 3 {
				t.Fatalf("splits %v %v", splits, err)
			}
			var got []string
			for _, sp := range splits {
				got = append(got, jdbcReadSplit(t, src, sp, connector.ReadSpec{Columns: []int{1, 0}, Limit: -1})...)
			}
			// 95 is above the upper bound: Flink's ranges end at the bound
			jdbcEqual(t, "split rows", jdbcSorted(got), []string{"+I[n21, 21]", "+I[n50, 50]"})
			got = jdbcReadSplit(t, src, splits[2], connector.ReadSpec{Columns: []int{0}, Limit: 0})
			if len(got) != 0 {
				t.Fatalf("LIMIT 0 read %v", got)
			}
		})
	}
}

// jdbcSource creates the connector's source for a table with the given
// physical columns, as the planner does.
func jdbcSource(t testing.TB, s jdbcServer, tableName string, names []string, ts []*types.DataType, more ...string) connector.Source {
	t.Helper()
	ctx := jdbcContext(s, tableName, names, ts, nil, more...)
	src, err := connector.CreateSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func jdbcContext(s jdbcServer, tableName string, names []string, ts []*types.DataType, pk []string, more ...string) *connector.Context {
	opts := map[string]string{"connector": "jdbc", "url": s.url, "table-name": tableName, "username": s.user, "password": s.password}
	for _, m := range more {
		kv := strings.SplitN(m, "=", 2)
		opts[strings.Trim(strings.TrimSpace(kv[0]), "'")] = strings.Trim(strings.TrimSpace(kv[1]), "'")
	}
	schema := types.NewPhysicalSchema(names, ts)
	if pk != nil {
		schema.PrimaryKey = &types.UniqueConstraint{Name: "pk", Columns: pk}
	}
	return &connector.Context{Table: "`default_catalog`.`default_database`.`" + tableName + "`", Schema: schema, Options: opts}
}

func jdbcReadSplit(t testing.TB, src connector.Source, sp connector.Split, spec connector.ReadSpec) []string {
	t.Helper()
	ctx := context.Background()
	r, err := src.Open(ctx, sp, spec)
	if err != nil {
		t.Fatalf("open %s: %v", sp, err)
	}
	defer r.Close()
	var ts []*types.DataType
	var out []string
	for {
		b, err := r.Next(ctx)
		if err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("read %s: %v", sp, err)
		}
		if ts == nil {
			for _, c := range b.Cols {
				dt, err := types.FromArrow(c.DataType())
				if err != nil {
					t.Fatal(err)
				}
				ts = append(ts, dt)
			}
		}
		for _, row := range b.Rows(ts) {
			out = append(out, row.String())
		}
	}
}

// TestJdbcSinkSQL writes with INSERT statements: upserts by the primary
// key, an updating and a deleting changelog, appends without a key, and
// the planner's refusal of updates into a table without one.
func TestJdbcSinkSQL(t *testing.T) {
	for _, s := range jdbcServers(t, "jdbc_sink") {
		t.Run(s.kind, func(t *testing.T) {
			s.exec(t, "CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20))",
				"CREATE TABLE agg (name VARCHAR(10) PRIMARY KEY, cnt BIGINT)",
				"CREATE TABLE agg2 (name VARCHAR(10) PRIMARY KEY, cnt BIGINT)",
				"CREATE TABLE log (id INT, v VARCHAR(10))")
			env := jdbcEnv(t, false)
			jdbcExec(t, env,
				"CREATE TABLE kv (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) "+s.with("kv"),
				"CREATE TABLE log (id INT, v STRING) "+s.with("log"),
				"INSERT INTO kv VALUES (1, 'a'), (2, 'b'), (1, 'c')",
			)
			jdbcEqual(t, "upsert", s.rows(t, "SELECT k, v FROM kv ORDER BY k"), []string{"1|c", "2|b"})
			jdbcExec(t, env, "INSERT INTO kv VALUES (2, 'z'), (3, 'new')")
			jdbcEqual(t, "upsert again", s.rows(t, "SELECT k, v FROM kv ORDER BY k"), []string{"1|c", "2|z", "3|new"})
			jdbcEqual(t, "read back", jdbcSorted(jdbcQuery(t, env, "SELECT * FROM kv")), []string{"+I[1, c]", "+I[2, z]", "+I[3, new]"})

			jdbcExec(t, env, "INSERT INTO log VALUES (1, 'x'), (2, 'y')", "INSERT INTO log VALUES (1, 'x')")
			jdbcEqual(t, "append", s.rows(t, "SELECT id, v FROM log ORDER BY id, v"), []string{"1|x", "1|x", "2|y"})

			st := jdbcEnv(t, true)
			jdbcExec(t, st,
				"CREATE TABLE agg (name STRING, cnt BIGINT, PRIMARY KEY (name) NOT ENFORCED) "+s.with("agg"),
				"CREATE TABLE agg2 (name STRING, cnt BIGINT, PRIMARY KEY (name) NOT ENFORCED) "+s.with("agg2", "'sink.buffer-flush.max-rows' = '1'"),
				"CREATE TABLE log (id INT, v STRING) "+s.with("log"),
				"INSERT INTO agg SELECT name, COUNT(*) FROM (VALUES ('a'), ('b'), ('a'), ('a')) AS t(name) GROUP BY name",
				// 'a' reaches 1 (+I), then 2 (-D): with a flush per row the
				// DELETE removes a row that was written
				"INSERT INTO agg2 SELECT name, c FROM (SELECT name, COUNT(*) AS c FROM (VALUES ('a'), ('b'), ('a')) AS t(name) GROUP BY name) WHERE c < 2",
			)
			jdbcEqual(t, "updating changelog", s.rows(t, "SELECT name, cnt FROM agg ORDER BY name"), []string{"a|3", "b|1"})
			jdbcEqual(t, "deleting changelog", s.rows(t, "SELECT name, cnt FROM agg2 ORDER BY name"), []string{"b|1"})
			err := jdbcTry(st, "INSERT INTO log SELECT COUNT(*), name FROM (VALUES ('a'), ('b'), ('a')) AS t(name) GROUP BY name")
			if err == nil {
				t.Fatal("an updating query into a table without a primary key must be refused")
			}
			t.Logf("updating input into a keyless table: %v", err)
			if !strings.Contains(err.Error(), "log") {
				t.Fatalf("the error does not name the sink table: %v", err)
			}
		})
	}
}

// TestJdbcSinkBatches drives the sink's writer: a failed batch leaves
// nothing, the timer flushes a quiet stream, -U/-D delete by key and the
// buffer keeps the last change per key.
func TestJdbcSinkBatches(t *testing.T) {
	for _, s := range jdbcServers(t, "jdbc_batches") {
		t.Run(s.kind, func(t *testing.T) {
			s.exec(t, "CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20) NOT NULL, CHECK (v <> 'bad'))",
				"INSERT INTO kv VALUES (100, 'before')")
			names := []string{"k", "v"}
			ts := []*types.DataType{types.IntType().NotNull(), types.StringType()}
			open := func(more ...string) connector.Writer {
				sink, err := connector.CreateSink(jdbcContext(s, "kv", names, ts, []string{"k"}, more...))
				if err != nil {
					t.Fatal(err)
				}
				w, err := sink.Open(context.Background(), connector.WriteSpec{Names: names, Types: ts}, 0)
				if err != nil {
					t.Fatal(err)
				}
				return w
			}
			batch := func(rows ...*types.Row) *types.Batch {
				bb := types.NewBatchBuilder(ts)
				for _, r := range rows {
					if err := bb.AppendRow(r); err != nil {
						t.Fatal(err)
					}
				}
				return bb.Build()
			}
			ctx := context.Background()

			// a constraint violation in the middle of a batch: nothing of
			// the batch is written, and the error says why
			w := open("'sink.buffer-flush.interval' = '0'")
			if err := w.Write(ctx, batch(types.NewRow(int32(1), "ok1"), types.NewRow(int32(2), "bad"), types.NewRow(int32(3), "ok2"))); err != nil {
				t.Fatal(err)
			}
			err := w.Commit()
			if err == nil {
				t.Fatal("a batch with a row the CHECK constraint refuses must fail")
			}
			t.Logf("failed batch: %v", err)
			if !strings.Contains(err.Error(), "a batch of 3 rows was not written") || !strings.Contains(err.Error(), "'kv'") {
				t.Fatalf("error %v", err)
			}
			jdbcEqual(t, "table after the failed batch", s.rows(t, "SELECT k, v FROM kv ORDER BY k"), []string{"100|before"})

			// SQL users see the same: the INSERT fails, the table is unchanged
			env := jdbcEnv(t, false)
			jdbcExec(t, env, "CREATE TABLE kv (k INT NOT NULL, v STRING, PRIMARY KEY (k) NOT ENFORCED) "+s.with("kv"))
			if err := jdbcTry(env, "INSERT INTO kv VALUES (1, 'ok'), (2, 'bad'), (3, 'ok')"); err == nil || !strings.Contains(err.Error(), "not written") {
				t.Fatalf("INSERT with a refused row: %v", err)
			}
			jdbcEqual(t, "table after the failed INSERT", s.rows(t, "SELECT k, v FROM kv ORDER BY k"), []string{"100|before"})

			// a quiet stream is flushed by the timer, before Commit
			w = open("'sink.buffer-flush.interval' = '100ms'", "'sink.buffer-flush.max-rows' = '1000'")
			if err := w.Write(ctx, batch(types.NewRow(int32(7), "timer"))); err != nil {
				t.Fatal(err)
			}
			testwait.Until(t, 30*time.Second, "the timer to flush the buffered row", func() bool {
				return len(s.rows(t, "SELECT v FROM kv WHERE k = 7")) > 0
			})
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}

			// changes: 2 rows flushed at max-rows, then -U/+U and -D
			w = open("'sink.buffer-flush.interval' = '0'", "'sink.buffer-flush.max-rows' = '2'")
			if err := w.Write(ctx, batch(types.NewRow(int32(1), "a"), types.NewRow(int32(2), "b"))); err != nil {
				t.Fatal(err)
			}
			jdbcEqual(t, "flushed at max-rows", s.rows(t, "SELECT k, v FROM kv WHERE k < 100 ORDER BY k"), []string{"1|a", "2|b", "7|timer"})
			if err := w.Write(ctx, batch(
				types.NewRowWithKind(types.UpdateBefore, int32(1), "a"), types.NewRowWithKind(types.UpdateAfter, int32(1), "a2"),
				types.NewRowWithKind(types.Delete, int32(2), "b"),
				types.NewRowWithKind(types.Delete, int32(7), "timer"))); err != nil {
				t.Fatal(err)
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			jdbcEqual(t, "after updates and deletes", s.rows(t, "SELECT k, v FROM kv ORDER BY k"), []string{"1|a2", "100|before"})

			// the buffer keeps the last change of a key: +I then -D of a
			// new key writes nothing; -D then +I of a key upserts it
			w = open("'sink.buffer-flush.interval' = '0'")
			if err := w.Write(ctx, batch(types.NewRow(int32(5), "gone"), types.NewRowWithKind(types.Delete, int32(5), "gone"),
				types.NewRowWithKind(types.Delete, int32(1), "a2"), types.NewRow(int32(1), "a3"))); err != nil {
				t.Fatal(err)
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			jdbcEqual(t, "reduced buffer", s.rows(t, "SELECT k, v FROM kv ORDER BY k"), []string{"1|a3", "100|before"})

			// Abort drops what is buffered
			w = open("'sink.buffer-flush.interval' = '0'")
			if err := w.Write(ctx, batch(types.NewRow(int32(9), "aborted"))); err != nil {
				t.Fatal(err)
			}
			w.Abort()
			jdbcEqual(t, "after Abort", s.rows(t, "SELECT k FROM kv ORDER BY k"), []string{"1", "100"})
		})
	}
}

// TestJdbcErrors: a wrong password, a missing table, a server that is not
// there and a column of another type each fail with one message naming
// what failed.
func TestJdbcErrors(t *testing.T) {
	// a port nothing listens on
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	// a port that accepts connections and never answers
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	silentPort := silent.Addr().(*net.TCPAddr).Port
	for _, s := range jdbcServers(t, "jdbc_errors") {
		t.Run(s.kind, func(t *testing.T) {
			s.exec(t, "CREATE TABLE t (id INT, name VARCHAR(10))", "INSERT INTO t VALUES (1, 'a')")
			env := jdbcEnv(t, false)
			bad := s
			bad.password = "wrong-password"
			dead := s
			dead.url = strings.Replace(s.url, fmt.Sprint(":", portOf(s.url)), fmt.Sprint(":", deadPort), 1)
			mute := s
			mute.url = strings.Replace(s.url, fmt.Sprint(":", portOf(s.url)), fmt.Sprint(":", silentPort), 1)
			jdbcExec(t, env,
				"CREATE TABLE badpw (id INT, name STRING) "+bad.with("t"),
				"CREATE TABLE missing (id INT, name STRING) "+s.with("no_such_table"),
				"CREATE TABLE dead (id INT, name STRING) "+dead.with("t", "'connection.max-retry-timeout' = '5 s'"),
				"CREATE TABLE mute (id INT, name STRING) "+mute.with("t", "'connection.max-retry-timeout' = '2 s'"),
				"CREATE TABLE wrongtype (id INT, name INT) "+s.with("t"),
				"CREATE TABLE wrongcol (id INT, nom STRING) "+s.with("t"),
			)
			cases := []struct {
				query string
				want  []string
			}{
				{"SELECT * FROM badpw", []string{"cannot connect to", "at 127.0.0.1:", "user '" + s.user + "'", map[bool]string{true: "password authentication failed", false: "Access denied"}[s.pg()]}},
				{"SELECT * FROM missing", []string{"table 'no_such_table' does not exist in"}},
				{"SELECT * FROM dead", []string{"cannot connect to", fmt.Sprintf("127.0.0.1:%d", deadPort), "refused"}},
				{"SELECT * FROM mute", []string{"cannot connect to", fmt.Sprintf("127.0.0.1:%d", silentPort), "no answer within 2 s ('connection.max-retry-timeout')"}},
				{"SELECT * FROM wrongtype", []string{"column 'name' of", "table 't' has type", "which cannot be read as the declared type INT; declare it as STRING"}},
				{"SELECT * FROM wrongcol", []string{"nom"}},
				{"INSERT INTO badpw VALUES (2, 'b')", []string{"cannot connect to"}},
				{"INSERT INTO missing VALUES (2, 'b')", []string{"no_such_table", "a batch of 1 row was not written"}},
			}
			for _, c := range cases {
				start := time.Now()
				err := jdbcTry(env, c.query)
				if err == nil {
					t.Errorf("%s: no error", c.query)
					continue
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: error %q lacks %q", c.query, err, w)
					}
				}
				t.Logf("%s -> %v (%v)", c.query, err, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

func portOf(url string) string {
	rest := url[strings.Index(url, "//")+2:]
	rest = rest[:strings.Index(rest, "/")]
	return rest[strings.LastIndex(rest, ":")+1:]
}
