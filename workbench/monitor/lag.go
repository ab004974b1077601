package monitor

import (
	"time"

	"github.com/riffle-sql/riffle/workbench/charts"
)

// LagPoint is one sample of a job's watermark.
type LagPoint struct {
	Time      time.Time // processing time of the sample
	Watermark int64     // epoch ms
	Lag       time.Duration
}

// MaxLiveLag bounds the watermark lags that say how far a job is behind:
// a watermark further than this from processing time (either way) belongs
// to a source whose event time does not follow the wall clock, such as
// historical data replayed ('source.replay-speed') or a test clock, and
// its lag only tells how old the data is.
const MaxLiveLag = 24 * time.Hour

// LiveLag reports whether a watermark lag is within MaxLiveLag of
// processing time, so that showing it as "behind by" means something.
func LiveLag(d time.Duration) bool { return d > -MaxLiveLag && d < MaxLiveLag }

// DefaultLagSpan is how much history a LagHistory keeps.
const DefaultLagSpan = 5 * time.Minute

// LagHistory keeps a job's watermark and its lag behind processing time
// over the last Span (at most one point per 100 ms), for the watermark
// monitor's small live chart.
type LagHistory struct {
	Span time.Duration
	pts  []LagPoint
}

// NewLagHistory returns an empty history of the given span (0 = 5 min).
func NewLagHistory(span time.Duration) *LagHistory {
	if span <= 0 {
		span = DefaultLagSpan
	}
	return &LagHistory{Span: span}
}

// Add records the watermark seen at now. No watermark yet and the end of
// input are not points; samples closer than 100 ms to the last one, or
// going back in time, are ignored.
func (h *LagHistory) Add(now time.Time, watermark int64) {
	if watermark == NoWatermark || watermark == EndWatermark {
		return
	}
	if n := len(h.pts); n > 0 && now.Sub(h.pts[n-1].Time) < 100*time.Millisecond {
		return
	}
	h.pts = append(h.pts, LagPoint{Time: now, Watermark: watermark, Lag: now.Sub(time.UnixMilli(watermark))})
	cut := 0
	for cut < len(h.pts) && now.Sub(h.pts[cut].Time) > h.Span {
		cut++
	}
	if cut > 0 {
		h.pts = append(h.pts[:0], h.pts[cut:]...)
	}
}

// Points returns the history, oldest first (a copy).
func (h *LagHistory) Points() []LagPoint { return append([]LagPoint(nil), h.pts...) }

// Last returns the newest point.
func (h *LagHistory) Last() (LagPoint, bool) {
	if len(h.pts) == 0 {
		return LagPoint{}, false
	}
	return h.pts[len(h.pts)-1], true
}

// Model returns a line chart of the lag in seconds over processing time
// (shown in loc) for charts.Render.
func (h *LagHistory) Model(loc *time.Location) *charts.Model {
	if loc == nil {
		loc = time.Local
	}
	pts := make([]charts.Point, len(h.pts))
	for i, p := range h.pts {
		pts[i] = charts.Point{X: float64(p.Time.UnixMilli()) / 1000, Y: p.Lag.Seconds()}
	}
	x := charts.Axis{Kind: charts.TimeAxis, Label: "processing time", Location: loc}
	y := charts.Axis{Kind: charts.NumberAxis, Label: "watermark lag (s)", Unit: "s"}
	return charts.NewModel(charts.Settings{Kind: charts.Line}, x, y, []charts.Series{{Name: "lag", Points: pts}})
}
