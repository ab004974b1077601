// Package sqltest runs golden SQL scripts, in the format of Flink's SQL
// Client tests (.q files), on a table.Engine: the embedded engine
// (EmbeddedEngine), Riffle's SQL Gateway on loopback (LoopbackGateway with
// GatewayEngine), or Apache Flink's SQL Gateway (GatewayEngine; the
// interop package's TestGoldenScriptsOnFlink). Every script runs through
// that one interface, so one expectation holds for all of them.
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
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// Case is one statement of a script with its expected output.
type Case struct {
	Line      int // line of the statement in the script
	Statement string
	Expected  string
	Kind      string // "ok", "info", "error", "unordered"
	// RiffleOnly, when not "", is the reason the case runs only on Riffle
	// (a "# riffle-only: <reason>" line among the comments before the
	// statement, or a "# riffle-only-file: <reason>" line anywhere before
	// the first statement): an oracle run on Apache Flink skips it.
	RiffleOnly string
	// OutFrom and OutTo are the 0-based line range [OutFrom, OutTo) of the
	// expected output in the script (used by Record).
	OutFrom, OutTo int
}

// Directives in comment lines before a statement.
const (
	riffleOnlyDirective     = "# riffle-only:"
	riffleOnlyFileDirective = "# riffle-only-file:"
)

