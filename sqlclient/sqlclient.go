// Package sqlclient is Riffle's headless SQL client (`riffle sql`), the
// counterpart of Flink's SQL Client in embedded mode, and in gateway mode
// with --endpoint (any SQL Gateway, Riffle's or a Flink cluster's, through
// the same table.Engine interface): it runs statements from --init, then
// -e, -f or standard input, and prints results as tableau, CSV or JSON
// Lines, the same way for both engines.
package sqlclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	csvformat "github.com/riffle-sql/riffle/engine/connector/format/csv"

	"github.com/riffle-sql/riffle/engine/config"
	_ "github.com/riffle-sql/riffle/engine/connector/all" // register connectors and formats
	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"golang.org/x/term"
)

// Runtime modes (Flink's execution.runtime-mode).
const (
	ModeStreaming = "streaming"
	ModeBatch     = "batch"
)

// Output formats.
const (
	FormatTableau = "tableau"
	FormatCSV     = "csv"
	FormatJSON    = "json"
	// FormatParquet writes the one query result of the run as a Parquet
	// file to standard output, which must be redirected to a file (the
	// 'parquet' format's encoder; streaming results get an op column).
	FormatParquet = "parquet"
)

// Options are the command-line options of `riffle sql`.
type Options struct {
	Mode       string // ModeStreaming (default) or ModeBatch
	Format     string // FormatTableau (default), FormatCSV, FormatJSON or FormatParquet
	InitFile   string // --init: statements run first, printing nothing on success
	File       string // -f: a script file
	Statements string // -e: statements given on the command line
	Endpoint   string // --endpoint: a SQL Gateway URL; empty = the embedded engine
	Token      string // bearer token of the gateway (--token or RIFFLE_GATEWAY_TOKEN)
	// ClusterREST (--cluster-rest) is the REST API of the Flink cluster
	// behind --endpoint (e.g. http://127.0.0.1:8081): job states and end
	// times come from there (gateway.RemoteOptions.ClusterREST).
	ClusterREST string
	// Interrupts delivers Ctrl+C (SIGINT) in interactive mode, where it
	// cancels the running statement instead of the client. Nil: none.
	Interrupts <-chan os.Signal
}

// Validate checks the option values.
func (o Options) Validate() error {
	switch o.Mode {
	case "", ModeStreaming, ModeBatch:
	default:
		return fmt.Errorf("invalid --mode %q: want streaming or batch", o.Mode)
	}
	switch o.Format {
	case "", FormatTableau, FormatCSV, FormatJSON, FormatParquet:
	default:
		return fmt.Errorf("invalid --format %q: want tableau, csv, json or parquet", o.Format)
	}
	if o.File != "" && o.Statements != "" {
		return errors.New("-f and -e cannot be used together")
	}
	if o.ClusterREST != "" && o.Endpoint == "" {
		return errors.New("--cluster-rest needs --endpoint")
	}
	return nil
}

