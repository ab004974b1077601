package monitor

import (
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

// MetricsLookup returns the metrics of a plan node, with false for a node
// without metrics (table.JobClient.NodeMetrics).
type MetricsLookup func(*table.PlanNode) (table.OperatorMetrics, bool)

// PlanMetrics samples the metrics of every node of a plan graph.
type PlanMetrics struct {
	Graph   *plangraph.Graph
	Sampler *Sampler
	// Location shows watermarks (nil = time.Local).
	Location *time.Location

	readings []Reading
	now      time.Time
}

// NewPlanMetrics prepares sampling for g's nodes.
func NewPlanMetrics(g *plangraph.Graph) *PlanMetrics {
	return &PlanMetrics{Graph: g, Sampler: NewSampler(len(g.Nodes)), readings: make([]Reading, len(g.Nodes))}
}

// Sample reads every node's metrics at now.
func (p *PlanMetrics) Sample(now time.Time, lookup MetricsLookup) {
	for i, n := range p.Graph.Nodes {
		var m table.OperatorMetrics
		ok := false
		if lookup != nil && n.PlanNode != nil {
			m, ok = lookup(n.PlanNode)
		}
		p.readings[i] = Read(m, ok)
		p.readings[i].Parallelism = n.Parallelism
	}
	p.Sampler.Add(now, p.readings)
	p.now = now
}

// NodeView is what the plan view shows for one node.
type NodeView struct {
	NodeStats
	// InputBlocked is set when a producer feeding this node is
	// back-pressured: this node's input queue stays full, so it is the
	// one that cannot keep up.
	InputBlocked bool
	// Lines are the metric lines drawn in the node's box.
	Lines []string
}

// MetricLines is how many lines NodeView.Lines has when metrics are
// present; a layout reserves room for them.
const MetricLines = 3

// Node returns the view of node id.
func (p *PlanMetrics) Node(id int) NodeView {
	v := NodeView{NodeStats: p.Sampler.Stats(id)}
	for _, e := range p.Graph.Edges {
		if e.To == id && p.Sampler.Stats(e.From).BackPressured {
			v.InputBlocked = true
		}
	}
	if !v.Present {
		return v
	}
	rates := "in – · out –"
	if v.HasRate {
		rates = "in " + FormatRate(v.InRate) + " · out " + FormatRate(v.OutRate)
	}
	v.Lines = append(v.Lines,
		rates,
		"rows "+FormatCount(v.RecordsOut)+" · late "+FormatCount(v.LateDropped),
		"wm "+FormatWatermark(v.Watermark, p.Location, p.now)+stateText(v.NodeStats))
	return v
}

func stateText(s NodeStats) string {
	if s.StateKeys == 0 && s.StateBytes == 0 {
		return ""
	}
	t := " · state " + FormatCount(s.StateKeys) + " keys"
	if s.StateBytes > 0 {
		t += ", " + FormatBytes(s.StateBytes)
	}
	return t
}

// EdgeBlocked reports whether edge i's producer is back-pressured (the
// view draws that edge in the warning colour).
func (p *PlanMetrics) EdgeBlocked(i int) bool {
	if i < 0 || i >= len(p.Graph.Edges) {
		return false
	}
	return p.Sampler.Stats(p.Graph.Edges[i].From).BackPressured
}
