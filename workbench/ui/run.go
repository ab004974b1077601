package ui

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
)

// runSource says where statements come from.
type runSource uint8

const (
	srcEditor   runSource = iota // an editor tab (errors mark the editor)
	srcInit                      // the workspace's init script
	srcDetached                  // the catalog's Preview / Show DDL
)

// runReq is a script to run on the worker.
type runReq struct {
	source runSource
	tab    *editorTab  // srcEditor; the worker reads only the copies below
	conn   *connection // where it runs (set by submit: the tab's, else embedded)
	// tabID and tabTitle are the tab's, copied when the run is submitted
	// (the worker must not read widgets' state).
	tabID    int64
	tabTitle string
	// doc is the text positions refer to (the editor's text when run);
	// base is the byte offset of text in doc.
	doc  string
	base int
	text string
	// mode is the runtime mode set before running ("" = keep).
	mode  string
	title string // result title of detached runs
	// explainShift, when > 0, marks an "EXPLAIN " prefix of that many
	// bytes added in front of the statement at base.
	explainShift int
	// toFile, when set, sends the rows of the first query to a CSV file
	// instead of a grid (Run to CSV file).
	toFile *fileTarget
	// limit, when > 0, is the LIMIT of a detached query (Preview): once
	// that many rows have arrived, insert only, the query is complete and
	// its job is stopped (a streaming LIMIT over an unbounded source does
	// not end by itself).
	limit int
	// resume, when set, runs a job again after a crash from its
	// checkpoint (resume_jobs.go).
	resume *resumeFrom
	// tile, when set, is the dashboard tile whose query this runs: its
	// rows go to the tile, not a result tab (dashboard_run.go).
	tile *tileRun
}

// runState is what the workbench keeps of one script run (the SQL
// Client's state, such as an open statement set, is the runner's).
type runState struct {
	fileUsed bool // the Run to CSV file target got its query
	// job is the INSERT job the last statement submitted (nil: none).
	job *jobWatch
	// started is when the current statement started.
	started time.Time
}

// worker runs submitted scripts one after another, in order.
func (wb *Workbench) worker(q <-chan queued) {
	wb.ensureCatalogSampleData() // workspace_catalog.go: the demo's files, before any statement
	for j := range q {
		j.done(wb.execScript(j.ctx, j.req))
	}
}

// queued is a script waiting for the worker.
type queued struct {
	ctx  context.Context
	req  runReq
	done func(ok bool)
}

// submit queues a script; it returns at once.
func (wb *Workbench) submit(req runReq) {
	if wb.closed {
		return
	}
	wb.mu.Lock()
	id := wb.nextRun
	wb.nextRun++
	ctx, cancel := context.WithCancel(context.Background())
	wb.runCancels[id] = cancel
	wb.mu.Unlock()
	wb.heap.tick(true, time.Now()) // rows may come: the idle memory limit is lifted
	req.tabID = -1
	if req.tab != nil {
		req.tab.ed.ClearErrorMarkers()
		req.mode = req.tab.mode
		req.tabID, req.tabTitle = req.tab.id, req.tab.title
		if req.conn == nil {
			req.conn = wb.conns.of(req.tab)
		}
	}
	if req.conn == nil {
		req.conn = wb.conns.embedded
	}
	q := wb.runQ
	if req.conn.q != nil {
		q = req.conn.q
	}
	wb.running.Add(1)
	what := runSummary(req) // run_status.go: the status bar says what runs
	if what != "" {
		wb.setStatus("Running " + what)
	} else {
		wb.setStatus("Running…")
	}
	q <- queued{ctx: ctx, req: req, done: func(ok bool) {
		cancel()
		req.tile.ran(ok) // dashboard hook (dashboard_run.go)
		wb.mu.Lock()
		delete(wb.runCancels, id)
		wb.mu.Unlock()
		left := wb.running.Add(-1)
		wb.do(func() {
			if left == 0 && ok && len(wb.stopWaits) == 0 {
				if what != "" {
					wb.setStatus("Ran " + what)
				} else {
					wb.setStatus("Ready")
				}
			}
			wb.catalogChanged(req.conn)
			wb.updateStatus()
		})
		if left == 0 {
			wb.idleMu.Lock()
			for _, c := range wb.idleWaiters {
				close(c)
			}
			wb.idleWaiters = nil
			wb.idleMu.Unlock()
		}
	}}
}

