package charts

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Theme holds the colours of a chart, taken from the workbench theme so
// that a dark workbench does not show a white box.
type Theme struct {
	Background color.Color
	Foreground color.Color // text and axes
	Grid       color.Color
	// Palette colours the series in order (repeating).
	Palette []color.Color
	// FontSize is the tick label size in points (0 = 9); titles and
	// axis labels are a little larger.
	FontSize float64
}

// twelve colours told apart on dark and light backgrounds (tableau10-like,
// plus cyan and olive); a series past the twelfth repeats a colour with a
// dashed line (SeriesDashes)
var palette = []color.Color{
	color.NRGBA{0x4e, 0x9a, 0xf1, 0xff}, // blue
	color.NRGBA{0xf2, 0x8e, 0x2b, 0xff}, // orange
	color.NRGBA{0x59, 0xc1, 0x5c, 0xff}, // green
	color.NRGBA{0xe1, 0x57, 0x59, 0xff}, // red
	color.NRGBA{0xb0, 0x7a, 0xd9, 0xff}, // purple
	color.NRGBA{0xed, 0xc9, 0x48, 0xff}, // yellow
	color.NRGBA{0x17, 0xbe, 0xcf, 0xff}, // cyan
	color.NRGBA{0xff, 0x9d, 0xa7, 0xff}, // pink
	color.NRGBA{0x9c, 0x75, 0x5f, 0xff}, // brown
	color.NRGBA{0xbc, 0xbd, 0x22, 0xff}, // olive
	color.NRGBA{0x76, 0xb7, 0xb2, 0xff}, // teal
	color.NRGBA{0xba, 0xb0, 0xac, 0xff}, // grey
}

// DarkTheme matches Fyne's default dark theme.
func DarkTheme() Theme {
	return Theme{
		Background: color.NRGBA{0x17, 0x17, 0x18, 0xff},
		Foreground: color.NRGBA{0xf3, 0xf3, 0xf3, 0xff},
		Grid:       color.NRGBA{0xff, 0xff, 0xff, 0x1c},
		Palette:    palette,
	}
}

// LightTheme matches Fyne's default light theme.
func LightTheme() Theme {
	return Theme{
		Background: color.NRGBA{0xff, 0xff, 0xff, 0xff},
		Foreground: color.NRGBA{0x56, 0x56, 0x56, 0xff},
		Grid:       color.NRGBA{0x00, 0x00, 0x00, 0x18},
		Palette:    palette,
	}
}

// SeriesColor returns the colour of series i.
func (t Theme) SeriesColor(i int) color.Color {
	p := t.Palette
	if len(p) == 0 {
		p = palette
	}
	return p[i%len(p)]
}

// SeriesDashes returns the dash pattern of series i's line: solid for the
// first round of the palette, then dashed, so that no two of the first 24
// lines look alike.
func (t Theme) SeriesDashes(i int) []vg.Length {
	n := len(t.Palette)
	if n == 0 {
		n = len(palette)
	}
	if (i/n)%2 == 0 {
		return nil
	}
	return []vg.Length{vg.Points(5), vg.Points(3)}
}

func (t Theme) fontSize() float64 {
	if t.FontSize > 0 {
		return t.FontSize
	}
	return 9
}

// RenderOptions give the size and look of a rendered chart.
type RenderOptions struct {
	// Width and Height in pixels.
	Width, Height int
	// DPI relates points (font sizes, line widths) to pixels (0 = 96).
	DPI   float64
	Theme Theme
}

// dpi is the resolution rounded to a whole number (what vgimg takes).
func (o RenderOptions) dpi() float64 {
	if o.DPI >= 1 {
		return math.Round(o.DPI)
	}
	return 96
}

// size returns the canvas size in points.
func (o RenderOptions) size() (vg.Length, vg.Length, error) {
	if o.Width <= 0 || o.Height <= 0 {
		return 0, 0, fmt.Errorf("chart: size %dx%d is empty", o.Width, o.Height)
	}
	if o.Width > 16384 || o.Height > 16384 {
		return 0, 0, fmt.Errorf("chart: size %dx%d is too large", o.Width, o.Height)
	}
	d := o.dpi()
	return vg.Length(float64(o.Width) / d * 72), vg.Length(float64(o.Height) / d * 72), nil
}

