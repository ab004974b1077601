package ui

import (
	"context"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// A dashboard tile's query runs as the workbench runs any statement: the
// tile's script is submitted to the worker of the embedded connection
// (run.go's submit, in the tile's runtime mode), its statements before
// the query prepare the session, and the query's rows are read into a
// Result by the same reader a result tab uses (collect). The result tab
// behind a tile (resultTab) is never shown: the tile draws its Result.
// Each start is one tileRun, so a run that arrives after the tile was
// stopped or restarted is stopped instead of shown.

// tileRun is one start of a tile's query.
type tileRun struct {
	tile *dashTile
	gen  int // the tile's start count when it started
}

// startRun submits the tile's statement (UI goroutine).
func (t *dashTile) startRun() {
	wb := t.d.wb
	t.gen++
	t.rt = nil
	t.err = ""
	t.runDone = false
	mode := t.spec.Spec.Mode
	if mode == "" {
		mode = modeStreaming
	}
	run := &tileRun{tile: t, gen: t.gen}
	stmt := t.spec.Statement
	wb.submit(runReq{source: srcDetached, doc: stmt, text: stmt, title: t.spec.Title, mode: mode, conn: wb.conns.embedded, tile: run})
}

// stopRun stops the tile's query (UI goroutine); a run still queued is
// stopped when it arrives.
func (t *dashTile) stopRun() {
	t.gen++
	if t.rt != nil {
		t.rt.Stop()
	}
}

// current reports whether the run is the tile's latest start and the
// tile is still shown (UI goroutine).
func (r *tileRun) current() bool {
	return r.tile.gen == r.gen && !r.tile.closed && !r.tile.d.wb.closed
}

// ran is called when the tile's script has run (ok: every statement
// succeeded), on the worker.
func (r *tileRun) ran(ok bool) {
	if r == nil {
		return
	}
	wb := r.tile.d.wb
	wb.do(func() {
		if !r.current() {
			return
		}
		r.tile.runDone = true
		if !ok && r.tile.err == "" && r.tile.rt == nil {
			r.tile.err = "the statement failed (see Messages)"
		}
		r.tile.refreshState()
	})
}

// failed records why the tile's statement failed, on the worker.
func (r *tileRun) failed(msg string) {
	if r == nil {
		return
	}
	r.tile.d.wb.do(func() {
		if r.current() {
			r.tile.err = msg
			r.tile.refreshState()
		}
	})
}

// startTile starts reading a tile's query (run.go's showResult for a
// tile's run, on the worker): a result tab that is never shown, read by
// collect, handed to the tile on the UI goroutine.
func (wb *Workbench) startTile(req runReq, text string, res table.StatementResult, started time.Time) {
	cols, names, ts := resultColumns(res)
	r := wb.newResult(cols, res.TimeZone())
	ctx, cancel := context.WithCancel(context.Background())
	rt := &resultTab{Tab: &resulttab.Tab{Res: r, Cancel: cancel, Started: started, Title: req.title, JobID: res.JobID()},
		wb: wb, stmt: text, conn: req.conn, streaming: wb.ranStreaming(req), editorTab: -1}
	if tr := tableResult(res); tr != nil {
		rt.Job = tr.GetJobClient()
	}
	rt.historyID = wb.addHistory(text, started, 0, 0, "")
	rt.msgID = wb.messages.reserve()
	wb.postAs(rt.msgID, levelInfo, summary(text)+"\nRunning on dashboard tile \""+req.title+"\"…", nil)
	run := req.tile
	wb.do(func() {
		if !run.current() {
			rt.Stop()
			return
		}
		run.tile.attach(rt)
	})
	wb.collectors.Add(1)
	go func() {
		defer wb.collectors.Done()
		wb.collect(ctx, rt, res, names, ts)
	}()
}