// waitIdle returns a channel closed when no script is queued or running
// (for tests).
func (wb *Workbench) waitIdle() <-chan struct{} {
	c := make(chan struct{})
	wb.idleMu.Lock()
	defer wb.idleMu.Unlock()
	if wb.running.Load() == 0 {
		close(c)
		return c
	}
	wb.idleWaiters = append(wb.idleWaiters, c)
	return c
}

// runInit runs the workspace's init script (errors are reported and the
// rest still runs, so one broken table does not hide the others).
func (wb *Workbench) runInit() {
	wb.mu.Lock()
	script := wb.initScript
	wb.mu.Unlock()
	if strings.TrimSpace(script) == "" {
		return
	}
	wb.submit(runReq{source: srcInit, doc: script, text: script})
}

// runCurrentStatement runs the selection, or the statement under the
// cursor, of the current tab (Ctrl+Enter anywhere in the window).
func (wb *Workbench) runCurrentStatement() {
	t := wb.editors.current()
	if t == nil {
		return
	}
	stmt, start, ok := currentStatement(t)
	if !ok {
		wb.setStatus("Nothing to run: the tab holds no statement")
		return
	}
	wb.runEditorStatement(t, stmt, start) // run_preamble.go: a SET preamble runs with its query
}

// currentStatement is what Ctrl+Enter runs: the selection or the statement
// under the cursor, with its byte offset.
func currentStatement(t *editorTab) (string, int, bool) {
	if s, _, text := t.ed.Selection(); strings.TrimSpace(text) != "" {
		lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
		return strings.TrimSpace(text), s + lead, true
	}
	text := t.ed.Text()
	span, ok := sql.StatementAt(text, t.ed.CursorOffset())
	if !ok {
		return "", 0, false
	}
	return span.Text, span.Start.Offset, true
}

// runStatementIn runs stmt, found at byte offset start of t's text, and
// flashes it.
func (wb *Workbench) runStatementIn(t *editorTab, stmt string, start int) {
	wb.flash(t, start, start+len(stmt))
	wb.submit(runReq{source: srcEditor, tab: t, doc: t.ed.Text(), base: start, text: stmt})
}

// runCurrentScript runs the whole current tab (Ctrl+Shift+Enter).
func (wb *Workbench) runCurrentScript() {
	if t := wb.editors.current(); t != nil {
		wb.runScriptIn(t, t.ed.Text())
	}
}

func (wb *Workbench) runScriptIn(t *editorTab, script string) {
	wb.flash(t, 0, len(script))
	wb.submit(runReq{source: srcEditor, tab: t, doc: script, text: script})
}

func (wb *Workbench) flash(t *editorTab, start, end int) {
	d := wb.opts.FlashDuration
	if d == 0 {
		d = 600 * time.Millisecond
	}
	if d > 0 {
		t.ed.HighlightRange(start, end, d)
	}
}

// explainCurrent shows the plan of the statement under the cursor (Ctrl+E).
func (wb *Workbench) explainCurrent() {
	t := wb.editors.current()
	if t == nil {
		return
	}
	if stmt, start, ok := currentStatement(t); ok {
		wb.explain(t, stmt, start)
	}
}

func (wb *Workbench) explain(t *editorTab, stmt string, start int) {
	const prefix = "EXPLAIN "
	if strings.HasPrefix(strings.ToUpper(stmt), "EXPLAIN") {
		wb.runStatementIn(t, stmt, start)
		return
	}
	wb.flash(t, start, start+len(stmt))
	wb.submit(runReq{source: srcEditor, tab: t, doc: t.ed.Text(), base: start, text: prefix + stmt, explainShift: len(prefix)})
}

