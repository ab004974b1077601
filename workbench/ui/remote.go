package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// What runs differently on a gateway connection: reading a query's rows
// page by page, waiting for an INSERT's job, EXPLAIN's error positions,
// and completion through the gateway's complete-statement.

// tableResult returns the embedded engine's TableResult behind res (for
// its JobClient and Arrow batches), nil for a gateway's result.
func tableResult(res table.StatementResult) *table.TableResult {
	if u, ok := res.(interface{ Unwrap() *table.TableResult }); ok {
		return u.Unwrap()
	}
	return nil
}

// collectRows reads a gateway query's rows into its Result until the end,
// an error or Stop. Rows are handed on a page at a time (when the rows
// fetched are used up), so a fast stream costs one lock per page and a
// slow one shows each row as it comes. Stop aborts the fetching; closing
// the rows closes the operation, which cancels the query on the gateway.
func (wb *Workbench) collectRows(ctx context.Context, rt *resultTab, res table.StatementResult) error {
	r := rt.Res
	it, err := res.Collect()
	if err != nil {
		r.Finish(err)
		return err
	}
	defer it.Close()
	if ab, ok := it.(interface{ Abort() }); ok {
		defer context.AfterFunc(ctx, ab.Abort)()
	}
	buffered, _ := it.(interface{ Buffered() int })
	const maxBatch = 1024
	batch := make([]*types.Row, 0, maxBatch)
	for it.Next() {
		batch = append(batch, it.Row())
		if len(batch) == maxBatch || buffered == nil || buffered.Buffered() == 0 {
			_ = r.AddRows(batch)
			batch = make([]*types.Row, 0, maxBatch)
			if rt.limitReached() {
				r.Finish(nil) // closing the result ends the query on the gateway
				return nil
			}
		}
	}
	if len(batch) > 0 {
		_ = r.AddRows(batch)
	}
	err = it.Err()
	if rt.Canceled() || ctx.Err() != nil {
		err = context.Canceled
	}
	r.Finish(err)
	return err
}

// waitRemoteJob waits for a gateway job (an INSERT) to end, polling SHOW
// JOBS; it gives up when the workbench closes.
func (wb *Workbench) waitRemoteJob(c *connection, jobID string) error {
	eng := c.open()
	if eng == nil {
		return errors.New("the connection was closed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-wb.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := eng.WaitJob(ctx, jobID)
	if err != nil {
		// "job <id> FAILED: <root cause>" when the cluster's REST API said
		// why: the cause is the message ("Job <id> failed: <cause>")
		if _, why, ok := strings.Cut(err.Error(), " FAILED: "); ok {
			return errors.New(why)
		}
	}
	if err != nil && strings.HasSuffix(err.Error(), " FAILED") {
		if cfg, _, _, _ := c.snapshot(); cfg.ClusterREST != "" {
			return fmt.Errorf("the job failed (its exceptions are in the cluster's web UI at %s)", cfg.ClusterREST)
		}
		return errors.New("the job failed (a SQL Gateway's SHOW JOBS does not say why: see the cluster's logs)")
	}
	return err
}

// executeReq runs a statement of req on its connection. EXPLAIN added in
// front of a statement (explainShift) is sent at the statement's own
// place, and the positions of errors on its first line are moved back by
// the prefix, so that they point into the editor's text (the embedded
// engine is told the shifted position instead).
func (wb *Workbench) executeReq(ctx context.Context, req runReq, text string, pos sql.Pos) (table.StatementResult, error) {
	if req.explainShift == 0 || req.conn.embedded() {
		return wb.execute(ctx, req.conn, text, pos)
	}
	at := pos
	at.Column += req.explainShift
	at.Offset += req.explainShift
	res, err := wb.execute(ctx, req.conn, text, at)
	if err != nil {
		err = &shiftedError{err: err, line: at.Line, shift: req.explainShift}
	}
	return res, err
}

var linePosRe = regexp.MustCompile(`\b([Ll]ine) (\d+), column (\d+)`)

// shiftedError is a gateway error whose positions on one line are moved
// left by shift columns.
type shiftedError struct {
	err   error
	line  int
	shift int
}

func (e *shiftedError) Error() string {
	return linePosRe.ReplaceAllStringFunc(e.err.Error(), func(m string) string {
		p := linePosRe.FindStringSubmatch(m)
		line, _ := strconv.Atoi(p[2])
		col, _ := strconv.Atoi(p[3])
		if line == e.line {
			col = max(col-e.shift, 1)
		}
		return fmt.Sprintf("%s %d, column %d", p[1], line, col)
	})
}

func (e *shiftedError) Unwrap() error { return e.err }

// Position is the first position the (shifted) message names.
func (e *shiftedError) Position() (line, col int, ok bool) {
	p := linePosRe.FindStringSubmatch(e.Error())
	if p == nil {
		return 0, 0, false
	}
	line, _ = strconv.Atoi(p[2])
	col, _ = strconv.Atoi(p[3])
	return line, col, true
}

// completeRemote asks the gateway (complete-statement) for the words that
// complete the one before the cursor, off the UI goroutine, and offers
// them as Ctrl+Space does on the embedded engine; an answer that comes
// after the text or cursor moved is dropped.
func (wb *Workbench) completeRemote(t *editorTab, c *connection) {
	text, cur := t.ed.Text(), t.ed.CursorOffset()
	prefix, start := t.ed.WordBeforeCursor()
	from, to := 0, len(text)
	if span, ok := sql.StatementAt(text, cur); ok && span.Start.Offset <= cur && cur <= span.End {
		from, to = span.Start.Offset, span.End
	} else {
		from = strings.LastIndexByte(text[:cur], ';') + 1
		to = cur
	}
	stmt := text[from:to]
	position := len(utf16.Encode([]rune(text[from:cur])))
	wb.setStatus("Completing on " + c.name() + "…")
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var cands []string
		eng, err := c.engine(ctx)
		if err == nil {
			cands, err = eng.CompleteStatement(ctx, stmt, position)
		}
		wb.do(func() {
			if wb.closed || wb.editors.byID(t.id) != t || t.ed.Text() != text || t.ed.CursorOffset() != cur {
				return
			}
			if err != nil {
				wb.setStatus("Completion failed: " + firstLine(err.Error()))
				return
			}
			wb.setStatus("Ready")
			wb.offerRemoteCompletions(t, prefix, start, cands)
		})
	}()
}

// offerRemoteCompletions inserts the only candidate or shows a menu of the
// first 30.
func (wb *Workbench) offerRemoteCompletions(t *editorTab, prefix string, start int, cands []string) {
	if len(cands) == 0 {
		wb.setStatus("No completion for " + prefix)
		return
	}
	end := start + len(prefix)
	apply := func(s string) {
		t.ed.ReplaceRange(start, end, s)
		wb.win.Canvas().Focus(t.ed)
	}
	if len(cands) == 1 {
		apply(cands[0])
		return
	}
	if len(cands) > 30 {
		cands = cands[:30]
	}
	items := make([]*fyne.MenuItem, len(cands))
	for i, s := range cands {
		items[i] = fyne.NewMenuItem(s, func() { apply(s) })
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), wb.win.Canvas(), t.ed.CursorScreenPosition())
}

// remoteJobNote says, at the end of a gateway query's status line, where
// it runs and what is not shown for it: the embedded engine's
// per-operator metrics ("" for other results).
func remoteJobNote(rt *resultTab) string {
	if rt.conn == nil || rt.conn.hasOperatorMetrics() || rt.Job == nil && rt.JobID == "" {
		return ""
	}
	return " · on " + rt.conn.name() + " · operator metrics unavailable"
}