// Plot builds the gonum plot of a model for the given size and theme.
// Axis ranges and ticks are the model's; long lines are thinned to about
// two points per pixel column, which looks the same and draws faster.
func (m *Model) Plot(o RenderOptions) (p *plot.Plot, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("chart: internal error: %v", r)
		}
	}()
	th := o.Theme
	if th.Background == nil {
		th = DarkTheme()
	}
	p = plot.New()
	p.BackgroundColor = th.Background
	fs := th.fontSize()
	style := func(a *plot.Axis, label string) {
		a.Label.Text = label
		a.Label.TextStyle.Color = th.Foreground
		a.Label.TextStyle.Font.Size = vg.Length(fs + 1)
		a.Label.TextStyle.Font.Variant = "Sans"
		a.Tick.Label.Color = th.Foreground
		a.Tick.Label.Font.Size = vg.Length(fs)
		a.Tick.Label.Font.Variant = "Sans"
		a.Color = th.Foreground
		a.Tick.Color = th.Foreground
		a.Tick.Length = vg.Points(4)
		a.Padding = vg.Points(2)
	}
	style(&p.X, m.X.Label)
	style(&p.Y, m.Y.Label)
	p.Title.Text = m.Settings.Title
	p.Title.TextStyle.Color = th.Foreground
	p.Title.TextStyle.Font.Size = vg.Length(fs + 3)
	p.Title.TextStyle.Font.Variant = "Sans"
	p.Title.Padding = vg.Points(4)
	p.Legend.TextStyle.Color = th.Foreground
	p.Legend.TextStyle.Font.Size = vg.Length(fs)
	p.Legend.TextStyle.Font.Variant = "Sans"
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.ThumbnailWidth = vg.Points(14)
	p.Legend.Padding = vg.Points(2)

	wpt, hpt, err := o.size()
	if err != nil {
		return nil, err
	}
	// an axis label longer than its axis makes gonum shrink the data
	// area to make room for it: shorten it to fit instead
	p.Y.Label.Text = fitLabel(p.Y.Label.TextStyle, p.Y.Label.Text, (hpt-2*margin)*0.8-vg.Points(40))
	p.X.Label.Text = fitLabel(p.X.Label.TextStyle, p.X.Label.Text, (wpt-2*margin)*0.8-vg.Points(60))
	// tick density from the size: time labels are wide
	xn := max(2, int(float64(wpt)/72*o.dpi()/110))
	yn := max(2, int(float64(hpt)/72*o.dpi()/45))
	xticks, yticks := m.X.Ticks(xn), m.Y.Ticks(yn)
	p.X.Tick.Marker = constTicks(xticks)
	p.Y.Tick.Marker = constTicks(yticks)

	grid := plotter.NewGrid()
	grid.Horizontal.Color = th.Grid
	grid.Vertical.Color = th.Grid
	if m.X.Kind == CategoryAxis {
		grid.Vertical.Width = 0
	}
	p.Add(grid)

	// about the data area's width in points and pixels
	dataW := max(float64(wpt)-60, 20)
	dataPx := int(dataW / 72 * o.dpi())

	switch m.Settings.Kind {
	case Line, Area:
		for i, s := range m.Series {
			pts := decimate(s.Points, dataPx)
			l := &chartLine{XYs: xys(pts), LineStyle: draw.LineStyle{Color: th.SeriesColor(i), Width: vg.Points(1.5), Dashes: th.SeriesDashes(i)}}
			if m.Settings.Kind == Area {
				l.FillColor = withAlpha(th.SeriesColor(i), 0x50)
			}
			p.Add(l)
			if len(pts) == 1 { // a single point draws no line
				sc := &plotter.Scatter{XYs: xys(pts), GlyphStyle: draw.GlyphStyle{Color: th.SeriesColor(i), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}}
				p.Add(sc)
			}
			p.Legend.Add(s.Name, l)
		}
	case Scatter:
		radius := vg.Points(2.5)
		if m.Points() > 2000 {
			radius = vg.Points(1.2)
		}
		for i, s := range m.Series {
			sc := &plotter.Scatter{XYs: xys(s.Points),
				GlyphStyle: draw.GlyphStyle{Color: withAlpha(th.SeriesColor(i), 0xc0), Radius: radius, Shape: draw.CircleGlyph{}}}
			p.Add(sc)
			p.Legend.Add(s.Name, sc)
		}
	case Bar, StackedBar:
		n := max(len(m.X.Categories), 1)
		slot := dataW / float64(n) * 0.8
		var below *plotter.BarChart
		for i, s := range m.Series {
			vals := make(plotter.Values, len(s.Points))
			for k, pt := range s.Points {
				vals[k] = pt.Y
			}
			w := slot
			if m.Settings.Kind == Bar && len(m.Series) > 1 {
				w = slot / float64(len(m.Series))
			}
			b := &plotter.BarChart{Values: vals, Width: vg.Length(max(w, 0.5)), Color: th.SeriesColor(i)}
			if m.Settings.Kind == StackedBar {
				if below != nil {
					b.StackOn(below)
				}
				below = b
			} else if len(m.Series) > 1 {
				b.Offset = vg.Length((float64(i) - float64(len(m.Series)-1)/2) * w)
			}
			p.Add(b)
			p.Legend.Add(s.Name, b)
		}
	case Histogram:
		for i, s := range m.Series {
			bins := make([]plotter.HistogramBin, len(s.Bins))
			for k, b := range s.Bins {
				bins[k] = plotter.HistogramBin{Min: b.Min, Max: b.Max, Weight: b.Count}
			}
			width := 0.0
			if len(s.Bins) > 0 {
				width = s.Bins[0].Max - s.Bins[0].Min
			}
			fill := th.SeriesColor(i)
			if len(m.Series) > 1 {
				fill = withAlpha(fill, 0x90)
			}
			h := &plotter.Histogram{Bins: bins, Width: width, FillColor: fill,
				LineStyle: draw.LineStyle{Color: th.Background, Width: vg.Points(0.5)}}
			p.Add(h)
			p.Legend.Add(s.Name, h)
		}
	}
	if !m.legend() {
		p.Legend = emptyLegend(p.Legend)
	}
	p.X.Min, p.X.Max = m.X.Min, m.X.Max
	p.Y.Min, p.Y.Max = m.Y.Min, m.Y.Max
	return p, nil
}

