package sqlclient

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runClient(t *testing.T, opts Options, stdin string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), opts, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

const ddl = `CREATE TABLE t (id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3)) WITH (
  'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');`

func writeData(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.csv")
	data := "1,\"a, b\",1.50,2024-01-31 12:00:00.123\n2,,10.00,2024-02-01 00:00:00\n3,\"q\"\"q\",,\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(ddl, "%s", p, 1)
}

func TestTableauBatchAndInfo(t *testing.T) {
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Statements: writeData(t) + "SELECT id, price FROM t WHERE price > 1;"}, "")
	want := "[INFO] Execute statement succeeded.\n" +
		"+----+-------+\n| id | price |\n+----+-------+\n|  1 |  1.50 |\n|  2 | 10.00 |\n+----+-------+\n2 rows in set\n"
	if code != 0 || out != want {
		t.Fatalf("code %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestCSVOutput(t *testing.T) {
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Format: FormatCSV, Statements: writeData(t) + "SELECT * FROM t;"}, "")
	// NULL is an empty field, the empty string is "" (NULL-vs-empty stays
	// visible); quotes are doubled; DDL prints nothing in csv format. An
	// empty unquoted CSV field reads as '' for STRING and NULL otherwise.
	want := "id,name,price,ts\n" +
		"1,\"a, b\",1.50,2024-01-31 12:00:00.123\n" +
		"2,\"\",10.00,2024-02-01 00:00:00.000\n" +
		"3,\"q\"\"q\",,\n"
	if code != 0 || out != want {
		t.Fatalf("code %d\nstdout:\n%q\nwant:\n%q\nstderr:\n%s", code, out, want, errs)
	}
}

func TestJSONStreamingOutput(t *testing.T) {
	code, out, errs := runClient(t, Options{Format: FormatJSON, Statements: writeData(t) + "SELECT id, name, price, ts FROM t WHERE id < 3;"}, "")
	want := `{"op":"+I","id":1,"name":"a, b","price":1.50,"ts":"2024-01-31 12:00:00.123"}` + "\n" +
		`{"op":"+I","id":2,"name":"","price":10.00,"ts":"2024-02-01 00:00:00"}` + "\n"
	if code != 0 || out != want {
		t.Fatalf("code %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, errs)
	}
}

func TestStreamingChangelogTableau(t *testing.T) {
	code, out, _ := runClient(t, Options{Statements: "SELECT k, COUNT(*) AS c FROM (VALUES ('a'), ('a')) AS v(k) GROUP BY k;"}, "")
	want := "+----+--------------------------------+----------------------+\n" +
		"| op |                              k |                    c |\n" +
		"+----+--------------------------------+----------------------+\n" +
		"| +I |                              a |                    1 |\n" +
		"| -U |                              a |                    1 |\n" +
		"| +U |                              a |                    2 |\n" +
		"+----+--------------------------------+----------------------+\n" +
		"Received a total of 3 rows\n"
	if code != 0 || out != want {
		t.Fatalf("code %d\n%s", code, out)
	}
}

func TestErrorStopsScriptWithPosition(t *testing.T) {
	script := "SELECT 1;\nSELECT nope\n  FROM (VALUES (1)) AS v(x);\nSELECT 2;"
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Statements: script}, "")
	if code == 0 {
		t.Fatal("expected a non-zero exit status")
	}
	if !strings.Contains(errs, "line 2, column 8") || !strings.Contains(errs, "Column 'nope' not found") {
		t.Fatalf("stderr lacks the position: %s", errs)
	}
	if strings.Contains(out, "EXPR$0 |\n+--------+\n|      2") {
		t.Fatalf("statement after the failing one ran:\n%s", out)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	code, _, errs := runClient(t, Options{Mode: ModeBatch, Statements: "SELECT * FORM t;"}, "")
	if code == 0 || !strings.Contains(errs, "line 1, column 10") {
		t.Fatalf("code %d, stderr %s", code, errs)
	}
}

