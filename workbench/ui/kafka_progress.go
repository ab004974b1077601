package ui

// Live monitoring of queries that read Kafka: under the Jobs panel's list,
// a table of every running job's partitions (splits) — offset, log end,
// lag, watermark, idle — from the source operators' metrics
// (table.OperatorMetrics.Splits, backed by the connector's
// connector.ProgressReporter). It is hidden while no running job reads a
// partitioned log.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// splitRow is one line of the partitions table.
type splitRow struct {
	job string // short job ID
	connector.SplitProgress
}

// jobSplits lists where each split of a job's sources stands; nil for a
// job without a plan (a gateway's) or without such sources.
func jobSplits(j monitor.Job) []connector.SplitProgress {
	root := j.Plan()
	if root == nil {
		return nil
	}
	var out []connector.SplitProgress
	seen := map[*table.PlanNode]bool{}
	var walk func(n *table.PlanNode)
	walk = func(n *table.PlanNode) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if m, ok := j.NodeMetrics(n); ok {
			out = append(out, m.Splits...)
		}
		for _, in := range n.Inputs {
			walk(in)
		}
	}
	walk(root)
	// partitions in numeric order: orders-2 before orders-10
	sort.SliceStable(out, func(i, j int) bool { return splitLess(out[i].Split, out[j].Split) })
	return out
}

// splitLess orders split names as a reader expects partitions: by topic,
// then by partition number ("clicks-2" before "clicks-10"); names without
// a numeric suffix compare as text.
func splitLess(a, b string) bool {
	ta, pa, oka := splitName(a)
	tb, pb, okb := splitName(b)
	if oka && okb && ta == tb {
		return pa < pb
	}
	if oka && okb {
		return ta < tb
	}
	return a < b
}

// splitName cuts a split name "topic-N" into the topic and N.
func splitName(s string) (string, int64, bool) {
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.ParseInt(s[i+1:], 10, 64)
	if err != nil || n < 0 {
		return s, 0, false
	}
	return s[:i], n, true
}

// splitsView is the partitions table of the Jobs panel.
type splitsView struct {
	p     *jobsPanel
	rows  []splitRow
	table *widget.Table
	title *widget.Label
	box   *fyne.Container
	// split holds the job list above box (set by the Jobs panel): laid
	// out again when box shows or hides, so the list takes the room
	split *container.Split
}

var splitHeads = []string{"Job", "Partition", "Offset", "Log end", "Lag", "Watermark", "Idle"}

func newSplitsView(p *jobsPanel) *splitsView {
	v := &splitsView{p: p}
	v.title = widget.NewLabelWithStyle("Partitions", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.table = widget.NewTable(func() (int, int) { return len(v.rows), len(splitHeads) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row >= len(v.rows) {
				l.SetText("")
				return
			}
			l.SetText(v.cell(v.rows[id.Row], id.Col))
		})
	v.table.ShowHeaderRow = true
	v.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(splitHeads[id.Col])
		}
	}
	for i, w := range []float32{96, 200, 110, 110, 90, 190, 60} {
		v.table.SetColumnWidth(i, w)
	}
	v.box = container.NewBorder(v.title, nil, nil, nil, container.New(minHeight(90), v.table))
	v.box.Hide()
	return v
}

// cell is a table cell's text.
func (v *splitsView) cell(r splitRow, col int) string {
	num := func(n int64) string {
		if n < 0 {
			return "—"
		}
		return widgets.GroupDigits(int(n))
	}
	switch col {
	case 0:
		return r.job
	case 1:
		return r.Split
	case 2:
		return num(r.Offset)
	case 3:
		return num(r.LogEnd)
	case 4:
		if r.LogEnd < 0 {
			return "—"
		}
		off := max(r.Offset, 0)
		return widgets.GroupDigits(int(max(r.LogEnd-off, 0)))
	case 5:
		if r.Watermark == math.MinInt64 {
			return "—"
		}
		return monitor.FormatWatermark(r.Watermark, v.p.TimeZone(), time.Now())
	default:
		if r.Idle {
			return "idle"
		}
		return ""
	}
}

// update reads the running jobs' splits (Jobs panel update).
func (v *splitsView) update() {
	var rows []splitRow
	for _, r := range v.p.Rows() {
		if r.Status.IsTerminal() {
			continue
		}
		j, ok := v.p.Model().Job(r.ID)
		if !ok {
			continue
		}
		for _, s := range jobSplits(j) {
			rows = append(rows, splitRow{job: jobs.ShortID(r.ID), SplitProgress: s})
		}
	}
	v.rows = rows
	if len(rows) == 0 {
		if v.box.Visible() {
			v.box.Hide()
			v.relayout()
		}
		return
	}
	var lag int64
	idle := 0
	for _, r := range rows {
		if r.LogEnd >= 0 {
			lag += max(r.LogEnd-max(r.Offset, 0), 0)
		}
		if r.Idle {
			idle++
		}
	}
	text := fmt.Sprintf("Partitions: %d read by running jobs · lag %s", len(rows), widgets.Plural(int(lag), "record"))
	if idle > 0 {
		text += fmt.Sprintf(" · %d idle (not holding the watermark back)", idle)
	}
	v.title.SetText(text)
	if !v.box.Visible() {
		v.box.Show()
		v.relayout()
	}
	v.table.Refresh()
}

// relayout lays the split out again after box showed or hid (hiding
// alone left the list in its half above an empty one).
func (v *splitsView) relayout() {
	if v.split != nil {
		v.split.Refresh()
	}
}

// minHeight lays out one object at full size, at least h tall.
type minHeight float32

func (h minHeight) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

func (h minHeight) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return fyne.NewSize(s.Width, max(s.Height, float32(h)))
}
