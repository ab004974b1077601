// Package sqltest runs golden SQL scripts, in the format of Flink's SQL
// Client tests (.q files), against a Riffle TableEnvironment.
//
// A script is a sequence of statements, each followed by the output the
// SQL Client would print and a terminator line:
//
//	# a comment (lines starting with # outside statements are ignored)
//	SET 'execution.runtime-mode' = 'batch';
//	[INFO] Execute statement succeeded.
//	!info
//
//	SELECT 1 + 1;
//	+--------+
//	| EXPR$0 |
//	+--------+
//	|      2 |
//	+--------+
//	1 row in set
//	!ok
//
//	SELECT pric FROM t;
//	[ERROR] Could not execute SQL statement. Reason:
//	Column 'pric' not found in any table; did you mean 'price'?
//	!error
//
// !ok and !info compare the output exactly. !error checks that every
// expected line after the first appears in the error text, which may
// follow a result's header when the job fails at run time (so a case can
// pin the essential message without the full text). !unordered compares
// the table rows of a result ignoring their order (for results whose order
// Flink does not define). In statements, ${ASSETS} and ${TESTDATA} are
// replaced by absolute paths of the repository's assets/ directory and of
// the script's own directory.
package sqltest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// Case is one statement of a script with its expected output.
type Case struct {
	Line      int // line of the statement in the script
	Statement string
	Expected  string
	Kind      string // "ok", "info", "error", "unordered"
	// OutFrom and OutTo are the 0-based line range [OutFrom, OutTo) of the
	// expected output in the script (used by Record).
	OutFrom, OutTo int
}

// Parse reads a script into cases.
func Parse(text string) ([]Case, error) {
	lines := strings.Split(text, "\n")
	var cases []Case
	var stmt, out []string
	stmtLine := 0
	outFrom := 0
	inStmt := true
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		if inStmt {
			if len(stmt) == 0 && (trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "--")) {
				continue
			}
			if len(stmt) == 0 {
				stmtLine = i + 1
			}
			stmt = append(stmt, l)
			if strings.HasSuffix(trim, ";") && statementComplete(strings.Join(stmt, "\n")) {
				inStmt = false
				outFrom = i + 1
			}
			continue
		}
		if strings.HasPrefix(trim, "!") && len(trim) > 1 && !strings.Contains(trim, " ") {
			kind := trim[1:]
			switch kind {
			case "ok", "info", "error", "unordered":
			default:
				return nil, fmt.Errorf("line %d: unknown terminator %s", i+1, trim)
			}
			cases = append(cases, Case{Line: stmtLine, Statement: strings.TrimSuffix(strings.TrimSpace(strings.Join(stmt, "\n")), ";"), Expected: strings.Join(out, "\n"), Kind: kind,
				OutFrom: outFrom, OutTo: i})
			stmt, out, inStmt = nil, nil, true
			continue
		}
		out = append(out, l)
	}
	if len(stmt) > 0 || len(out) > 0 {
		return nil, fmt.Errorf("line %d: statement without a terminator (!ok, !info, !error or !unordered)", stmtLine)
	}
	return cases, nil
}

// statementComplete reports whether text holds a whole statement (its
// final ';' is not inside a string or comment, and a statement set block
// is closed).
func statementComplete(text string) bool {
	spans := sql.SplitStatements(text)
	if len(spans) == 0 {
		return false
	}
	last := spans[len(spans)-1]
	rest := strings.TrimSpace(text[last.End:])
	if !strings.HasPrefix(rest, ";") {
		return false
	}
	up := strings.ToUpper(last.Text)
	if strings.Contains(up, "STATEMENT SET") && strings.Contains(up, "BEGIN") && !strings.HasSuffix(strings.TrimSpace(up), "END") {
		return false
	}
	return true
}