// formatCurrent pretty-prints the selection or the statement under the
// cursor (Ctrl+Shift+F).
func (wb *Workbench) formatCurrent() {
	if t := wb.editors.current(); t != nil {
		wb.format(t)
	}
}

func (wb *Workbench) format(t *editorTab) {
	wb.formatRange(t) // authoring: the statement or the selection (format_range.go)
}

// runDetached runs a statement that comes from the catalog tree, in the
// current tab's runtime mode.
func (wb *Workbench) runDetached(stmt, title string) {
	mode := modeStreaming
	if t := wb.editors.current(); t != nil {
		mode = t.mode
	}
	wb.runDetachedIn(stmt, title, mode)
}

// preview shows the first 100 rows of a table or view (catalog ▸ Preview).
// It runs in streaming mode whatever the tab's mode, as a table can be read
// in streaming mode whether its source ends or not (batch mode refuses an
// unbounded one), and LIMIT ends the query at the 100th row. The tabs keep
// their modes: each run sets its tab's mode first.
func (wb *Workbench) preview(r catalogbrowser.Ref) {
	const rows = 100
	stmt := fmt.Sprintf("SELECT * FROM %s LIMIT %d", r.QualifiedName(), rows)
	wb.submit(runReq{source: srcDetached, doc: stmt, text: stmt, title: "Preview of " + r.Object, mode: modeStreaming, conn: wb.conns.shown, limit: rows})
}

// runDetachedIn runs a statement from the catalog tree in a runtime mode.
func (wb *Workbench) runDetachedIn(stmt, title, mode string) {
	wb.submit(runReq{source: srcDetached, doc: stmt, text: stmt, title: title, mode: mode, conn: wb.conns.shown})
}

// Stop cancels the scripts being run and the running queries started from
// the current editor tab; when there are none, the selected result's query.
// While a result's grid sorts in the background it cancels the sort and
// nothing else.
//
// The status bar says "Stopping…" and Stop is disabled until every one of
// them has ended (a job may take a moment to end), then "Canceled".
func (wb *Workbench) Stop() {
	if wb.cancelSorts() {
		return
	}
	var ending []func() bool
	wb.mu.Lock()
	for id, c := range wb.runCancels {
		c()
		ending = append(ending, func() bool {
			wb.mu.Lock()
			defer wb.mu.Unlock()
			_, running := wb.runCancels[id]
			return running
		})
	}
	wb.mu.Unlock()
	var tabID int64 = -1
	if t := wb.editors.current(); t != nil {
		tabID = t.id
	}
	var rts []*resultTab
	for _, rt := range wb.results {
		if rt.IsRunning() && rt.editorTab == tabID {
			rts = append(rts, rt)
		}
	}
	if len(rts) == 0 && len(ending) == 0 {
		if rt := wb.selectedResult(); rt != nil && rt.IsRunning() {
			rts = append(rts, rt)
		}
	}
	wb.awaitStop(ending)
	wb.stopResults(rts...)
}

// stopResults cancels the queries of result tabs (their Stop buttons).
func (wb *Workbench) stopResults(rts ...*resultTab) {
	var ending []func() bool
	for _, rt := range rts {
		if !rt.IsRunning() {
			continue
		}
		rt.Stop()
		rt.Tick(rt.Item() == wb.bottom.Selected()) // STOPPING, its buttons disabled
		ending = append(ending, rt.Stopping)
	}
	wb.awaitStop(ending)
}

// cancelSorts cancels the results' background grid sorts (the status bar
// says "Esc cancels" wherever the focus is, usually the editor); it reports
// whether one was running, in which case Esc stops nothing else.
func (wb *Workbench) cancelSorts() bool {
	cancelled := false
	for _, rt := range wb.results {
		if g := rt.Grid(); g != nil && g.Sorting() {
			g.CancelSort()
			cancelled = true
		}
	}
	return cancelled
}

// awaitStop shows "Stopping…" until every ending function reports false
// (tickStopping checks them).
func (wb *Workbench) awaitStop(ending []func() bool) {
	if len(ending) == 0 {
		return
	}
	wb.stopWaits = append(wb.stopWaits, ending...)
	wb.stopSince = time.Now()
	wb.setStatus("Stopping…")
	wb.stopBtn.Disable()
}

