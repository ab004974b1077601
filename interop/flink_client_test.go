//go:build interop

package interop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// fcWriteFile writes a file into dir/sub (made first) and returns dir/sub,
// the folder a filesystem table reads.
func fcWriteFile(t testing.TB, dir, sub, name, content string) string {
	t.Helper()
	folder := filepath.Join(dir, sub)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return folder
}

// fcCreateTables declares, on e, a csv and a json table over files in dir
// and a bounded datagen table: the tables the batch tests read.
func fcCreateTables(t testing.TB, ctx context.Context, e table.Engine, dir string) {
	t.Helper()
	csvDir := fcWriteFile(t, dir, "orders_csv", "part-0.csv", "1,apple,2.50\n2,pear,1.25\n3,apple,4.00\n4,plum,0.75\n")
	jsonDir := fcWriteFile(t, dir, "orders_json", "part-0.json",
		`{"id":10,"name":"fig","amount":3.10,"tags":["a","b"],"ts":"2024-05-06 07:08:09.123"}`+"\n"+
			`{"id":11,"name":"kiwi","amount":null,"tags":[],"ts":"2024-05-06 07:08:10.000"}`+"\n")
	fcExec(t, ctx, e, "CREATE TABLE orders_csv (id INT, name STRING, amount DECIMAL(10, 2)) WITH ("+
		"'connector' = 'filesystem', 'path' = 'file://"+csvDir+"', 'format' = 'csv')")
	fcExec(t, ctx, e, "CREATE TABLE orders_json (id INT, name STRING, amount DECIMAL(10, 2), tags ARRAY<STRING>, ts TIMESTAMP(3)) WITH ("+
		"'connector' = 'filesystem', 'path' = 'file://"+jsonDir+"', 'format' = 'json')")
	fcExec(t, ctx, e, "CREATE TABLE gen (id BIGINT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5', "+
		"'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '5', "+
		"'fields.v.min' = '7', 'fields.v.max' = '7')")
}

