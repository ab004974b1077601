package plan

import (
	"context"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// BuildGraph turns physical plans (one per sink) into one runtime graph.
// It returns the graph and the runtime node of every physical node (for
// metrics).
func BuildGraph(roots ...*PhysNode) (*runtime.Graph, map[*PhysNode]*runtime.Node) {
	g := &runtime.Graph{}
	nodes := map[*PhysNode]*runtime.Node{}
	var build func(p *PhysNode) *runtime.Node
	build = func(p *PhysNode) *runtime.Node {
		if n, ok := nodes[p]; ok {
			return n
		}
		if p.source != nil {
			n := g.AddSource(p.Op+"("+strings.Join(p.Attrs, ", ")+")", p.Parallelism, p.bounded, p.source)
			nodes[p] = n
			return n
		}
		var edges []runtime.Edge
		for _, in := range p.Inputs {
			if in.Op == "Exchange" {
				src := build(in.Inputs[0])
				edges = append(edges, runtime.Edge{From: src, Part: in.Dist, Keys: in.Keys})
				nodes[in] = src
				continue
			}
			src := build(in)
			part := opspec.Forward
			if src.Parallelism != p.Parallelism {
				part = opspec.Rebalance
				if p.Parallelism == 1 {
					part = opspec.Single
				}
			}
			edges = append(edges, runtime.Edge{From: src, Part: part})
		}
		newOp := p.newOp
		if newOp == nil {
			newOp = func() runtime.Operator { return &passThrough{} }
		}
		n := g.AddOperator(describeNode(p), p.Parallelism, newOp, edges...)
		nodes[p] = n
		return n
	}
	for _, root := range roots {
		build(root)
	}
	return g, nodes
}

type passThrough struct{ runtime.BaseOperator }

func (p *passThrough) ProcessBatch(_ int, b *types.Batch) error { return p.Emit(b) }

// Run is a convenience for tests: plan, build and run a graph to completion.
func Run(ctx context.Context, root *PhysNode, cfg runtime.JobConfig, ev *expr.Ctx, batch bool) (*runtime.Job, error) {
	g, _ := BuildGraph(root)
	return runtime.Submit(ctx, "job", g, cfg, ev, batch)
}
