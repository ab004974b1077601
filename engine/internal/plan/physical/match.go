package physical

import (
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Match is MATCH_RECOGNIZE (Flink's StreamPhysicalMatch /
// BatchPhysicalMatch): rows hashed by the partition keys (one task
// without them), ordered by the time attribute, matched against the
// pattern; one insert per match.
type Match struct {
	Spec *opspec.MatchSpec
}

func (*Match) Name() string { return "Match" }
func (m *Match) Explain(n *Node) []Attr {
	var out []Attr
	for _, a := range plan.MatchAttrs(m.Spec, inNames(n, 0)) {
		out = append(out, Attr{Name: a[0], Value: a[1]})
	}
	return out
}

func (pl *planner) match(m *plan.MatchRecognize) *Node {
	in := pl.translate(m.Input)
	pl.requireInsertOnly("Match", in)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(m.Spec.PartitionKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, m.Spec.PartitionKeys, par)
	return &Node{Op: &Match{Spec: m.Spec}, Inputs: []*Node{ex}, Cols: m.Cols, Parallelism: par, Mode: types.InsertOnlyMode, rows: in.rows / 10}
}
