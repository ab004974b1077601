package ui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// fileTarget is where Run to CSV file writes a query's rows.
type fileTarget struct {
	path string
	opts results.CSVOptions
}

// fileRun is a query being written straight to a CSV file: its progress
// dialog offers "Stop and keep" (end the query, keep the rows written) and
// Cancel (end it and leave the target as it was).
type fileRun struct {
	path     string
	cancel   context.CancelFunc // ends reading and discards
	stopRead context.CancelFunc // ends reading and keeps
	keep     atomic.Bool
	canceled atomic.Bool
	written  atomic.Int64
	label    *widget.Label
	dlg      *dialog.CustomDialog
	keepB    *widget.Button
	cancelB  *widget.Button
}

// runToFileCurrent is Run ▸ Run to CSV file…: the statement under the
// cursor (or the selection) runs and its rows go straight to a CSV file as
// they arrive, without filling a grid (for results larger than a grid
// holds; beekeeper #472).
func (wb *Workbench) runToFileCurrent() *exportForm {
	t := wb.editors.current()
	if t == nil {
		return nil
	}
	stmt, start, ok := currentStatement(t)
	if !ok {
		wb.setStatus("Nothing to run: the tab holds no statement")
		return nil
	}
	f := wb.newCSVForm(resultTitle(stmt))
	f.RowsLabel.SetText("Every row of the query, written as it arrives (no grid is filled). " +
		"In streaming mode each line starts with the change's op (+I, -U, +U, -D).")
	f.start = func(path string, opts results.CSVOptions) {
		wb.flash(t, start, start+len(stmt))
		wb.submit(runReq{source: srcEditor, tab: t, doc: t.ed.Text(), base: start, text: stmt,
			toFile: &fileTarget{path: path, opts: opts}})
	}
	wb.showCSVDialog(f, "Run to CSV file", "Run")
	return f
}

// streamToFile writes a query's rows to a CSV file on a goroutine, with a
// progress dialog; the file appears only when the query ends or the user
// stops it with "Stop and keep".
func (wb *Workbench) streamToFile(req runReq, text string, res table.StatementResult, started time.Time, target fileTarget) {
	cols, names, ts := resultColumns(res)
	streaming := res.IsStreaming()
	ctx, cancel := context.WithCancel(context.Background())
	readCtx, stopRead := context.WithCancel(ctx)
	fr := &fileRun{path: target.path, cancel: cancel, stopRead: stopRead}
	histID := wb.addHistory(text, started, 0, 0, "")
	wb.do(func() { wb.showFileRun(fr) })
	wb.collectors.Add(1)
	go func() {
		defer wb.collectors.Done()
		defer cancel()
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("internal error: %v", p)
				}
			}()
			err = writeQueryCSV(ctx, readCtx, res, cols, names, ts, streaming, res.TimeZone(), target, fr)
		}()
		d := time.Since(started)
		h := persistence.HistoryEntry{ID: histID, Duration: d, Rows: fr.written.Load()}
		var outcome string
		level := levelInfo
		switch {
		case err == nil:
			outcome = fmt.Sprintf("Wrote %s to %s in %s.", widgets.Plural(int(fr.written.Load()), "row"), target.path, widgets.FormatDuration(d))
		case fr.canceled.Load() || errors.Is(err, context.Canceled):
			h.Error = "canceled"
			level = levelWarning
			outcome = fmt.Sprintf("Canceled; %s was not changed.", target.path)
		default:
			h.Error = err.Error()
			level = levelError
			outcome = fmt.Sprintf("[ERROR] Writing %s failed (the file was not changed): %s", target.path, err)
		}
		wb.updateHistory(h)
		wb.do(func() {
			wb.endFileRun(fr)
			wb.messages.add(level, summary(text)+"\n"+outcome, nil)
			if level == levelError {
				wb.showPanel(wb.messages.item)
			}
			wb.setStatus(firstLine(outcome))
		})
	}()
}

