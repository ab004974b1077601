//go:build interop

package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/cli"
)

// fcBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type fcBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *fcBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *fcBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fcRiffleSQL runs `riffle sql ARGS` in-process (cli.Main) and returns its
// exit status, standard output and standard error.
func fcRiffleSQL(ctx context.Context, args ...string) (int, string, string) {
	var out, errb fcBuffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code := cli.Main(ctx, env, append([]string{"sql"}, args...))
	return code, out.String(), errb.String()
}

// TestFlinkClientCLI runs scripts with `riffle sql --endpoint` on real
// Flink as a user would: tables over csv files, queries, an INSERT read
// back, SET/RESET, SHOW, DESCRIBE, EXPLAIN, a statement set, a streaming
// changelog, and Flink's error on stderr with its position in the script.
func TestFlinkClientCLI(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	in := fcWriteFile(t, dir, "in", "part-0.csv", "1,apple,2.50\n2,pear,1.25\n3,apple,4.00\n")
	out := filepath.Join(dir, "out")
	ddl := "CREATE TABLE orders (id INT, name STRING, amount DECIMAL(10, 2)) WITH ('connector' = 'filesystem', 'path' = 'file://" + in + "', 'format' = 'csv');\n" +
		"CREATE TABLE totals (name STRING, total DECIMAL(10, 2)) WITH ('connector' = 'filesystem', 'path' = 'file://" + out + "', 'format' = 'csv');\n"

	script := ddl +
		"SET 'sql-client.display.max-column-width' = '40';\n" +
		"INSERT INTO totals SELECT name, SUM(amount) FROM orders GROUP BY name;\n" +
		"SELECT * FROM totals ORDER BY name;\n" +
		"RESET 'sql-client.display.max-column-width';\n" +
		"SHOW TABLES;\n" +
		"DESCRIBE orders;\n" +
		"EXPLAIN SELECT name FROM orders WHERE id > 1;\n" +
		"BEGIN STATEMENT SET;\n" +
		"INSERT INTO totals SELECT 'x', CAST(1 AS DECIMAL(10, 2));\n" +
		"END;\n"
	code, stdout, stderr := fcRiffleSQL(ctx, "--endpoint", f.Gateway, "--cluster-rest", f.REST, "--mode", "batch", "-e", script)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"[INFO] Execute statement succeeded.",
		"[INFO] Complete execution of the SQL update statement.",
		"| name | total |",
		"| apple | 6.50 |",
		"| pear | 1.25 |",
		"2 rows in set",
		"| orders |",
		"| totals |",
		"| id | INT | TRUE |",
		"== Abstract Syntax Tree ==",
	} {
		if !strings.Contains(fcSpaces(stdout), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}

	// streaming: the changelog with its op column
	code, stdout, stderr = fcRiffleSQL(ctx, "--endpoint", f.Gateway, "--mode", "streaming", "-e",
		ddl+"SELECT name, COUNT(*) AS n FROM orders GROUP BY name;")
	if code != 0 {
		t.Fatalf("streaming: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"| op | name | n |", "| +I | apple | 1 |", "| -U | apple | 1 |", "| +U | apple | 2 |", "| +I | pear | 1 |", "Received a total of 4 rows"} {
		if !strings.Contains(fcSpaces(stdout), want) {
			t.Errorf("streaming stdout lacks %q:\n%s", want, stdout)
		}
	}

	// Flink syntax Riffle's parser does not know goes to Flink as it is
	code, stdout, stderr = fcRiffleSQL(ctx, "--endpoint", f.Gateway, "-e",
		"CREATE MODEL m INPUT (a STRING) OUTPUT (b STRING) WITH ('provider' = 'openai', 'task' = 'text_generation');\n"+
			"SHOW MODELS;\nDESCRIBE MODEL m;")
	if code != 0 || !strings.Contains(fcSpaces(stdout), "| m |") || !strings.Contains(fcSpaces(stdout), "| b | STRING | TRUE | FALSE |") {
		t.Errorf("CREATE MODEL: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// JSON Lines and CSV output
	code, stdout, _ = fcRiffleSQL(ctx, "--endpoint", f.Gateway, "--mode", "batch", "--format", "csv", "-e",
		ddl+"SELECT id, name FROM orders ORDER BY id;")
	if code != 0 || !strings.Contains(stdout, "id,name\n1,apple\n2,pear\n3,apple\n") {
		t.Errorf("csv: exit %d\n%s", code, stdout)
	}

	// an error: Flink's message, its position in the script, exit status 1,
	// and the statements after it are not run
	code, stdout, stderr = fcRiffleSQL(ctx, "--endpoint", f.Gateway, "--mode", "batch", "-e",
		ddl+"SELECT 1;\nSELECT nope\n  FROM orders;\nSELECT 'never';")
	if code != 1 {
		t.Errorf("error: exit %d, want 1", code)
	}
	if !strings.Contains(stderr, "[ERROR] Could not execute SQL statement. Reason:") ||
		!strings.Contains(stderr, "From line 4, column 8 to line 4, column 11: Column 'nope' not found in any table") {
		t.Errorf("error: stderr %q", stderr)
	}
	if strings.Contains(stdout, "never") || strings.Contains(stderr, "\tat ") {
		t.Errorf("error: stdout %q, stderr %q", stdout, stderr)
	}
}

// TestFlinkClientCLICancel: cancelling `riffle sql` (its context, as
// Ctrl+C or SIGTERM do) while an unbounded streaming query prints cancels
// the query's job on the cluster.
func TestFlinkClientCLICancel(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	name := fmt.Sprintf("endless_%d", time.Now().UnixNano())
	runCtx, stop := context.WithCancel(ctx)
	var out, errb fcBuffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(runCtx, env, []string{"sql", "--endpoint", f.Gateway, "--cluster-rest", f.REST, "--format", "csv", "-e",
			"CREATE TABLE " + name + " (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20');\n" +
				"SELECT id FROM " + name + ";"})
	}()
	fcWaitUntil(t, time.Minute, func() bool { return strings.Count(out.String(), "\n") > 5 },
		func() string { return "no rows printed: " + out.String() + errb.String() })
	job := fcClusterJobByName(t, f, name)
	if job.State != "RUNNING" {
		t.Fatalf("job %s is %s while it prints", job.ID, job.State)
	}
	stop()
	select {
	case code := <-done:
		if code == 0 {
			t.Errorf("exit 0 after cancelling; stderr %q", errb.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("riffle sql did not return after its context was cancelled")
	}
	fcWaitUntil(t, time.Minute, func() bool { return fcClusterJobState(t, f, job.ID) == "CANCELED" },
		func() string { return "job " + job.ID + " is " + fcClusterJobState(t, f, job.ID) })
}

// TestFlinkClientCLIBackgroundInsert: an unbounded INSERT submitted with
// table.dml-sync = false leaves `riffle sql` at once, its job running on
// the cluster, as with Flink's SQL Client (the embedded engine waits for
// its background jobs, which would never end here).
func TestFlinkClientCLIBackgroundInsert(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	name := fmt.Sprintf("bg_%d", time.Now().UnixNano())
	code, stdout, stderr := fcRiffleSQL(ctx, "--endpoint", f.Gateway, "-e",
		"SET 'table.dml-sync' = 'false';\n"+
			"CREATE TABLE "+name+" (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\n"+
			"CREATE TABLE "+name+"_sink (id BIGINT) WITH ('connector' = 'blackhole');\n"+
			"INSERT INTO "+name+"_sink SELECT id FROM "+name+";")
	if code != 0 || !strings.Contains(stdout, "[INFO] SQL update statement has been successfully submitted to the cluster:") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	job := fcClusterJobByName(t, f, name+"_sink")
	defer func() {
		req, _ := http.NewRequest(http.MethodPatch, f.REST+"/jobs/"+job.ID+"?mode=cancel", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	if !strings.Contains(stdout, "Job ID: "+job.ID) {
		t.Errorf("stdout names no job %s:\n%s", job.ID, stdout)
	}
	if job.State == "CANCELED" || job.State == "FAILED" || job.State == "FINISHED" {
		t.Errorf("the background job is %s after riffle sql returned", job.State)
	}
}

// fcSpaces collapses runs of spaces (tableau column padding).
func fcSpaces(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

// fcClusterJobByName finds the cluster's job whose name mentions word.
func fcClusterJobByName(t testing.TB, f Flink, word string) fcClusterJob {
	t.Helper()
	var found fcClusterJob
	fcWaitUntil(t, time.Minute, func() bool {
		resp, err := http.Get(f.REST + "/jobs/overview")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Jobs []fcClusterJob `json:"jobs"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		for _, j := range body.Jobs {
			if strings.Contains(j.Name, word) {
				found = j
				return true
			}
		}
		return false
	}, func() string { return "no job mentions " + word })
	return found
}

// TestFlinkClientGoRun runs the command as a user types it, `go run .
// sql --endpoint …`, in a process of its own: rows on stdout, Flink's
// error on stderr, exit status 1.
func TestFlinkClientGoRun(t *testing.T) {
	f := fcRequire(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "run", "-tags", "migrated_fynedo", ".", "sql", "--endpoint", f.Gateway, "--mode", "batch",
		"-e", "SELECT x, x * x AS sq FROM (VALUES (2), (3)) AS t(x);\nSELECT * FROM no_such_table;")
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("go run: %v (want exit status 1)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"| x | sq |", "| 2 |  4 |", "| 3 |  9 |", "2 rows in set"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "From line 2, column 15 to line 2, column 27: Object 'no_such_table' not found") {
		t.Errorf("stderr: %s", stderr.String())
	}
}
