package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/exportform"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// exportForm is the export dialog's form (exportform.Form) and what it
// exports. Tests fill it and call submit.
type exportForm struct {
	*exportform.Form
	dlg    *dialog.ConfirmDialog
	frozen *results.Frozen // the rows to write (nil for Run to CSV)
	rt     *resultTab      // the result they come from (nil for Run to CSV)
	// start begins writing once the target is checked.
	start func(path string, opts results.CSVOptions)
}

// newCSVForm builds the CSV options form with the last choices and a file
// name.
func (wb *Workbench) newCSVForm(name string) *exportForm {
	return &exportForm{Form: exportform.New(wb.win, wb.exportSettings(), name)}
}

// exportJob is an export in progress.
type exportJob struct {
	path     string
	cancel   context.CancelFunc
	written  atomic.Int64
	total    atomic.Int64
	bar      *widget.ProgressBar
	label    *widget.Label
	dlg      *dialog.CustomDialog
	cancelB  *widget.Button
	canceled atomic.Bool
}

// exportSettings returns the last export dialog's choices (defaults when
// none were saved).
func (wb *Workbench) exportSettings() persistence.ExportSettings {
	if wb.exportPrefs.Delimiter == "" {
		return persistence.ExportSettings{Delimiter: ",", Quote: `"`, Header: true, QuotePolicy: "as-needed", CRLF: runtime.GOOS == "windows"}
	}
	return wb.exportPrefs
}

// showExportDialog opens "Export…" for a result: the current view's rows
// are frozen now (a running query exports what it has so far) and written
// as CSV, JSON Lines or Parquet.
func (wb *Workbench) showExportDialog(rt *resultTab) *exportForm {
	f := wb.newExportForm(rt)
	wb.showCSVDialog(f, "Export result", "Export")
	return f
}

// showCSVDialog shows a CSV form in a dialog.
func (wb *Workbench) showCSVDialog(f *exportForm, title, confirm string) {
	f.dlg = dialog.NewCustomConfirm(title, confirm, "Cancel", f.Content(), func(ok bool) {
		if ok {
			wb.submitExport(f)
		}
	}, wb.win)
	f.dlg.Resize(fyne.NewSize(620, 560))
	f.dlg.Show()
}

// newExportForm is the form exporting a result's current view.
func (wb *Workbench) newExportForm(rt *resultTab) *exportForm {
	view := results.TableView
	if rt.Grid() != nil {
		view = rt.Grid().View()
	}
	f := wb.newCSVForm(fileNameFor(rt))
	f.AddFormatChoice(wb.exportSettings().Format)
	f.rt, f.frozen = rt, rt.Res.Freeze(view)
	what := fmt.Sprintf("%s rows of the %s view", widgets.GroupDigits(f.frozen.Len()), strings.ToLower(resulttab.ViewName(view)))
	if rt.IsRunning() {
		what += " (a snapshot: the query is still running)"
	}
	f.RowsLabel.SetText(what)
	f.start = func(path string, opts results.CSVOptions) { wb.startExport(rt, f.frozen, path, f.Format(), opts) }
	return f
}

// fileNameFor suggests a file name for a result.
func fileNameFor(rt *resultTab) string {
	name := rt.Title
	if i := strings.IndexByte(name, ' '); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|' || r < ' ' {
			return '_'
		}
		return r
	}, strings.TrimSpace(strings.TrimSuffix(name, "…")))
	if name == "" {
		name = "result"
	}
	return name
}

// startFromForm starts what the form is for with its options, without the
// checks of submitExport (tests).
func (wb *Workbench) startFromForm(f *exportForm) {
	opts, _ := f.Options()
	f.start(f.Path.Text, opts)
}

