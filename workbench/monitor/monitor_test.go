package monitor

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a fake clock advanced by hand.
type clock struct{ now time.Time }

func (c *clock) tick(d time.Duration) time.Time { c.now = c.now.Add(d); return c.now }

func TestSamplerRates(t *testing.T) {
	s := NewSampler(2)
	c := &clock{t0}
	in, out := int64(0), int64(0)
	for i := range 10 {
		in += 1000
		out += 500
		r := Reading{Present: true, RecordsIn: in, RecordsOut: out, Watermark: 1000 * int64(i), StateKeys: 7, StateBytes: 2048, BusyNanos: int64(i) * 250e6, Parallelism: 1}
		s.Add(c.tick(time.Second), []Reading{r}) // node 1 has no reading
	}
	st := s.Stats(0)
	if !st.HasRate || st.InRate != 1000 || st.OutRate != 500 || st.RecordsIn != 10000 || st.RecordsOut != 5000 {
		t.Errorf("rates %+v", st)
	}
	if !st.HasWatermark || st.Watermark != 9000 || st.StateKeys != 7 || st.StateBytes != 2048 {
		t.Errorf("gauges %+v", st)
	}
	if math.Abs(st.Busy-0.25) > 1e-9 {
		t.Errorf("busy %v", st.Busy)
	}
	if n := s.Stats(1); n.Present || n.HasWatermark {
		t.Errorf("missing node %+v", n)
	}
	// the rate follows the last 5 seconds: a stall shows up
	for range 5 {
		s.Add(c.tick(time.Second), []Reading{{Present: true, RecordsIn: in, RecordsOut: out, Parallelism: 1}})
	}
	if st := s.Stats(0); st.InRate != 0 {
		t.Errorf("stalled rate %v", st.InRate)
	}
	// a counter going down (a restarted job) starts afresh
	s.Add(c.tick(time.Second), []Reading{{Present: true, RecordsIn: 10}})
	if st := s.Stats(0); st.HasRate || st.RecordsIn != 10 {
		t.Errorf("after reset %+v", st)
	}
	// a sample not later than the last is ignored
	s.Add(c.now, []Reading{{Present: true, RecordsIn: 99}})
	if st := s.Stats(0); st.RecordsIn != 10 {
		t.Errorf("same-time sample taken: %+v", st)
	}
	if st := s.Stats(5); st.Present {
		t.Error("out of range")
	}
}

