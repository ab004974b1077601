//go:build interop

package interop

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// The tests here run Flink 2.3.0's own SQL Client
// (org.apache.flink.table.client.SqlClient, `sql-client.sh gateway
// --endpoint`) against `riffle gateway`, and the same script against the
// real Flink SQL Gateway, and read what the client printed.

// bigRows is how many rows the script's last INSERT writes: about two
// seconds of datagen, so that the client exits (and closes its session)
// while the job still runs.
const bigRows = 100000

// peerScript is the SQL Client script of the tests: DDL over a csv file
// and datagen, batch and streaming SELECTs in tableau mode, INSERT INTO
// (synchronous and submitted), SET/RESET, SHOW/DESCRIBE, and last an
// INSERT still running when the script ends. dir holds the csv
// table and the sink's folder.
//
// The streaming aggregate runs at parallelism 1, set by the script: the
// SQL Client sends its configuration file's parallelism.default (1 in
// scripts/flink.sh's, as in Flink's distribution), but a client without
// it would leave Riffle's gateway at the number of cores, where the
// datagen sequence is split between two readers and the running sums
// follow whichever ran first (4, 9, 10, 12, 15 for 1, 3, 6, 10, 15).
func peerScript(t *testing.T, dir string) string {
	t.Helper()
	csv := filepath.Join(dir, "people.csv")
	if err := os.WriteFile(csv, []byte("1,alice,10.5,2024-01-31\n2,bob,20.25,2024-02-01\n3,carol,30.0,2024-03-15\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE people (id INT, name STRING, score DOUBLE, d DATE) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
CREATE TABLE gen (k INT, v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.k.min' = '1', 'fields.k.max' = '1', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '5');
CREATE TABLE sink (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
CREATE TABLE bh (id INT) WITH ('connector' = 'blackhole');
SET 'execution.runtime-mode' = 'batch';
SET 'table.local-time-zone' = 'UTC';
SELECT * FROM people ORDER BY id;
SELECT DATE '2024-01-31' AS d, TRUE AS b, TIMESTAMP '2024-01-31 10:00:00.5' AS ts, CAST(1.50 AS DECIMAL(5,2)) AS dc, CAST(NULL AS INT) AS n, TIME '12:34:56' AS t, ARRAY[1,2] AS arr, X'0102' AS bin, MAP['a',1] AS m, ROW(1,'x') AS r, INTERVAL '2' DAY AS iv, INTERVAL '14' MONTH AS ym, TO_TIMESTAMP_LTZ(0, 3) AS ltz;
SET 'table.dml-sync' = 'true';
INSERT INTO sink SELECT id, name FROM people WHERE id > 1;
RESET 'table.dml-sync';
INSERT INTO bh SELECT id FROM people;
SET 'execution.runtime-mode' = 'streaming';
SET 'parallelism.default' = '1';
SELECT k, SUM(v) AS s FROM gen GROUP BY k;
SHOW TABLES;
DESCRIBE people;
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE big (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '50000', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '%d');
CREATE TABLE bigsink (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
INSERT INTO bigsink SELECT a FROM big;
`, csv, filepath.Join(dir, "out"), bigRows, bigRows, filepath.Join(dir, "big"))
}

// TestPeerSQLClient runs Flink's SQL Client against `riffle gateway` and
// checks what it printed: the rows of a batch query over a csv file, the
// changelog (op column +I/-U/+U) of a streaming aggregate over datagen,
// every common type as the client shows it, INSERT INTO (the sink's file
// holds the rows), SET/RESET, SHOW, DESCRIBE, EXPLAIN and Flink's error
// for a wrong column.
func TestPeerSQLClient(t *testing.T) {
	endpoint := startRiffleGateway(t)
	dir := t.TempDir()
	script := peerScript(t, dir) + `SET;
RESET 'table.local-time-zone';
EXPLAIN SELECT name FROM people WHERE id > 1;
SELECT nosuch FROM people;
SELECT 'not reached';
`
	out := runSQLClient(t, endpoint, script)
	lines := sqlClientLines(out)
	text := strings.Join(lines, "\n")
	t.Logf("SQL Client output:\n%s", text)

	wantBlocks := []string{
		// batch SELECT over the csv table
		`+----+-------+-------+------------+
| id |  name | score |          d |
+----+-------+-------+------------+
|  1 | alice |  10.5 | 2024-01-31 |
|  2 |   bob | 20.25 | 2024-02-01 |
|  3 | carol |  30.0 | 2024-03-15 |
+----+-------+-------+------------+
3 rows in set`,
		// every common type in the SQL Client's text (PLAIN_TEXT rows)
		`| 2024-01-31 | TRUE | 2024-01-31 10:00:00.5 | 1.50 | <NULL> | 12:34:56 | [1, 2] | x'0102' | {a=1} | (1, x) | +2 00:00:00.000 | +1-02 | 1970-01-01 00:00:00.000 |`,
		// INSERT with table.dml-sync waits for the job
		`[INFO] Complete execution of the SQL update statement.`,
		// INSERT submitted
		`[INFO] SQL update statement has been successfully submitted to the cluster:
Job ID: <job id>`,
		// streaming: the changelog with the op column
		`+----+-------------+----------------------+
| op |           k |                    s |
+----+-------------+----------------------+
| +I |           1 |                    1 |
| -U |           1 |                    1 |
| +U |           1 |                    3 |
| -U |           1 |                    3 |
| +U |           1 |                    6 |
| -U |           1 |                    6 |
| +U |           1 |                   10 |
| -U |           1 |                   10 |
| +U |           1 |                   15 |
+----+-------------+----------------------+
Received a total of 9 rows`,
		`+------------+
| table name |
+------------+
|         bh |
|        gen |
|     people |
|       sink |
+------------+
4 rows in set`,
		`+-------+--------+------+-----+--------+-----------+
|  name |   type | null | key | extras | watermark |
+-------+--------+------+-----+--------+-----------+
|    id |    INT | TRUE |     |        |           |
|  name | STRING | TRUE |     |        |           |
| score | DOUBLE | TRUE |     |        |           |
|     d |   DATE | TRUE |     |        |           |
+-------+--------+------+-----+--------+-----------+
4 rows in set`,
	}
	for _, b := range wantBlocks {
		if !strings.Contains(text, b) {
			t.Errorf("the SQL Client did not print\n%s", b)
		}
	}
	// SET lists the session configuration: what the client sent and SET
	if !regexp.MustCompile(`\|\s+sql-client.execution.result-mode \|\s+tableau \|`).MatchString(text) ||
		!regexp.MustCompile(`\|\s+table.local-time-zone \|\s+UTC \|`).MatchString(text) ||
		!regexp.MustCompile(`\|\s+execution.runtime-mode \|\s+batch \|`).MatchString(text) {
		t.Errorf("SET did not list the session's configuration")
	}
	if strings.Contains(text, "table.dml-sync") {
		t.Errorf("RESET 'table.dml-sync' left it in the configuration")
	}
	for _, w := range []string{"== Abstract Syntax Tree ==", "== Optimized Physical Plan ==", "== Optimized Execution Plan =="} {
		if !strings.Contains(text, w) {
			t.Errorf("EXPLAIN printed no %q", w)
		}
	}
	// the wrong column: Flink's error text, cut where Flink's client cuts it
	i := strings.Index(text, "[ERROR] Could not execute SQL statement. Reason:\n")
	if i < 0 {
		t.Fatalf("no error printed for the wrong column")
	}
	reason := strings.SplitN(text[i:], "\n", 3)[1]
	if reason != "org.apache.calcite.sql.validate.SqlValidatorException: Column 'nosuch' not found in any table" || strings.Contains(text[i:], "End of exception") {
		t.Errorf("error reason %q (then %q)", reason, text[i:])
	}
	if strings.Contains(text, "not reached") {
		t.Errorf("the client went on after the error (it stops a -f script there)")
	}
	// the synchronous INSERT wrote its rows
	if got := readSinkRows(t, filepath.Join(dir, "out")); strings.Join(got, ";") != "2,bob;3,carol" {
		t.Errorf("sink rows %q, want 2,bob and 3,carol", got)
	}
	// the INSERT submitted last ran on after the client closed its session
	waitSinkRows(t, filepath.Join(dir, "big"), bigRows)
}

// waitSinkRows waits (up to a minute) until a filesystem sink's folder
// holds n rows.
func waitSinkRows(t *testing.T, dir string, n int) {
	t.Helper()
	got := 0
	if testwait.Poll(time.Minute, func() bool {
		got = len(readSinkRows(t, dir))
		return got == n
	}) {
		return
	}
	t.Errorf("%s holds %d rows, want %d: the INSERT did not finish after the client exited", dir, got, n)
}

// readSinkRows reads every line of the files under a filesystem sink's
// folder (hidden in-progress files skipped), sorted.
func readSinkRows(t *testing.T, dir string) []string {
	t.Helper()
	var rows []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				rows = append(rows, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rows)
	return rows
}

// TestPeerSQLClientMatchesFlink runs the same script through Flink's SQL
// Client against `riffle gateway` and against the real Flink SQL Gateway
// and compares the printed lines (timings and job ids masked), the wrong
// column's error included.
func TestPeerSQLClientMatchesFlink(t *testing.T) {
	f := fcRequire(t)
	endpoint := startRiffleGateway(t)
	errStmt := "SELECT nosuch FROM people;\n"

	riffleDir, flinkDir := t.TempDir(), t.TempDir()
	riffle := sqlClientLines(runSQLClient(t, endpoint, peerScript(t, riffleDir)+errStmt))
	flink := sqlClientLines(runSQLClient(t, hostPort(f.Gateway), peerScript(t, flinkDir)+errStmt))

	reason := func(lines []string) (rest []string, r string) {
		for i, l := range lines {
			if strings.HasPrefix(l, "[ERROR] Could not execute SQL statement. Reason:") && i+1 < len(lines) {
				return lines[:i], lines[i+1]
			}
		}
		return lines, ""
	}
	riffle, rr := reason(riffle)
	flink, fr := reason(flink)
	if d := lineDiff(flink, riffle); d != "" {
		t.Errorf("the SQL Client printed differently (- Flink, + Riffle):\n%s", d)
	}
	if fr == "" || fr != rr {
		t.Errorf("error reasons: Flink %q, Riffle %q", fr, rr)
	}
	if got, want := readSinkRows(t, filepath.Join(riffleDir, "out")), readSinkRows(t, filepath.Join(flinkDir, "out")); strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("sink rows: Riffle %q, Flink %q", got, want)
	}
	waitSinkRows(t, filepath.Join(flinkDir, "big"), bigRows)
	waitSinkRows(t, filepath.Join(riffleDir, "big"), bigRows)
}

// lineDiff lists the lines that differ, position by position ("" when
// equal).
func lineDiff(want, got []string) string {
	var b strings.Builder
	n := max(len(want), len(got))
	for i := 0; i < n; i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n- %s\n+ %s\n", i+1, w, g)
		}
	}
	return b.String()
}

// TestPeerSQLClientInitScript: the SQL Client runs an -i file through the
// configure-session endpoint (SET, CREATE TABLE, CREATE VIEW, USE), then
// the -f file in the session it configured. The file sets parallelism 1:
// the view's two rows come from two datagen readers at the number of
// cores, 20 before 10 as often as not (peerScript says why the client's
// own configuration is not relied on).
func TestPeerSQLClientInitScript(t *testing.T) {
	endpoint := startRiffleGateway(t)
	init := filepath.Join(t.TempDir(), "init.sql")
	if err := os.WriteFile(init, []byte(`SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
CREATE TABLE it (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '2');
CREATE TEMPORARY VIEW v2 AS SELECT a * 10 AS b FROM it;
USE CATALOG default_catalog;
`), 0o644); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(sqlClientLines(runSQLClient(t, endpoint, "SELECT * FROM v2;\n", "-i", init)), "\n")
	want := "+----+\n|  b |\n+----+\n| 10 |\n| 20 |\n+----+\n2 rows in set"
	if !strings.Contains(text, want) {
		t.Errorf("the SQL Client printed\n%s\nwant\n%s", text, want)
	}
}

// TestPeerSQLClientStopJobFromAnotherSession: one SQL Client submits an
// unbounded INSERT and exits; its job runs on (as on a Flink session
// cluster), and a second SQL Client sees it in SHOW JOBS and stops it with
// STOP JOB.
func TestPeerSQLClientStopJobFromAnotherSession(t *testing.T) {
	endpoint := startRiffleGateway(t)
	first := runSQLClient(t, endpoint, `CREATE TABLE ub (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');
CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT a FROM ub;
`)
	m := regexp.MustCompile(`Job ID: ([0-9a-f]{32})`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("no job id in\n%s", first)
	}
	id := m[1]
	jobLine := regexp.MustCompile(`\| ` + id + ` \|\s+insert-into_default_catalog.default_database.bh \|\s+(\w+) \|`)
	second := runSQLClient(t, endpoint, fmt.Sprintf(`SET 'sql-client.execution.result-mode' = 'tableau';
SHOW JOBS;
STOP JOB '%s';
SHOW JOBS;
`, id))
	states := jobLine.FindAllStringSubmatch(second, -1)
	if len(states) != 2 || states[0][1] != "RUNNING" || states[1][1] != "CANCELED" {
		t.Fatalf("SHOW JOBS before and after STOP JOB: %v in\n%s", states, second)
	}
}
