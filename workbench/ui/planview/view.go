package planview

import (
	"math"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/plangraph"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// planRefresh is how often a running job's plan shows new metrics.
const planRefresh = time.Second

// View is the Plan tab of a result (and the content of Ctrl+E and of
// a job opened from the Jobs panel): the operator graph on the left,
// Flink's EXPLAIN text sections on the right. While the job runs, each
// node shows its metrics, refreshed about once a second. Its methods run
// on the Fyne UI goroutine.
type View struct {
	job    monitor.Job // nil for a plan that is not running (EXPLAIN)
	g      *plangraph.Graph
	graph  *Graph
	pm     *monitor.PlanMetrics
	text   string
	status *widget.Label
	scroll *container.Scroll
	zoomL  *widget.Label
	// textView is the EXPLAIN text, wrapped at the pane's width.
	textView *widget.Label

	content fyne.CanvasObject
	last    time.Time
	ended   bool // the final metrics were drawn
	// refreshes counts metric refreshes drawn (for tests).
	refreshes int
}

// New builds the view of plan roots with EXPLAIN's text beside them;
// job, when set, is the job running them (its metrics are shown, their
// times in zone: the session's local time zone).
func New(job monitor.Job, roots []*table.PlanNode, streaming bool, text string, zone *time.Location) *View {
	return NewOf(job, plangraph.FromPlan(streaming, roots...), text, zone)
}

// NewOf builds the view of a plan graph (see New).
func NewOf(job monitor.Job, g *plangraph.Graph, text string, zone *time.Location) *View {
	p := &View{job: job, text: text}
	p.g = g
	p.graph = NewGraph(p.g, job != nil)
	p.status = widget.NewLabel("")
	p.status.Importance = widget.LowImportance
	p.status.Truncation = fyne.TextTruncateEllipsis
	if job != nil {
		p.pm = monitor.NewPlanMetrics(p.g)
		p.pm.Location = zone
		p.status.SetText("Live metrics: waiting for the first sample…")
	} else {
		p.status.SetText(Summary(p.g) + " · not running (EXPLAIN)")
	}
	tg := newPlanText(text) // layout.go: wrapped, so nothing is cut off on the right
	p.textView = tg
	copyBtn := widget.NewButtonWithIcon("Copy plan text", theme.ContentCopyIcon(), func() {
		if a := fyne.CurrentApp(); a != nil {
			a.Clipboard().SetContent(p.text)
		}
	})
	copyBtn.Importance = widget.LowImportance
	textSide := container.NewBorder(container.NewHBox(widget.NewLabelWithStyle("EXPLAIN", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), copyBtn),
		nil, nil, nil, container.NewVScroll(tg))
	p.scroll = container.NewScroll(p.graph)
	p.zoomL = widget.NewLabel("100%")
	btn := func(label string, f func()) *widget.Button {
		b := widget.NewButton(label, f)
		b.Importance = widget.LowImportance
		return b
	}
	zoom := container.NewHBox(btn("−", func() { p.SetZoom(p.graph.zoom / 1.25) }), p.zoomL,
		btn("+", func() { p.SetZoom(p.graph.zoom * 1.25) }), btn("Fit", p.Fit))
	graphSide := container.NewBorder(container.NewBorder(nil, nil, nil, zoom, p.status), nil, nil, nil, p.scroll)
	split := container.NewHSplit(graphSide, textSide)
	split.Offset = 0.5 // the EXPLAIN text wraps: half the width keeps its lines readable
	p.content = split
	return p
}

// SetZoom shows the graph at zoom z (clamped to MinZoom..2), keeping
// its metrics.
func (p *View) SetZoom(z float32) {
	p.graph.SetZoom(z)
	if p.pm != nil && p.refreshes > 0 {
		p.graph.SetMetrics(p.pm)
	}
	p.zoomL.SetText(strconv.Itoa(int(math.Round(float64(p.graph.zoom)*100))) + "%")
	p.scroll.Refresh()
}

// Fit zooms so that the whole graph is in view (never above 100%, never
// below MinFitZoom: a longer plan is scrolled rather than shrunk to
// unreadable text). The
// graph's size is not quite proportional to the zoom (text is measured
// and rounded at each size), so the zoom is refined on the size actually
// laid out until the graph fits or the smallest zoom is reached.
func (p *View) Fit() {
	s := p.scroll.Size()
	if s.Width <= 0 || s.Height <= 0 {
		return
	}
	z := float32(1)
	for range 8 {
		p.graph.SetZoom(z)
		g := p.graph.MinSize()
		if g.Width <= 0 || g.Height <= 0 {
			break
		}
		r := min(s.Width/g.Width, s.Height/g.Height)
		if r >= 1 || p.graph.zoom <= MinFitZoom {
			break
		}
		z = max(p.graph.zoom*r*0.99, MinFitZoom)
	}
	p.SetZoom(p.graph.zoom)
	p.scroll.ScrollToTop()
}

// Summary counts a plan's operators and exchanges ("5 operators, 1
// exchange").
func Summary(g *plangraph.Graph) string {
	ex := 0
	for _, e := range g.Edges {
		if e.Kind != "forward" {
			ex++
		}
	}
	return widgets.Plural(len(g.Nodes), "operator") + ", " + widgets.Plural(ex, "exchange")
}

// Tick samples the job's metrics about once a second (whether shown or
// not, so rates are ready when the tab is opened) and draws them when
// visible. After the job ends it draws the final figures once.
func (p *View) Tick(now time.Time, visible bool) {
	if p.job == nil || p.ended {
		return
	}
	done := p.job.Status().IsTerminal()
	if !done && now.Sub(p.last) < planRefresh {
		return
	}
	if done && !visible {
		return // draw the final figures when next shown
	}
	p.last = now
	p.pm.Sample(now, p.job.NodeMetrics)
	if visible {
		p.draw(now, done)
	}
}

// draw shows the last sample: node metrics and the status line.
func (p *View) draw(now time.Time, done bool) {
	p.graph.canceled = done && p.job.Status() == table.JobCanceled
	p.graph.SetMetrics(p.pm)
	p.refreshes++
	bp := 0
	for i := range p.g.Nodes {
		if p.pm.Sampler.Stats(i).BackPressured {
			bp++
		}
	}
	st := p.job.Status().String()
	s := Summary(p.g) + " · job " + st
	if done {
		p.ended = true
		s += " · final metrics"
	} else {
		s += " · live, updated " + now.Format("15:04:05")
	}
	if bp > 0 {
		s += " · " + widgets.Plural(bp, "back-pressured operator")
	}
	p.status.SetText(s)
}

// RefreshNow samples and draws at once (what the ticker does once a
// second; benchmarks time it).
func (p *View) RefreshNow(now time.Time) {
	if p.job == nil {
		return
	}
	p.last = now
	p.pm.Sample(now, p.job.NodeMetrics)
	p.draw(now, false)
}

// Content is the view's canvas object: the graph with its status line
// and zoom buttons beside the EXPLAIN text.
func (p *View) Content() fyne.CanvasObject { return p.content }

// Job is the job whose metrics are shown, nil for EXPLAIN's plan.
func (p *View) Job() monitor.Job { return p.job }

// Text is EXPLAIN's text shown beside the graph.
func (p *View) Text() string { return p.text }

// Plan is the laid-out plan graph drawn.
func (p *View) Plan() *plangraph.Graph { return p.g }

// Graph is the graph's canvas widget.
func (p *View) Graph() *Graph { return p.graph }

// Status is the status line's text; SetStatus changes it (a remote
// EXPLAIN says where it ran).
func (p *View) Status() string { return p.status.Text }

// SetStatus sets the status line's text.
func (p *View) SetStatus(s string) { p.status.SetText(s) }

// ZoomLabel is the zoom shown between the − and + buttons ("100%").
func (p *View) ZoomLabel() string { return p.zoomL.Text }

// Refreshes counts the metric refreshes drawn.
func (p *View) Refreshes() int { return p.refreshes }

// Ended reports whether the final metrics of the ended job were drawn.
func (p *View) Ended() bool { return p.ended }

// ScrollSize is the size of the graph's scrolled area.
func (p *View) ScrollSize() fyne.Size { return p.scroll.Size() }

// TextView is the label showing EXPLAIN's text.
func (p *View) TextView() *widget.Label { return p.textView }
