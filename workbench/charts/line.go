package charts

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// strokeChunk is the number of segments stroked per path. The rasterizer
// under vgimg slows down quadratically with the cells of one path, so a
// long line is stroked as many short, overlapping paths (the same
// pixels, many times faster).
const strokeChunk = 16

// chartLine draws a series as a line, optionally filled down to the
// X axis (an area). It is plotter.Line without the quadratic slow-down.
type chartLine struct {
	plotter.XYs
	draw.LineStyle
	FillColor color.Color
}

// Plot implements plot.Plotter.
func (l *chartLine) Plot(c draw.Canvas, plt *plot.Plot) {
	if len(l.XYs) == 0 {
		return
	}
	trX, trY := plt.Transforms(&c)
	ps := make([]vg.Point, len(l.XYs))
	for i, p := range l.XYs {
		ps[i] = vg.Point{X: trX(p.X), Y: trY(p.Y)}
	}
	if l.FillColor != nil {
		// fill in vertical strips down to the axis minimum
		base := trY(plt.Y.Min)
		c.SetColor(l.FillColor)
		for i := 0; i+1 < len(ps); i += strokeChunk {
			end := min(i+strokeChunk, len(ps)-1)
			poly := make([]vg.Point, 0, end-i+3)
			poly = append(poly, vg.Point{X: ps[i].X, Y: base})
			poly = append(poly, ps[i:end+1]...)
			poly = append(poly, vg.Point{X: ps[end].X, Y: base})
			poly = c.ClipPolygonXY(poly)
			if len(poly) == 0 {
				continue
			}
			var pa vg.Path
			pa.Move(poly[0])
			for _, pt := range poly[1:] {
				pa.Line(pt)
			}
			pa.Close()
			c.Fill(pa)
		}
	}
	if l.Width == 0 {
		return
	}
	c.SetLineStyle(l.LineStyle)
	for _, seg := range c.ClipLinesXY(ps) {
		for i := 0; i+1 < len(seg); i += strokeChunk {
			end := min(i+strokeChunk, len(seg)-1)
			var pa vg.Path
			pa.Move(seg[i])
			for _, pt := range seg[i+1 : end+1] {
				pa.Line(pt)
			}
			c.Stroke(pa)
		}
	}
}

// DataRange implements plot.DataRanger.
func (l *chartLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return plotter.XYRange(l.XYs)
}

// Thumbnail implements plot.Thumbnailer (the legend icon).
func (l *chartLine) Thumbnail(c *draw.Canvas) {
	if l.FillColor != nil {
		pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
		c.FillPolygon(l.FillColor, c.ClipPolygonY(pts))
	}
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}