// submitExport checks the target and starts the export (asking before
// replacing an existing file).
func (wb *Workbench) submitExport(f *exportForm) {
	path := strings.TrimSpace(f.Path.Text)
	opts, settings := f.Options()
	if path == "" {
		dialog.ShowError(errors.New("choose a file to export to"), wb.win)
		return
	}
	if !filepath.IsAbs(path) {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path)
		}
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		dialog.ShowError(fmt.Errorf("the folder %s does not exist", filepath.Dir(path)), wb.win)
		return
	}
	if settings.Format == "" {
		settings.Format = wb.exportSettings().Format // Run to CSV file keeps the export dialog's choice
	}
	wb.exportPrefs = settings
	_ = wb.store.SaveExportSettings(context.Background(), settings)
	start := func() { f.start(path, opts) }
	if _, err := os.Stat(path); err == nil {
		dialog.ShowConfirm("Replace file?", path+" exists. Replace it?\n(It is only replaced when the export completes.)",
			func(ok bool) {
				if ok {
					start()
				}
			}, wb.win)
		return
	}
	start()
}

// startExport writes rows to path in the background with a progress
// dialog whose Cancel leaves path untouched.
func (wb *Workbench) startExport(rt *resultTab, rows results.Rows, path string, format results.ExportFormat, opts results.CSVOptions) *exportJob {
	ctx, cancel := context.WithCancel(context.Background())
	j := &exportJob{path: path, cancel: cancel, bar: widget.NewProgressBar(), label: widget.NewLabel("Starting…")}
	j.total.Store(int64(rows.Len()))
	j.cancelB = widget.NewButton("Cancel", func() {
		j.canceled.Store(true)
		cancel()
	})
	j.dlg = dialog.NewCustomWithoutButtons("Exporting to "+filepath.Base(path),
		container.NewVBox(j.label, j.bar, container.NewCenter(j.cancelB)), wb.win)
	j.dlg.Resize(fyne.NewSize(420, 160))
	j.dlg.Show()
	wb.exports = append(wb.exports, j)
	started := time.Now()
	go func() {
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("internal error: %v", p)
				}
			}()
			progress := func(written, total int) {
				j.written.Store(int64(written))
				j.total.Store(int64(total))
			}
			if format == results.FormatCSV {
				err = wb.exportCSV(ctx, rows, path, opts, progress)
			} else {
				err = results.Export(ctx, rows, path, format, opts, progress)
			}
		}()
		cancel()
		wb.do(func() { wb.exportDone(j, err, time.Since(started)) })
	}()
	return j
}

// exportDone closes the progress dialog and reports the outcome.
func (wb *Workbench) exportDone(j *exportJob, err error, d time.Duration) {
	for i, x := range wb.exports {
		if x == j {
			wb.exports = append(wb.exports[:i], wb.exports[i+1:]...)
			break
		}
	}
	j.dlg.Hide()
	switch {
	case err == nil:
		msg := fmt.Sprintf("Exported %s to %s in %s.", widgets.Plural(int(j.written.Load()), "row"), j.path, widgets.FormatDuration(d))
		wb.messages.add(levelInfo, msg, nil)
		wb.setStatus(msg)
	case j.canceled.Load() || errors.Is(err, context.Canceled):
		wb.messages.add(levelWarning, "Export canceled; "+j.path+" was not changed.", nil)
		wb.setStatus("Export canceled")
	default:
		wb.messages.add(levelError, "[ERROR] Export to "+j.path+" failed (the file was not changed): "+err.Error(), nil)
		wb.showPanel(wb.messages.item)
		dialog.ShowError(err, wb.win)
	}
}

// tickExports moves the progress bars (called from Tick).
func (wb *Workbench) tickExports() {
	for _, j := range wb.exports {
		w, t := j.written.Load(), j.total.Load()
		if t > 0 {
			j.bar.SetValue(float64(w) / float64(t))
		}
		noun := "rows"
		if t == 1 {
			noun = "row"
		}
		j.label.SetText(fmt.Sprintf("%s of %s %s written", widgets.GroupDigits(int(w)), widgets.GroupDigits(int(t)), noun))
	}
}
