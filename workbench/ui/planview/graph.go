package planview

import (
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

// Graph draws a laid-out plangraph.Graph with canvas objects: one
// rounded box per operator (name, details, and live metric lines), one
// polyline with an arrow head per edge, labelled with the exchange. The
// boxes keep the layout's coordinates; the graph is centred when the
// widget is wider. SetMetrics changes only the metric texts and colours,
// so a refresh touches a few objects per node.
type Graph struct {
	widget.BaseWidget

	g     *plangraph.Graph
	live  bool // metric lines are reserved in every box
	nodes []*graphNode
	edges []*graphEdge
	objs  []fyne.CanvasObject
	size  fyne.Size // the laid-out graph's size
	zoom  float32   // 1 = the theme's text size
	pad   float32
	lineH float32
	dx    float32 // horizontal offset when centred

	// canceled is set when the job was cancelled; lastWm is each node's
	// last watermark drawn before (canceled.go).
	canceled bool
	lastWm   map[int]string
}

type graphNode struct {
	n       *plangraph.Node
	source  bool // no inputs: its "in" rate says nothing
	box     *canvas.Rectangle
	title   *canvas.Text
	lines   []*canvas.Text
	metrics []*canvas.Text
	badge   *canvas.Text
	bp      bool // drawn as back-pressured
}

type graphEdge struct {
	e     *plangraph.Edge
	segs  []*canvas.Line
	head  [2]*canvas.Line
	label *canvas.Text
	hot   bool // drawn as blocked
}

// plan graph metrics (pixels at scale 1)
const (
	graphMetricChars = 42 // room for a metric line ("wm 12:00:00.000 · state 12.3K keys, 1.5 MiB")
)

// NewGraph lays g out and builds its canvas objects. live reserves
// room for monitor.MetricLines lines of metrics in every box.
func NewGraph(g *plangraph.Graph, live bool) *Graph {
	pg := &Graph{g: g, live: live, zoom: 1}
	pg.ExtendBaseWidget(pg)
	pg.build()
	return pg
}

func (pg *Graph) build() {
	th := theme.Current()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	z := pg.zoom
	size := th.Size(theme.SizeNameText) * z
	small := size - z
	mono := fyne.TextStyle{Monospace: true}
	charW := float64(fyne.MeasureText("0123456789", small, mono).Width) / 10
	pg.lineH = float32(math.Ceil(float64(small) * 1.45))
	pg.pad = 8 * z
	metricLines := 0
	if pg.live {
		metricLines = monitor.MetricLines
	}
	lineH, pad := float64(pg.lineH), float64(pg.pad)
	measure := func(n *plangraph.Node) (float64, float64) {
		w := float64(fyne.MeasureText(n.Op, size, fyne.TextStyle{Bold: true}).Width)
		for _, l := range n.Lines {
			w = max(w, float64(fyne.MeasureText(l, small, fyne.TextStyle{}).Width))
		}
		if pg.live {
			w = max(w, float64(graphMetricChars)*charW)
		}
		h := float64(size)*1.5 + float64(len(n.Lines)+metricLines)*lineH
		if pg.live {
			h += lineH // the back-pressure badge
		}
		return math.Ceil(w + 2*pad), math.Ceil(h + 2*pad)
	}
	pg.g.Layout(plangraph.LayoutOptions{Measure: measure, LayerGap: float64(56 * z), NodeGap: float64(28 * z), Margin: float64(12 * z)})
	pg.size = fyne.NewSize(float32(pg.g.Width), float32(pg.g.Height))

	fg := th.Color(theme.ColorNameForeground, v)
	dim := th.Color(theme.ColorNamePlaceHolder, v)
	edgeC := th.Color(theme.ColorNameDisabled, v)
	boxFill := th.Color(theme.ColorNameInputBackground, v)
	boxLine := th.Color(theme.ColorNamePrimary, v)

	for _, e := range pg.g.Edges {
		ge := &graphEdge{e: e}
		for i := 1; i < len(e.Points); i++ {
			l := canvas.NewLine(edgeC)
			l.StrokeWidth = max(1.5*z, 1)
			ge.segs = append(ge.segs, l)
			pg.objs = append(pg.objs, l)
		}
		for i := range ge.head {
			ge.head[i] = canvas.NewLine(edgeC)
			ge.head[i].StrokeWidth = max(1.5*z, 1)
			pg.objs = append(pg.objs, ge.head[i])
		}
		ge.label = canvas.NewText(e.Label, dim)
		ge.label.TextSize = small
		ge.label.TextStyle = fyne.TextStyle{Italic: true}
		pg.objs = append(pg.objs, ge.label)
		pg.edges = append(pg.edges, ge)
	}
	for _, n := range pg.g.Nodes {
		gn := &graphNode{n: n, source: len(pg.g.Inputs(n.ID)) == 0}
		gn.box = canvas.NewRectangle(boxFill)
		gn.box.StrokeColor = boxLine
		gn.box.StrokeWidth = max(1.5*z, 1)
		gn.box.CornerRadius = 6 * z
		gn.title = canvas.NewText(n.Op, fg)
		gn.title.TextStyle = fyne.TextStyle{Bold: true}
		gn.title.TextSize = size
		pg.objs = append(pg.objs, gn.box, gn.title)
		for _, l := range n.Lines {
			// the proportional font: the monospace one loses '_' at this
			// size, and names are full of them
			t := canvas.NewText(l, dim)
			t.TextSize = small
			gn.lines = append(gn.lines, t)
			pg.objs = append(pg.objs, t)
		}
		for range metricLines {
			t := canvas.NewText("", fg)
			t.TextSize = small
			t.TextStyle = mono
			gn.metrics = append(gn.metrics, t)
			pg.objs = append(pg.objs, t)
		}
		if pg.live {
			gn.badge = canvas.NewText("", th.Color(theme.ColorNameWarning, v))
			gn.badge.TextSize = small
			gn.badge.TextStyle = fyne.TextStyle{Bold: true}
			pg.objs = append(pg.objs, gn.badge)
		}
		pg.nodes = append(pg.nodes, gn)
	}
	pg.place(0)
}

// MinZoom is the smallest zoom (the − button goes down to it).
const MinZoom = 0.1

// SetZoom redraws the graph at a zoom factor (MinZoom to 2): text,
// boxes and gaps scale together and the layout is computed again.
func (pg *Graph) SetZoom(z float32) {
	z = min(max(z, MinZoom), 2)
	if z == pg.zoom {
		return
	}
	pg.zoom = z
	pg.nodes, pg.edges, pg.objs = nil, nil, nil
	pg.dx = 0
	pg.build()
	pg.Refresh()
}

// place positions every object with the graph shifted right by dx.
func (pg *Graph) place(dx float32) {
	pg.dx = dx
	pt := func(p plangraph.Point) fyne.Position { return fyne.NewPos(float32(p.X)+dx, float32(p.Y)) }
	for _, ge := range pg.edges {
		ps := ge.e.Points
		for i, l := range ge.segs {
			l.Position1, l.Position2 = pt(ps[i]), pt(ps[i+1])
		}
		if n := len(ps); n >= 2 {
			tip, from := pt(ps[n-1]), pt(ps[n-2])
			ang := math.Atan2(float64(tip.Y-from.Y), float64(tip.X-from.X))
			for i, side := range []float64{-1, 1} {
				a := ang + math.Pi - side*0.45
				ge.head[i].Position1 = tip
				ge.head[i].Position2 = fyne.NewPos(tip.X+9*pg.zoom*float32(math.Cos(a)), tip.Y+9*pg.zoom*float32(math.Sin(a)))
			}
		}
		ls := ge.label.MinSize()
		at := pt(ge.e.LabelAt)
		ge.label.Move(fyne.NewPos(at.X+4, at.Y-ls.Height/2))
		ge.label.Resize(ls)
	}
	for _, gn := range pg.nodes {
		n := gn.n
		x, y := float32(n.X)+dx, float32(n.Y)
		gn.box.Move(fyne.NewPos(x, y))
		gn.box.Resize(fyne.NewSize(float32(n.W), float32(n.H)))
		cx := x + pg.pad
		cy := y + pg.pad
		ts := gn.title.MinSize()
		gn.title.Move(fyne.NewPos(cx, cy))
		gn.title.Resize(ts)
		cy += gn.title.TextSize * 1.5
		for _, t := range append(append([]*canvas.Text{}, gn.lines...), gn.metrics...) {
			t.Move(fyne.NewPos(cx, cy))
			t.Resize(fyne.NewSize(float32(n.W)-2*pg.pad, pg.lineH))
			cy += pg.lineH
		}
		if gn.badge != nil {
			gn.badge.Move(fyne.NewPos(cx, cy))
			gn.badge.Resize(fyne.NewSize(float32(n.W)-2*pg.pad, pg.lineH))
		}
	}
}

// SetMetrics shows each node's metric lines and marks back-pressured
// nodes and blocked edges. It reports how many canvas objects changed.
func (pg *Graph) SetMetrics(pm *monitor.PlanMetrics) int {
	changed := 0
	th := theme.Current()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	for i, gn := range pg.nodes {
		nv := pm.Node(i)
		for k, t := range gn.metrics {
			s := ""
			if k < len(nv.Lines) {
				s = pg.watermarkLine(i, nv.Lines[k]) // canceled.go: no "wm end" once cancelled
			}
			if k == 0 && gn.source {
				if _, out, ok := strings.Cut(s, " · "); ok && strings.HasPrefix(s, "in ") {
					s = out // a source reads, it receives nothing
				}
			}
			if t.Text != s {
				t.Text = s
				t.Refresh()
				changed++
			}
		}
		if gn.badge == nil {
			continue
		}
		badge := ""
		switch {
		case nv.BackPressured:
			badge = "▲ back-pressured"
			if nv.BackPressureRatio > 0 {
				badge += " " + formatPercent(nv.BackPressureRatio)
			}
		case nv.InputBlocked:
			badge = "● slow: input queue full"
		}
		if gn.badge.Text != badge {
			gn.badge.Text = badge
			gn.badge.Refresh()
			changed++
		}
		if bp := nv.BackPressured; bp != gn.bp {
			gn.bp = bp
			if bp {
				gn.box.StrokeColor = th.Color(theme.ColorNameWarning, v)
				gn.box.StrokeWidth = max(3*pg.zoom, 2)
			} else {
				gn.box.StrokeColor = th.Color(theme.ColorNamePrimary, v)
				gn.box.StrokeWidth = max(1.5*pg.zoom, 1)
			}
			gn.box.Refresh()
			changed++
		}
	}
	for i, ge := range pg.edges {
		hot := pm.EdgeBlocked(i)
		if hot == ge.hot {
			continue
		}
		ge.hot = hot
		c := th.Color(theme.ColorNameDisabled, v)
		if hot {
			c = th.Color(theme.ColorNameWarning, v)
		}
		for _, l := range append(ge.segs, ge.head[:]...) {
			l.StrokeColor = c
			l.Refresh()
		}
		changed++
	}
	return changed
}

func formatPercent(r float64) string { return strconv.Itoa(int(math.Round(r*100))) + "%" }

// NodeAt returns the node under a position (for tooltips and tests).
func (pg *Graph) NodeAt(p fyne.Position) *plangraph.Node {
	for _, gn := range pg.nodes {
		n := gn.n
		x, y := float32(n.X)+pg.dx, float32(n.Y)
		if p.X >= x && p.X <= x+float32(n.W) && p.Y >= y && p.Y <= y+float32(n.H) {
			return n
		}
	}
	return nil
}

// Texts returns every text drawn in node i: title, details, metrics,
// badge (for tests).
func (pg *Graph) Texts(i int) []string {
	gn := pg.nodes[i]
	out := []string{gn.title.Text}
	for _, t := range gn.lines {
		out = append(out, t.Text)
	}
	for _, t := range gn.metrics {
		out = append(out, t.Text)
	}
	if gn.badge != nil && gn.badge.Text != "" {
		out = append(out, gn.badge.Text)
	}
	return out
}

// Tapped shows the full attributes of the tapped operator (EXPLAIN's
// line for it), which the box only summarises.
func (pg *Graph) Tapped(ev *fyne.PointEvent) {
	n := pg.NodeAt(ev.Position)
	c := fyne.CurrentApp().Driver().CanvasForObject(pg)
	if n == nil || c == nil {
		return
	}
	title := widget.NewLabelWithStyle(n.Op, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	attrs := widget.NewLabel(strings.Join(n.Attrs, "\n"))
	attrs.Wrapping = fyne.TextWrapBreak
	attrs.TextStyle = fyne.TextStyle{Monospace: true}
	attrs.Selectable = true
	body := container.NewBorder(title, nil, nil, nil, container.NewVScroll(attrs))
	pop := widget.NewPopUp(body, c)
	pop.ShowAtPosition(ev.AbsolutePosition)
	pop.Resize(fyne.NewSize(560, min(float32(120+40*len(n.Attrs)), 420)))
}

func (pg *Graph) CreateRenderer() fyne.WidgetRenderer { return &graphRenderer{pg: pg} }

type graphRenderer struct{ pg *Graph }

func (r *graphRenderer) Layout(s fyne.Size) {
	dx := float32(0)
	if s.Width > r.pg.size.Width {
		dx = float32(math.Floor(float64(s.Width-r.pg.size.Width) / 2))
	}
	if dx != r.pg.dx {
		r.pg.place(dx)
	}
}

func (r *graphRenderer) MinSize() fyne.Size { return r.pg.size }

func (r *graphRenderer) Refresh() {
	for _, o := range r.pg.objs {
		o.Refresh()
	}
}

func (r *graphRenderer) Objects() []fyne.CanvasObject { return r.pg.objs }
func (r *graphRenderer) Destroy()                     {}

// Zoom is the graph's zoom factor (1 = the theme's text size).
func (pg *Graph) Zoom() float32 { return pg.zoom }

// Nodes is the number of operator boxes drawn.
func (pg *Graph) Nodes() int { return len(pg.nodes) }

// BackPressured reports whether node i is drawn as back-pressured.
func (pg *Graph) BackPressured(i int) bool { return pg.nodes[i].bp }

// BlockedEdges is the number of edges drawn as blocked.
func (pg *Graph) BlockedEdges() int {
	n := 0
	for _, e := range pg.edges {
		if e.hot {
			n++
		}
	}
	return n
}
