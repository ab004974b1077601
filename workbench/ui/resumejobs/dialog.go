// Package resumejobs is the workbench's offer, when a workspace opens
// after a crash (the process killed, a power loss), to resume the
// streaming jobs it was running from their last checkpoints: each job's
// statement on one line, its editor tab, its checkpoint's id, age and
// size (or "no checkpoint: will start from the beginning"), a check box
// each, and Resume all, Resume selected and Discard.
//
// It keeps no jobs itself: Host (resumeHost in package ui) resumes or
// forgets them.
package resumejobs

import (
	"fmt"
	"image/color"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
)

// Job is a job the workspace still listed as running when it opened.
type Job struct {
	Statement string
	// Tab is the title of its editor tab ("" when the tab was closed).
	Tab string
	// Dir is the job's checkpoint directory.
	Dir string
	// Checkpoint is its latest complete checkpoint when HasCheckpoint;
	// else Problem says why there is none (table.ReadCheckpoint's error).
	Checkpoint    table.CheckpointInfo
	HasCheckpoint bool
	Problem       string
}

// Host is what the dialog asks of the workbench, on the UI goroutine.
type Host interface {
	// Resume runs the jobs at these indices of the list again, each from
	// its checkpoint (a job without one from the beginning), and forgets
	// the others.
	Resume(indices []int)
	// Discard forgets every listed job; their checkpoint files stay.
	Discard()
}

// Texts of the dialog.
const (
	Title          = "Resume the jobs that were running?"
	ResumeAll      = "Resume all"
	ResumeSelected = "Resume selected"
	DiscardLabel   = "Discard"
	NoCheckpoint   = "no checkpoint: will start from the beginning"
)

// Dialog is the open offer.
type Dialog struct {
	host   Host
	jobs   []Job
	checks []*widget.Check
	lines  []string
	intro  string
	dlg    *dialog.CustomDialog
	done   bool
}

// Describe is a job's line: its statement on one line (cut at 90
// characters), its tab, and its checkpoint at now ("checkpoint #12, taken
// 3 min ago, 4.1 KiB") or NoCheckpoint.
func Describe(j Job, now time.Time) string {
	stmt := strings.Join(strings.Fields(j.Statement), " ")
	if r := []rune(stmt); len(r) > 90 {
		stmt = string(r[:89]) + "…"
	}
	where := ""
	if j.Tab != "" {
		where = " (tab " + j.Tab + ")"
	}
	state := NoCheckpoint
	if j.HasCheckpoint {
		kind := "checkpoint"
		if j.Checkpoint.Savepoint {
			kind = "savepoint"
		}
		state = fmt.Sprintf("%s #%d, taken %s, %s", kind, j.Checkpoint.ID, jobs.Ago(now.Sub(j.Checkpoint.Triggered)), monitor.FormatBytes(j.Checkpoint.Size))
	}
	return stmt + where + "\n    " + state
}

// Intro is the text above the list: what resuming does and where the
// checkpoint files of the jobs stay when they are discarded.
func Intro(list []Job) string {
	dirs := map[string]bool{}
	for _, j := range list {
		if j.Dir != "" {
			dirs[filepath.Dir(j.Dir)] = true
		}
	}
	var ds []string
	for d := range dirs {
		ds = append(ds, d)
	}
	sort.Strings(ds)
	where := "their checkpoint directories"
	if len(ds) > 0 {
		where = strings.Join(ds, ", ")
	}
	return fmt.Sprintf("Riffle did not close normally: %s still running. Resuming runs each statement again "+
		"in its editor tab from its last checkpoint (execution.state-recovery.path), so its state (counts, windows) "+
		"goes on where it was. Discard forgets them; their checkpoint files stay in %s.",
		plural(len(list), "job was", "jobs were"), where)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Show opens the offer for list over win; jobs with a checkpoint start
// selected.
func Show(win fyne.Window, h Host, list []Job, now time.Time) *Dialog {
	d := &Dialog{host: h, jobs: list, intro: Intro(list)}
	intro := widget.NewLabel(d.intro)
	intro.Wrapping = fyne.TextWrapWord
	rows := container.NewVBox()
	for _, j := range list {
		line := Describe(j, now)
		d.lines = append(d.lines, line)
		head, state, _ := strings.Cut(line, "\n")
		c := widget.NewCheck(head, nil)
		c.SetChecked(j.HasCheckpoint)
		d.checks = append(d.checks, c)
		// the checkpoint under the statement, in line with its text
		note := widget.NewLabelWithStyle(strings.TrimSpace(state), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		if !j.HasCheckpoint {
			note.Importance = widget.WarningImportance
		}
		indent := canvas.NewRectangle(color.Transparent)
		indent.SetMinSize(fyne.NewSize(28, 0))
		rows.Add(container.NewVBox(c, container.NewBorder(nil, nil, indent, nil, note)))
	}
	scroll := container.NewVScroll(rows)
	scroll.SetMinSize(fyne.NewSize(760, min(float32(len(list))*72, 360)))
	all := widget.NewButton(ResumeAll, d.ResumeAll)
	all.Importance = widget.HighImportance
	sel := widget.NewButton(ResumeSelected, d.ResumeSelected)
	discard := widget.NewButton(DiscardLabel, d.Discard)
	d.dlg = dialog.NewCustomWithoutButtons(Title, container.NewBorder(intro, nil, nil, nil, scroll), win)
	d.dlg.SetButtons([]fyne.CanvasObject{discard, sel, all})
	d.dlg.Resize(fyne.NewSize(820, 200+min(float32(len(list))*72, 360)))
	d.dlg.Show()
	return d
}

// Lines are the jobs' lines as shown.
func (d *Dialog) Lines() []string { return d.lines }

// IntroText is the text above the list.
func (d *Dialog) IntroText() string { return d.intro }

// Selected reports which jobs are checked.
func (d *Dialog) Selected() []bool {
	out := make([]bool, len(d.checks))
	for i, c := range d.checks {
		out[i] = c.Checked
	}
	return out
}

// SetSelected checks or unchecks job i.
func (d *Dialog) SetSelected(i int, on bool) { d.checks[i].SetChecked(on) }

// ResumeAll resumes every job with a checkpoint (Resume all).
func (d *Dialog) ResumeAll() {
	var idx []int
	for i, j := range d.jobs {
		if j.HasCheckpoint {
			idx = append(idx, i)
		}
	}
	d.finish(func() { d.host.Resume(idx) })
}

// ResumeSelected resumes the checked jobs (Resume selected).
func (d *Dialog) ResumeSelected() {
	var idx []int
	for i, c := range d.checks {
		if c.Checked {
			idx = append(idx, i)
		}
	}
	d.finish(func() { d.host.Resume(idx) })
}

// Discard forgets the jobs (Discard).
func (d *Dialog) Discard() { d.finish(d.host.Discard) }

// Open reports whether the offer is still open.
func (d *Dialog) Open() bool { return !d.done }

func (d *Dialog) finish(f func()) {
	if d.done {
		return
	}
	d.done = true
	d.dlg.Hide()
	f()
}
