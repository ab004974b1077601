package sqlclient

import (
	"context"
	"io"

	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// Session runs statements one call at a time in one `riffle sql` session
// (the embedded engine, or a SQL Gateway with Options.Endpoint), printing
// what the SQL Client prints for each: results and [INFO] lines to the
// output writer, "[ERROR] Could not execute SQL statement. Reason:" blocks
// to the error writer. Unlike Run it goes on after a failed statement, as
// the interactive client does, so that a script of Flink's .q test format
// (CliClientITCase) can be replayed statement by statement.
type Session struct {
	c *client
}

// NewSession opens a session with opts (Mode, Format, Endpoint, Token,
// ClusterREST; File, Statements and InitFile are ignored). It fails when
// the options are invalid or the gateway cannot be reached.
func NewSession(ctx context.Context, opts Options, out, errOut io.Writer) (*Session, error) {
	opts.File, opts.Statements, opts.InitFile = "", "", ""
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	format := opts.Format
	if format == "" {
		format = FormatTableau
	}
	engine, err := openEngine(ctx, opts, out)
	if err != nil {
		return nil, err
	}
	return &Session{c: newClient(engine, out, errOut, format)}, nil
}

// SetOutput redirects what the following statements print.
func (s *Session) SetOutput(out, errOut io.Writer) {
	s.c.out, s.c.errOut = out, errOut
}

// Execute runs the statements of text (separated by ';') in order and
// reports whether all succeeded; it stops at the first failure, whose
// error it has printed. Statement sets (BEGIN STATEMENT SET ... END) may
// span several calls.
func (s *Session) Execute(ctx context.Context, text string) bool {
	for _, st := range session.Split(text, sql.Pos{}) {
		if s.c.run.Quit() {
			return true
		}
		if !s.c.runStatement(ctx, st, "-e") {
			return false
		}
	}
	return true
}

// Engine is the engine the session runs on.
func (s *Session) Engine() table.Engine { return s.c.engine }

// Close ends the session (the embedded engine, or the gateway session).
func (s *Session) Close() error { return s.c.engine.Close() }
