package dashboard

import "time"

// RateMeter measures a result's changelog rate: the changes (rows of the
// changelog view, retractions included) received per second, from the
// result's change counter (results.Stats.Changes) sampled on each tick.
// The rate is over the last Window (default 5 s) of samples.
type RateMeter struct {
	Window  time.Duration
	samples []rateSample
}

type rateSample struct {
	at      time.Time
	changes int64
}

// Add records that the result had changes changes at time at, and
// returns the rate (changes per second) over the window; ok is false until
// two samples at different times exist.
func (m *RateMeter) Add(at time.Time, changes int64) (perSec float64, ok bool) {
	w := m.Window
	if w <= 0 {
		w = 5 * time.Second
	}
	m.samples = append(m.samples, rateSample{at, changes})
	// keep one sample at or before the window's start
	cut := 0
	for cut+1 < len(m.samples) && at.Sub(m.samples[cut+1].at) >= w {
		cut++
	}
	m.samples = m.samples[cut:]
	first := m.samples[0]
	d := at.Sub(first.at).Seconds()
	if d <= 0 {
		return 0, false
	}
	return float64(changes-first.changes) / d, true
}

// Total is the last sampled change count.
func (m *RateMeter) Total() int64 {
	if len(m.samples) == 0 {
		return 0
	}
	return m.samples[len(m.samples)-1].changes
}
