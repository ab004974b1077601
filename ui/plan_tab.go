package ui

import (
	"math"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/monitor"
	"github.com/riffle-sql/riffle/plangraph"
)

// planRefresh is how often a running job's plan shows new metrics.
const planRefresh = time.Second

// planView is the Plan tab of a result (and the content of Ctrl+E and of
// a job opened from the Jobs panel): the operator graph on the left,
// Flink's EXPLAIN text sections on the right. While the job runs, each
// node shows its metrics, refreshed about once a second.
type planView struct {
	wb     *Workbench
	job    monitor.Job // nil for a plan that is not running (EXPLAIN)
	g      *plangraph.Graph
	graph  *planGraph
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

// newPlanView builds the view of plan roots; job, when set, is the job
// running them (its metrics are shown).
func newPlanView(wb *Workbench, job monitor.Job, roots []*table.PlanNode, streaming bool, text string) *planView {
	return newPlanViewOf(wb, job, plangraph.FromPlan(streaming, roots...), text)
}

// newPlanViewOf builds the view of a plan graph (see newPlanView).
func newPlanViewOf(wb *Workbench, job monitor.Job, g *plangraph.Graph, text string) *planView {
	p := &planView{wb: wb, job: job, text: text}
	p.g = g
	p.graph = newPlanGraph(p.g, job != nil)
	p.status = widget.NewLabel("")
	p.status.Importance = widget.LowImportance
	p.status.Truncation = fyne.TextTruncateEllipsis
	if job != nil {
		p.pm = monitor.NewPlanMetrics(p.g)
		p.pm.Location = wb.embeddedZone()
		p.status.SetText("Live metrics: waiting for the first sample…")
	} else {
		p.status.SetText(planSummary(p.g) + " · not running (EXPLAIN)")
	}
	tg := newPlanText(text) // plan_layout.go: wrapped, so nothing is cut off on the right
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
	zoom := container.NewHBox(btn("−", func() { p.setZoom(p.graph.zoom / 1.25) }), p.zoomL,
		btn("+", func() { p.setZoom(p.graph.zoom * 1.25) }), btn("Fit", p.fit))
	graphSide := container.NewBorder(container.NewBorder(nil, nil, nil, zoom, p.status), nil, nil, nil, p.scroll)
	split := container.NewHSplit(graphSide, textSide)
	split.Offset = 0.5 // the EXPLAIN text wraps: half the width keeps its lines readable
	p.content = split
	return p
}

// setZoom shows the graph at zoom z, keeping its metrics.
func (p *planView) setZoom(z float32) {
	p.graph.setZoom(z)
	if p.pm != nil && p.refreshes > 0 {
		p.graph.setMetrics(p.pm)
	}
	p.zoomL.SetText(strconv.Itoa(int(math.Round(float64(p.graph.zoom)*100))) + "%")
	p.scroll.Refresh()
}

// fit zooms so that the whole graph is in view (never above 100%, never
// below minFitZoom: a longer plan is scrolled rather than shrunk to
// unreadable text). The
// graph's size is not quite proportional to the zoom (text is measured
// and rounded at each size), so the zoom is refined on the size actually
// laid out until the graph fits or the smallest zoom is reached.
func (p *planView) fit() {
	s := p.scroll.Size()
	if s.Width <= 0 || s.Height <= 0 {
		return
	}
	z := float32(1)
	for range 8 {
		p.graph.setZoom(z)
		g := p.graph.MinSize()
		if g.Width <= 0 || g.Height <= 0 {
			break
		}
		r := min(s.Width/g.Width, s.Height/g.Height)
		if r >= 1 || p.graph.zoom <= minFitZoom {
			break
		}
		z = max(p.graph.zoom*r*0.99, minFitZoom)
	}
	p.setZoom(p.graph.zoom)
	p.scroll.ScrollToTop()
}

// planSummary counts operators and exchanges.
func planSummary(g *plangraph.Graph) string {
	ex := 0
	for _, e := range g.Edges {
		if e.Kind != "forward" {
			ex++
		}
	}
	return plural(len(g.Nodes), "operator") + ", " + plural(ex, "exchange")
}

func plural(n int, what string) string {
	s := fmtCount(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}

func fmtCount(n int) string { return groupDigits(n) }

// tick samples the job's metrics about once a second (whether shown or
// not, so rates are ready when the tab is opened) and draws them when
// visible. After the job ends it draws the final figures once.
func (p *planView) tick(now time.Time, visible bool) {
	if p.job == nil || p.ended {
		return
	}
	done := p.job.GetJobStatus().IsTerminal()
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
func (p *planView) draw(now time.Time, done bool) {
	p.graph.canceled = done && p.job.GetJobStatus() == table.JobCanceled
	p.graph.setMetrics(p.pm)
	p.refreshes++
	bp := 0
	for i := range p.g.Nodes {
		if p.pm.Sampler.Stats(i).BackPressured {
			bp++
		}
	}
	st := p.job.GetJobStatus().String()
	s := planSummary(p.g) + " · job " + st
	if done {
		p.ended = true
		s += " · final metrics"
	} else {
		s += " · live, updated " + now.Format("15:04:05")
	}
	if bp > 0 {
		s += " · " + plural(bp, "back-pressured operator")
	}
	p.status.SetText(s)
}

// refreshNow samples and draws at once (what the ticker does once a
// second; benchmarks time it).
func (p *planView) refreshNow(now time.Time) {
	if p.job == nil {
		return
	}
	p.last = now
	p.pm.Sample(now, p.job.NodeMetrics)
	p.draw(now, false)
}
