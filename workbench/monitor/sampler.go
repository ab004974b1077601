// Package monitor turns a running job's counters into what the workbench
// shows while a query runs: per-operator rates, totals, watermarks, late
// rows, state size and back pressure (Sampler, PlanMetrics); the session's
// job list (Jobs); and each job's watermark lag over the last minutes
// (LagHistory).
//
// Everything here is driven by explicit timestamps (a UI ticker passes
// time.Now() about once a second), so tests use a fake clock. The package
// has no GUI imports.
package monitor

import (
	"math"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
)

// NoWatermark and EndWatermark are the watermarks of a Reading and of
// NodeStats that are not event times: none emitted yet, and the end of
// input (the final watermark, which fires whatever was left waiting).
const (
	NoWatermark  int64 = math.MinInt64
	EndWatermark int64 = math.MaxInt64
)

// Reading is one snapshot of an operator's counters.
type Reading struct {
	// Present is false for a node without metrics (not running, or fused
	// into an edge).
	Present      bool
	RecordsIn    int64
	RecordsOut   int64
	Watermark    int64 // epoch ms; NoWatermark when none yet, EndWatermark at the end of input
	LateDropped  int64
	StateKeys    int64
	StateBytes   int64
	Backpressure int64 // emits that found the downstream queue full
	BusyNanos    int64
	// Parallelism is the number of instances the counters sum over
	// (for the busy ratio; 0 counts as 1).
	Parallelism int
}

// Read takes an operator's metrics (JobClient.NodeMetrics) as a Reading;
// ok false (no metrics) gives a Reading that is not Present.
func Read(m table.OperatorMetrics, ok bool) Reading {
	if !ok {
		return Reading{Watermark: NoWatermark}
	}
	return Reading{
		Present:      true,
		RecordsIn:    m.RecordsIn,
		RecordsOut:   m.RecordsOut,
		Watermark:    watermarkOf(m),
		LateDropped:  m.LateDropped,
		StateKeys:    m.StateKeys,
		StateBytes:   m.StateBytes,
		Backpressure: m.Backpressure,
		BusyNanos:    int64(m.Busy),
	}
}

// watermarkOf is an operator's watermark as a Reading holds it.
func watermarkOf(m table.OperatorMetrics) int64 {
	switch {
	case !m.HasWatermark:
		return NoWatermark
	case m.WatermarkAtEnd:
		return EndWatermark
	}
	return m.Watermark
}

// NodeStats are the derived figures of one operator.
type NodeStats struct {
	Present bool
	// HasRate is false until two samples are apart in time.
	HasRate bool
	// InRate and OutRate are records per second over the rate window.
	InRate, OutRate       float64
	RecordsIn, RecordsOut int64
	// Watermark is the operator's output watermark (epoch ms), valid
	// when HasWatermark; EndWatermark means end of input.
	Watermark    int64
	HasWatermark bool
	LateDropped  int64
	StateKeys    int64
	StateBytes   int64
	// BackPressured is set when the operator's output queue was full in
	// every one of the last Sustain sample intervals: it is held up by a
	// slow consumer (Flink's "back pressured"). BackPressureRatio is the
	// share of intervals in the window in which that happened.
	BackPressured     bool
	BackPressureRatio float64
	// Busy is the share of time spent processing (0..1), per instance.
	Busy float64
}

// Defaults of a Sampler.
const (
	DefaultRateWindow = 5 * time.Second
	DefaultSustain    = 3
	maxSamples        = 64
)

type sample struct {
	t time.Time
	r Reading
}

// Sampler keeps recent readings of a fixed list of operators and derives
// NodeStats. Feed it about once a second with Add. It is not safe for
// concurrent use.
type Sampler struct {
	// RateWindow is the span rates are averaged over (default 5 s).
	RateWindow time.Duration
	// Sustain is how many consecutive intervals with a full output queue
	// mark an operator back-pressured (default 3).
	Sustain int

	hist [][]sample // per node, oldest first, at most maxSamples
}

