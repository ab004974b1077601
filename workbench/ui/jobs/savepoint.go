package jobs

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
)

// SavepointTimeout bounds a stop with savepoint: the savepoint's barrier
// passing through the job and its state written.
const SavepointTimeout = 10 * time.Minute

// DefaultSavepointDir is the directory the savepoint dialog offers when
// the job's session has none: the savepoints folder of Riffle's state
// directory (table.StateDir: ~/.local/state/riffle/savepoints on Linux),
// beside the engine's default checkpoint directory.
func DefaultSavepointDir() string { return filepath.Join(table.StateDir(), "savepoints") }

// LocalDir turns a savepoint directory as an option or the dialog holds
// it (a path, ~/… for the home directory, or a file: URI) into a local
// path. An empty value, a file: URI of another host and other URI schemes
// are errors.
func LocalDir(v string) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", fmt.Errorf("no directory given")
	case strings.HasPrefix(v, "file:"):
		u, err := url.Parse(v)
		if err != nil || u.Host != "" && u.Host != "localhost" || u.Path == "" {
			return "", fmt.Errorf("%q is not a local file: URI", v)
		}
		return filepath.FromSlash(u.Path), nil
	case v == "~" || strings.HasPrefix(v, "~/"):
		h, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(h, v[1:]), nil
	}
	if i := strings.Index(v, "://"); i > 0 && !strings.ContainsAny(v[:i], `/\`) {
		return "", fmt.Errorf("savepoints are written to local directories only (a path or a file: URI), not %s", v[:i])
	}
	return v, nil
}

// SavepointSQL is the SQL a stop with savepoint of job id into dir
// amounts to.
func SavepointSQL(id, dir string) string {
	return "SET 'execution.checkpointing.savepoint-dir' = '" + strings.ReplaceAll(dir, "'", "''") + "';\n" +
		"STOP JOB '" + id + "' WITH SAVEPOINT;"
}

// CanStopWithSavepoint reports whether a listed job can be stopped with a
// savepoint here: a running streaming job of the embedded session.
func (p *Panel) CanStopWithSavepoint(id string) bool {
	if _, ok := p.checkpointed(id); !ok {
		return false
	}
	j, _ := p.model.Job(id)
	if j.Status().IsTerminal() {
		return false
	}
	root := j.Plan()
	return root != nil && root.ChangelogMode.String() != "" // a batch plan has no changelog modes
}

// StopWithSavepoint stops a running streaming job of the embedded session
// with a savepoint (STOP JOB … WITH SAVEPOINT) into its session's
// savepoint directory (Host.SavepointDir), asking for a directory when
// none is set. The savepoint is taken off the UI goroutine; the status bar
// and the panel's savepoint line show its path, or the error (the job then
// runs on).
func (p *Panel) StopWithSavepoint(id string) {
	if !p.CanStopWithSavepoint(id) || p.stopping[id] {
		return
	}
	if dir := p.host.SavepointDir(id); dir != "" {
		p.stopWithSavepoint(id, dir)
		return
	}
	p.askSavepointDir(id)
}

// savepointAsk is the open savepoint dialog.
type savepointAsk struct {
	dlg   dialog.Dialog
	entry *widget.Entry
	sql   *widget.Label
}

// askSavepointDir asks where to write the savepoint of job id: a small
// form with the directory (prefilled with the last one used, else
// DefaultSavepointDir) and the SQL it amounts to.
func (p *Panel) askSavepointDir(id string) {
	dir := p.lastSavepointDir
	if dir == "" {
		dir = DefaultSavepointDir()
	}
	a := &savepointAsk{entry: widget.NewEntry(), sql: widget.NewLabel(SavepointSQL(id, dir))}
	a.entry.SetText(dir)
	a.entry.Validator = func(s string) error { _, err := LocalDir(s); return err }
	a.sql.TextStyle.Monospace = true
	a.sql.Selectable = true
	a.entry.OnChanged = func(s string) { a.sql.SetText(SavepointSQL(id, strings.TrimSpace(s))) }
	stmt := ""
	if j, ok := p.model.Job(id); ok {
		stmt = " · " + monitor.OneLine(j.Statement(), 80)
	}
	what := widget.NewLabel(ShortID(id) + stmt)
	what.Truncation = fyne.TextTruncateEllipsis
	items := []*widget.FormItem{
		{Text: "Job", Widget: what},
		{Text: "Directory", Widget: a.entry, HintText: "No savepoint directory is set for this session (execution.checkpointing.savepoint-dir)"},
		{Text: "In SQL", Widget: a.sql},
	}
	a.dlg = dialog.NewForm("Stop with savepoint", "Stop with savepoint", "Cancel", items, func(ok bool) {
		p.ask = nil
		if ok {
			p.stopWithSavepoint(id, strings.TrimSpace(a.entry.Text))
		}
	}, p.host.Window())
	a.dlg.Resize(fyne.NewSize(640, a.dlg.MinSize().Height))
	p.ask = a
	a.dlg.Show()
}

// stopWithSavepoint takes the savepoint of job id into dir (as an option
// holds it) and stops the job, off the UI goroutine.
func (p *Panel) stopWithSavepoint(id, dir string) {
	c, ok := p.checkpointed(id)
	if !ok {
		return
	}
	local, err := LocalDir(dir)
	if err != nil {
		p.savepointDone(id, "", fmt.Errorf("the savepoint directory %q: %w", dir, err))
		return
	}
	p.stopping[id] = true
	p.lastSavepointDir = dir
	p.host.SetStatus("Stopping job " + ShortID(id) + " with a savepoint into " + local + "…")
	p.list.Refresh()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), SavepointTimeout)
		path, err := c.StopWithSavepointContext(ctx, local)
		cancel()
		p.host.Do(func() { p.savepointDone(id, path, err) })
	}()
}

// savepointDone shows the outcome of a stop with savepoint: the path in
// the status bar and the savepoint line (selectable, with Copy path), or
// the error.
func (p *Panel) savepointDone(id, path string, err error) {
	delete(p.stopping, id)
	l := p.spLine
	if err != nil {
		msg := monitor.OneLine(err.Error(), 300)
		p.host.SetStatus("Job " + ShortID(id) + " was not stopped with a savepoint: " + msg)
		l.text.SetText("Job " + ShortID(id) + " was not stopped with a savepoint:")
		l.text.Importance = widget.DangerImportance
		l.path.TextStyle.Monospace = false
		l.path.SetText(msg)
		l.copy.Hide()
	} else {
		p.host.SetStatus("Job " + ShortID(id) + " stopped with a savepoint: " + path)
		l.text.SetText("Savepoint of job " + ShortID(id) + ":")
		l.text.Importance = widget.MediumImportance
		l.path.TextStyle.Monospace = true
		l.path.SetText(path)
		l.copy.Show()
	}
	l.text.Refresh()
	l.box.Show()
	p.savepointPath, p.savepointErr = path, err
	p.SampleNextTick()
	p.list.Refresh()
}

// savepointLine is the line under the summary that shows the last stop
// with savepoint: its path (selectable) with Copy path, or its error
// (selectable too); hidden until the first and after ×.
type savepointLine struct {
	box        *fyne.Container
	text, path *widget.Label
	copy       *widget.Button
}

func (p *Panel) newSavepointLine() *savepointLine {
	l := &savepointLine{text: widget.NewLabel(""), path: widget.NewLabel("")}
	l.path.Selectable = true
	l.path.TextStyle.Monospace = true
	l.path.Truncation = fyne.TextTruncateEllipsis
	l.copy = widget.NewButtonWithIcon("Copy path", theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(l.path.Text)
		p.host.SetStatus("Copied the savepoint's path")
	})
	l.copy.Importance = widget.LowImportance
	closeLine := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { l.box.Hide() })
	closeLine.Importance = widget.LowImportance
	l.box = container.NewBorder(nil, nil, l.text, container.NewHBox(l.copy, closeLine), l.path)
	l.box.Hide()
	return l
}

// Stopping reports a stop with savepoint of job id under way.
func (p *Panel) Stopping(id string) bool { return p.stopping[id] }

// LastSavepoint is the outcome of the last stop with savepoint: the
// savepoint's path, or the error.
func (p *Panel) LastSavepoint() (path string, err error) { return p.savepointPath, p.savepointErr }

// SavepointLine is what the savepoint line shows ("" when it is hidden):
// its lead and the savepoint's path, or the error.
func (p *Panel) SavepointLine() (text, path string) {
	if !p.spLine.box.Visible() {
		return "", ""
	}
	return p.spLine.text.Text, p.spLine.path.Text
}