// TestFlinkClientBatch runs DDL, queries, INSERT into a filesystem sink and
// reading it back, SET/RESET, SHOW, DESCRIBE, EXPLAIN and statement sets on
// real Flink through RemoteEngine, as the embedded engine runs them.
func TestFlinkClientBatch(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := fcConnectFlink(t, f, fcBatchProps())
	dir := t.TempDir()
	fcCreateTables(t, ctx, e, dir)

	fcMustEqual(t, "csv", fcRowsOf(t, ctx, e, "SELECT id, name, amount FROM orders_csv ORDER BY id"),
		[]string{"+I[1, apple, 2.50]", "+I[2, pear, 1.25]", "+I[3, apple, 4.00]", "+I[4, plum, 0.75]"})
	fcMustEqual(t, "json", fcRowsOf(t, ctx, e, "SELECT id, name, amount, tags, ts FROM orders_json ORDER BY id"),
		[]string{"+I[10, fig, 3.10, [a, b], 2024-05-06 07:08:09.123]", "+I[11, kiwi, <NULL>, [], 2024-05-06 07:08:10.000]"})
	fcMustEqual(t, "datagen", fcRowsOf(t, ctx, e, "SELECT id, v FROM gen ORDER BY id"),
		[]string{"+I[1, 7]", "+I[2, 7]", "+I[3, 7]", "+I[4, 7]", "+I[5, 7]"})
	fcMustEqual(t, "group by", fcRowsOf(t, ctx, e, "SELECT name, SUM(amount) AS total, COUNT(*) AS n FROM orders_csv GROUP BY name ORDER BY name"),
		[]string{"+I[apple, 6.50, 2]", "+I[pear, 1.25, 1]", "+I[plum, 0.75, 1]"})

	// INSERT INTO a filesystem sink (table.dml-sync: the statement returns
	// when the job has finished) and read it back
	outDir := filepath.Join(dir, "out")
	fcExec(t, ctx, e, "CREATE TABLE totals (name STRING, total DECIMAL(10, 2)) WITH ("+
		"'connector' = 'filesystem', 'path' = 'file://"+outDir+"', 'format' = 'csv')")
	ins := fcExec(t, ctx, e, "INSERT INTO totals SELECT name, SUM(amount) FROM orders_csv GROUP BY name")
	if ins.IsQuery() || ins.JobID() == "" {
		t.Fatalf("INSERT: IsQuery %v, JobID %q; want a job", ins.IsQuery(), ins.JobID())
	}
	if !strings.Contains(ins.Message(), "Complete execution of the SQL update statement") {
		t.Errorf("INSERT message = %q", ins.Message())
	}
	fcMustEqual(t, "sink read back", fcRowsOf(t, ctx, e, "SELECT name, total FROM totals ORDER BY name"),
		[]string{"+I[apple, 6.50]", "+I[pear, 1.25]", "+I[plum, 0.75]"})
	if st := fcClusterJobState(t, f, ins.JobID()); st != "FINISHED" {
		t.Errorf("INSERT job %s is %q on the cluster, want FINISHED", ins.JobID(), st)
	}

	// SET and RESET change the session's configuration
	res := fcExec(t, ctx, e, "SET 'table.local-time-zone' = 'Asia/Tokyo'")
	if res.ResultKind() != table.Success || res.Message() != "[INFO] Execute statement succeeded." {
		t.Errorf("SET: kind %v, message %q", res.ResultKind(), res.Message())
	}
	conf, err := e.Config(ctx)
	if err != nil || conf["table.local-time-zone"] != "Asia/Tokyo" {
		t.Fatalf("after SET: table.local-time-zone = %q (%v)", conf["table.local-time-zone"], err)
	}
	q := fcExec(t, ctx, e, "SELECT TO_TIMESTAMP_LTZ(0, 3) AS t")
	if q.TimeZone().String() != "Asia/Tokyo" {
		t.Errorf("query time zone = %v, want Asia/Tokyo", q.TimeZone())
	}
	fcMustEqual(t, "LTZ in Tokyo", fcFormatRows(t, q), []string{"+I[1970-01-01 09:00:00.000]"})
	all := fcRowsOf(t, ctx, e, "SET")
	if !fcContainsPrefix(all, "+I[table.local-time-zone, Asia/Tokyo]") {
		t.Errorf("SET lists %v, want table.local-time-zone", all)
	}
	fcExec(t, ctx, e, "RESET 'table.local-time-zone'")
	conf, err = e.Config(ctx)
	if err != nil || conf["table.local-time-zone"] == "Asia/Tokyo" {
		t.Fatalf("after RESET: table.local-time-zone = %q (%v)", conf["table.local-time-zone"], err)
	}

	// SHOW and the engine's catalog listing
	if got := fcRowsOf(t, ctx, e, "SHOW CATALOGS"); !fcContainsPrefix(got, "+I[default_catalog]") {
		t.Errorf("SHOW CATALOGS = %v", got)
	}
	if got := fcRowsOf(t, ctx, e, "SHOW DATABASES"); !fcContainsPrefix(got, "+I[default_database]") {
		t.Errorf("SHOW DATABASES = %v", got)
	}
	fcMustEqual(t, "SHOW TABLES", fcRowsOf(t, ctx, e, "SHOW TABLES"),
		[]string{"+I[gen]", "+I[orders_csv]", "+I[orders_json]", "+I[totals]"})
	if got := fcRowsOf(t, ctx, e, "SHOW FUNCTIONS"); !fcContainsPrefix(got, "+I[upper]") || len(got) < 100 {
		t.Errorf("SHOW FUNCTIONS: %d functions, want upper among 100 or more", len(got))
	}
	cats, err := e.ListCatalogs(ctx)
	if err != nil || !fcContainsPrefix(cats, "default_catalog") {
		t.Errorf("ListCatalogs = %v, %v", cats, err)
	}
	tables, err := e.ListTables(ctx, "default_catalog", "default_database")
	if err != nil || len(tables) != 4 || tables[0].Name != "gen" {
		t.Errorf("ListTables = %+v, %v", tables, err)
	}
	cols, err := e.ListColumns(ctx, "default_catalog", "default_database", "orders_json")
	if err != nil || len(cols) != 5 || cols[3].Name != "tags" || cols[3].Type != "ARRAY<STRING>" {
		t.Errorf("ListColumns = %+v, %v", cols, err)
	}
	desc := fcRowsOf(t, ctx, e, "DESCRIBE orders_csv")
	fcMustEqual(t, "DESCRIBE", desc, []string{
		"+I[id, INT, TRUE, <NULL>, <NULL>, <NULL>]",
		"+I[name, STRING, TRUE, <NULL>, <NULL>, <NULL>]",
		"+I[amount, DECIMAL(10, 2), TRUE, <NULL>, <NULL>, <NULL>]",
	})

	// completion (complete-statement, a GET with a body)
	cands, err := e.CompleteStatement(ctx, "SELECT * FROM orders_c", len("SELECT * FROM orders_c"))
	// (Flink 2.3.0 offers the table's full name)
	if err != nil || !fcContainsPrefix(cands, "default_catalog.default_database.orders_csv") {
		t.Errorf("CompleteStatement = %v, %v; want orders_csv", cands, err)
	}

	// USE and SHOW CURRENT
	fcExec(t, ctx, e, "CREATE DATABASE extra")
	fcExec(t, ctx, e, "USE extra")
	fcMustEqual(t, "SHOW CURRENT DATABASE", fcRowsOf(t, ctx, e, "SHOW CURRENT DATABASE"), []string{"+I[extra]"})
	fcMustEqual(t, "SHOW TABLES in extra", fcRowsOf(t, ctx, e, "SHOW TABLES"), nil)
	fcExec(t, ctx, e, "USE default_database")

	// EXPLAIN: one row, Flink's plan text
	plan := fcExec(t, ctx, e, "EXPLAIN SELECT name, COUNT(*) FROM orders_csv GROUP BY name")
	rows := fcRawRows(t, plan)
	if len(rows) != 1 || !strings.Contains(rows[0], "== Abstract Syntax Tree ==") || !strings.Contains(rows[0], "== Optimized Execution Plan ==") {
		t.Errorf("EXPLAIN = %q", rows)
	}

	// EXECUTE STATEMENT SET: one job writes both sinks
	for _, name := range []string{"s1", "s2"} {
		fcExec(t, ctx, e, "CREATE TABLE "+name+" (id INT, name STRING) WITH ("+
			"'connector' = 'filesystem', 'path' = 'file://"+filepath.Join(dir, name)+"', 'format' = 'json')")
	}
	set := fcExec(t, ctx, e, "EXECUTE STATEMENT SET BEGIN\n"+
		"INSERT INTO s1 SELECT id, name FROM orders_csv WHERE id <= 2;\n"+
		"INSERT INTO s2 SELECT id, name FROM orders_csv WHERE id > 2;\nEND")
	if set.JobID() == "" {
		t.Fatal("statement set: no job")
	}
	fcMustEqual(t, "s1", fcRowsOf(t, ctx, e, "SELECT * FROM s1 ORDER BY id"), []string{"+I[1, apple]", "+I[2, pear]"})
	fcMustEqual(t, "s2", fcRowsOf(t, ctx, e, "SELECT * FROM s2 ORDER BY id"), []string{"+I[3, apple]", "+I[4, plum]"})

	// the session's jobs: the INSERT and the statement set are among them,
	// finished, as the cluster says
	jobs, err := e.Jobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, j := range jobs {
		seen[j.ID] = j.Status
		if j.StartTime.IsZero() {
			t.Errorf("job %s has no start time", j.ID)
		}
	}
	if seen[ins.JobID()] != "FINISHED" || seen[set.JobID()] != "FINISHED" {
		t.Errorf("Jobs = %v; want %s and %s FINISHED", jobs, ins.JobID(), set.JobID())
	}
	// SHOW JOBS itself lists the cluster's jobs, these among them
	found := false
	for _, r := range fcRowsOf(t, ctx, e, "SHOW JOBS") {
		if strings.HasPrefix(r, "+I["+ins.JobID()+", ") && strings.Contains(r, ", FINISHED, ") {
			found = true
		}
	}
	if !found {
		t.Errorf("SHOW JOBS does not list %s FINISHED", ins.JobID())
	}
	if err := e.WaitJob(ctx, set.JobID()); err != nil {
		t.Errorf("WaitJob(statement set) = %v", err)
	}
}