func TestInitIsSilentAndStdin(t *testing.T) {
	init := filepath.Join(t.TempDir(), "init.sql")
	if err := os.WriteFile(init, []byte(writeData(t)+"\nSET 'table.local-time-zone' = 'UTC';"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runClient(t, Options{Mode: ModeBatch, InitFile: init}, "SELECT COUNT(*) AS n FROM t;")
	want := "+---+\n| n |\n+---+\n| 3 |\n+---+\n1 row in set\n"
	if code != 0 || out != want {
		t.Fatalf("code %d\n%s\n%s", code, out, errs)
	}
}

func TestStatementSetAndInsert(t *testing.T) {
	dir := t.TempDir()
	script := writeData(t) + `
CREATE TABLE out1 (id INT) WITH ('connector' = 'filesystem', 'path' = '` + filepath.Join(dir, "o1") + `', 'format' = 'csv');
CREATE TABLE out2 (id INT) WITH ('connector' = 'filesystem', 'path' = '` + filepath.Join(dir, "o2") + `', 'format' = 'csv');
BEGIN STATEMENT SET;
INSERT INTO out1 SELECT id FROM t WHERE id = 1;
INSERT INTO out2 SELECT id FROM t WHERE id > 1;
END;
SELECT COUNT(*) AS n FROM out2;`
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Statements: script}, "")
	if code != 0 {
		t.Fatalf("code %d\n%s\n%s", code, out, errs)
	}
	// Flink 2.3's wording: BEGIN and each INSERT of the set succeed plainly
	if strings.Count(out, "[INFO] Execute statement succeeded.") < 2+3 || !strings.Contains(out, "| 2 |") {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

func TestBadOptions(t *testing.T) {
	if code, _, _ := runClient(t, Options{Mode: "fast"}, ""); code != 2 {
		t.Fatalf("bad mode: code %d", code)
	}
}

// Piped standard input runs statements as they complete, and error
// positions count lines across the whole input.
func TestStdinStreamPositions(t *testing.T) {
	stdin := "SELECT 1 AS a;\n\nSELECT 2 AS b; SELECT\n  nope FROM (VALUES (1)) AS v(x);\nSELECT 3;"
	code, out, errs := runClient(t, Options{Mode: ModeBatch}, stdin)
	if code == 0 {
		t.Fatal("expected failure")
	}
	if !strings.Contains(out, "| a |") || !strings.Contains(out, "| b |") {
		t.Fatalf("earlier statements did not run:\n%s", out)
	}
	if !strings.Contains(errs, "line 4, column 3") {
		t.Fatalf("position not relative to the whole input: %s", errs)
	}
}

// A terminal that reports 0 columns (script -qc) gets the 80 columns of
// a default terminal, so the prompt and typed characters stay on a line.
func TestUsableSizeFallsBackTo80Columns(t *testing.T) {
	for _, c := range []struct{ w, h, wantW, wantH int }{
		{0, 0, 80, 24},
		{0, 50, 80, 50},
		{-1, 10, 80, 10},
		{120, 40, 120, 40},
	} {
		if w, h := usableSize(c.w, c.h); w != c.wantW || h != c.wantH {
			t.Errorf("usableSize(%d, %d) = %d, %d, want %d, %d", c.w, c.h, w, h, c.wantW, c.wantH)
		}
	}
}

// A literal with bytes that are not UTF-8 (from a script file read as is)
// is written with U+FFFD for each such byte in every format; CSV used to
// copy the raw bytes while JSON wrote \ufffd.
func TestInvalidUTF8IsReplacementCharacterInCSVAndJSON(t *testing.T) {
	stmt := "SELECT 'a\xffb\xfe\xfd' AS s, 'ok\xc3' AS `n\xff`, '\uFFFD kept' AS r;"
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Format: FormatCSV, Statements: stmt}, "")
	want := "s,n\uFFFD,r\na\uFFFDb\uFFFD\uFFFD,ok\uFFFD,\uFFFD kept\n"
	if code != 0 || out != want {
		t.Fatalf("csv: code %d\nstdout: %q\nwant:   %q\nstderr:\n%s", code, out, want, errs)
	}
	code, out, errs = runClient(t, Options{Mode: ModeBatch, Format: FormatJSON, Statements: stmt}, "")
	wantJSON := `{"s":"a\ufffdb\ufffd\ufffd","n\ufffd":"ok\ufffd","r":"` + "\uFFFD" + ` kept"}` + "\n"
	if code != 0 || out != wantJSON {
		t.Fatalf("json: code %d\nstdout: %q\nwant:   %q\nstderr:\n%s", code, out, wantJSON, errs)
	}
}

// RESET of one key leaves the client's table.dml-sync as the user set it;
// RESET of all keys, or of table.dml-sync, restores the client's default.
func TestResetKeepsDMLSync(t *testing.T) {
	script := "SET 'table.dml-sync' = 'false';\nSET 'pipeline.name' = 'x';\nRESET 'pipeline.name';\nSET;\n" +
		"RESET 'table.dml-sync';\nSET;\n"
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Format: FormatCSV, Statements: script}, "")
	if code != 0 {
		t.Fatalf("code %d\n%s\n%s", code, out, errs)
	}
	first := strings.Index(out, "table.dml-sync,false")
	second := strings.Index(out, "table.dml-sync,true")
	if first < 0 || second < first {
		t.Fatalf("SET after RESET 'pipeline.name' and after RESET 'table.dml-sync':\n%s", out)
	}
}