// stopRetryAfter is how long Stop stays disabled while what it stopped has
// not ended: then it may be pressed again.
const stopRetryAfter = 10 * time.Second

// tickStopping ends "Stopping…" once what was stopped has ended.
func (wb *Workbench) tickStopping() {
	if len(wb.stopWaits) == 0 {
		return
	}
	for _, f := range wb.stopWaits {
		if f() {
			if time.Since(wb.stopSince) > stopRetryAfter {
				wb.stopBtn.Enable()
			}
			return
		}
	}
	wb.stopWaits = nil
	wb.setStatus("Canceled")
	wb.stopBtn.Enable()
}

// execScript runs each statement of a script in order; a failing statement
// stops the script (except the init script). It reports whether every
// statement succeeded.
func (wb *Workbench) execScript(ctx context.Context, req runReq) (ok bool) {
	ok = true
	defer func() {
		if p := recover(); p != nil {
			ok = false
			msg := fmt.Sprintf("Internal error while running statements: %v\n%s", p, debug.Stack())
			wb.do(func() {
				wb.messages.add(levelError, msg, nil)
				wb.showPanel(wb.messages.item)
			})
		}
	}()
	if req.source == srcInit {
		wb.ensureSampleData(req.text)
	}
	stmts := session.Split(req.text, req.at())
	if len(stmts) == 0 {
		wb.do(func() { wb.setStatus("Nothing to run") })
		return false
	}
	if req.mode != "" {
		if err := wb.applyMode(ctx, req.conn, req.mode); err != nil {
			wb.fail(req, stmts[0].Text, stmts[0].Pos, err, time.Now())
			return false
		}
	}
	if req.resume != nil {
		defer wb.applyResume(req.resume)()
	}
	var st runState
	r := wb.newRunner(req, &st)
	for i, s := range stmts {
		if ctx.Err() != nil {
			left := len(stmts) - i
			wb.post(levelWarning, fmt.Sprintf("Stopped: %d statement(s) not run.", left), nil)
			break
		}
		st.job = nil
		if !wb.execOne(ctx, req, r, &st, s) {
			ok = false
			if req.source != srcInit {
				break
			}
		}
		if st.job != nil && i < len(stmts)-1 && !wb.waitJob(ctx, req, st.job) && ctx.Err() == nil {
			ok = false
			if req.source != srcInit {
				wb.post(levelWarning, fmt.Sprintf("Job %s did not finish: %d statement(s) after it not run.", st.job.id, len(stmts)-1-i), req.loc(st.job.pos))
				break
			}
		}
	}
	if r.Finish() != nil {
		ok = false
		wb.post(levelError, "BEGIN STATEMENT SET without END: the statement set was not submitted.", nil)
	}
	if mode, err := wb.sessionMode(ctx, req.conn); req.tab != nil && err == nil {
		t := req.tab
		wb.do(func() {
			if t.mode != mode {
				t.mode = mode
				wb.editors.saveMode(t)
				wb.updateStatus()
			}
		})
	}
	if req.source == srcInit {
		if ok {
			wb.post(levelInfo, "Init script done (File ▸ Edit init script… changes it).", nil)
		} else {
			wb.post(levelWarning, "Init script done with errors (see above); File ▸ Edit init script… fixes it.", nil)
		}
		wb.do(func() {
			// Show the user's tables right away.
			if wb.conns.shown == req.conn {
				wb.catalog.OpenPath(req.conn.src.Current())
			}
		})
	}
	return ok
}

// ensureSampleData extracts the bundled sample files again when the init
// script reads them from the data folder and they are missing or changed
// (a cleaned cache): cheap when they are in place.
func (wb *Workbench) ensureSampleData(script string) {
	dir, err := wb.dataDir()
	if err != nil || !strings.Contains(script, strings.ReplaceAll(dir, "'", "''")) {
		return
	}
	if _, err := assets.ExtractDataTo(dir); err != nil {
		wb.post(levelWarning, "The sample data could not be extracted again: "+err.Error(), nil)
	}
}

