package jobs

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/monitor"
)

// LagSpark is a small line chart of a job's watermark lag over the last
// minutes: one canvas line per step, scaled to the largest lag shown. When
// the lag is no lag (replayed data, monitor.LiveLag) it charts how far the
// watermark advanced instead ("wm +2h10m").
type LagSpark struct {
	widget.BaseWidget
	pts    []monitor.LagPoint
	active bool
	lines  []*canvas.Line
	base   *canvas.Line
	label  *canvas.Text
}

// maxSparkSteps bounds the line segments of a spark line.
const maxSparkSteps = 60

// NewLagSpark returns an empty spark line (60×24 at least).
func NewLagSpark() *LagSpark {
	s := &LagSpark{base: canvas.NewLine(theme.Color(theme.ColorNameDisabled)), label: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder))}
	s.base.StrokeWidth = 1
	s.label.TextSize = theme.TextSize() - 3
	for range maxSparkSteps {
		l := canvas.NewLine(theme.Color(theme.ColorNamePrimary))
		l.StrokeWidth = 1.5
		l.Hide()
		s.lines = append(s.lines, l)
	}
	s.ExtendBaseWidget(s)
	return s
}

// Set shows the history (oldest first); active draws the line in the
// primary colour, an ended job's in the disabled one.
func (s *LagSpark) Set(pts []monitor.LagPoint, active bool) {
	s.pts, s.active = pts, active
	s.Refresh()
}

// Label is the scale shown beside the line ("max 2.0s", "wm +1h00m"; for tests).
func (s *LagSpark) Label() string { return s.label.Text }

// MinSize is 60×24.
func (s *LagSpark) MinSize() fyne.Size { return fyne.NewSize(60, 24) }

// CreateRenderer draws the base line, the scale and the segments.
func (s *LagSpark) CreateRenderer() fyne.WidgetRenderer {
	objs := []fyne.CanvasObject{s.base, s.label}
	for _, l := range s.lines {
		objs = append(objs, l)
	}
	return &sparkRenderer{s: s, objs: objs}
}

type sparkRenderer struct {
	s    *LagSpark
	objs []fyne.CanvasObject
}

func (r *sparkRenderer) Layout(size fyne.Size) { r.draw(size) }

func (r *sparkRenderer) draw(size fyne.Size) {
	s := r.s
	pts := s.pts
	if len(pts) > maxSparkSteps+1 {
		// keep every k-th point and the newest
		k := (len(pts) + maxSparkSteps - 1) / maxSparkSteps
		var thin []monitor.LagPoint
		for i := 0; i < len(pts); i += k {
			thin = append(thin, pts[i])
		}
		if thin[len(thin)-1] != pts[len(pts)-1] {
			thin = append(thin, pts[len(pts)-1])
		}
		pts = thin
	}
	value := func(p monitor.LagPoint) float64 { return p.Lag.Seconds() }
	replay := len(pts) > 0 && !monitor.LiveLag(pts[len(pts)-1].Lag)
	if replay {
		first := pts[0].Watermark
		value = func(p monitor.LagPoint) float64 { return float64(p.Watermark-first) / 1000 }
	}
	top := float64(0)
	for _, p := range pts {
		top = max(top, value(p))
	}
	switch {
	case len(pts) == 0:
		s.label.Text = ""
	case replay:
		s.label.Text = "wm +" + monitor.FormatLag(time.Duration(top*float64(time.Second)))
	default:
		s.label.Text = "max " + monitor.FormatLag(time.Duration(top*float64(time.Second)))
	}
	if top <= 0 {
		top = 1
	}
	// the line on the left, its scale ("max 1.2s") on the right; a scale
	// that leaves the line too little room is left out
	ls := s.label.MinSize()
	if size.Width-ls.Width-4 < 40 {
		s.label.Text = ""
		ls = fyne.Size{}
	}
	s.label.Move(fyne.NewPos(size.Width-ls.Width, (size.Height-ls.Height)/2))
	s.label.Resize(ls)
	w := max(size.Width-ls.Width-4, 10)
	h := size.Height - 2
	s.base.Position1 = fyne.NewPos(0, size.Height-1)
	s.base.Position2 = fyne.NewPos(w, size.Height-1)
	c := theme.Color(theme.ColorNamePrimary)
	if !s.active {
		c = theme.Color(theme.ColorNameDisabled)
	}
	n := len(pts)
	for i, l := range s.lines {
		if i+1 >= n {
			l.Hide()
			continue
		}
		x := func(j int) float32 { return float32(j) / float32(max(n-1, 1)) * w }
		y := func(j int) float32 { return 1 + h - float32(value(pts[j])/top)*h }
		l.Position1 = fyne.NewPos(x(i), y(i))
		l.Position2 = fyne.NewPos(x(i+1), y(i+1))
		l.StrokeColor = c
		l.Show()
	}
}

func (r *sparkRenderer) MinSize() fyne.Size { return r.s.MinSize() }
func (r *sparkRenderer) Refresh() {
	r.draw(r.s.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}
func (r *sparkRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *sparkRenderer) Destroy()                     {}
