package planview

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// fakeJob is a running job with hand-fed metrics.
type fakeJob struct {
	root *table.PlanNode
	ms   map[*table.PlanNode]*table.OperatorMetrics
}

func (j *fakeJob) JobID() string           { return "0123456789abcdef0123456789abcdef" }
func (j *fakeJob) JobName() string         { return "bench" }
func (j *fakeJob) Statement() string       { return "SELECT 1" }
func (j *fakeJob) StartTime() time.Time    { return time.Time{} }
func (j *fakeJob) EndTime() time.Time      { return time.Time{} }
func (j *fakeJob) Status() table.JobStatus { return table.JobRunning }
func (j *fakeJob) Err() error              { return nil }
func (j *fakeJob) Plan() *table.PlanNode   { return j.root }
func (j *fakeJob) Cancel() error           { return nil }
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
	j := benchPlan()
	p := New(j, []*table.PlanNode{j.root}, true, "plan text", time.Local)
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
		p.RefreshNow(now)
	}
}

// TestPlanBackPressure: an operator whose output queue stays full is
// marked (badge, border, its out-edge), and its consumer is named slow.
func TestPlanBackPressure(t *testing.T) {
	test.NewTempApp(t)
	j := benchPlan()
	p := New(j, []*table.PlanNode{j.root}, true, "text", time.Local)
	w := test.NewWindow(p.content)
	defer w.Close()
	w.Resize(fyne.NewSize(1100, 600))
	src := -1
	for i, n := range p.g.Nodes {
		if n.Op == "TableSourceScan" {
			src = i
			break
		}
	}
	m := j.ms[p.g.Nodes[src].PlanNode]
	now := time.Now()
	for k := range 5 {
		m.RecordsOut += 1000
		m.Backpressure += 10
		p.RefreshNow(now.Add(time.Duration(k) * time.Second))
	}
	box := strings.Join(p.graph.Texts(src), "\n")
	if !strings.Contains(box, "back-pressured") || !p.graph.nodes[src].bp {
		t.Errorf("source box not marked:\n%s", box)
	}
	consumer := p.g.Outputs(src)[0].To
	if s := strings.Join(p.graph.Texts(consumer), "\n"); !strings.Contains(s, "slow") {
		t.Errorf("consumer box:\n%s", s)
	}
	hot := 0
	for _, e := range p.graph.edges {
		if e.hot {
			hot++
		}
	}
	if hot != 1 || !strings.Contains(p.status.Text, "1 back-pressured operator") {
		t.Errorf("%d hot edges, status %q", hot, p.status.Text)
	}
	// the queue drains: the mark goes
	for k := 5; k < 9; k++ {
		m.RecordsOut += 1000
		p.RefreshNow(now.Add(time.Duration(k) * time.Second))
	}
	if p.graph.nodes[src].bp || strings.Contains(strings.Join(p.graph.Texts(src), "\n"), "back-pressured") {
		t.Error("still marked after the queue drained")
	}
}

// Fit shows the whole graph when it is readable: a 16-operator live plan
// in a tall window fits its scroll area; in a low window (400 px) Fit
// stops at MinFitZoom and the graph scrolls (issue 21: 26 % was
// unreadable).
func TestPlanFitShowsTheWholeGraph(t *testing.T) {
	test.NewTempApp(t)
	j := benchPlan()
	p := New(j, []*table.PlanNode{j.root}, true, "text", time.Local)
	w := test.NewWindow(p.content)
	defer w.Close()
	w.Resize(fyne.NewSize(1100, 400))
	p.Fit()
	s, g := p.scroll.Size(), p.graph.MinSize()
	if p.graph.zoom != MinFitZoom || g.Height <= s.Height {
		t.Errorf("in a low view Fit gave zoom %v, graph %v in a view of %v; want zoom %v and a scrolled graph", p.graph.zoom, g, s, MinFitZoom)
	}
	w.Resize(fyne.NewSize(1600, 2400))
	p.Fit()
	s, g = p.scroll.Size(), p.graph.MinSize()
	if g.Width > s.Width || g.Height > s.Height || p.graph.zoom < MinFitZoom {
		t.Errorf("after Fit the graph is %v in a view of %v (zoom %v)", g, s, p.graph.zoom)
	}
	if p.zoomL.Text != strconv.Itoa(int(math.Round(float64(p.graph.zoom)*100)))+"%" {
		t.Errorf("zoom label %q for zoom %v", p.zoomL.Text, p.graph.zoom)
	}
	// a large view: Fit does not zoom past 100%
	w.Resize(fyne.NewSize(4000, 4000))
	p.Fit()
	if p.graph.zoom != 1 {
		t.Errorf("zoom %v in a large view", p.graph.zoom)
	}
}