// fitLabel shortens text (ending it in "…") until it is at most max wide.
func fitLabel(st text.Style, label string, max vg.Length) string {
	if label == "" || st.Width(label) <= max {
		return label
	}
	r := []rune(label)
	for n := len(r) - 1; n > 1; n-- {
		s := string(r[:n]) + "…"
		if st.Width(s) <= max {
			return s
		}
	}
	return ""
}

// emptyLegend returns a legend styled as l without entries.
func emptyLegend(l plot.Legend) plot.Legend {
	e := plot.NewLegend()
	e.TextStyle, e.Top, e.Left, e.ThumbnailWidth, e.Padding = l.TextStyle, l.Top, l.Left, l.ThumbnailWidth, l.Padding
	return e
}

// margin is the empty border around a chart.
const margin = vg.Length(6)

// drawPlot draws p into c with a margin, and its legend (if it has
// entries) in a column at the right, outside the data area, so that it
// never hides lines.
func drawPlot(p *plot.Plot, c draw.Canvas) {
	if p.BackgroundColor != nil {
		c.SetColor(p.BackgroundColor)
		c.Fill(c.Rectangle.Path())
	}
	c = draw.Crop(c, margin, -margin, margin, -margin)
	leg := p.Legend
	r := leg.Rectangle(c)
	w := r.Max.X - r.Min.X
	if w <= 0 || w > (c.Max.X-c.Min.X)*0.4 {
		// no entries, or too wide for a column: gonum draws it inside
		p.Draw(c)
		return
	}
	p.Legend = emptyLegend(leg)
	defer func() { p.Legend = leg }()
	gap := vg.Length(8)
	p.Draw(draw.Crop(c, 0, -(w + gap), 0, 0))
	top := vg.Length(0)
	if p.Title.Text != "" {
		top = -p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y - p.Title.Padding
	}
	leg.Draw(draw.Crop(c, c.Max.X-c.Min.X-w, 0, 0, top))
}

// legend reports whether series names are worth a legend.
func (m *Model) legend() bool {
	return len(m.Series) > 1 || m.Settings.Series != ""
}

// constTicks turns model ticks into a gonum ticker.
func constTicks(ts []Tick) plot.ConstantTicks {
	out := make(plot.ConstantTicks, len(ts))
	for i, t := range ts {
		out[i] = plot.Tick{Value: t.Value, Label: t.Label}
	}
	return out
}

