package table

import (
	"strings"
	"sync"
	"sync/atomic"
)

// ---------------------------------------------------------------- function context

// FunctionContext is the runtime context of a user function, passed to
// Open (PyFlink's FunctionContext): the job's global parameters and a
// metric group.
type FunctionContext struct {
	params  map[string]string
	metrics *MetricGroup
}

// MetricGroup returns the function's metric group (PyFlink's
// get_metric_group).
func (c *FunctionContext) MetricGroup() *MetricGroup { return c.metrics }

// JobParameter returns a global job parameter (set with the
// configuration key pipeline.global-job-parameters or
// ExecutionConfig.SetGlobalJobParameters), or def (Flink's
// getJobParameter).
func (c *FunctionContext) JobParameter(key, def string) string {
	if v, ok := c.params[key]; ok {
		return v
	}
	return def
}

// MetricGroup holds a function's metrics (PyFlink's MetricGroup): named
// counters and gauges, readable while and after the job runs.
type MetricGroup struct {
	mu       sync.Mutex
	scope    []string
	counters map[string]*Counter
	gauges   map[string]func() int64
}

func newMetricGroup(scope ...string) *MetricGroup {
	return &MetricGroup{scope: scope, counters: map[string]*Counter{}, gauges: map[string]func() int64{}}
}

// AddGroup returns a sub-group (PyFlink's add_group).
func (g *MetricGroup) AddGroup(name string) *MetricGroup {
	return newMetricGroup(append(append([]string(nil), g.scope...), name)...)
}

// Counter returns the counter with that name, creating it (PyFlink's
// counter).
func (g *MetricGroup) Counter(name string) *Counter {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.counters[name]
	if !ok {
		c = &Counter{}
		g.counters[name] = c
	}
	return c
}

// Gauge registers a gauge read by calling f (PyFlink's gauge).
func (g *MetricGroup) Gauge(name string, f func() int64) {
	g.mu.Lock()
	g.gauges[name] = f
	g.mu.Unlock()
}

// Values returns the current value of every counter and gauge, keyed by
// the scoped name ("scope.name").
func (g *MetricGroup) Values() map[string]int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]int64{}
	prefix := strings.Join(g.scope, ".")
	if prefix != "" {
		prefix += "."
	}
	for n, c := range g.counters {
		out[prefix+n] = c.Count()
	}
	for n, f := range g.gauges {
		out[prefix+n] = f()
	}
	return out
}

// Counter is a metric that counts (PyFlink's Counter).
type Counter struct{ n atomic.Int64 }

// Inc adds n (default 1).
func (c *Counter) Inc(n ...int64) {
	if len(n) == 0 {
		c.n.Add(1)
		return
	}
	c.n.Add(n[0])
}

// Dec subtracts n (default 1).
func (c *Counter) Dec(n ...int64) {
	if len(n) == 0 {
		c.n.Add(-1)
		return
	}
	c.n.Add(-n[0])
}

// Count returns the current count (PyFlink's get_count).
func (c *Counter) Count() int64 { return c.n.Load() }
