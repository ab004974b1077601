// Package session runs a SQL script's statements for a front end — `riffle
// sql` (sqlclient) and the workbench (ui) — on any table.Engine, embedded or
// behind a SQL Gateway, with the semantics of Flink's SQL Client: a script
// is split and each statement parsed once (Split, SplitComplete), the
// parsed statement goes to the engine (table.Engine.ExecuteParsed), the
// client's own commands are handled here (BEGIN STATEMENT SET … END, HELP,
// CLEAR, QUIT, EXIT) and every other statement (SET, RESET, USE, DDL,
// queries, INSERT…) goes to the engine.
//
// The runner prints nothing: a front end words what it shows from the
// Runner's hooks (Hooks.Command for a client command, Hooks.Result for an
// engine's result) and from the *Error Run returns, which carries the
// statement and its position in the document. Results are read with
// Batches, the same way for both engines.
//
//	r := session.NewRunner(eng, session.Options{Hooks: hooks})
//	for _, st := range session.Split(script, sql.Pos{}) {
//		if err := r.Run(ctx, st); err != nil { … report, stop … }
//		if r.Quit() { break }
//	}
//	if err := r.Finish(); err != nil { … a statement set without END … }
package session

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// Executor runs parsed statements: table.Engine has the method (the
// embedded engine and gateway.RemoteEngine); a front end may wrap an
// engine (the workbench opens a new gateway session when the old one was
// lost).
type Executor interface {
	// ExecuteParsed runs st, the parse of text at position at of its
	// document (nil when it did not parse), as
	// table.Engine.ExecuteParsed does.
	ExecuteParsed(ctx context.Context, st sql.Statement, text string, at sql.Pos) (table.StatementResult, error)
}

// Event is a client command the runner has handled (Hooks.Command).
type Event uint8

const (
	// SetBegun: BEGIN STATEMENT SET opened a statement set.
	SetBegun Event = iota + 1
	// SetAdded: an INSERT was added to the open statement set.
	SetAdded
	// SetEmpty: END closed a statement set holding no INSERT; nothing was
	// submitted. (END of a set with INSERTs submits them as one EXECUTE
	// STATEMENT SET, whose result goes to Hooks.Result.)
	SetEmpty
	// Help: HELP asks for the list of commands.
	Help
	// Clear: CLEAR asks to clear the screen.
	Clear
	// Quit: QUIT or EXIT. The runner's Quit reports true afterwards
	// unless Options.KeepOnQuit.
	Quit
)

// String returns the event's name.
func (e Event) String() string {
	switch e {
	case SetBegun:
		return "SetBegun"
	case SetAdded:
		return "SetAdded"
	case SetEmpty:
		return "SetEmpty"
	case Help:
		return "Help"
	case Clear:
		return "Clear"
	case Quit:
		return "Quit"
	}
	return "Event(?)"
}

// Errors of client commands, worded as Flink 2.3's SQL Client words them.
var (
	// ErrNotInStatementSet refuses a statement other than INSERT (BEGIN
	// STATEMENT SET included) inside an open statement set.
	ErrNotInStatementSet = errors.New("Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.")
	// ErrNoStatementSet refuses END without BEGIN STATEMENT SET.
	ErrNoStatementSet = errors.New("No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.")
	// ErrStatementSetNotEnded is Finish's error for a statement set still
	// open at the end of a script (its INSERTs were not submitted).
	ErrStatementSetNotEnded = errors.New("BEGIN STATEMENT SET without END")
)