func xys(pts []Point) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, p := range pts {
		out[i] = plotter.XY{X: p.X, Y: p.Y}
	}
	return out
}

func withAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}

// decimate thins points (sorted by X) to about two per pixel column:
// the lowest and highest point of each column, in X order, plus the very
// first and last points. Every peak is kept and the line looks the same.
func decimate(pts []Point, columns int) []Point {
	if columns <= 0 || len(pts) <= 2*columns+2 {
		return pts
	}
	lo, hi := pts[0].X, pts[len(pts)-1].X
	if !(hi > lo) {
		return pts
	}
	scale := float64(columns) / (hi - lo)
	out := make([]Point, 0, 2*columns+4)
	out = append(out, pts[0])
	for i := 0; i < len(pts); {
		col := int((pts[i].X - lo) * scale)
		j := i
		minI, maxI := i, i
		for j < len(pts) && int((pts[j].X-lo)*scale) == col {
			if pts[j].Y < pts[minI].Y {
				minI = j
			}
			if pts[j].Y > pts[maxI].Y {
				maxI = j
			}
			j++
		}
		a, b := min(minI, maxI), max(minI, maxI)
		if a != 0 {
			out = append(out, pts[a])
		}
		if b != a {
			out = append(out, pts[b])
		}
		i = j
	}
	if last := pts[len(pts)-1]; out[len(out)-1] != last {
		out = append(out, last)
	}
	return out
}

// Render draws the model into a new RGBA image of the given size.
func Render(m *Model, o RenderOptions) (*image.RGBA, error) {
	p, err := m.Plot(o)
	if err != nil {
		return nil, err
	}
	return renderPlot(p, o)
}

// RenderMessage draws a centred message (why there is no chart yet) in
// the theme's colours.
func RenderMessage(msg string, o RenderOptions) (*image.RGBA, error) {
	m := &Model{Settings: Settings{Kind: Line}}
	m.setRanges()
	p, err := m.Plot(o)
	if err != nil {
		return nil, err
	}
	p.HideAxes()
	p.Add(message(msg))
	return renderPlot(p, o)
}

// message is a plotter that draws one line of text in the middle.
type message string

func (t message) Plot(c draw.Canvas, p *plot.Plot) {
	st := p.Legend.TextStyle
	st.Font.Size = st.Font.Size + 2
	st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
	c.FillText(st, c.Center(), string(t))
}

func renderPlot(p *plot.Plot, o RenderOptions) (img *image.RGBA, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("chart: drawing failed: %v", r)
		}
	}()
	w, h, err := o.size()
	if err != nil {
		return nil, err
	}
	bg := o.Theme.Background
	if bg == nil {
		bg = DarkTheme().Background
	}
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(int(o.dpi())), vgimg.UseBackgroundColor(bg))
	drawPlot(p, draw.New(c))
	if rgba, ok := c.Image().(*image.RGBA); ok {
		return rgba, nil
	}
	src := c.Image()
	out := image.NewRGBA(src.Bounds())
	stddraw.Draw(out, out.Rect, src, src.Bounds().Min, stddraw.Src)
	return out, nil
}

// WritePNG renders the model and writes it as PNG.
func WritePNG(w io.Writer, m *Model, o RenderOptions) error {
	img, err := Render(m, o)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}

// WriteSVG writes the model as SVG (vector, fonts embedded so the file
// shows the same everywhere).
func WriteSVG(w io.Writer, m *Model, o RenderOptions) (err error) {
	p, err := m.Plot(o)
	if err != nil {
		return err
	}
	wpt, hpt, err := o.size()
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart: drawing failed: %v", r)
		}
	}()
	c := vgsvg.NewWith(vgsvg.UseWH(wpt, hpt), vgsvg.EmbedFonts(true))
	drawPlot(p, draw.New(c))
	_, err = c.WriteTo(w)
	return err
}

// Save writes the chart to a file, as SVG when the name ends in .svg and
// as PNG otherwise. The file is written next to the target and renamed
// into place only when complete.
func Save(path string, m *Model, o RenderOptions) (err error) {
	write := WritePNG
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		write = WriteSVG
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	// CreateTemp makes the file private; a saved chart is an ordinary file
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm() // replacing a file keeps its permissions
	}
	_ = f.Chmod(mode)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriter(f)
	if err = write(bw, m, o); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return errors.Join(err, os.Remove(f.Name()))
	}
	return nil
}