// writeQueryCSV reads res batch by batch into the target with
// results.WriteFileAtomic: a temporary file beside it is renamed into place
// when the query ends (or reading is stopped with fr.keep set), and
// cancelling ctx removes it. As for an export, a symbolic link is written
// through (the file it points to is replaced), an existing file keeps its
// mode, a directory is refused, and the temporary files of killed runs are
// removed.
func writeQueryCSV(ctx, readCtx context.Context, res table.StatementResult, cols []results.Column, names []string, ts []*types.DataType,
	streaming bool, zone *time.Location, target fileTarget, fr *fileRun) (err error) {
	newResult := func() *results.Result {
		return results.New(cols, results.Options{MaxTableRows: -1, MaxChangelogRows: -1, Location: zone})
	}
	var next func() (*results.Result, error) // the next batch; io.EOF at the end
	if tr := tableResult(res); tr != nil {
		it, err := tr.Collect()
		if err != nil {
			return err
		}
		defer it.Close() // cancels the job when it has not finished
		schema := types.ArrowSchema(names, ts)
		next = func() (*results.Result, error) {
			b, err := it.NextBatch(readCtx)
			if err != nil {
				return nil, err
			}
			r := newResult()
			if b != nil && b.Len > 0 {
				if err := r.AddRecord(b.Record(schema), b.Kinds); err != nil && r.Stats().Changes == 0 {
					_ = r.AddRows(b.Rows(ts))
				}
			}
			return r, nil
		}
	} else { // a gateway's rows, a page at a time
		it, err := res.Collect()
		if err != nil {
			return err
		}
		defer it.Close()
		if ab, ok := it.(interface{ Abort() }); ok {
			defer context.AfterFunc(readCtx, ab.Abort)()
		}
		buffered, _ := it.(interface{ Buffered() int })
		next = func() (*results.Result, error) {
			var rows []*types.Row
			for len(rows) < 4096 && it.Next() {
				rows = append(rows, it.Row())
				if buffered == nil || buffered.Buffered() == 0 {
					break
				}
			}
			if len(rows) == 0 {
				if err := it.Err(); err != nil {
					return nil, err
				}
				if readCtx.Err() != nil {
					return nil, readCtx.Err()
				}
				return nil, io.EOF
			}
			r := newResult()
			_ = r.AddRows(rows)
			return r, nil
		}
	}
	removeOldRunTemps(target.path)
	return results.WriteFileAtomic(ctx, target.path, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<16)
		view := results.TableView
		if streaming {
			view = results.ChangelogView // the op column, as the SQL Client's CSV output
		}
		opts := target.opts
		first := true
		write := func(r *results.Result) error {
			o := opts
			if !first {
				o.Header, o.BOM = false, false
			}
			first = false
			n, err := results.WriteCSV(ctx, w, r.Freeze(view), o, nil)
			fr.written.Add(int64(n))
			return err
		}
		for {
			r, err := next()
			if err == io.EOF || (err != nil && fr.keep.Load() && ctx.Err() == nil) {
				break
			}
			if err != nil {
				return err
			}
			if r.Stats().Changes == 0 {
				continue
			}
			if err := write(r); err != nil {
				return err
			}
		}
		if first { // no rows: the header alone
			if err := write(newResult()); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		return w.Flush()
	})
}

// removeOldRunTemps removes the temporary files that Run to CSV file wrote
// before it went through results.WriteFileAtomic (".<name>.<digits>.tmp"
// beside the target, left by a killed workbench) once they are more than a
// day old; WriteFileAtomic removes its own leftovers
// (".<name>.riffle-<pid>-*.partial" of processes that are gone).
func removeOldRunTemps(path string) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		digits, ok := strings.CutSuffix(strings.TrimPrefix(e.Name(), prefix), ".tmp")
		if !ok || !strings.HasPrefix(e.Name(), prefix) || digits == "" || strings.Trim(digits, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// showFileRun opens the progress dialog of a file run.
func (wb *Workbench) showFileRun(fr *fileRun) {
	fr.label = widget.NewLabel("Starting…")
	fr.keepB = widget.NewButton("Stop and keep the file", func() {
		fr.keep.Store(true)
		fr.stopRead()
	})
	fr.cancelB = widget.NewButton("Cancel", func() {
		fr.canceled.Store(true)
		fr.cancel()
	})
	bar := widget.NewProgressBarInfinite()
	fr.dlg = dialog.NewCustomWithoutButtons("Running to "+filepath.Base(fr.path),
		container.NewVBox(fr.label, bar, container.NewCenter(container.NewHBox(fr.keepB, fr.cancelB))), wb.win)
	fr.dlg.Resize(fyne.NewSize(460, 170))
	fr.dlg.Show()
	wb.fileRuns = append(wb.fileRuns, fr)
}

func (wb *Workbench) endFileRun(fr *fileRun) {
	for i, x := range wb.fileRuns {
		if x == fr {
			wb.fileRuns = append(wb.fileRuns[:i], wb.fileRuns[i+1:]...)
			break
		}
	}
	if fr.dlg != nil {
		fr.dlg.Hide()
	}
}

// tickFileRuns updates the row counts of the file runs (from Tick).
func (wb *Workbench) tickFileRuns() {
	for _, fr := range wb.fileRuns {
		fr.label.SetText(fmt.Sprintf("%s rows written", widgets.GroupDigits(int(fr.written.Load()))))
	}
}