func TestSamplerBackPressure(t *testing.T) {
	s := NewSampler(1)
	c := &clock{t0}
	bp := int64(0)
	add := func(grow bool) NodeStats {
		if grow {
			bp += 3
		}
		s.Add(c.tick(time.Second), []Reading{{Present: true, Backpressure: bp}})
		return s.Stats(0)
	}
	add(false)
	if st := add(true); st.BackPressured {
		t.Error("flagged after one full interval")
	}
	if st := add(true); st.BackPressured {
		t.Error("flagged after two")
	}
	if st := add(true); !st.BackPressured || st.BackPressureRatio != 1 {
		t.Errorf("not flagged after three: %+v", st)
	}
	var st NodeStats
	// a streak longer than the rate window still counts
	for range 8 {
		st = add(true)
	}
	if !st.BackPressured || st.BackPressureRatio != 1 {
		t.Errorf("long streak %+v", st)
	}
	if st = add(false); st.BackPressured || st.BackPressureRatio != 0.8 {
		t.Errorf("after relief %+v", st)
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatCount(0), "0"}, {FormatCount(999), "999"}, {FormatCount(1234567), "1,234,567"}, {FormatCount(-12345), "-12,345"},
		{FormatRate(0), "0/s"}, {FormatRate(0.5), "0.5/s"}, {FormatRate(42.4), "42/s"}, {FormatRate(3456), "3.5k/s"},
		{FormatRate(45678), "46k/s"}, {FormatRate(1.25e6), "1.2M/s"}, {FormatRate(math.NaN()), "–"},
		{FormatBytes(512), "512 B"}, {FormatBytes(1536), "1.5 KiB"}, {FormatBytes(3 << 20), "3.0 MiB"},
		{FormatLag(850 * time.Millisecond), "850ms"}, {FormatLag(12500 * time.Millisecond), "12.5s"},
		{FormatLag(185 * time.Second), "3m05s"}, {FormatLag(2*time.Hour + 14*time.Minute), "2h14m"},
		{FormatLag(-2 * time.Second), "-2.0s"}, {FormatLag(25*365*24*time.Hour + 3*24*time.Hour), "25y 3d"},
		{FormatWatermark(NoWatermark, time.UTC, t0), "–"}, {FormatWatermark(EndWatermark, time.UTC, t0), "end"},
		{FormatWatermark(t0.Add(-1500*time.Millisecond).UnixMilli(), time.UTC, t0), "11:59:58.500"},
		{FormatWatermark(time.Date(2001, 1, 1, 6, 0, 0, 0, time.UTC).UnixMilli(), time.UTC, t0), "2001-01-01 06:00:00"},
		{OneLine("SELECT a,\n  b\tFROM t", 100), "SELECT a, b FROM t"}, {OneLine("abcdef", 4), "abc…"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct {
		d    time.Duration
		live bool
	}{{0, true}, {-2 * time.Second, true}, {23 * time.Hour, true}, {-23 * time.Hour, true},
		{25 * time.Hour, false}, {-25 * time.Hour, false}, {25 * 365 * 24 * time.Hour, false}} {
		if LiveLag(c.d) != c.live {
			t.Errorf("LiveLag(%v) = %v", c.d, !c.live)
		}
	}
	sum, det := Failure(errors.New("Calc(select=[boom(x)]): panic: kaboom\ngoroutine 7 [running]:\nmain.f()\n"))
	if sum != "Calc(select=[boom(x)]): panic: kaboom" || det != "goroutine 7 [running]:\nmain.f()" {
		t.Errorf("failure %q / %q", sum, det)
	}
	// a panic keeps its stack apart from its message: the details show it
	sum, det = Failure(fmt.Errorf("job failed: %w", &expr.PanicError{Value: "kaboom", Stack: "goroutine 7 [running]:\nmain.f()\n"}))
	if sum != "job failed: panic: kaboom" || det != "goroutine 7 [running]:\nmain.f()" {
		t.Errorf("panic failure %q / %q", sum, det)
	}
}

func TestLagHistory(t *testing.T) {
	h := NewLagHistory(time.Minute)
	c := &clock{t0}
	h.Add(c.now, NoWatermark)
	if _, ok := h.Last(); ok {
		t.Error("no watermark made a point")
	}
	for i := range 90 {
		now := c.tick(time.Second)
		h.Add(now, now.Add(-time.Duration(i)*100*time.Millisecond).UnixMilli())
	}
	pts := h.Points()
	if len(pts) != 61 { // a minute of samples, both ends included
		t.Fatalf("%d points", len(pts))
	}
	last, _ := h.Last()
	if last.Lag != 8900*time.Millisecond || pts[0].Lag != 2900*time.Millisecond {
		t.Errorf("lags %v .. %v", pts[0].Lag, last.Lag)
	}
	h.Add(c.now.Add(50*time.Millisecond), c.now.UnixMilli())
	if len(h.Points()) != 61 {
		t.Error("a sample 50 ms later was kept")
	}
	m := h.Model(time.UTC)
	if len(m.Series) != 1 || len(m.Series[0].Points) != 61 || m.Y.Label != "watermark lag (s)" {
		t.Fatalf("model %+v", m)
	}
	if m.X.Min != float64(pts[0].Time.Unix()) || m.X.Max != float64(last.Time.Unix()) || m.Y.Min > 2.9 || m.Y.Max < 8.9 {
		t.Errorf("ranges x %v..%v y %v..%v", m.X.Min, m.X.Max, m.Y.Min, m.Y.Max)
	}
}

// fakeJob is a Job with hand-set counters.
type fakeJob struct {
	id, stmt   string
	start, end time.Time
	status     table.JobStatus
	err        error
	root       *table.PlanNode
	metrics    map[*table.PlanNode]*table.OperatorMetrics
	canceled   bool
}

func (f *fakeJob) JobID() string           { return f.id }
func (f *fakeJob) JobName() string         { return "job-" + f.id }
func (f *fakeJob) Statement() string       { return f.stmt }
func (f *fakeJob) StartTime() time.Time    { return f.start }
func (f *fakeJob) EndTime() time.Time      { return f.end }
func (f *fakeJob) Status() table.JobStatus { return f.status }
func (f *fakeJob) Err() error              { return f.err }
func (f *fakeJob) Plan() *table.PlanNode   { return f.root }
func (f *fakeJob) Cancel() error           { f.canceled = true; f.status = table.JobCanceled; return nil }
func (f *fakeJob) NodeMetrics(p *table.PlanNode) (table.OperatorMetrics, bool) {
	return lookupIn(f.metrics)(p)
}

// lookupIn reads hand-set metrics as JobClient.NodeMetrics does.
func lookupIn(ms map[*table.PlanNode]*table.OperatorMetrics) MetricsLookup {
	return func(p *table.PlanNode) (table.OperatorMetrics, bool) {
		m, ok := ms[p]
		if !ok {
			return table.OperatorMetrics{}, false
		}
		return *m, true
	}
}

// newFakeJob has a source feeding a sink.
func newFakeJob(id, stmt string, start time.Time) (*fakeJob, *table.OperatorMetrics, *table.OperatorMetrics) {
	src := &table.PlanNode{Name: "TableSourceScan", Parallelism: 1}
	sink := &table.PlanNode{Name: "Sink", Inputs: []*table.PlanNode{src}, Parallelism: 1}
	ms, mk := &table.OperatorMetrics{}, &table.OperatorMetrics{}
	return &fakeJob{id: id, stmt: stmt, start: start, status: table.JobRunning, root: sink,
		metrics: map[*table.PlanNode]*table.OperatorMetrics{src: ms, sink: mk}}, ms, mk
}

func TestJobs(t *testing.T) {
	c := &clock{t0}
	q, qsrc, qsink := newFakeJob("q1", "SELECT *\nFROM gen", t0)
	ins, _, isink := newFakeJob("i1", "-- copy\nINSERT INTO out SELECT * FROM gen", t0.Add(time.Second))
	jobs := NewJobs()
	changes := jobs.Update(c.tick(time.Second), []Job{q, ins})
	if len(changes) != 2 || changes[0].From != table.JobCreated || changes[0].To != table.JobRunning {
		t.Fatalf("changes %+v", changes)
	}
	for i := range 5 {
		qsink.RecordsIn += 200
		isink.RecordsIn += 50
		qsrc.Watermark, qsrc.HasWatermark = c.now.Add(-3*time.Second).UnixMilli(), true
		if ch := jobs.Update(c.tick(time.Second), []Job{q, ins}); len(ch) != 0 {
			t.Fatalf("tick %d changes %+v", i, ch)
		}
	}
	rows := jobs.Rows()
	if len(rows) != 2 || rows[0].ID != "i1" || rows[1].ID != "q1" {
		t.Fatalf("order %+v", rows)
	}
	qr := rows[1]
	if qr.Kind != "query" || rows[0].Kind != "insert" || qr.Statement != "SELECT * FROM gen" || qr.RowsOut != 1000 || !qr.HasRate || qr.Rate != 200 {
		t.Errorf("query row %+v", qr)
	}
	if !qr.HasWatermark || qr.Lag != 4*time.Second || qr.Duration != 6*time.Second || qr.Status != table.JobRunning {
		t.Errorf("query watermark %+v", qr)
	}
	if rows[0].HasWatermark {
		t.Errorf("insert without watermark %+v", rows[0])
	}
	lag, _ := jobs.Lag("q1")
	if n := len(lag.Points()); n != 5 {
		t.Errorf("lag points %d", n)
	}
	if jobs.Running() != 2 {
		t.Errorf("running %d", jobs.Running())
	}

	// cancel the query; fail the insert with a panic
	if err := jobs.Cancel("q1"); err != nil || !q.canceled {
		t.Fatal("cancel", err)
	}
	ins.status, ins.err, ins.end = table.JobFailed, errors.New("Sink: panic: boom\ngoroutine 1"), c.now
	changes = jobs.Update(c.tick(time.Second), []Job{q, ins})
	slices.SortFunc(changes, func(a, b StatusChange) int { return strings.Compare(a.ID, b.ID) })
	if len(changes) != 2 || changes[0].To != table.JobFailed || changes[0].Err == nil || changes[1].To != table.JobCanceled {
		t.Fatalf("changes %+v", changes)
	}
	rows = jobs.Rows()
	// ended jobs: newest first; no rate once ended
	if rows[0].ID != "i1" || rows[0].HasRate || rows[0].Duration != 5*time.Second || jobs.Running() != 0 {
		t.Errorf("rows %+v", rows)
	}
	if err := jobs.Cancel("nope"); err == nil {
		t.Error("cancel of an unknown job")
	}
	// a job no longer listed is dropped
	jobs.Update(c.tick(time.Second), []Job{ins})
	if rows := jobs.Rows(); len(rows) != 1 {
		t.Errorf("rows %+v", rows)
	}
	if _, ok := jobs.Job("q1"); ok {
		t.Error("dropped job still found")
	}
}

func TestPlanMetrics(t *testing.T) {
	src := table.TextPlanNode("TableSourceScan", "table=[[c, d, gen]]")
	src.Parallelism = 1
	agg := table.TextPlanNode("GroupAggregate", "groupBy=[k]")
	agg.Inputs, agg.Parallelism = []*table.PlanNode{src}, 1
	sink := &table.PlanNode{Name: "Sink", Inputs: []*table.PlanNode{agg}, Parallelism: 1}
	g := plangraph.FromPlan(true, sink)
	ms := map[*table.PlanNode]*table.OperatorMetrics{src: {}, agg: {}}
	pm := NewPlanMetrics(g)
	pm.Location = time.UTC
	c := &clock{t0}
	for range 4 {
		ms[src].RecordsOut += 1000
		ms[src].Backpressure += 2
		ms[agg].RecordsIn += 1000
		ms[agg].RecordsOut += 10
		ms[agg].StateKeys = 42
		ms[agg].StateBytes = 4096
		ms[agg].LateDropped = 3
		ms[agg].Watermark, ms[agg].HasWatermark = t0.UnixMilli(), true
		pm.Sample(c.tick(time.Second), lookupIn(ms))
	}
	ids := map[string]int{}
	for _, n := range g.Nodes {
		ids[n.Op] = n.ID
	}
	a := pm.Node(ids["GroupAggregate"])
	want := []string{"in 1.0k/s · out 10/s", "rows 40 · late 3", "wm 12:00:00.000 · state 42 keys, 4.0 KiB"}
	if !slices.Equal(a.Lines, want) || !a.InputBlocked || a.BackPressured {
		t.Errorf("aggregate view %q blocked=%v bp=%v", a.Lines, a.InputBlocked, a.BackPressured)
	}
	s := pm.Node(ids["TableSourceScan"])
	if !s.BackPressured || s.InputBlocked || s.Lines[2] != "wm –" {
		t.Errorf("source view %+v", s)
	}
	if k := pm.Node(ids["Sink"]); k.Present || k.Lines != nil {
		t.Errorf("sink without metrics %+v", k)
	}
	for i, e := range g.Edges {
		if got, want := pm.EdgeBlocked(i), g.Nodes[e.From].Op == "TableSourceScan"; got != want {
			t.Errorf("edge %d blocked %v", i, got)
		}
	}
}

// TestJobsSnapshots: a job listed by a new snapshot value each time (a
// gateway's SHOW JOBS row) shows the newest status.
func TestJobsSnapshots(t *testing.T) {
	j := NewJobs()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	j.Update(now, []Job{&fakeJob{id: "a", stmt: "INSERT INTO t SELECT 1", start: now, status: table.JobRunning}})
	changes := j.Update(now.Add(time.Second), []Job{&fakeJob{id: "a", stmt: "INSERT INTO t SELECT 1", start: now, status: table.JobCanceled}})
	if rows := j.Rows(); len(rows) != 1 || rows[0].Status != table.JobCanceled || len(changes) != 1 || changes[0].To != table.JobCanceled {
		t.Errorf("rows %+v changes %+v", rows, changes)
	}
}
