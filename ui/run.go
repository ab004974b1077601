package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/catalogbrowser"
	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/persistence"
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
}

// runState is the state of one script run (the SQL Client's statement
// set between BEGIN STATEMENT SET and END).
type runState struct {
	inSet    bool
	setText  []string
	fileUsed bool // the Run to CSV file target got its query
	// job is the INSERT job the last statement submitted (nil: none).
	job *jobWatch
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
	wb.setStatus("Running…")
	q <- queued{ctx: ctx, req: req, done: func(ok bool) {
		cancel()
		wb.mu.Lock()
		delete(wb.runCancels, id)
		wb.mu.Unlock()
		left := wb.running.Add(-1)
		wb.do(func() {
			if left == 0 && ok && len(wb.stopWaits) == 0 {
				wb.setStatus("Ready")
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
//
// The status bar says "Stopping…" and Stop is disabled until every one of
// them has ended (a job may take a moment to end), then "Canceled".
func (wb *Workbench) Stop() {
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
		if rt.isRunning() && rt.editorTab == tabID {
			rts = append(rts, rt)
		}
	}
	if len(rts) == 0 && len(ending) == 0 {
		if rt := wb.selectedResult(); rt != nil && rt.isRunning() {
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
		if !rt.isRunning() {
			continue
		}
		rt.stop()
		rt.tick(rt.item == wb.bottom.Selected()) // STOPPING, its buttons disabled
		ending = append(ending, rt.stopping)
	}
	wb.awaitStop(ending)
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
	spans := sql.SplitStatements(req.text)
	if len(spans) == 0 {
		wb.do(func() { wb.setStatus("Nothing to run") })
		return false
	}
	if req.mode != "" {
		if err := wb.applyMode(ctx, req.conn, req.mode); err != nil {
			wb.fail(req, spans[0].Text, posAt(req.doc, req.base+spans[0].Start.Offset), err, time.Now())
			return false
		}
	}
	var st runState
	for i, sp := range spans {
		if ctx.Err() != nil {
			left := len(spans) - i
			wb.post(levelWarning, fmt.Sprintf("Stopped: %d statement(s) not run.", left), nil)
			break
		}
		abs := req.base + sp.Start.Offset
		var pos sql.Pos
		if req.explainShift > 0 {
			pos = posAt(req.doc, req.base)
			pos.Column -= req.explainShift
			pos.Offset -= req.explainShift
		} else {
			pos = posAt(req.doc, abs)
		}
		st.job = nil
		if !wb.execOne(ctx, req, &st, sp.Text, pos) {
			ok = false
			if req.source != srcInit {
				break
			}
		}
		if st.job != nil && i < len(spans)-1 && !wb.waitJob(ctx, req, st.job) && ctx.Err() == nil {
			ok = false
			if req.source != srcInit {
				wb.post(levelWarning, fmt.Sprintf("Job %s did not finish: %d statement(s) after it not run.", st.job.id, len(spans)-1-i), req.loc(st.job.pos))
				break
			}
		}
	}
	if st.inSet {
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

// execOne runs one statement; it reports success.
func (wb *Workbench) execOne(ctx context.Context, req runReq, st *runState, text string, pos sql.Pos) bool {
	started := time.Now()
	stmt, err := sql.ParseAt(text, pos)
	if err != nil && req.conn.embedded() {
		wb.fail(req, text, pos, err, started)
		return false
	}
	// A gateway may be a Flink cluster knowing syntax Riffle does not: a
	// statement Riffle cannot parse is sent anyway, the server decides.
	if stmt != nil {
		if done, ok := wb.clientCommand(ctx, req, st, stmt, text, pos, started); done {
			return ok
		}
	}
	res, err := wb.executeReq(ctx, req, text, pos)
	if err != nil {
		if wb.rerunUnchanged(req, stmt, text, pos, started, err) { // workspace_catalog.go: an unchanged CREATE run again
			return true
		}
		wb.fail(req, text, pos, err, started)
		return false
	}
	switch {
	case res.IsQuery() && req.toFile != nil && !st.fileUsed:
		st.fileUsed = true
		wb.streamToFile(req, text, res, started, *req.toFile)
	case res.IsQuery():
		wb.startQuery(req, text, res, started)
	case res.JobID() != "":
		st.job = wb.watchJob(req, text, res, started)
	case res.GetResultKind() == table.SuccessWithContent:
		wb.showStatic(req, text, res, started)
	default:
		msg := res.Message()
		if msg == "" {
			msg = "[INFO] Execute statement succeeded."
		}
		// Only the embedded engine's DDL is replayed at start: a gateway's
		// tables may name paths of another machine.
		msg += wb.ddlNote(req, stmt, text) // workspace_catalog.go: saved in the workspace catalog, or recorded in the init script
		if req.source != srcInit {
			wb.addHistory(text, started, time.Since(started), 0, "")
			wb.post(levelInfo, summary(text)+"\n"+msg, req.loc(pos))
		}
	}
	return true
}

// clientCommand handles the SQL Client's own statements: BEGIN STATEMENT
// SET … END, HELP, CLEAR, QUIT. done reports that stmt was one.
func (wb *Workbench) clientCommand(ctx context.Context, req runReq, st *runState, stmt sql.Statement, text string, pos sql.Pos, started time.Time) (done, ok bool) {
	switch s := stmt.(type) {
	case *sql.BeginStatementSet:
		if st.inSet {
			wb.fail(req, text, pos, errors.New("a statement set is already open"), started)
			return true, false
		}
		st.inSet, st.setText = true, nil
		wb.post(levelInfo, "[INFO] Begin a statement set.", req.loc(pos))
		return true, true
	case *sql.End:
		if !st.inSet {
			wb.fail(req, text, pos, errors.New("END without BEGIN STATEMENT SET"), started)
			return true, false
		}
		st.inSet = false
		if len(st.setText) == 0 {
			wb.post(levelInfo, "[INFO] No statement in the statement set, skip submit.", req.loc(pos))
			return true, true
		}
		set := "EXECUTE STATEMENT SET BEGIN\n" + strings.Join(st.setText, ";\n") + ";\nEND"
		res, err := wb.execute(ctx, req.conn, set, sql.Pos{})
		if err != nil {
			wb.fail(req, set, pos, err, started)
			return true, false
		}
		st.job = wb.watchJob(req, set, res, started)
		return true, true
	case *sql.Insert:
		if st.inSet {
			st.setText = append(st.setText, text)
			wb.post(levelInfo, "[INFO] Add SQL update statement to the statement set.", req.loc(pos))
			return true, true
		}
	case *sql.ClientCommand:
		switch s.Command {
		case "HELP":
			wb.post(levelInfo, "Run a statement with Ctrl+Enter, the whole tab with Ctrl+Shift+Enter; Esc stops. "+
				"Every Flink SQL statement is accepted: DDL, DML, queries, SHOW, DESCRIBE, EXPLAIN, SET, RESET and USE.", req.loc(pos))
		case "CLEAR":
			wb.do(func() { wb.messages.clear() })
		default:
			wb.post(levelInfo, s.Command+" is a SQL Client command; close the window to quit.", req.loc(pos))
		}
		return true, true
	}
	if st.inSet {
		wb.fail(req, text, pos, errors.New("only INSERT statements are allowed inside a statement set"), started)
		return true, false
	}
	return false, true
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

// resultTitle names the results of a run: the detached run's title, or the
// editor tab's title when the user named it ("" = named after the query).
func (r runReq) resultTitle() string {
	if r.title != "" || r.tab == nil {
		return r.title
	}
	if defaultTabTitle.MatchString(r.tabTitle) {
		return ""
	}
	return r.tabTitle
}

var defaultTabTitle = regexp.MustCompile(`^Query \d+$`)

// loc is where a message about the statement at pos points.
func (r runReq) loc(pos sql.Pos) *msgLoc {
	if r.tab == nil {
		return nil
	}
	return &msgLoc{tab: r.tab, line: pos.Line, col: pos.Column}
}

// post adds a message from the worker.
func (wb *Workbench) post(level msgLevel, text string, loc *msgLoc) {
	wb.do(func() { wb.messages.add(level, text, loc) })
}

// postAs adds or replaces (messagesPanel.put) the message id from the
// worker.
func (wb *Workbench) postAs(id int64, level msgLevel, text string, loc *msgLoc) {
	wb.do(func() { wb.messages.put(id, level, text, loc) })
}

// summary is a statement's first line, shortened, for messages.
func summary(text string) string {
	first, _, more := strings.Cut(strings.TrimSpace(text), "\n")
	first = strings.TrimSpace(first)
	if utf8.RuneCountInString(first) > 80 {
		first = string([]rune(first)[:79]) + "…"
	} else if more {
		first += " …"
	}
	return first
}

// errPos extracts the 1-based position of a parse or validation error.
func errPos(err error) (line, col int, ok bool) {
	var se *sql.Error
	if errors.As(err, &se) && se.Line > 0 {
		return se.Line, se.Column, true
	}
	var pe *plan.Error
	if errors.As(err, &pe) && pe.Line > 0 {
		return pe.Line, pe.Column, true
	}
	// a gateway's error names its position in its message
	var re interface{ Position() (int, int, bool) }
	if errors.As(err, &re) {
		return re.Position()
	}
	return 0, 0, false
}

var errEndRe = regexp.MustCompile(`\bto line (\d+), column (\d+)`)

// errEnd extracts where an error's span ends (1-based, the column of its
// last character), when it reports one: "From line 1, column 40 to line
// 1, column 55: …" (the embedded validator's and Flink's wording).
func errEnd(err error) (line, col int, ok bool) {
	var pe *plan.Error
	if errors.As(err, &pe) && pe.EndLine > 0 {
		return pe.EndLine, pe.EndColumn, true
	}
	m := errEndRe.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, 0, false
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	return line, col, line > 0 && col > 0
}

// fail reports a failed statement: a marker in the editor at the error's
// position (or the statement's start), the message in Messages, history.
// A gateway that cannot be reached marks nothing: the statement is not
// at fault.
func (wb *Workbench) fail(req runReq, text string, pos sql.Pos, err error, started time.Time) {
	line, col, ok := errPos(err)
	if !ok {
		line, col = pos.Line, max(pos.Column, 1)
	}
	msg := err.Error()
	connMsg, connErr := unreachable(err)
	if connErr {
		msg = connMsg
	}
	if req.source != srcInit {
		wb.addHistory(text, started, time.Since(started), 0, msg)
	}
	where := ""
	switch req.source {
	case srcInit:
		where = fmt.Sprintf("Init script, line %d: ", line)
	case srcEditor:
		if !ok && !connErr {
			where = fmt.Sprintf("Statement at line %d: ", line)
		}
	}
	t := req.tab
	wb.do(func() {
		var loc *msgLoc
		if t != nil && wb.editors.byID(t.id) == t && !connErr {
			if el, ec, span := errEnd(err); span && ok {
				t.ed.SetErrorSpan(line-1, col-1, el-1, ec, msg) // the whole span
			} else {
				t.ed.SetErrorMarker(line-1, col-1, msg)
			}
			loc = &msgLoc{tab: t, line: line, col: col}
		}
		wb.messages.add(levelError, "[ERROR] "+where+msg, loc)
		wb.showPanel(wb.messages.item)
		wb.setStatus("Error: " + firstLine(msg))
	})
}

func firstLine(s string) string {
	f, _, _ := strings.Cut(s, "\n")
	return f
}

// addHistory records a statement and returns its history ID (0 on error).
func (wb *Workbench) addHistory(text string, started time.Time, d time.Duration, rows int64, errText string) int64 {
	h := persistence.HistoryEntry{Statement: text, Started: started, Duration: d, Rows: rows, Error: errText}
	id, err := wb.store.AddHistory(context.Background(), h)
	if err != nil {
		return 0
	}
	h.ID = id
	wb.do(func() { wb.history.put(h) })
	return id
}

func (wb *Workbench) updateHistory(h persistence.HistoryEntry) {
	if h.ID == 0 {
		return
	}
	if err := wb.store.UpdateHistory(context.Background(), h); err == nil {
		wb.do(func() { wb.history.put(h) })
	}
}

// resultColumns returns a result's columns.
func resultColumns(res interface{ GetTableSchema() *table.TableSchema }) ([]results.Column, []string, []*types.DataType) {
	sch := res.GetTableSchema()
	names, ts := sch.GetFieldNames(), sch.GetFieldDataTypes()
	cols := make([]results.Column, len(names))
	for i := range names {
		cols[i] = results.Column{Name: names[i], Type: ts[i]}
	}
	return cols, names, ts
}

// newResult creates the store of a result; zone is the session time zone
// (table.local-time-zone) TIMESTAMP_LTZ values are shown in.
func (wb *Workbench) newResult(cols []results.Column, zone *time.Location) *results.Result {
	if zone == nil {
		zone = time.Local
	}
	return results.New(cols, results.Options{
		MaxTableRows:     wb.opts.MaxTableRows,
		MaxChangelogRows: wb.opts.MaxChangelogRows,
		Location:         zone,
	})
}

// startQuery opens a result tab for a query and starts reading its rows.
func (wb *Workbench) startQuery(req runReq, text string, res table.StatementResult, started time.Time) {
	cols, names, ts := resultColumns(res)
	r := wb.newResult(cols, res.TimeZone())
	ctx, cancel := context.WithCancel(context.Background())
	rt := &resultTab{wb: wb, stmt: text, res: r, cancel: cancel, started: started, title: req.resultTitle(),
		jobID: res.JobID(), conn: req.conn, streaming: wb.ranStreaming(req)}
	if tr := tableResult(res); tr != nil {
		rt.job = tr.GetJobClient()
	}
	rt.editorTab = req.tabID
	rt.limit = req.limit
	rt.historyID = wb.addHistory(text, started, 0, 0, "")
	rt.msgID = wb.messages.reserve()
	wb.postAs(rt.msgID, levelInfo, summary(text)+"\nRunning…", nil)
	wb.attachPlan(rt, req.conn) // monitoring hook: the Plan view's plan and text
	wb.do(func() { wb.addResult(rt) })
	wb.collectors.Add(1)
	go func() {
		defer wb.collectors.Done()
		wb.collect(ctx, rt, res, names, ts)
	}()
}

// collect reads a query's rows into its Result until the end, an error or
// Stop. It never waits for the UI.
func (wb *Workbench) collect(ctx context.Context, rt *resultTab, sres table.StatementResult, names []string, ts []*types.DataType) {
	r := rt.res
	var finalErr error
	defer func() {
		if p := recover(); p != nil {
			finalErr = fmt.Errorf("internal error reading the result: %v", p)
			r.Finish(finalErr)
		}
		rt.ended.Store(time.Now().UnixNano())
		wb.queryEnded(rt, finalErr)
	}()
	res := tableResult(sres)
	if res == nil {
		finalErr = wb.collectRows(ctx, rt, sres)
		return
	}
	it, err := res.Collect()
	if err != nil {
		finalErr = err
		r.Finish(err)
		return
	}
	defer it.Close()
	schema := types.ArrowSchema(names, ts)
	useRows := false
	for {
		b, err := it.NextBatch(ctx)
		if err == io.EOF {
			r.Finish(nil)
			wb.sortAsQueried(rt) // query_sort.go: a Top-N's rows in its order
			return
		}
		if err != nil {
			if rt.canceled.Load() || ctx.Err() != nil || rt.jobStopped() {
				finalErr = context.Canceled
			} else {
				finalErr = err
			}
			r.Finish(finalErr)
			return
		}
		if b == nil || b.Len == 0 {
			continue
		}
		added := false
		if !useRows {
			before := r.Stats().Changes
			if err := r.AddRecord(b.Record(schema), b.Kinds); err != nil && r.Stats().Changes == before {
				// A column type the Arrow reader does not know: convert
				// through engine/types' values from now on.
				useRows = true
			} else {
				added = true
			}
		}
		if !added {
			_ = r.AddRows(b.Rows(ts))
		}
		if rt.limitReached() {
			if rt.job != nil {
				_ = rt.job.Cancel()
			}
			r.Finish(nil)
			return
		}
	}
}

// limitReached reports that every row of a query's LIMIT (rt.limit) has
// arrived, insert only, so no row can change any more: the query is
// complete although a streaming job over an unbounded source still runs.
func (rt *resultTab) limitReached() bool {
	st := rt.res.Stats()
	return rt.limit > 0 && st.Rows >= rt.limit && st.Changes == int64(st.Rows)
}

// queryEnded records a finished, cancelled or failed query.
func (wb *Workbench) queryEnded(rt *resultTab, err error) {
	st := rt.res.Stats()
	d := rt.elapsed()
	h := persistence.HistoryEntry{ID: rt.historyID, Duration: d, Rows: int64(st.Rows)}
	var msg string
	level := levelInfo
	switch {
	case err == nil:
		msg = fmt.Sprintf("%s\nFinished: %s in %s.", summary(rt.stmt), plural(st.Rows, "row"), fmtDuration(d))
		if rt.sortedAs != "" {
			msg += fmt.Sprintf(" The table view is sorted by %s, as the query's ORDER BY says (a streaming Top-N sends its rows in change order).", rt.sortedAs)
		}
	case errors.Is(err, context.Canceled):
		h.Error = "canceled"
		msg = fmt.Sprintf("%s\nCanceled after %s (%s shown).", summary(rt.stmt), fmtDuration(d), plural(st.Rows, "row"))
	default:
		h.Error = err.Error()
		level = levelError
		msg = fmt.Sprintf("%s\n[ERROR] The query failed: %s", summary(rt.stmt), err)
	}
	wb.updateHistory(h)
	wb.postAs(rt.msgID, level, msg, nil)
}

// jobWatch is an INSERT (or statement set) job being watched: ended is
// closed once its end is known, with err (nil when it finished).
type jobWatch struct {
	id      string
	pos     sql.Pos
	bounded bool // it ends by itself
	cancel  func()
	ended   chan struct{}
	err     error
}

// watchJob reports an INSERT (or statement set) job: submitted, then its
// end. The returned watch lets a script wait for the end (waitJob).
func (wb *Workbench) watchJob(req runReq, text string, res table.StatementResult, started time.Time) *jobWatch {
	jobID := res.JobID()
	id := wb.addHistory(text, started, 0, 0, "")
	wb.post(levelInfo, summary(text)+"\n[INFO] Submitting SQL update statement to the cluster...\n"+
		"[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID: "+jobID, req.loc(posAt(req.doc, req.base)))
	var job *table.JobClient
	if tr := tableResult(res); tr != nil {
		job = tr.GetJobClient()
	}
	c := req.conn
	w := &jobWatch{id: jobID, pos: posAt(req.doc, req.base), ended: make(chan struct{})}
	if job != nil {
		w.bounded = job.Bounded()
		w.cancel = func() { _ = job.Cancel() }
	} else {
		// A gateway does not say whether a job's sources end: a batch
		// session's jobs do.
		mode, err := wb.sessionMode(context.Background(), c)
		w.bounded = err == nil && mode == modeBatch
		w.cancel = func() {
			if eng := c.open(); eng != nil {
				_ = eng.CancelJob(context.Background(), jobID)
			}
		}
	}
	go func() {
		var err error
		canceled := false
		defer func() {
			w.err = err
			close(w.ended)
		}()
		if job != nil {
			err = job.Wait(context.Background())
		} else {
			err = wb.waitRemoteJob(c, jobID)
		}
		// embedded or through a gateway, a cancelled job's error is
		// table.ErrCanceled (an embedded job cancelled while it failed
		// keeps its failure but is CANCELED)
		canceled = errors.Is(err, table.ErrCanceled) || job != nil && job.GetJobStatus() == table.JobCanceled
		h := persistence.HistoryEntry{ID: id, Duration: time.Since(started)}
		switch {
		case err == nil:
			wb.post(levelInfo, fmt.Sprintf("Job %s finished in %s.", jobID, fmtDuration(h.Duration)), nil)
		case canceled || errors.Is(err, context.Canceled):
			h.Error = "canceled"
			wb.post(levelWarning, fmt.Sprintf("Job %s was canceled.", jobID), nil)
		default:
			h.Error = err.Error()
			wb.post(levelError, fmt.Sprintf("[ERROR] Job %s failed: %s", jobID, err), nil)
		}
		wb.updateHistory(h)
	}()
	return w
}

// waitJob waits for a job the script submitted before the script goes on
// (the SQL Client's table.dml-sync = true for what the job can finish): so
// a SELECT after an INSERT reads every row the INSERT wrote. A job over an
// unbounded source is left running in the background. Stop cancels the
// job. It reports whether the job finished.
func (wb *Workbench) waitJob(ctx context.Context, req runReq, w *jobWatch) bool {
	if !w.bounded {
		wb.post(levelInfo, fmt.Sprintf("Job %s reads an unbounded source: it keeps running (Jobs panel) while the next statements run.", w.id), req.loc(w.pos))
		return true
	}
	select {
	case <-w.ended:
	default:
		wb.do(func() {
			wb.setStatus(fmt.Sprintf("Running… waiting for job %s (INSERT) to finish before the next statement", shortJobID(w.id)))
		})
		select {
		case <-w.ended:
		case <-ctx.Done():
			w.cancel()
			<-w.ended
			return false
		}
	}
	return w.err == nil
}

// shortJobID is the first 8 digits of a job ID, for status lines.
func shortJobID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// showStatic shows the rows of SHOW, DESCRIBE, EXPLAIN and the like in a
// result tab: as text when the result is one "result" column (EXPLAIN,
// SHOW CREATE), else in a grid.
func (wb *Workbench) showStatic(req runReq, text string, res table.StatementResult, started time.Time) {
	cols, _, _ := resultColumns(res)
	r := wb.newResult(cols, res.TimeZone())
	it, err := res.Collect()
	if err != nil {
		wb.fail(req, text, posAt(req.doc, req.base), err, started)
		return
	}
	var lines []string
	asText := len(cols) == 1 && cols[0].Name == "result"
	for it.Next() {
		row := it.Row()
		_ = r.AddRow(row)
		if asText {
			if s, ok := row.Values[0].(string); ok {
				lines = append(lines, s)
			}
		}
	}
	_ = it.Close()
	if err := it.Err(); err != nil {
		r.Finish(err)
	} else {
		r.Finish(nil)
	}
	d := time.Since(started)
	rt := &resultTab{wb: wb, stmt: text, res: r, started: started, title: req.resultTitle(), editorTab: -1}
	rt.ended.Store(time.Now().UnixNano())
	rt.editorTab = req.tabID
	if asText {
		rt.text = strings.Join(lines, "\n")
	}
	rt.historyID = wb.addHistory(text, started, d, int64(r.Stats().Rows), "")
	wb.attachPlan(rt, req.conn) // monitoring hook: EXPLAIN's plan graph
	if req.source != srcInit {
		outcome := fmt.Sprintf("Finished: %s in %s.", plural(r.Stats().Rows, "row"), fmtDuration(d))
		if err := it.Err(); err != nil {
			wb.post(levelError, summary(text)+"\n[ERROR] "+err.Error(), req.loc(posAt(req.doc, req.base)))
		} else {
			wb.post(levelInfo, summary(text)+"\n"+outcome, req.loc(posAt(req.doc, req.base)))
		}
	}
	wb.do(func() { wb.addResult(rt) })
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
}
