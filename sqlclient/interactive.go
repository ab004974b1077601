package sqlclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
)

const (
	prompt         = "Flink SQL> "
	continuePrompt = "> "
)

// interactive runs the read-eval-print loop of the SQL Client on a
// terminal: line editing and history (golang.org/x/term), statements run
// when a line completes them with ';', Ctrl+C during a statement cancels
// that statement (interrupts), Ctrl+C or Ctrl+D at an empty prompt and
// QUIT/EXIT leave. Errors do not end the session.
func (c *client) interactive(ctx context.Context, tty *os.File, interrupts <-chan os.Signal) bool {
	fd := int(tty.Fd())
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{tty, c.out}, prompt)
	// job events (restarts) reach the screen through the line editor,
	// which keeps the prompt and the line being typed intact
	c.events.setWriter(t)
	defer c.events.setWriter(c.errOut)
	fmt.Fprintln(c.out, "Riffle SQL client (embedded Flink SQL). Statements end with ';'. Type HELP; for help, QUIT; to leave.")
	var pending strings.Builder
	base := sql.Pos{Line: 1, Column: 1}
	for !c.run.Quit() {
		if ctx.Err() != nil {
			return true
		}
		if w, h, err := term.GetSize(fd); err == nil {
			_ = t.SetSize(usableSize(w, h))
		}
		old, err := term.MakeRaw(fd)
		if err != nil {
			// not a usable terminal after all: read it as a stream
			return c.runStream(ctx, tty, "<stdin>")
		}
		line, err := t.ReadLine()
		_ = term.Restore(fd, old)
		if errors.Is(err, io.EOF) {
			if pending.Len() > 0 {
				// Ctrl+C in the middle of a statement clears it
				pending.Reset()
				t.SetPrompt(prompt)
				continue
			}
			fmt.Fprintln(c.out, "\nShutting down the session...\ndone.")
			return true
		}
		if err != nil {
			fmt.Fprintln(c.errOut, "[ERROR]", err)
			return false
		}
		pending.WriteString(line)
		pending.WriteByte('\n')
		text := pending.String()
		stmts, consumed := session.SplitComplete(text, false, base)
		for _, st := range stmts {
			c.runInteractive(ctx, st, interrupts)
			if c.run.Quit() {
				break
			}
		}
		if consumed > 0 {
			base = session.Advance(base, text[:consumed])
			rest := strings.TrimLeft(text[consumed:], " \t\r\n")
			pending.Reset()
			pending.WriteString(rest)
			if rest == "" {
				base = sql.Pos{Line: 1, Column: 1}
			}
		}
		if pending.Len() > 0 {
			t.SetPrompt(continuePrompt)
		} else {
			t.SetPrompt(prompt)
		}
	}
	fmt.Fprintln(c.out, "Shutting down the session...\ndone.")
	return true
}

// usableSize is the size given to the line editor for a terminal that
// reports w columns and h rows: a terminal that reports no width (0, as
// under `script -qc`) gets 80 columns, or the editor would wrap after
// every character.
func usableSize(w, h int) (int, int) {
	if w <= 0 {
		w = 80
	}
	if h <= 0 {
		h = 24
	}
	return w, h
}

// runInteractive runs one statement with its own context, cancelled by an
// interrupt, so Ctrl+C stops the statement and not the session. Errors are
// printed and the session goes on.
func (c *client) runInteractive(ctx context.Context, st session.Statement, interrupts <-chan os.Signal) {
	stmtCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	finished := make(chan struct{})
	defer close(finished)
	if interrupts != nil {
		go func() {
			select {
			case <-interrupts:
				cancel()
			case <-finished:
			}
		}()
	}
	c.runStatement(stmtCtx, st, "<stdin>")
}