// Parse reads a script into cases.
func Parse(text string) ([]Case, error) {
	lines := strings.Split(text, "\n")
	var cases []Case
	var stmt, out []string
	stmtLine := 0
	outFrom := 0
	inStmt := true
	fileReason, caseReason := "", ""
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		if inStmt {
			if len(stmt) == 0 && (trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "--")) {
				switch {
				case strings.HasPrefix(trim, riffleOnlyFileDirective):
					if len(cases) > 0 {
						return nil, fmt.Errorf("line %d: %s must come before the first statement", i+1, riffleOnlyFileDirective)
					}
					if fileReason = strings.TrimSpace(trim[len(riffleOnlyFileDirective):]); fileReason == "" {
						return nil, fmt.Errorf("line %d: %s needs a reason", i+1, riffleOnlyFileDirective)
					}
				case strings.HasPrefix(trim, riffleOnlyDirective):
					if caseReason = strings.TrimSpace(trim[len(riffleOnlyDirective):]); caseReason == "" {
						return nil, fmt.Errorf("line %d: %s needs a reason", i+1, riffleOnlyDirective)
					}
				}
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
			reason := caseReason
			if fileReason != "" {
				reason = fileReason
			}
			cases = append(cases, Case{Line: stmtLine, Statement: strings.TrimSuffix(strings.TrimSpace(strings.Join(stmt, "\n")), ";"), Expected: strings.Join(out, "\n"), Kind: kind,
				RiffleOnly: reason, OutFrom: outFrom, OutTo: i})
			stmt, out, inStmt, caseReason = nil, nil, true, ""
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

// errorPrefix starts the SQL Client's output for a failed statement.
const errorPrefix = "[ERROR] Could not execute SQL statement. Reason:\n"

// StatementTimeout bounds one statement of a script (its planning, its
// job and the reading of its rows).
var StatementTimeout = 5 * time.Minute

// Output executes one statement on env as the SQL Client would and returns
// what it prints (see Exec).
func Output(env *table.TableEnvironment, stmt string) string {
	return Exec(context.Background(), table.NewEmbeddedEngine(env), stmt)
}

// Exec executes one statement on an engine (embedded, or remote behind a
// SQL Gateway: Riffle's or Apache Flink's) and returns what the SQL Client
// would print for it: the statement's message, the tableau rendering of
// its rows (table.PrintTableau, as the result itself renders it, so the
// layout does not depend on the engine), the raw lines of a single
// "result" column (EXPLAIN, SHOW CREATE), "[INFO] Complete execution of the
// SQL update statement." once an INSERT's job has finished, or "[ERROR]
// Could not execute SQL statement. Reason:" and the error text. A job
// failing while its rows are printed leaves the printed part (the header
// of a streaming result) before the error. Each statement is bounded by
// StatementTimeout.
func Exec(ctx context.Context, eng table.Engine, stmt string) string {
	ctx, cancel := context.WithTimeout(ctx, StatementTimeout)
	defer cancel()
	res, err := eng.ExecuteStatement(ctx, stmt, sql.Pos{})
	if err != nil {
		return errorPrefix + errorText(err)
	}
	if !res.IsQuery() && res.JobID() != "" {
		// an INSERT or a statement set: wait for its job, then release
		// its result (closing the result first would cancel a job that
		// has not finished)
		err := eng.WaitJob(ctx, res.JobID())
		if rows, cerr := res.Collect(); cerr == nil {
			rows.Close()
		}
		if err != nil {
			return errorPrefix + errorText(err)
		}
		return "[INFO] Complete execution of the SQL update statement."
	}
	if res.ResultKind() == table.Success {
		return res.Message()
	}
	var b bytes.Buffer
	if names := res.Schema().FieldNames(); len(names) == 1 && names[0] == "result" {
		it, err := res.Collect()
		if err != nil {
			return errorPrefix + errorText(err)
		}
		for it.Next() {
			fmt.Fprintln(&b, it.Row().Values[0])
		}
		it.Close()
		if err := it.Err(); err != nil {
			return errorPrefix + errorText(err)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	if err := res.PrintTo(&b); err != nil {
		return b.String() + errorPrefix + errorText(err)
	}
	return strings.TrimRight(b.String(), "\n")
}

// errorText is what the SQL Client prints for an error: its message (for
// a SQL Gateway's error, the root cause). A gateway's error also carries
// the server's exception chain; its messages (without stack frames) follow
// under "Exception chain:", so that an expected message line that Flink
// puts in an outer exception (a validation error's position) is found.
func errorText(err error) string {
	text := err.Error()
	var ge *gateway.Error
	if !errors.As(err, &ge) || len(ge.Errors) == 0 {
		return text
	}
	var chain []string
	for _, l := range strings.Split(ge.Errors[len(ge.Errors)-1], "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "at ") || strings.HasPrefix(t, "... ") || strings.Contains(t, "Exception on server side") {
			continue
		}
		chain = append(chain, l)
	}
	if len(chain) == 0 {
		return text
	}
	return text + "\nException chain:\n" + strings.Join(chain, "\n")
}

// RepoRoot finds the repository root: the directory holding go.work,
// which joins the engine's module (engine/go.mod) and the workbench's (the
// root's go.mod), where the bundled data (assets/) and the scripts live.
// Without a go.work above this file it is the nearest directory holding a
// go.mod; "." when there is none.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	mod := ""
	for dir := filepath.Dir(file); ; {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && mod == "" {
			mod = dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if mod == "" {
		return "."
	}
	return mod
}

// NewEngine makes a fresh engine for one script; the harness closes it
// when the script ends.
type NewEngine func(t *testing.T) table.Engine

// EmbeddedEngine returns a NewEngine for the embedded engine in streaming
// mode with table.local-time-zone UTC and parallelism.default 1, the
// settings every script starts from.
func EmbeddedEngine() NewEngine {
	return func(*testing.T) table.Engine {
		env := table.MustCreate(table.InStreamingMode())
		env.Config().Set("table.local-time-zone", "UTC")
		// the scripts' expected outputs are in the order one task gives
		// (print sinks without "N>" prefixes): parallelism 1 unless the
		// script sets another (the engine's default is the number of
		// cores); TestGoldenScriptsParallel runs them at 2
		env.Config().Set("parallelism.default", "1")
		return table.NewEmbeddedEngine(env)
	}
}

// Gateway is a SQL Gateway the harness reaches: Riffle's `riffle gateway`
// (see LoopbackGateway) or Apache Flink's.
type Gateway struct {
	// Endpoint is the REST endpoint, "http://host:port".
	Endpoint string
	// Token is the bearer token every request carries, "" for none
	// (Flink's SQL Gateway has no authentication).
	Token string
}

// GatewayEngine returns a NewEngine for the SQL Gateway gw: each script
// gets its own session, opened through gateway.Connect (the client of
// `riffle sql --endpoint` and of the workbench's gateway connections)
// with SessionProperties and named sessionName ("" for the gateway's
// default name), so that statements, rows and errors travel the REST API
// and its JSON row format before the harness renders them as it renders
// the embedded engine's. The session is closed when the script ends;
// failing to open it within a minute fails the script's test.
func GatewayEngine(gw Gateway, sessionName string) NewEngine {
	return func(t *testing.T) table.Engine {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		e, err := gateway.Connect(ctx, gw.Endpoint, gateway.RemoteOptions{Token: gw.Token, SessionName: sessionName, Properties: SessionProperties()})
		if err != nil {
			t.Fatalf("open a session of the SQL Gateway at %s: %v", gw.Endpoint, err)
		}
		return e
	}
}

// LoopbackGateway starts Riffle's SQL Gateway (gateway.NewServer, the
// server `riffle gateway` runs) in the test process on a free port of
// 127.0.0.1, with a fresh bearer token as `riffle gateway` generates one
// when given none, and returns its endpoint ("http://127.0.0.1:<port>")
// and token. The gateway logs through t.Logf. When the test ends
// (t.Cleanup) the HTTP server stops, then the gateway closes its sessions
// and cancels their jobs; an error of the HTTP server other than its
// closing fails the test.
func LoopbackGateway(t testing.TB) Gateway {
	t.Helper()
	token, err := gateway.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	srv := gateway.NewServer(gateway.Config{Token: token, Logf: t.Logf})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = srv.Close()
		t.Fatalf("listen on 127.0.0.1: %v", err)
	}
	hs := &http.Server{Handler: srv}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	t.Cleanup(func() {
		_ = hs.Close()
		_ = srv.Close()
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("SQL Gateway on %s: %v", ln.Addr(), err)
		}
	})
	return Gateway{Endpoint: "http://" + ln.Addr().String(), Token: token}
}

// SessionProperties are the session properties a remote engine (a SQL
// Gateway session) is opened with so that it starts where EmbeddedEngine
// does: streaming mode, UTC and parallelism 1. table.dml-sync makes an INSERT run to its
// end within its statement, so that its failure is the statement's error
// (as the embedded engine reports it) rather than a job status.
func SessionProperties() map[string]string {
	return map[string]string{
		"execution.runtime-mode": "streaming",
		"table.local-time-zone":  "UTC",
		"table.dml-sync":         "true",
		"parallelism.default":    "1",
	}
}

// Options configure RunScript.
type Options struct {
	// Oracle runs the script on an engine other than Riffle's (Apache
	// Flink): cases marked riffle-only are skipped, and every case is
	// tallied in Tally.
	Oracle bool
	// Tally, when set, counts the outcomes (it may be shared by scripts
	// run in parallel).
	Tally *Tally
	// Rewrite, when set, changes each statement (after its placeholders
	// are replaced) before it runs, for what the engine under test must
	// do differently for reasons outside SQL semantics (e.g. a smaller
	// parallelism on a small cluster).
	Rewrite func(statement string) string
	// Unavailable, when set, recognizes an output that says the engine
	// could not run the case for want of resources (not a SQL answer):
	// such a case is logged and counted as Unavailable, not compared.
	Unavailable func(output string) bool
	// Unordered compares the rows of a query without ORDER BY ignoring
	// their order (a job at parallelism > 1 interleaves its tasks' rows)
	// and skips EXPLAIN statements, whose plans name the exchanges.
	Unordered bool
}

// Tally counts what an oracle run found. Every case of a script is either
// Marked (riffle-only, not run) or run; a case run either Agreed or not,
// and one that did not is exactly one of Differed (both gave rows or
// messages, unlike), ErrorTextDiffers (both failed, the expected message
// lines are not in the engine's error), EngineOnlyErrors (the engine
// failed where Riffle's expectation is a result) or RiffleOnlyErrors
// (Riffle's expectation is an error, the engine gave a result).
type Tally struct {
	mu                                                 sync.Mutex
	Scripts, Cases, Agreed, Differed, ErrorTextDiffers int
	EngineOnlyErrors, RiffleOnlyErrors, Marked         int
	// Unavailable counts cases run whose engine could not execute them
	// for want of resources (Options.Unavailable); they are in Cases but
	// in no other count.
	Unavailable int
	Diffs       []Diff
}

// Diff is one case on which the engine disagreed with the script.
type Diff struct {
	Script string // file name
	Line   int
	Class  string // "differed", "error-text", "engine-only-error", "riffle-only-error", "unavailable"
	Got    string
}

// Summary is the one-line account of a tally, e.g. "scripts=42
// cases_run=1500 agreed=1490 differed=4 error_text_differs=1
// flink_only_errors=3 riffle_only_errors=2 marked_riffle_only=163"; engine
// names the oracle (e.g. "flink").
func (t *Tally) Summary(engine string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("golden scripts on %s: scripts=%d cases_run=%d agreed=%d differed=%d error_text_differs=%d %s_only_errors=%d riffle_only_errors=%d unavailable=%d marked_riffle_only=%d",
		engine, t.Scripts, t.Cases, t.Agreed, t.Differed, t.ErrorTextDiffers, engine, t.EngineOnlyErrors, t.RiffleOnlyErrors, t.Unavailable, t.Marked)
}

func (t *Tally) add(script string, c Case, got, msg string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Cases++
	if msg == "" {
		t.Agreed++
		return
	}
	gotErr := strings.HasPrefix(errorBody(got), "[ERROR]")
	class := ""
	switch {
	case c.Kind == "error" && gotErr:
		t.ErrorTextDiffers++
		class = "error-text"
	case c.Kind == "error":
		t.RiffleOnlyErrors++
		class = "riffle-only-error"
	case gotErr:
		t.EngineOnlyErrors++
		class = "engine-only-error"
	default:
		t.Differed++
		class = "differed"
	}
	t.Diffs = append(t.Diffs, Diff{Script: script, Line: c.Line, Class: class, Got: got})
}

// RunFile runs every case of a script on a fresh engine made by newEngine
// and reports mismatches as test errors.
func RunFile(t *testing.T, path string, newEngine NewEngine) {
	t.Helper()
	RunScript(t, path, newEngine, Options{})
}

// RunScript runs a script's cases in order on one engine made by
// newEngine and reports every mismatch as a test error naming the script
// line, the statement, the output and the expectation.
func RunScript(t *testing.T, path string, newEngine NewEngine, opts Options) {
	t.Helper()
	cases, repl := load(t, path)
	eng := newEngine(t)
	defer eng.Close()
	if opts.Tally != nil {
		opts.Tally.mu.Lock()
		opts.Tally.Scripts++
		opts.Tally.mu.Unlock()
	}
	for _, c := range cases {
		if opts.Oracle && c.RiffleOnly != "" {
			if opts.Tally != nil {
				opts.Tally.mu.Lock()
				opts.Tally.Marked++
				opts.Tally.mu.Unlock()
			}
			continue
		}
		stmt := repl.Replace(c.Statement)
		if opts.Rewrite != nil {
			stmt = opts.Rewrite(stmt)
		}
		if opts.Unordered {
			if isExplain(stmt) {
				continue
			}
			if c.Kind == "ok" && !hasOrderBy(stmt) {
				c.Kind = "unordered"
			}
		}
		got := Exec(context.Background(), eng, stmt)
		if opts.Unavailable != nil && opts.Unavailable(got) {
			if opts.Tally != nil {
				opts.Tally.mu.Lock()
				opts.Tally.Cases++
				opts.Tally.Unavailable++
				opts.Tally.Diffs = append(opts.Tally.Diffs, Diff{Script: filepath.Base(path), Line: c.Line, Class: "unavailable", Got: got})
				opts.Tally.mu.Unlock()
			}
			t.Logf("%s:%d: not compared, the engine could not run it: %s", path, c.Line, firstLine(errorBody(got)))
			continue
		}
		msg := Compare(c, got)
		if opts.Oracle {
			opts.Tally.add(filepath.Base(path), c, got, msg)
		}
		if msg != "" {
			t.Errorf("%s:%d: %s\n--- statement:\n%s\n--- got:\n%s\n--- want:\n%s", path, c.Line, msg, c.Statement, got, c.Expected)
		}
	}
}

// isExplain reports an EXPLAIN statement.
func isExplain(stmt string) bool {
	f := strings.Fields(stmt)
	return len(f) > 0 && strings.EqualFold(f[0], "EXPLAIN")
}

// hasOrderBy reports a statement with an ORDER BY anywhere (a
// conservative test: an ORDER BY inside a subquery or OVER keeps the
// comparison exact).
func hasOrderBy(stmt string) bool {
	return strings.Contains(strings.Join(strings.Fields(strings.ToUpper(stmt)), " "), "ORDER BY")
}

// load reads and parses a script and returns the replacer of its
// placeholders: Placeholders' and ${SCRATCH}, an empty folder of this run
// of the script (removed after it) for what its statements write.
func load(t *testing.T, path string) ([]Case, *strings.Replacer) {
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
	return cases, strings.NewReplacer("${ASSETS}", filepath.Join(RepoRoot(), "assets"), "${TESTDATA}", abs, "${SCRATCH}", t.TempDir())
}

// Placeholders returns the replacer of a script's ${ASSETS} (the
// repository's assets/ folder) and ${TESTDATA} (the script's own folder),
// both absolute.
func Placeholders(path string) *strings.Replacer {
	abs, _ := filepath.Abs(filepath.Dir(path))
	return strings.NewReplacer("${ASSETS}", filepath.Join(RepoRoot(), "assets"), "${TESTDATA}", abs)
}

// firstLine is the first line of an error's reason (or of an output).
func firstLine(s string) string {
	s = strings.TrimPrefix(s, errorPrefix)
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// errorBody is an output without the result header a run-time failure
// follows.
func errorBody(got string) string {
	if strings.HasPrefix(got, "+") {
		if l := strings.SplitN(got, "\n", 4); len(l) == 4 {
			return l[3] // border, column names, border
		}
	}
	return got
}

// Compare checks an output against a case; it returns "" when they match.
func Compare(c Case, got string) string {
	want := strings.TrimRight(c.Expected, "\n")
	switch c.Kind {
	case "error":
		// a job failing at run time prints its result's header first, as
		// Flink's SQL Client does; the error must follow at once (no rows)
		body := errorBody(got)
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
func Record(t *testing.T, path string, newEngine NewEngine) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, repl := load(t, path)
	eng := newEngine(t)
	defer eng.Close()
	lines := strings.Split(string(data), "\n")
	var out []string
	prev := 0
	for _, c := range cases {
		got := Exec(context.Background(), eng, repl.Replace(c.Statement))
		if c.Kind == "error" && !strings.HasPrefix(errorBody(got), "[ERROR]") {
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