// NewSampler returns a sampler for n operators.
func NewSampler(n int) *Sampler {
	return &Sampler{RateWindow: DefaultRateWindow, Sustain: DefaultSustain, hist: make([][]sample, n)}
}

// Len returns the number of operators sampled.
func (s *Sampler) Len() int { return len(s.hist) }

// Add records the readings taken at now, one per operator (extra
// readings are ignored, missing ones count as not present). A sample not
// later than the previous one is ignored, and a counter that went down
// (a restarted job) starts that operator's history afresh.
func (s *Sampler) Add(now time.Time, readings []Reading) {
	for i := range s.hist {
		r := Reading{Watermark: NoWatermark}
		if i < len(readings) {
			r = readings[i]
		}
		h := s.hist[i]
		if n := len(h); n > 0 {
			last := h[n-1]
			if !now.After(last.t) {
				continue
			}
			if r.RecordsIn < last.r.RecordsIn || r.RecordsOut < last.r.RecordsOut || r.Backpressure < last.r.Backpressure ||
				r.BusyNanos < last.r.BusyNanos || r.Present != last.r.Present {
				h = h[:0]
			}
		}
		keep := s.window() + 2*time.Second
		for len(h) > 0 && (now.Sub(h[0].t) > keep || len(h) >= maxSamples) {
			h = h[1:]
		}
		s.hist[i] = append(h, sample{now, r})
	}
}

func (s *Sampler) window() time.Duration {
	if s.RateWindow > 0 {
		return s.RateWindow
	}
	return DefaultRateWindow
}

func (s *Sampler) sustain() int {
	if s.Sustain > 0 {
		return s.Sustain
	}
	return DefaultSustain
}

// Stats returns the figures of operator i (the zero NodeStats when i is
// out of range or nothing was sampled).
func (s *Sampler) Stats(i int) NodeStats {
	if i < 0 || i >= len(s.hist) || len(s.hist[i]) == 0 {
		return NodeStats{}
	}
	h := s.hist[i]
	last := h[len(h)-1]
	r := last.r
	st := NodeStats{
		Present:    r.Present,
		RecordsIn:  r.RecordsIn,
		RecordsOut: r.RecordsOut,
		Watermark:  r.Watermark, HasWatermark: r.Present && r.Watermark != NoWatermark,
		LateDropped: r.LateDropped,
		StateKeys:   r.StateKeys,
		StateBytes:  r.StateBytes,
	}
	// the oldest sample inside the window is the base of the rates
	from := len(h) - 1
	for from > 0 && last.t.Sub(h[from-1].t) <= s.window() {
		from--
	}
	base := h[from]
	if dt := last.t.Sub(base.t).Seconds(); dt > 0 {
		st.HasRate = true
		st.InRate = float64(r.RecordsIn-base.r.RecordsIn) / dt
		st.OutRate = float64(r.RecordsOut-base.r.RecordsOut) / dt
		par := float64(max(r.Parallelism, 1))
		st.Busy = min(max(float64(r.BusyNanos-base.r.BusyNanos)/(dt*1e9*par), 0), 1)
	}
	// back pressure: intervals in which the counter grew
	grew, intervals, streak := 0, 0, 0
	counting := true
	for k := len(h) - 1; k > from; k-- {
		g := h[k].r.Backpressure > h[k-1].r.Backpressure
		intervals++
		if g {
			grew++
			if counting {
				streak++
			}
		} else {
			counting = false
		}
	}
	// the streak may reach back before the window
	for k := from; counting && k > 0; k-- {
		if h[k].r.Backpressure > h[k-1].r.Backpressure {
			streak++
		} else {
			counting = false
		}
	}
	if intervals > 0 {
		st.BackPressureRatio = float64(grew) / float64(intervals)
	}
	st.BackPressured = streak >= s.sustain()
	return st
}