// Run executes the statements and returns the process exit status: 0 when
// every statement succeeded; 1 at the first failing statement (later
// statements do not run), with the error on stderr naming the line and
// column in the SQL text; 2 for bad options.
//
// INSERT statements run to completion before the next statement starts
// (as with table.dml-sync = true), so a script can read what it wrote;
// SET 'table.dml-sync' = 'false' submits them in the background, and the
// client then waits for them before it exits (embedded and on Riffle's
// gateway; on Apache Flink's gateway they go on running on the cluster, as
// with Flink's SQL Client).
func Run(ctx context.Context, opts Options, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := opts.Validate(); err != nil {
		fmt.Fprintln(stderr, "[ERROR]", err)
		return 2
	}
	format := opts.Format
	if format == "" {
		format = FormatTableau
	}
	if f, ok := stdout.(*os.File); ok && format == FormatParquet && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintln(stderr, "[ERROR] --format parquet writes a binary file: redirect standard output to one (riffle sql --format parquet -e \"SELECT …\" > result.parquet)")
		return 2
	}
	engine, err := openEngine(ctx, opts, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "[ERROR]", err)
		return 1
	}
	defer engine.Close()
	c := newClient(engine, stdout, stderr, format)
	if opts.InitFile != "" {
		script, err := os.ReadFile(opts.InitFile)
		if err != nil {
			fmt.Fprintln(stderr, "[ERROR] cannot read init file:", err)
			return 1
		}
		c.silent = true
		if !c.runScript(ctx, stripBOM(string(script)), opts.InitFile) {
			return 1
		}
		c.silent = false
	}
	var script, name string
	switch {
	case opts.Statements != "":
		script, name = opts.Statements, "-e"
	case opts.File != "":
		b, err := os.ReadFile(opts.File)
		if err != nil {
			fmt.Fprintln(stderr, "[ERROR] cannot read script:", err)
			return 1
		}
		script, name = stripBOM(string(b)), opts.File
	default:
		var ok bool
		if f, isFile := stdin.(*os.File); isFile && term.IsTerminal(int(f.Fd())) {
			ok = c.interactive(ctx, f, opts.Interrupts)
		} else {
			ok = c.runStream(ctx, stdin, "<stdin>")
		}
		if !c.waitJobs(ctx, ok) {
			ok = false
		}
		if !ok {
			return 1
		}
		return 0
	}
	ok := c.runScript(ctx, script, name)
	// background INSERT jobs (table.dml-sync = false) end before we exit
	if !c.waitJobs(ctx, ok) {
		ok = false
	}
	if !ok {
		return 1
	}
	return 0
}

// openEngine starts the embedded engine or connects to --endpoint. INSERT
// statements run synchronously (table.dml-sync = true) either way.
func openEngine(ctx context.Context, opts Options, stdout io.Writer) (table.Engine, error) {
	mode := opts.Mode
	if mode == "" {
		mode = ModeStreaming
	}
	if opts.Endpoint != "" {
		return gateway.Connect(ctx, opts.Endpoint, gateway.RemoteOptions{
			Token:       opts.Token,
			SessionName: "riffle sql",
			Properties:  endpointProperties(opts.Mode),
			ClusterREST: opts.ClusterREST,
		})
	}
	settings := table.InStreamingMode()
	if mode == ModeBatch {
		settings = table.InBatchMode()
	}
	env, err := table.Create(settings)
	if err != nil {
		return nil, err
	}
	env.SetStdout(stdout)
	env.Config().Set(config.DMLSync.Key, "true")
	return table.NewEmbeddedEngine(env), nil
}

// waitJobs waits for the session's unfinished jobs; when report is set it
// prints the failures (and returns false for them).
//
// On Apache Flink's gateway it does not wait: jobs run on the cluster,
// detached from the session, and an INSERT submitted in the background
// may never end (Flink's SQL Client leaves them running too).
func (c *client) waitJobs(ctx context.Context, report bool) bool {
	if c.passThrough {
		return true
	}
	jobs, err := c.engine.Jobs(ctx)
	if err != nil {
		if report {
			fmt.Fprintln(c.errOut, "[ERROR] Could not list the jobs:", err)
		}
		return false
	}
	ok := true
	for _, j := range jobs {
		if j.IsTerminal() && j.Status != "FAILED" {
			continue
		}
		if err := c.engine.WaitJob(ctx, j.ID); err != nil && report && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(c.errOut, "[ERROR] Job %s failed: %v\n", j.ID, err)
			ok = false
		}
	}
	return ok
}

type client struct {
	engine table.Engine
	// run runs the statements: statement sets, HELP, QUIT (engine/session)
	run *session.Runner
	// passThrough: the engine is Apache Flink's SQL Gateway, which judges
	// the statements Riffle's parser does not know (Flink's newer syntax);
	// they are sent as they are
	passThrough bool
	out         io.Writer
	errOut      io.Writer
	format      string
	silent      bool
	// parquetDone: a result was written with FormatParquet (one per run)
	parquetDone bool
	// events prints the jobs' restarts (job_events.go)
	events jobEvents
}

