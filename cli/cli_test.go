package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/sqlclient"
)

type call struct {
	workspace string
	sql       *sqlclient.Options
}

func run(t *testing.T, sqlCode int, args ...string) (code int, got call, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{
		Stdin:  strings.NewReader(""),
		Stdout: &out,
		Stderr: &errb,
		RunWorkbench: func(_ context.Context, ws string) error {
			got.workspace = ws
			return nil
		},
		RunSQL: func(_ context.Context, o sqlclient.Options, _ io.Reader, _, _ io.Writer) int {
			got.sql = &o
			return sqlCode
		},
	}
	code = Main(context.Background(), env, args)
	return code, got, out.String(), errb.String()
}

func TestNoArgumentsOpensWorkbench(t *testing.T) {
	code, got, _, _ := run(t, 0, "--workspace", "/tmp/w.riffle")
	if code != 0 || got.workspace != "/tmp/w.riffle" {
		t.Fatalf("code %d, workspace %q", code, got.workspace)
	}
	if got.sql != nil {
		t.Error("sql client ran")
	}
}

func TestSQLFlags(t *testing.T) {
	code, got, _, _ := run(t, 0, "sql", "--mode", "batch", "--format", "csv", "--init", "i.sql",
		"-e", "SELECT 1; SELECT 2", "--endpoint", "http://localhost:8083")
	if code != 0 || got.sql == nil {
		t.Fatalf("code %d, sql %+v", code, got.sql)
	}
	want := sqlclient.Options{Mode: "batch", Format: "csv", InitFile: "i.sql", Statements: "SELECT 1; SELECT 2", Endpoint: "http://localhost:8083"}
	if *got.sql != want {
		t.Errorf("options %+v, want %+v", *got.sql, want)
	}
	_, got, _, _ = run(t, 0, "sql", "-f", "script.sql")
	// no --mode: the client applies streaming (embedded) or the gateway's default
	if got.sql.File != "script.sql" || got.sql.Mode != "" || got.sql.Format != "tableau" {
		t.Errorf("defaults wrong: %+v", *got.sql)
	}
}

func TestSQLExitStatusIsPassedOn(t *testing.T) {
	code, _, _, stderr := run(t, 3, "sql", "-e", "bad")
	if code != 3 {
		t.Errorf("exit status %d, want 3", code)
	}
	if stderr != "" {
		t.Errorf("cli added noise to stderr: %q", stderr)
	}
}

func TestSQLRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"sql", "--mode", "micro-batch"},
		{"sql", "--format", "xml"},
		{"sql", "-f", "a.sql", "-e", "SELECT 1"},
		{"sql", "--no-such-flag"},
	} {
		code, got, _, stderr := run(t, 0, args...)
		if code == 0 || got.sql != nil || stderr == "" {
			t.Errorf("%v: code %d, ran %v, stderr %q", args, code, got.sql != nil, stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	code, _, stdout, _ := run(t, 0, "version")
	if code != 0 || !strings.HasPrefix(stdout, "riffle "+Version+" (") {
		t.Errorf("code %d, output %q", code, stdout)
	}
}

func TestBenchNexmarkRuns(t *testing.T) {
	code, _, stdout, stderr := run(t, 0, "bench", "nexmark", "--query", "q1", "--events", "1000", "--parallelism", "2")
	if code != 0 || !strings.Contains(stdout, "q1") || !strings.Contains(stdout, "1000") {
		t.Errorf("code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, _, stderr = run(t, 0, "bench", "nexmark", "--query", "q99", "--events", "10")
	if code == 0 || stderr == "" {
		t.Errorf("unknown query: code %d, stderr %q", code, stderr)
	}
}

func TestSQLClientRuns(t *testing.T) {
	var out, errb bytes.Buffer
	code := sqlclient.Run(context.Background(), sqlclient.Options{Mode: "batch", Statements: "SELECT 1 + 1 AS two"}, strings.NewReader(""), &out, &errb)
	want := "+-----+\n| two |\n+-----+\n|   2 |\n+-----+\n1 row in set\n"
	if code != 0 || out.String() != want {
		t.Errorf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// --workspace belongs to the workbench: `riffle sql --help` and `riffle
// gateway --help` do not list it, and `riffle sql` refuses it.
func TestWorkspaceIsAWorkbenchFlagOnly(t *testing.T) {
	_, _, out, _ := run(t, 0, "--help")
	if !strings.Contains(out, "--workspace") {
		t.Errorf("riffle --help does not list --workspace:\n%s", out)
	}
	for _, sub := range []string{"sql", "gateway"} {
		_, _, out, _ := run(t, 0, sub, "--help")
		if !strings.Contains(out, "Usage:") {
			t.Fatalf("riffle %s --help printed no usage:\n%s", sub, out)
		}
		if strings.Contains(out, "--workspace") {
			t.Errorf("riffle %s --help lists --workspace:\n%s", sub, out)
		}
	}
	if code, got, _, _ := run(t, 0, "sql", "--workspace", "w.riffle", "-e", "SELECT 1"); code == 0 || got.sql != nil {
		t.Errorf("riffle sql --workspace was accepted")
	}
}

func TestSQLClusterRESTNeedsEndpoint(t *testing.T) {
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), env, []string{"sql", "--cluster-rest", "http://127.0.0.1:8081", "-e", "SELECT 1"})
	if code == 0 || !strings.Contains(errb.String(), "--cluster-rest needs --endpoint") {
		t.Fatalf("code %d, stderr %q", code, errb.String())
	}
}
