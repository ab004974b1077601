package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Edge connects a producer node to one input of a consumer node.
type Edge struct {
	From *Node
	Part opspec.Partitioning
	// Keys are the column indexes hashed by a Hash edge.
	Keys []int
	// KeyGroups, when > 0 on a Hash edge of a batch job into several
	// instances, balances the edge (keyGroupPool): rows are hashed into
	// that many key groups (at most 256), and once the input ends each
	// consumer instance takes whole key groups, largest first to the
	// least loaded. Only for consumers that read their whole input before
	// emitting (the batch OVER), since the consumers get no rows before
	// every producer has ended.
	KeyGroups int
}

// SourceFunc opens the reader of one parallel source instance: it pushes
// batches to emit until the input ends (return nil) or ctx is cancelled.
type SourceFunc func(ctx context.Context, instance, parallelism int, emit func(*types.Batch) error) error

// Node is one operator of a job graph: a source, an operator, or a sink
// (an operator with no consumers).
type Node struct {
	ID   int
	Name string
	// Source is set for source nodes (no inputs).
	Source SourceFunc
	// NewOperator creates one instance of the operator (nil for sources).
	NewOperator func() Operator
	Inputs      []Edge
	Parallelism int
	// Bounded reports whether a source ends by itself.
	Bounded bool
	// Resumable reports whether a source saves its position in
	// checkpoints (SourceCheckpoint.Between) and resumes from it.
	Resumable bool
	// BuildFirst marks an operator of two or more inputs that reads every
	// input but the first to its end before it reads the first (the batch
	// hash join: its build side, then the probe side). In a batch job,
	// when its first input comes forward from a chain headed by a source
	// that feeds it alone, it runs in that chain's task: the task reads
	// the other inputs, then the source (see executor.build).
	BuildFirst bool

	consumers []*Node
	metrics   *OperatorMetrics
	// shared is the split list and cursor of a batch job's source
	// instances, new for every attempt (sharedSplits)
	shared *sharedSplits
}

// Graph is a job's dataflow.
type Graph struct {
	Nodes []*Node
}

// AddSource adds a source node.
func (g *Graph) AddSource(name string, parallelism int, bounded bool, src SourceFunc) *Node {
	n := &Node{ID: len(g.Nodes), Name: name, Source: src, Parallelism: max(parallelism, 1), Bounded: bounded}
	g.Nodes = append(g.Nodes, n)
	return n
}

// AddOperator adds an operator node fed by the given edges.
func (g *Graph) AddOperator(name string, parallelism int, newOp func() Operator, inputs ...Edge) *Node {
	n := &Node{ID: len(g.Nodes), Name: name, NewOperator: newOp, Inputs: inputs, Parallelism: max(parallelism, 1)}
	g.Nodes = append(g.Nodes, n)
	return n
}

// Metrics returns the node's live metrics (nil before the job starts).
func (n *Node) Metrics() *OperatorMetrics { return n.metrics }

func (g *Graph) validate() error {
	for _, n := range g.Nodes {
		n.consumers = nil
	}
	for _, n := range g.Nodes {
		if n.Source == nil && n.NewOperator == nil {
			return fmt.Errorf("node %d (%s) has neither source nor operator", n.ID, n.Name)
		}
		for _, e := range n.Inputs {
			if e.Part == opspec.Forward && e.From.Parallelism != n.Parallelism {
				return fmt.Errorf("forward edge %s -> %s joins different parallelism (%d vs %d)", e.From.Name, n.Name, e.From.Parallelism, n.Parallelism)
			}
			e.From.consumers = append(e.From.consumers, n)
		}
	}
	return nil
}

// String renders the graph, one node per line with its inputs.
func (g *Graph) String() string {
	var b strings.Builder
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "%d: %s [p=%d]", n.ID, n.Name, n.Parallelism)
		for i, e := range n.Inputs {
			fmt.Fprintf(&b, " in%d<-%d(%s)", i, e.From.ID, e.Part)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