// TestFlinkClientErrors: Flink's message and position reach the caller as
// *gateway.Error, for a statement alone and for one inside a script.
func TestFlinkClientErrors(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := fcConnectFlink(t, f, fcBatchProps())
	fcCreateTables(t, ctx, e, t.TempDir())

	cases := []struct {
		stmt      string
		at        sql.Pos
		want      string
		line, col int
	}{
		{"SELECT nope FROM orders_csv", sql.Pos{}, "Column 'nope' not found in any table", 1, 8},
		{"SELECT * FROM missing_table", sql.Pos{}, "Object 'missing_table' not found", 1, 15},
		{"SELECT FROM orders_csv", sql.Pos{}, "Incorrect syntax near the keyword 'FROM' at line 1, column 8", 1, 8},
		// the third statement of a script, at line 3, column 5
		{"SELECT nope FROM orders_csv", sql.Pos{Line: 3, Column: 5}, "Column 'nope' not found in any table", 3, 12},
	}
	for _, c := range cases {
		_, err := e.ExecuteStatement(ctx, c.stmt, c.at)
		var ge *gateway.Error
		if !errors.As(err, &ge) {
			t.Errorf("%s: error %v (%T), want *gateway.Error", c.stmt, err, err)
			continue
		}
		if !strings.Contains(ge.Error(), c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.stmt, ge.Error(), c.want)
		}
		if strings.Contains(ge.Error(), "\tat ") || strings.Contains(ge.Error(), "Exception on server side") {
			t.Errorf("%s: error carries a stack: %q", c.stmt, ge.Error())
		}
		if line, col, ok := ge.Position(); !ok || line != c.line || col != c.col {
			t.Errorf("%s: position %d:%d (%v), want %d:%d", c.stmt, line, col, ok, c.line, c.col)
		}
	}
	// a failing job: the error arrives while the rows are read
	res, err := e.ExecuteStatement(ctx, "SELECT CAST(name AS INT) FROM orders_csv", sql.Pos{})
	if err == nil {
		it, cerr := res.Collect()
		if cerr != nil {
			t.Fatal(cerr)
		}
		for it.Next() {
		}
		err = it.Err()
		it.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "apple") {
		t.Errorf("failing cast: error %v, want Flink's message naming the value 'apple'", err)
	}
}

func fcContainsPrefix(list []string, want string) bool {
	for _, s := range list {
		if strings.EqualFold(s, want) {
			return true
		}
	}
	return false
}

// fcRawRows reads a one-column result as strings.
func fcRawRows(t testing.TB, res table.StatementResult) []string {
	t.Helper()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		s, _ := it.Row().Values[0].(string)
		out = append(out, s)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