// Error is a statement that failed, as Run returns it: a parse error, the
// engine's error, a client command's error (ErrNotInStatementSet,
// ErrNoStatementSet) or the error Hooks.Result returned.
type Error struct {
	// Statement is the statement that failed. When END's submission of a
	// statement set failed, Text is the set as EXECUTE STATEMENT SET (one
	// INSERT a line) and Pos the END's position; Err's position, if it
	// has one, is the failing INSERT's line and column in the document.
	Statement Statement
	Err       error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Hooks are what a front end shows; nil hooks are skipped.
type Hooks struct {
	// Command reports a client command the runner handled.
	Command func(st Statement, ev Event)
	// Result shows the result of a statement the engine ran (for END, of
	// the statement set submitted: st.Text is the EXECUTE STATEMENT SET).
	// A query's rows stream while its job runs (Batches reads them);
	// res.JobID() names the job an INSERT or a query submitted. A non-nil
	// error fails the statement. Without the hook results are closed
	// unread.
	Result func(ctx context.Context, st Statement, res table.StatementResult) error
}

// Options configure a Runner.
type Options struct {
	// PassThrough sends a statement Riffle's parser refuses to the engine
	// as text (a SQL Gateway of Apache Flink knows syntax Riffle does
	// not); otherwise its parse error fails it.
	PassThrough bool
	// KeepOnQuit reports QUIT and EXIT (Hooks.Command) without ending the
	// script: the workbench has no session to leave.
	KeepOnQuit bool
	Hooks      Hooks
}

// Runner runs the statements of one session in order, keeping the SQL
// Client's state between them (an open statement set, QUIT). It is not
// safe for concurrent use: one goroutine runs a session's statements.
type Runner struct {
	exec  Executor
	opts  Options
	inSet bool
	set   []Statement // the open set's INSERTs, with their positions
	quit  bool
}

// NewRunner returns a runner of statements on exec (usually a
// table.Engine).
func NewRunner(exec Executor, opts Options) *Runner {
	return &Runner{exec: exec, opts: opts}
}

// Quit reports that QUIT or EXIT ran: the rest of the script is not to
// run.
func (r *Runner) Quit() bool { return r.quit }

// InStatementSet reports an open statement set (BEGIN STATEMENT SET ran,
// END did not).
func (r *Runner) InStatementSet() bool { return r.inSet }

// Finish ends a script: ErrStatementSetNotEnded when a statement set is
// still open, which it drops.
func (r *Runner) Finish() error {
	if r.inSet {
		r.inSet, r.set = false, nil
		return ErrStatementSetNotEnded
	}
	return nil
}

// Run runs one statement: a client command here, anything else on the
// engine, whose result goes to Hooks.Result. It returns nil on success and
// an *Error otherwise.
func (r *Runner) Run(ctx context.Context, st Statement) error {
	if st.ParseErr != nil && !r.opts.PassThrough {
		return &Error{Statement: st, Err: st.ParseErr}
	}
	if done, err := r.clientCommand(ctx, st); done {
		return err
	}
	res, err := r.exec.ExecuteParsed(ctx, st.Parsed, st.Text, st.Pos)
	if err != nil {
		return &Error{Statement: st, Err: err}
	}
	return r.result(ctx, st, res)
}

// result hands res to Hooks.Result.
func (r *Runner) result(ctx context.Context, st Statement, res table.StatementResult) error {
	if r.opts.Hooks.Result == nil {
		if rows, err := res.Collect(); err == nil {
			rows.Close()
		}
		return nil
	}
	if err := r.opts.Hooks.Result(ctx, st, res); err != nil {
		return &Error{Statement: st, Err: err}
	}
	return nil
}

func (r *Runner) command(st Statement, ev Event) {
	if r.opts.Hooks.Command != nil {
		r.opts.Hooks.Command(st, ev)
	}
}

// clientCommand handles the SQL Client's own commands and the statements
// of an open statement set; done reports whether st was handled here.
func (r *Runner) clientCommand(ctx context.Context, st Statement) (done bool, err error) {
	switch s := st.Parsed.(type) {
	case *sql.BeginStatementSet:
		if r.inSet {
			return true, &Error{Statement: st, Err: ErrNotInStatementSet}
		}
		r.inSet, r.set = true, nil
		r.command(st, SetBegun)
		return true, nil
	case *sql.End:
		if !r.inSet {
			return true, &Error{Statement: st, Err: ErrNoStatementSet}
		}
		inserts := r.set
		r.inSet, r.set = false, nil
		if len(inserts) == 0 {
			r.command(st, SetEmpty)
			return true, nil
		}
		return true, r.submitSet(ctx, st, inserts)
	case *sql.Insert:
		if r.inSet {
			r.set = append(r.set, st)
			r.command(st, SetAdded)
			return true, nil
		}
	case *sql.ClientCommand:
		switch s.Command {
		case "HELP":
			r.command(st, Help)
		case "CLEAR":
			r.command(st, Clear)
		case "QUIT", "EXIT":
			if !r.opts.KeepOnQuit {
				r.quit = true
			}
			r.command(st, Quit)
		}
		return true, nil
	}
	if r.inSet {
		return true, &Error{Statement: st, Err: ErrNotInStatementSet}
	}
	return false, nil
}

// submitSet runs a statement set's INSERTs as one EXECUTE STATEMENT SET
// (one job); end is the END statement. The engine is sent the INSERTs laid
// out at their places in the document (setLayout), so that its error
// positions point at the failing INSERT's line and column; the Statement
// the hooks and errors get keeps the compact text.
func (r *Runner) submitSet(ctx context.Context, end Statement, inserts []Statement) error {
	texts := make([]string, len(inserts))
	for i, ins := range inserts {
		texts[i] = ins.Text
	}
	text := setPrefix + "\n" + strings.Join(texts, ";\n") + ";\nEND"
	set := Statement{Text: text, Pos: end.Pos}
	laid, at, ok := setLayout(inserts)
	if !ok {
		laid, at = text, sql.Pos{}
	}
	parsed := Parse(laid, at)
	set.Parsed, set.ParseErr = parsed.Parsed, parsed.ParseErr
	res, err := r.exec.ExecuteParsed(ctx, parsed.Parsed, laid, at)
	if err != nil {
		return &Error{Statement: set, Err: err}
	}
	return r.result(ctx, set, res)
}

const setPrefix = "EXECUTE STATEMENT SET BEGIN"

// setLayout returns the EXECUTE STATEMENT SET of inserts with each INSERT
// at its place in the document when the text starts at position at: line
// breaks and spaces stand for what lies between them (BEGIN STATEMENT
// SET's prefix goes on the first INSERT's line when it fits before it, on
// the line above otherwise). ok is false when the INSERTs cannot be laid
// out so (the first one starts on line 1 too near its start for the
// prefix, or one does not start after the one before it, as when they
// came from different documents).
func setLayout(inserts []Statement) (text string, at sql.Pos, ok bool) {
	first := inserts[0].Pos
	var b strings.Builder
	b.WriteString(setPrefix)
	switch n := utf8.RuneCountInString(setPrefix) + 1; {
	case first.Column > n:
		at = sql.Pos{Line: first.Line, Column: first.Column - n}
		b.WriteByte(' ')
	case first.Line > 1:
		at = sql.Pos{Line: first.Line - 1, Column: 1}
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", first.Column-1))
	default:
		return "", sql.Pos{}, false
	}
	at.Offset = max(first.Offset-b.Len(), 0)
	cur := first
	for i, ins := range inserts {
		if i > 0 {
			next := ins.Pos
			switch {
			case next.Line > cur.Line:
				b.WriteString(strings.Repeat("\n", next.Line-cur.Line))
				b.WriteString(strings.Repeat(" ", next.Column-1))
			case next.Line == cur.Line && next.Column >= cur.Column:
				b.WriteString(strings.Repeat(" ", next.Column-cur.Column))
			default:
				return "", sql.Pos{}, false
			}
		}
		b.WriteString(ins.Text)
		b.WriteByte(';')
		cur = Advance(ins.Pos, ins.Text+";")
	}
	b.WriteString("\nEND")
	return b.String(), at, true
}
