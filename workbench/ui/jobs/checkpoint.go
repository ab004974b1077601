package jobs

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Checkpointed is what the Checkpoint column and Stop with savepoint need
// of a job: *table.JobClient (a job of the embedded session) implements
// it; a gateway's job does not (its checkpoints are the gateway's).
type Checkpointed interface {
	LastCheckpoint() (table.CheckpointInfo, bool)
	CheckpointCounts() table.CheckpointCounts
	StopWithSavepointContext(ctx context.Context, dir string, opts ...table.StopOption) (string, error)
}

var _ Checkpointed = (*table.JobClient)(nil)

// CheckpointText is what the Checkpoint column shows of a job at now:
// main is the last complete checkpoint's id and age ("#12, 3 s ago"; "—"
// before the first), detail its size and how long it took ("4.1 KiB in
// 12 ms", "savepoint, 4.1 KiB in 12 ms"; "" before the first), failed the
// failed checkpoints ("2 failed"; "" when none failed).
func CheckpointText(last table.CheckpointInfo, ok bool, counts table.CheckpointCounts, now time.Time) (main, detail, failed string) {
	main = "—"
	if ok {
		main = fmt.Sprintf("#%d, %s", last.ID, Ago(now.Sub(last.Completed)))
		detail = monitor.FormatBytes(last.Size) + " in " + widgets.FormatDuration(last.Duration())
		if last.Savepoint {
			detail = "savepoint, " + detail
		}
	}
	if counts.Failed > 0 {
		failed = strconv.FormatInt(counts.Failed, 10) + " failed"
	}
	return main, detail, failed
}

// Ago writes how long ago something happened, to the second under a
// minute: "just now", "3 s ago", "4 min ago", "2 h ago", "3 d ago".
func Ago(d time.Duration) string {
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + " s ago"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + " d ago"
}

// Checkpoint returns the last complete checkpoint and the checkpoint
// counts of a listed job of the embedded session; ok is false for a job
// not listed or one of a gateway.
func (p *Panel) Checkpoint(id string) (last table.CheckpointInfo, hasLast bool, counts table.CheckpointCounts, ok bool) {
	c, ok := p.checkpointed(id)
	if !ok {
		return table.CheckpointInfo{}, false, table.CheckpointCounts{}, false
	}
	last, hasLast = c.LastCheckpoint()
	return last, hasLast, c.CheckpointCounts(), true
}

// takesCheckpoints reports whether a listed job of the embedded session
// takes checkpoints: one completed, failed or under way.
func (p *Panel) takesCheckpoints(id string) bool {
	_, hasLast, n, ok := p.Checkpoint(id)
	restarts, cause, _ := p.Restarts(id) // shown in the column too
	return ok && (hasLast || n.Completed > 0 || n.Failed > 0 || n.InProgress > 0 || restarts > 0 || cause != nil)
}

// checkpointed returns a listed job of the embedded session as a
// Checkpointed.
func (p *Panel) checkpointed(id string) (Checkpointed, bool) {
	if p.host.Gateway(id) != "" {
		return nil, false
	}
	j, ok := p.model.Job(id)
	if !ok {
		return nil, false
	}
	c, ok := j.(Checkpointed)
	return c, ok
}

// CheckpointCell is the Checkpoint column's cell: the last checkpoint's
// id and age on the first line, its size and duration on a smaller
// detail line beneath, and the failed checkpoints, when any, beside the
// detail in the warning colour.
type CheckpointCell struct {
	widget.BaseWidget
	main, detail, failed *canvas.Text
	// warning is the whole failed text; failed shows as much of it as
	// the cell has room for (fitWarning)
	warning string
}

// NewCheckpointCell returns an empty cell.
func NewCheckpointCell() *CheckpointCell {
	c := &CheckpointCell{main: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		detail: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
		failed: canvas.NewText("", theme.Color(theme.ColorNameWarning))}
	c.detail.TextSize = theme.CaptionTextSize()
	c.failed.TextSize = theme.CaptionTextSize()
	c.failed.TextStyle.Bold = true
	c.ExtendBaseWidget(c)
	return c
}

// Set shows the cell's texts (CheckpointText's three).
func (c *CheckpointCell) Set(main, detail, failed string) {
	if c.main.Text == main && c.detail.Text == detail && c.warning == failed {
		return
	}
	c.main.Text, c.detail.Text, c.failed.Text, c.warning = main, detail, failed, failed
	c.Refresh()
}

// Texts returns what the cell shows (for tests).
func (c *CheckpointCell) Texts() (main, detail, failed string) {
	return c.main.Text, c.detail.Text, c.warning
}

// fitWarning shows as much of the warning as fits in width, ending with
// "…" when cut (a restart's cause can be long; the column is narrow).
func (c *CheckpointCell) fitWarning(width float32) {
	text := c.warning
	measure := func(s string) float32 { return fyne.MeasureText(s, c.failed.TextSize, c.failed.TextStyle).Width }
	if width > 0 && measure(text) > width {
		r := []rune(text)
		lo, hi := 0, len(r) // the longest prefix that fits with "…"
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if measure(string(r[:mid])+"…") <= width {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		text = string(r[:lo]) + "…"
	}
	c.failed.Text = text
}

// CreateRenderer lays the first line out above the detail line.
func (c *CheckpointCell) CreateRenderer() fyne.WidgetRenderer {
	return &checkpointRenderer{c: c, objs: []fyne.CanvasObject{c.main, c.detail, c.failed}}
}

type checkpointRenderer struct {
	c    *CheckpointCell
	objs []fyne.CanvasObject
}

// gap is the room between the detail and the failed count.
const checkpointGap = 6

func (r *checkpointRenderer) Layout(size fyne.Size) {
	c := r.c
	pad := theme.InnerPadding() // as a label's text is inset
	mh := c.main.MinSize().Height
	dh := float32(0)
	if c.detail.Text != "" || c.failed.Text != "" {
		dh = max(c.detail.MinSize().Height, c.failed.MinSize().Height)
	}
	y := (size.Height - mh - dh) / 2
	c.main.Move(fyne.NewPos(pad, y))
	c.main.Resize(fyne.NewSize(size.Width-pad, mh))
	dw := c.detail.MinSize().Width
	c.detail.Move(fyne.NewPos(pad, y+mh))
	c.detail.Resize(fyne.NewSize(dw, dh))
	x := pad
	if c.detail.Text != "" {
		x += dw + checkpointGap
	}
	c.fitWarning(size.Width - x)
	c.failed.Move(fyne.NewPos(x, y+mh))
	c.failed.Resize(fyne.NewSize(c.failed.MinSize().Width, dh))
}

// MinSize is the two lines' height (no taller than a label) and the
// wider line's width.
func (r *checkpointRenderer) MinSize() fyne.Size {
	c := r.c
	w := max(c.main.MinSize().Width, c.detail.MinSize().Width+checkpointGap+c.failed.MinSize().Width)
	h := c.main.MinSize().Height + max(c.detail.MinSize().Height, c.failed.MinSize().Height)
	return fyne.NewSize(w+2*theme.InnerPadding(), h)
}

func (r *checkpointRenderer) Refresh() {
	c := r.c
	c.main.Color = theme.Color(theme.ColorNameForeground)
	c.detail.Color = theme.Color(theme.ColorNamePlaceHolder)
	c.failed.Color = theme.Color(theme.ColorNameWarning)
	c.detail.TextSize, c.failed.TextSize = theme.CaptionTextSize(), theme.CaptionTextSize()
	c.main.TextSize = theme.TextSize()
	r.Layout(c.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

func (r *checkpointRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *checkpointRenderer) Destroy()                     {}