// Output executes one statement as the SQL Client would and returns what it
// prints.
func Output(env *table.TableEnvironment, stmt string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := env.ExecuteSQLContext(ctx, stmt)
	if err != nil {
		return "[ERROR] Could not execute SQL statement. Reason:\n" + err.Error()
	}
	if res.GetResultKind() == table.Success || (!res.IsQuery() && res.GetJobClient() != nil) {
		if j := res.GetJobClient(); j != nil {
			if err := j.Wait(ctx); err != nil {
				return "[ERROR] Could not execute SQL statement. Reason:\n" + err.Error()
			}
			return "[INFO] Complete execution of the SQL update statement."
		}
		return res.Message()
	}
	var b bytes.Buffer
	if names := res.GetTableSchema().GetFieldNames(); len(names) == 1 && names[0] == "result" {
		it, err := res.Collect()
		if err != nil {
			return "[ERROR] " + err.Error()
		}
		for it.Next() {
			fmt.Fprintln(&b, it.Row().Values[0])
		}
		it.Close()
		if err := it.Err(); err != nil {
			return "[ERROR] Could not execute SQL statement. Reason:\n" + err.Error()
		}
		return strings.TrimRight(b.String(), "\n")
	}
	if err := res.PrintTo(&b); err != nil {
		return b.String() + "[ERROR] Could not execute SQL statement. Reason:\n" + err.Error()
	}
	return strings.TrimRight(b.String(), "\n")
}

// RepoRoot finds the repository root (the directory holding go.mod).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}

// RunFile runs every case of a script on a fresh environment made by newEnv
// and reports mismatches as test errors.
func RunFile(t *testing.T, path string, newEnv func() *table.TableEnvironment) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Parse(string(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	abs, _ := filepath.Abs(filepath.Dir(path))
	repl := strings.NewReplacer("${ASSETS}", filepath.Join(RepoRoot(), "assets"), "${TESTDATA}", abs)
	env := newEnv()
	for _, c := range cases {
		stmt := repl.Replace(c.Statement)
		got := Output(env, stmt)
		if msg := Compare(c, got); msg != "" {
			t.Errorf("%s:%d: %s\n--- statement:\n%s\n--- got:\n%s\n--- want:\n%s", path, c.Line, msg, c.Statement, got, c.Expected)
		}
	}
}

// Compare checks an output against a case; it returns "" when they match.
func Compare(c Case, got string) string {
	want := strings.TrimRight(c.Expected, "\n")
	switch c.Kind {
	case "error":
		// a job failing at run time prints its result's header first, as
		// Flink's SQL Client does; the error must follow at once (no rows)
		body := got
		if strings.HasPrefix(body, "+") {
			if l := strings.SplitN(body, "\n", 4); len(l) == 4 {
				body = l[3] // border, column names, border
			}
		}
		if !strings.HasPrefix(body, "[ERROR]") {
			return "expected an error"
		}
		lines := strings.Split(want, "\n")
		for _, l := range lines[1:] {
			if l = strings.TrimSpace(l); l != "" && !strings.Contains(got, l) {
				return fmt.Sprintf("error text lacks %q", l)
			}
		}
		return ""
	case "unordered":
		if sortRows(got) != sortRows(want) {
			return "rows differ (ignoring order)"
		}
		return ""
	}
	if got != want {
		return "output differs"
	}
	return ""
}

// sortRows sorts the "| ... |" data lines of a tableau table.
func sortRows(s string) string {
	lines := strings.Split(s, "\n")
	var head, rows, tail []string
	seps := 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "+-"):
			seps++
			tail = append(tail, l)
		case strings.HasPrefix(l, "|") && seps >= 2:
			rows = append(rows, l)
		default:
			head = append(head, l)
		}
	}
	sort.Strings(rows)
	return strings.Join(head, "\n") + "\n" + strings.Join(rows, "\n") + "\n" + strings.Join(tail, "\n")
}

// Record runs a script like RunFile but rewrites its expected outputs with
// what the statements print now (the terminators and everything else are
// kept). It is the -update mode of the golden tests: review the diff.
func Record(t *testing.T, path string, newEnv func() *table.TableEnvironment) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Parse(string(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	abs, _ := filepath.Abs(filepath.Dir(path))
	repl := strings.NewReplacer("${ASSETS}", filepath.Join(RepoRoot(), "assets"), "${TESTDATA}", abs)
	env := newEnv()
	lines := strings.Split(string(data), "\n")
	var out []string
	prev := 0
	for _, c := range cases {
		got := Output(env, repl.Replace(c.Statement))
		if c.Kind == "error" && !strings.HasPrefix(got, "[ERROR]") {
			t.Errorf("%s:%d: expected an error, got:\n%s", path, c.Line, got)
		}
		out = append(out, lines[prev:c.OutFrom]...)
		out = append(out, strings.Split(got, "\n")...)
		prev = c.OutTo
	}
	out = append(out, lines[prev:]...)
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