// posAt returns the 1-based line and column (in runes) of byte offset off
// of doc.
func posAt(doc string, off int) sql.Pos {
	off = max(0, min(off, len(doc)))
	line := 1 + strings.Count(doc[:off], "\n")
	ls := strings.LastIndexByte(doc[:off], '\n') + 1
	return sql.Pos{Line: line, Column: 1 + utf8.RuneCountInString(doc[ls:off]), Offset: off}
}

// at is where the run's text starts in its document: positions of
// statements and errors refer to the document. An EXPLAIN the workbench
// put in front of a statement (explainShift) lies before it.
func (r runReq) at() sql.Pos {
	pos := posAt(r.doc, r.base)
	if r.explainShift > 0 {
		pos.Column -= r.explainShift
		pos.Offset -= r.explainShift
	}
	return pos
}

// newRunner returns the runner of a script run (engine/session): the SQL
// Client's statement sets and commands, each statement parsed once, the
// results shown by showResult. A gateway, which may be a Flink cluster
// knowing syntax Riffle does not, is sent what Riffle cannot parse.
func (wb *Workbench) newRunner(req runReq, st *runState) *session.Runner {
	return session.NewRunner(connExecutor{wb: wb, req: req}, session.Options{
		PassThrough: !req.conn.embedded(),
		KeepOnQuit:  true,
		Hooks: session.Hooks{
			Command: func(s session.Statement, ev session.Event) { wb.clientCommand(req, s, ev) },
			Result: func(_ context.Context, s session.Statement, res table.StatementResult) error {
				wb.showResult(req, st, s, res)
				return nil
			},
		},
	})
}

// connExecutor runs the runner's statements on the run's connection: the
// embedded engine runs the parsed statement; a gateway is sent the text
// (Workbench.executeReq: a new session when the gateway lost the old one,
// positions of an added EXPLAIN moved back).
type connExecutor struct {
	wb  *Workbench
	req runReq
}

func (x connExecutor) ExecuteParsed(ctx context.Context, st sql.Statement, text string, at sql.Pos) (table.StatementResult, error) {
	c := x.req.conn
	switch {
	case st != nil && c.embedded():
		eng, err := c.engine(ctx)
		if err != nil {
			return nil, err
		}
		return eng.ExecuteParsed(ctx, st, text, at)
	case at == sql.Pos{}: // a statement set's EXECUTE STATEMENT SET
		return x.wb.execute(ctx, c, text, at)
	}
	return x.wb.executeReq(ctx, x.req, text, at)
}

// execOne runs one statement; it reports success.
func (wb *Workbench) execOne(ctx context.Context, req runReq, r *session.Runner, st *runState, s session.Statement) bool {
	st.started = time.Now()
	err := r.Run(ctx, s)
	if err == nil {
		wb.markReplayed(req, s.Parsed) // replayed_temporaries.go
		return true
	}
	var se *session.Error
	if errors.As(err, &se) {
		s, err = se.Statement, se.Err
	}
	if wb.rerunUnchanged(req, s.Parsed, s.Text, s.Pos, st.started, err) { // workspace_catalog.go: an unchanged CREATE run again
		return true
	}
	if wb.replaceReplayed(req, s.Parsed, s.Text, s.Pos, st.started, err) { // replayed_temporaries.go: the init script's temporary
		return true
	}
	wb.fail(req, s.Text, s.Pos, statementSetError(s, err), st.started)
	return false
}

// statementSetError words the runner's statement set errors as the
// workbench does.
func statementSetError(s session.Statement, err error) error {
	switch {
	case errors.Is(err, session.ErrNotInStatementSet):
		if _, begin := s.Parsed.(*sql.BeginStatementSet); begin {
			return errors.New("a statement set is already open")
		}
		return errors.New("only INSERT statements are allowed inside a statement set")
	case errors.Is(err, session.ErrNoStatementSet):
		return errors.New("END without BEGIN STATEMENT SET")
	}
	return err
}

