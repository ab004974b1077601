package sqlclient

import (
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/gateway"
)

var jobIDRe = regexp.MustCompile(`[0-9a-f]{32}`)

// TestEndpointOutputEqualsEmbedded runs the same scripts embedded and
// against a gateway (--endpoint), in both modes and every output format,
// and compares stdout, stderr and the exit status.
func TestEndpointOutputEqualsEmbedded(t *testing.T) {
	srv := gateway.NewServer(gateway.Config{PrintOutput: io.Discard})
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	data := writeData(t)
	scripts := []string{
		data + `SELECT id, name, price, ts FROM t;
SELECT name IS NULL AS n, COUNT(*) AS c, SUM(price) AS s FROM t GROUP BY name IS NULL;
SET 'sql-client.display.max-column-width' = '6';
SELECT name, ts FROM t;
SHOW TABLES;
DESCRIBE t;`,
		data + `CREATE TABLE snk (id INT) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT id FROM t;
BEGIN STATEMENT SET;
INSERT INTO snk SELECT id FROM t;
INSERT INTO snk SELECT id + 1 FROM t;
END;
SELECT COUNT(*) FROM t;`,
		data + "SELECT id,\n  nope\nFROM t;",
		"SELECT 1;\nSELEC 2;",
	}
	for _, mode := range []string{ModeBatch, ModeStreaming} {
		for _, format := range []string{FormatTableau, FormatCSV, FormatJSON} {
			for i, script := range scripts {
				opts := Options{Mode: mode, Format: format, Statements: script}
				code, out, errs := runClient(t, opts, "")
				opts.Endpoint = hs.URL
				rcode, rout, rerrs := runClient(t, opts, "")
				out, rout = jobIDRe.ReplaceAllString(out, "<job>"), jobIDRe.ReplaceAllString(rout, "<job>")
				if code != rcode || out != rout || errs != rerrs {
					t.Errorf("%s %s script %d:\nembedded %d\n%s%s\nremote %d\n%s%s", mode, format, i, code, out, errs, rcode, rout, rerrs)
				}
			}
		}
	}
	if n := srv.SessionCount(); n != 0 {
		t.Errorf("%d sessions left open", n)
	}
}

func TestEndpointUnreachable(t *testing.T) {
	code, out, errs := runClient(t, Options{Endpoint: "http://127.0.0.1:1", Statements: "SELECT 1"}, "")
	if code != 1 || out != "" || errs == "" {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errs)
	}
}

// An INSERT of a statement set that fails when END submits the set is
// reported at its own line and column of the script, embedded and
// through a gateway (--endpoint).
func TestStatementSetErrorPositions(t *testing.T) {
	srv := gateway.NewServer(gateway.Config{PrintOutput: io.Discard})
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	const ddl = "CREATE TABLE p (a INT) WITH ('connector'='blackhole');\nBEGIN STATEMENT SET;\n"
	for _, c := range []struct{ script, want string }{
		{ddl + "INSERT INTO p VALUES (1);\nINSERT INTO nosuch VALUES (1);\nEND;",
			"At line 4, column 13: Object 'nosuch' not found"},
		{ddl + "INSERT INTO p VALUES (1);\n\n\n  INSERT INTO p SELECT nosuch FROM (VALUES (1)) AS v(x);\nEND;",
			"From line 6, column 24 to line 6, column 29: Column 'nosuch' not found"},
		{ddl + "INSERT INTO p VALUES (1); INSERT INTO p SELECT 'x' || nosuch FROM (VALUES (1)) AS v(x);\nEND;",
			"line 3, column 55"},
		{"BEGIN STATEMENT SET;\n   INSERT INTO nosuch VALUES (1);\nEND;",
			"At line 2, column 16: Object 'nosuch' not found"},
		{"CREATE TABLE p (a INT) WITH ('connector'='blackhole'); BEGIN STATEMENT SET;                  INSERT INTO nosuch VALUES (1);\nEND;",
			"At line 1, column 106: Object 'nosuch' not found"},
	} {
		for _, endpoint := range []string{"", hs.URL} {
			code, _, errs := runClient(t, Options{Mode: ModeBatch, Endpoint: endpoint, Statements: c.script}, "")
			if code == 0 || !strings.Contains(errs, c.want) || strings.Contains(errs, "(in the statement at") {
				t.Errorf("endpoint %q, script:\n%s\n--- want an error with %q, got (code %d):\n%s", endpoint, c.script, c.want, code, errs)
			}
		}
	}
}

// A bad maximum column width in the gateway session's configuration (the
// gateway's -D here; a Riffle or Flink gateway stores it unchecked) fails
// a query with a message saying where the value is, not pointing at the
// statement ("(in the statement at line 1, column 1 of -e)").
func TestEndpointBadMaxColumnWidthNamesTheSession(t *testing.T) {
	srv := gateway.NewServer(gateway.Config{PrintOutput: io.Discard, Defaults: map[string]string{"sql-client.display.max-column-width": "abc"}})
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	code, _, errs := runClient(t, Options{Mode: ModeBatch, Endpoint: hs.URL, Statements: "SELECT 1;"}, "")
	if code == 0 || !strings.Contains(errs, "Could not parse value 'abc' for key 'sql-client.display.max-column-width'") ||
		!strings.Contains(errs, "in the session's configuration on the SQL Gateway") || strings.Contains(errs, "(in the statement at") {
		t.Errorf("code %d, stderr:\n%s", code, errs)
	}
}
