package sqltest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The parser reads statements, expected outputs, terminators and the
// riffle-only directives, and refuses scripts it cannot read.
func TestParse(t *testing.T) {
	script := `# riffle-only-file: a file-wide reason
# a comment
SELECT 1;
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok

-- another comment
# riffle-only: a case's reason
SELECT 'a;b'
  AS s;
[ERROR] Could not execute SQL statement. Reason:
boom
!error

EXECUTE STATEMENT SET BEGIN
INSERT INTO t VALUES (1);
END;
[INFO] Complete execution of the SQL update statement.
!info
`
	cases, err := Parse(script)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 3 {
		t.Fatalf("%d cases, want 3: %+v", len(cases), cases)
	}
	want := []struct {
		line       int
		stmt, kind string
		reason     string
		expected   string
	}{
		{3, "SELECT 1", "ok", "a file-wide reason", "+--------+\n| EXPR$0 |\n+--------+\n|      1 |\n+--------+\n1 row in set"},
		{14, "SELECT 'a;b'\n  AS s", "error", "a file-wide reason", "[ERROR] Could not execute SQL statement. Reason:\nboom"},
		{20, "EXECUTE STATEMENT SET BEGIN\nINSERT INTO t VALUES (1);\nEND", "info", "a file-wide reason", "[INFO] Complete execution of the SQL update statement."},
	}
	for i, w := range want {
		c := cases[i]
		if c.Line != w.line || c.Statement != w.stmt || c.Kind != w.kind || c.RiffleOnly != w.reason || c.Expected != w.expected {
			t.Errorf("case %d: got line %d %q kind %q reason %q expected %q\nwant line %d %q kind %q reason %q expected %q",
				i, c.Line, c.Statement, c.Kind, c.RiffleOnly, c.Expected, w.line, w.stmt, w.kind, w.reason, w.expected)
		}
	}

	// without the file directive, a case's directive marks that case only
	cases, err = Parse("# riffle-only: why\nSELECT 1;\nx\n!ok\nSELECT 2;\ny\n!unordered\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].RiffleOnly != "why" || cases[1].RiffleOnly != "" || cases[1].Kind != "unordered" {
		t.Errorf("cases %+v", cases)
	}

	for _, bad := range []struct{ script, msg string }{
		{"SELECT 1;\nx\n!okay\n", "line 3: unknown terminator !okay"},
		{"SELECT 1;\nx\n", "line 1: statement without a terminator"},
		{"# riffle-only:\nSELECT 1;\nx\n!ok\n", "line 1: # riffle-only: needs a reason"},
		{"SELECT 1;\nx\n!ok\n# riffle-only-file: late\nSELECT 2;\ny\n!ok\n", "line 4: # riffle-only-file: must come before the first statement"},
	} {
		_, err := Parse(bad.script)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Parse(%q): error %v, want one containing %q", bad.script, err, bad.msg)
		}
	}
}

// Compare applies each terminator's rule.
func TestCompare(t *testing.T) {
	table := "+---+\n| a |\n+---+\n| 1 |\n| 2 |\n+---+\n2 rows in set"
	swapped := "+---+\n| a |\n+---+\n| 2 |\n| 1 |\n+---+\n2 rows in set"
	errOut := "[ERROR] Could not execute SQL statement. Reason:\nColumn 'x' not found\nin any table"
	for _, c := range []struct {
		kind, expected, got string
		msg                 string
	}{
		{"ok", table, table, ""},
		{"ok", table, swapped, "output differs"},
		{"ok", table + "\n", table, ""}, // trailing newlines of the expectation do not count
		{"unordered", table, swapped, ""},
		{"unordered", table, strings.Replace(swapped, "| 2 |", "| 3 |", 1), "rows differ (ignoring order)"},
		{"info", "[INFO] Execute statement succeeded.", "[INFO] Execute statement succeeded.", ""},
		{"error", "[ERROR] Could not execute SQL statement. Reason:\nnot found", errOut, ""},
		{"error", "[ERROR] Could not execute SQL statement. Reason:\nColumn 'x'\nin any table", errOut, ""},
		{"error", "[ERROR] Could not execute SQL statement. Reason:\nColumn 'y'", errOut, `error text lacks "Column 'y'"`},
		// a job failing at run time prints its result's header first
		{"error", "[ERROR] Could not execute SQL statement. Reason:\nnot found", "+---+\n| a |\n+---+\n" + errOut, ""},
		// but no rows before it
		{"error", "[ERROR] Could not execute SQL statement. Reason:\nnot found", "+---+\n| a |\n+---+\n| 1 |\n" + errOut, "expected an error"},
		{"error", "[ERROR] Could not execute SQL statement. Reason:\nnot found", table, "expected an error"},
	} {
		if got := Compare(Case{Kind: c.kind, Expected: c.expected}, c.got); got != c.msg {
			t.Errorf("Compare(!%s, want %q, got %q) = %q, want %q", c.kind, c.expected, c.got, got, c.msg)
		}
	}
}

// LoopbackGateway serves on 127.0.0.1, with a bearer token, while its test
// runs and stops when it ends; GatewayEngine opens a session on it in
// streaming mode and UTC.
func TestLoopbackGateway(t *testing.T) {
	var gw Gateway
	t.Run("serve", func(t *testing.T) {
		gw = LoopbackGateway(t)
		if !strings.HasPrefix(gw.Endpoint, "http://127.0.0.1:") || len(gw.Token) < 32 {
			t.Fatalf("gateway %+v", gw)
		}
		// a request without the token is refused
		resp, err := http.Get(gw.Endpoint + "/v1/info")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("without the token: %s, want 401", resp.Status)
		}
		eng := GatewayEngine(gw, "harness")(t)
		defer eng.Close()
		// the op column says streaming mode; epoch 0 at midnight, UTC (TIMESTAMP_LTZ(3))
		got := Exec(context.Background(), eng, "SELECT TO_TIMESTAMP_LTZ(0, 0) AS t")
		want := "+----+-------------------------+\n" +
			"| op |                       t |\n" +
			"+----+-------------------------+\n" +
			"| +I | 1970-01-01 00:00:00.000 |\n" +
			"+----+-------------------------+\n" +
			"Received a total of 1 row"
		if got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	})
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(gw.Endpoint + "/v1/info")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the gateway at %s still answers after its test ended (status %s)", gw.Endpoint, resp.Status)
	}
}