// showResult shows what the engine returned for statement s: a query's
// rows in a result tab (or a CSV file), an INSERT's job, a static result,
// or a message.
func (wb *Workbench) showResult(req runReq, st *runState, s session.Statement, res table.StatementResult) {
	text, started := s.Text, st.started
	switch {
	case res.IsQuery() && req.tile != nil:
		wb.startTile(req, text, res, started) // dashboard hook (dashboard_run.go)
	case res.IsQuery() && req.toFile != nil && !st.fileUsed:
		st.fileUsed = true
		wb.streamToFile(req, text, res, started, *req.toFile)
	case res.IsQuery():
		wb.startQuery(req, text, res, started)
		wb.rememberJob(req, text, res, started) // resume_jobs.go
	case res.JobID() != "":
		st.job = wb.watchJob(req, text, res, started)
		wb.rememberJob(req, text, res, started)
	case res.ResultKind() == table.SuccessWithContent:
		wb.showStatic(req, text, res, started)
	default:
		msg := res.Message()
		if msg == "" {
			msg = "[INFO] Execute statement succeeded."
		}
		// Only the embedded engine's DDL is replayed at start: a gateway's
		// tables may name paths of another machine.
		msg += wb.ddlNote(req, s.Parsed, text) // workspace_catalog.go: saved in the workspace catalog, or recorded in the init script
		if req.source != srcInit {
			wb.addHistory(text, started, time.Since(started), 0, "")
			wb.post(levelInfo, summary(text)+"\n"+msg, req.loc(s.Pos))
		}
	}
}

// clientCommand shows what the runner did for a SQL Client command: BEGIN
// STATEMENT SET … END, HELP, CLEAR, QUIT.
func (wb *Workbench) clientCommand(req runReq, s session.Statement, ev session.Event) {
	loc := req.loc(s.Pos)
	switch ev {
	case session.SetBegun:
		wb.post(levelInfo, "[INFO] Begin a statement set.", loc)
	case session.SetAdded:
		wb.post(levelInfo, "[INFO] Add SQL update statement to the statement set.", loc)
	case session.SetEmpty:
		wb.post(levelInfo, "[INFO] No statement in the statement set, skip submit.", loc)
	case session.Help:
		wb.post(levelInfo, "Run a statement with Ctrl+Enter, the whole tab with Ctrl+Shift+Enter; Esc stops. "+
			"Every Flink SQL statement is accepted: DDL, DML, queries, SHOW, DESCRIBE, EXPLAIN, SET, RESET and USE.", loc)
	case session.Clear:
		wb.do(func() { wb.messages.clear() })
	case session.Quit:
		cmd := "QUIT"
		if c, ok := s.Parsed.(*sql.ClientCommand); ok {
			cmd = c.Command
		}
		wb.post(levelInfo, cmd+" is a SQL Client command; close the window to quit.", loc)
	}
}

// isCatalogDDL reports statements that change catalogs, databases, tables,
// views, functions or the current database: those the init script replays.
func isCatalogDDL(st sql.Statement) bool {
	switch s := st.(type) {
	case *sql.CreateTable:
		return s.AsQuery == nil
	case *sql.CreateView, *sql.CreateFunction, *sql.CreateDatabase, *sql.CreateCatalog, *sql.Drop,
		*sql.AlterTable, *sql.AlterView, *sql.AlterDatabase, *sql.AlterFunction, *sql.AlterCatalog,
		*sql.Use, *sql.UseModules, *sql.LoadModule, *sql.UnloadModule:
		return true
	}
	return false
}

// recordInit records a DDL statement in the init script (see recordDDL)
// unless recording is off; it reports whether the script changed.
func (wb *Workbench) recordInit(text string, st sql.Statement) bool {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	if !wb.recordDDL {
		return false
	}
	script, changed := recordDDL(wb.initScript, text, st)
	if !changed {
		return false
	}
	if err := wb.store.SaveInitScript(context.Background(), script); err != nil {
		wb.post(levelError, "Could not record the statement in the init script: "+err.Error(), nil)
		return false
	}
	wb.initScript = script
	return true
}
