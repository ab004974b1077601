package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// resultColumns returns a result's columns.
func resultColumns(res interface{ Schema() *table.TableSchema }) ([]results.Column, []string, []*types.DataType) {
	sch := res.Schema()
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
	rt := &resultTab{Tab: &resulttab.Tab{Res: r, Cancel: cancel, Started: started, Title: req.resultTitle(), JobID: res.JobID()},
		wb: wb, stmt: text, conn: req.conn, streaming: wb.ranStreaming(req)}
	if tr := tableResult(res); tr != nil {
		rt.Job = tr.GetJobClient()
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
	r := rt.Res
	var finalErr error
	defer func() {
		if p := recover(); p != nil {
			finalErr = fmt.Errorf("internal error reading the result: %v", p)
			r.Finish(finalErr)
		}
		rt.SetEnded(time.Now())
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
			if rt.Canceled() || ctx.Err() != nil || rt.JobStopped() {
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
			if rt.Job != nil {
				_ = rt.Job.Cancel()
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
	st := rt.Res.Stats()
	return rt.limit > 0 && st.Rows >= rt.limit && st.Changes == int64(st.Rows)
}

// queryEnded records a finished, cancelled or failed query.
func (wb *Workbench) queryEnded(rt *resultTab, err error) {
	st := rt.Res.Stats()
	d := rt.Elapsed()
	h := persistence.HistoryEntry{ID: rt.historyID, Duration: d, Rows: int64(st.Rows)}
	var msg string
	level := levelInfo
	switch {
	case err == nil:
		msg = fmt.Sprintf("%s\nFinished: %s in %s.", summary(rt.stmt), widgets.Plural(st.Rows, "row"), widgets.FormatDuration(d))
		if rt.sortedAs != "" {
			msg += fmt.Sprintf(" The table view is sorted by %s, as the query's ORDER BY says (a streaming Top-N sends its rows in change order).", rt.sortedAs)
		}
	case errors.Is(err, context.Canceled):
		h.Error = "canceled"
		msg = fmt.Sprintf("%s\nCanceled after %s (%s shown).", summary(rt.stmt), widgets.FormatDuration(d), widgets.Plural(st.Rows, "row"))
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
		canceled = errors.Is(err, table.ErrCanceled) || job != nil && job.Status() == table.JobCanceled
		h := persistence.HistoryEntry{ID: id, Duration: time.Since(started)}
		switch {
		case err == nil:
			wb.post(levelInfo, fmt.Sprintf("Job %s finished in %s.", jobID, widgets.FormatDuration(h.Duration)), nil)
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
	rt := &resultTab{Tab: &resulttab.Tab{Res: r, Started: started, Title: req.resultTitle()}, wb: wb, stmt: text, editorTab: -1}
	rt.SetEnded(time.Now())
	rt.editorTab = req.tabID
	if asText {
		rt.Text = strings.Join(lines, "\n")
	}
	rt.historyID = wb.addHistory(text, started, d, int64(r.Stats().Rows), "")
	wb.attachPlan(rt, req.conn) // monitoring hook: EXPLAIN's plan graph
	if req.source != srcInit {
		outcome := fmt.Sprintf("Finished: %s in %s.", widgets.Plural(r.Stats().Rows, "row"), widgets.FormatDuration(d))
		if err := it.Err(); err != nil {
			wb.post(levelError, summary(text)+"\n[ERROR] "+err.Error(), req.loc(posAt(req.doc, req.base)))
		} else {
			wb.post(levelInfo, summary(text)+"\n"+outcome, req.loc(posAt(req.doc, req.base)))
		}
	}
	wb.do(func() { wb.addResult(rt) })
}
