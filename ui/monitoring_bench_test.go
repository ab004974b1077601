package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/charts"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// fakeJob is a running job with hand-fed metrics.
type fakeJob struct {
	root *table.PlanNode
	ms   map[*table.PlanNode]*table.OperatorMetrics
}

func (j *fakeJob) GetJobID() string              { return "0123456789abcdef0123456789abcdef" }
func (j *fakeJob) GetJobName() string            { return "bench" }
func (j *fakeJob) Statement() string             { return "SELECT 1" }
func (j *fakeJob) StartTime() time.Time          { return time.Time{} }
func (j *fakeJob) EndTime() time.Time            { return time.Time{} }
func (j *fakeJob) GetJobStatus() table.JobStatus { return table.JobRunning }
func (j *fakeJob) Err() error                    { return nil }
func (j *fakeJob) Plan() *table.PlanNode         { return j.root }
func (j *fakeJob) Cancel() error                 { return nil }
func (j *fakeJob) NodeMetrics(p *table.PlanNode) (table.OperatorMetrics, bool) {
	m, ok := j.ms[p]
	if !ok {
		return table.OperatorMetrics{}, false
	}
	return *m, true
}

// benchPlan is a 16-operator plan: two sources joined, aggregated and
// filtered, with hash exchanges (the size of a Nexmark query's plan).
func benchPlan() *fakeJob {
	j := &fakeJob{ms: map[*table.PlanNode]*table.OperatorMetrics{}}
	node := func(op string, attrs []string, in ...*table.PlanNode) *table.PlanNode {
		n := table.TextPlanNode(op, attrs...)
		n.Inputs, n.Parallelism, n.ChangelogMode = in, 2, types.InsertOnlyMode
		n.Columns = []types.Field{{Name: "k", Type: types.BigIntType()}, {Name: "v", Type: types.DoubleType()}}
		j.ms[n] = &table.OperatorMetrics{Watermark: time.Now().UnixMilli(), HasWatermark: true}
		return n
	}
	hashExchange := func(c *table.PlanNode) *table.PlanNode {
		return &table.PlanNode{Name: "Exchange", Attrs: table.ParsePlanAttrs("distribution=[hash[k]]"), Distribution: table.DistributionHash,
			DistributionKeys: []string{"k"}, Inputs: []*table.PlanNode{c}, Columns: c.Columns, Parallelism: 2}
	}
	side := func(name string) *table.PlanNode {
		s := node("TableSourceScan", []string{"table=[[default_catalog, default_database, " + name + "]]"})
		w := node("WatermarkAssigner", []string{"rowtime=[ts]", "watermark=[-(ts, 1000:INTERVAL SECOND)]"}, s)
		c := node("Calc", []string{"select=[k, v]", "where=[>(v, 0)]"}, w)
		return hashExchange(c)
	}
	join := node("Join", []string{"joinType=[InnerJoin]", "where=[=(k, k0)]"}, side("bids"), side("auctions"))
	c := node("Calc", []string{"select=[k, v]"}, join)
	ex := hashExchange(c)
	agg := node("GroupAggregate", []string{"groupBy=[k]", "select=[k, SUM(v) AS v]"}, ex)
	var top = agg
	for range 6 {
		top = node("Calc", []string{"select=[k, v]", "where=[<(v, 1000)]"}, top)
	}
	j.root = node("Sink", []string{"table=[*anonymous_collect$1*]"}, top)
	return j
}

// BenchmarkPlanMetricsRefresh measures the UI-goroutine time of one
// metrics refresh of the plan view (what happens once a second while a
// query runs): reading every operator's counters, deriving rates,
// formatting each box's metric lines and updating the changed canvas
// texts, of a 16-operator plan shown in a window.
func BenchmarkPlanMetricsRefresh(b *testing.B) {
	a := test.NewApp()
	defer a.Quit()
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		b.Fatal(err)
	}
	j := benchPlan()
	p := newPlanView(&Workbench{env: env}, j, []*table.PlanNode{j.root}, true, "plan text")
	w := test.NewWindow(p.content)
	defer w.Close()
	w.Resize(fyne.NewSize(1100, 400))
	if n := len(p.g.Nodes); n != 16 {
		b.Fatalf("%d operators", n)
	}
	now := time.Now()
	for b.Loop() {
		for _, m := range j.ms {
			m.RecordsIn += 12_345
			m.RecordsOut += 12_000
			m.Watermark += 1000
			m.StateKeys += 7
		}
		now = now.Add(time.Second)
		p.refreshNow(now)
	}
}

// BenchmarkChartLive10k measures one live frame of a line chart of
// 10,000 points at the size of the workbench's chart area (1,100 × 400
// px), on the chart's own goroutine: a new row arrives, the result is
// read, the model built and drawn (charts.Live.Step). The UI goroutine
// only swaps the finished image in.
func BenchmarkChartLive10k(b *testing.B) {
	r := results.New([]results.Column{
		{Name: "window_start", Type: types.TimestampType(3)},
		{Name: "sensor", Type: types.StringType()},
		{Name: "reading", Type: types.DoubleType()},
	}, results.Options{})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 10_000 {
		_ = r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), "s", float64(i%500) + float64(i)/100})
	}
	s := charts.Settings{Kind: charts.Line, X: "window_start", Y: []string{"reading"}}
	l := charts.NewLive(r, s, charts.RenderOptions{Width: 1100, Height: 400, Theme: charts.DarkTheme()}, nil)
	i := 10_000
	for b.Loop() {
		_ = r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), "s", float64(i % 500)})
		i++
		if !l.Step() {
			b.Fatal("no frame")
		}
	}
}