// newClient returns a client printing in format on engine.
func newClient(engine table.Engine, out, errOut io.Writer, format string) *client {
	c := &client{engine: engine, out: out, errOut: errOut, format: format}
	if re, ok := engine.(*gateway.RemoteEngine); ok {
		c.passThrough = re.ServerInfo().ProductName == gateway.FlinkProductName
	}
	c.run = session.NewRunner(engine, session.Options{
		PassThrough: c.passThrough,
		Hooks:       session.Hooks{Command: c.command, Result: c.result},
	})
	c.watchJobs(errOut)
	return c
}

// runScript runs each statement of a script; it stops at the first error.
func (c *client) runScript(ctx context.Context, script, name string) bool {
	for _, st := range session.Split(script, sql.Pos{}) {
		if c.run.Quit() {
			return true
		}
		if !c.runStatement(ctx, st, name) {
			return false
		}
	}
	return c.finish()
}

// finish ends a script: a statement set left open is an error.
func (c *client) finish() bool {
	if err := c.run.Finish(); err != nil {
		fmt.Fprintln(c.errOut, "[ERROR]", err)
		return false
	}
	return true
}

// runStatement runs one statement, printing its result or error; it
// reports success.
func (c *client) runStatement(ctx context.Context, st session.Statement, name string) bool {
	if ctx.Err() != nil {
		fmt.Fprintln(c.errOut, "[ERROR] interrupted")
		return false
	}
	err := c.run.Run(ctx, st)
	if err == nil {
		return true
	}
	if c.terminated(ctx, err) {
		return false
	}
	var se *session.Error
	if errors.As(err, &se) {
		st, err = se.Statement, se.Err
	}
	c.fail(name, st, err)
	return false
}

// errQueryCancelled: printing a query's rows ended because ctx did
// (Ctrl+C, SIGTERM).
var errQueryCancelled = errors.New("query cancelled")

// queryTerminated is errQueryCancelled for a query whose rows were being
// printed as a tableau: rows of them were printed.
type queryTerminated struct{ rows int }

func (q *queryTerminated) Error() string { return errQueryCancelled.Error() }
func (q *queryTerminated) Unwrap() error { return errQueryCancelled }

// terminated reports (and says so) a statement that ended because ctx
// was cancelled (Ctrl+C, SIGTERM) rather than failing: a query printing
// its rows as a tableau ends with Flink's SQL Client's footer "Query
// terminated, received a total of N rows" on stdout; any other statement
// (a synchronous INSERT, whose job is cancelled with it; a query in CSV
// or JSON) with "[INFO] Query terminated." on stderr, never a bare
// "context canceled".
func (c *client) terminated(ctx context.Context, err error) bool {
	var qt *queryTerminated
	switch {
	case errors.As(err, &qt):
		fmt.Fprintf(c.out, "Query terminated, received a total of %d %s\n", qt.rows, rowTerm(qt.rows))
	case errors.Is(err, errQueryCancelled):
		fmt.Fprintln(c.errOut, "[INFO] Query terminated.")
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, table.ErrCanceled)):
		fmt.Fprintln(c.errOut, "[INFO] Query terminated. Its job was cancelled.")
	default:
		return false
	}
	return true
}

// rowTerm is Flink's SQL Client's word for n rows: "row" unless more than
// one.
func rowTerm(n int) string {
	if n > 1 {
		return "rows"
	}
	return "row"
}

// result prints what the engine returned for st (the runner's
// Hooks.Result).
func (c *client) result(ctx context.Context, st session.Statement, res table.StatementResult) error {
	if r, ok := st.Parsed.(*sql.Reset); ok && (r.Key == "" || r.Key == config.DMLSync.Key) {
		// RESET (all) and RESET 'table.dml-sync' restore the client's own
		// default too; RESET of another key leaves it as set
		if err := c.applyDefaults(ctx); err != nil {
			return err
		}
	}
	// Flink 2.3's SQL Client boxes EXPLAIN and SHOW CREATE like any
	// other result (a single "result" column sized to the text)
	if err := c.print(ctx, res, false); err != nil {
		if ctx.Err() != nil {
			var pi *table.PrintInterruptedError
			if c.format == FormatTableau && res.IsQuery() {
				if errors.As(err, &pi) {
					return &queryTerminated{rows: pi.Rows}
				}
				return &queryTerminated{}
			}
			return errQueryCancelled
		}
		return err
	}
	return nil
}

// command prints what the SQL Client prints for its own commands (the
// runner's Hooks.Command).
func (c *client) command(_ session.Statement, ev session.Event) {
	switch ev {
	case session.SetBegun, session.SetAdded, session.SetEmpty:
		c.info(infoSucceeded)
	case session.Help:
		fmt.Fprint(c.out, helpText)
	}
}

// runStream runs statements read from r as soon as each is complete
// (ends with ';'), so piped input is answered while it arrives; a final
// statement without ';' runs at the end of input. It stops at the first
// error.
//
// The input is read in its own goroutine, so that cancelling ctx (SIGTERM,
// or Ctrl+C in a script) ends the run while a read of a pipe or a terminal
// waits; the goroutine is left to that read.
func (c *client) runStream(ctx context.Context, r io.Reader, name string) bool {
	type input struct {
		line string
		err  error
	}
	lines := make(chan input)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			select {
			case lines <- input{line, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var buf strings.Builder
	base := sql.Pos{Line: 1, Column: 1}
	first := true
	for {
		var line string
		var err error
		select {
		case in := <-lines:
			line, err = in.line, in.err
		case <-ctx.Done():
			fmt.Fprintln(c.errOut, "[INFO] Cancelled while reading", name+".")
			return false
		}
		if first {
			line = stripBOM(line)
			first = false
		}
		buf.WriteString(line)
		atEOF := err != nil
		text := buf.String()
		stmts, consumed := session.SplitComplete(text, atEOF, base)
		for _, st := range stmts {
			if c.run.Quit() {
				return true
			}
			if !c.runStatement(ctx, st, name) {
				return false
			}
		}
		if consumed > 0 {
			base = session.Advance(base, text[:consumed])
			rest := text[consumed:]
			buf.Reset()
			buf.WriteString(rest)
		}
		if atEOF {
			if err != io.EOF {
				fmt.Fprintln(c.errOut, "[ERROR] cannot read standard input:", err)
				return false
			}
			return c.finish()
		}
	}
}

// Flink 2.3's SQL Client (through its SQL Gateway) answers BEGIN STATEMENT
// SET, an INSERT added to the set and the END of an empty set with the
// plain success message.
const infoSucceeded = "[INFO] Execute statement succeeded."

func (c *client) info(msg string) {
	if !c.silent && c.format == FormatTableau {
		fmt.Fprintln(c.out, msg)
	}
}

// fail prints Flink's error block. Errors without a position get the
// statement's position, except a bad value of the gateway session's
// configuration (gateway.SessionConfigError), whose message says where
// the value is.
func (c *client) fail(name string, st session.Statement, err error) {
	msg := err.Error()
	var se *sql.Error
	var ce *gateway.SessionConfigError
	_, _, positioned := session.ErrorPosition(err)
	positioned = positioned || errors.As(err, &se)
	// a bad value in the session's configuration is not the statement's
	// fault: the message says where the value is
	inConfig := errors.As(err, &ce)
	if gateway.SessionLost(err) {
		msg += "\n(The SQL Gateway session expired or was closed on the server; run the statements again in a new session.)"
	}
	switch {
	case inConfig:
	case !positioned:
		msg = fmt.Sprintf("%s\n(in the statement at line %d, column %d of %s)", msg, st.Pos.Line, st.Pos.Column, name)
	case name != "-e" && name != "<stdin>":
		msg = fmt.Sprintf("%s\n(in %s)", msg, name)
	}
	// a panic (a bug, or a user function's own) shows its stack only with
	// sql-client.verbose, as Flink's SQL Client shows an exception's
	var p interface{ PanicStack() string }
	if errors.As(err, &p) && p.PanicStack() != "" && c.verbose() {
		msg += "\n" + strings.TrimRight(p.PanicStack(), "\n")
	}
	if !utf8.ValidString(msg) {
		// a message quoting a literal or a name with invalid bytes: U+FFFD
		// for each, as the results show them
		msg = string(csvformat.AppendValidUTF8(nil, []byte(msg)))
	}
	fmt.Fprintf(c.errOut, "[ERROR] Could not execute SQL statement. Reason:\n%s\n", msg)
}

// verbose reports the embedded session's sql-client.verbose: errors
// print the stack of a panic (a remote engine's errors are the server's
// text).
func (c *client) verbose() bool {
	ee, ok := c.engine.(*table.EmbeddedEngine)
	return ok && strings.EqualFold(strings.TrimSpace(ee.Environment().Config().Get(config.Verbose.Key, "false")), "true")
}

// applyDefaults sets the client's session defaults (INSERT runs to
// completion: table.dml-sync = true).
func (c *client) applyDefaults(ctx context.Context) error {
	_, err := c.engine.ExecuteStatement(ctx, "SET '"+config.DMLSync.Key+"' = 'true'", sql.Pos{})
	return err
}

// print shows a result. raw prints a single text column as is (EXPLAIN,
// SHOW CREATE). Cancelling ctx (Ctrl+C) cancels a running query's job.
func (c *client) print(ctx context.Context, res table.StatementResult, raw bool) error {
	if id := res.JobID(); id != "" && res.IsQuery() {
		stop := context.AfterFunc(ctx, func() { _ = c.engine.CancelJob(context.WithoutCancel(ctx), id) })
		defer stop()
	}
	if res.ResultKind() == table.Success || (!res.IsQuery() && res.JobID() != "") {
		if c.silent || c.format != FormatTableau {
			return nil
		}
		fmt.Fprintln(c.out, res.Message())
		return nil
	}
	if id := res.JobID(); id != "" {
		// SIGINT/SIGTERM cancel ctx: stop the job, which ends its rows
		stop := context.AfterFunc(ctx, func() { c.engine.CancelJob(context.Background(), id) })
		defer stop()
	}
	if c.silent {
		return drain(res)
	}
	if names := res.Schema().FieldNames(); raw && c.format == FormatTableau && len(names) == 1 {
		// EXPLAIN and SHOW CREATE print their text as is
		it, err := res.Collect()
		if err != nil {
			return err
		}
		defer it.Close()
		for it.Next() {
			fmt.Fprintln(c.out, it.Row().Values[0])
		}
		return it.Err()
	}
	switch c.format {
	case FormatCSV:
		return writeCSV(c.out, res)
	case FormatJSON:
		return writeJSON(c.out, res)
	case FormatParquet:
		if c.parquetDone {
			return errSecondParquet
		}
		c.parquetDone = true
		return writeParquet(c.out, res)
	}
	return res.PrintTo(c.out)
}

func drain(res table.StatementResult) error {
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
	}
	return it.Err()
}

const helpText = `The following commands are available:

CLEAR		Clears the current terminal.
HELP		Prints the available commands.
QUIT/EXIT	Quits the SQL CLI client.
BEGIN STATEMENT SET	Begins a statement set. Syntax: "BEGIN STATEMENT SET;"
END		Ends a statement set. Syntax: "END;"

Every other statement is Flink SQL: DDL, DML, queries, SHOW, DESCRIBE,
EXPLAIN, SET, RESET and USE.
`

// stripBOM drops a UTF-8 byte order mark at the start of a script.
func stripBOM(s string) string { return strings.TrimPrefix(s, "\ufeff") }

// endpointProperties are the session properties sent to a gateway: the
// runtime mode only when --mode was given (the gateway's own default wins
// otherwise), and synchronous INSERTs.
func endpointProperties(mode string) map[string]string {
	props := map[string]string{config.DMLSync.Key: "true"}
	if mode != "" {
		props[config.RuntimeMode.Key] = mode
	}
	return props
}
