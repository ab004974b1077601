package jobgraph_test

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/jobgraph"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// rankInput is an insert-only (k STRING, v INT) input.
func rankInput() *plan.Values {
	row := func(k string, v int32) []expr.Expr {
		return []expr.Expr{&expr.Literal{Value: k, T: types.StringType().NotNull()}, &expr.Literal{Value: v, T: types.IntType().NotNull()}}
	}
	return &plan.Values{Rows: [][]expr.Expr{row("a", 1), row("b", 5)},
		Cols: []plan.Column{{Name: "k", Type: types.StringType().NotNull()}, {Name: "v", Type: types.IntType().NotNull()}}}
}

// A streaming Rank and SortLimit build a runtime.Rank over insert-only
// input with their range (a SortLimit's offset and fetch as ranks), which
// updates a Top-1 over insert-only input in place (FastTop1Function).
func TestRankOperators(t *testing.T) {
	in := rankInput()
	desc := []opspec.SortKey{{Col: 1, Desc: true}}
	for _, c := range []struct {
		name       string
		node       plan.Node
		start, end int64
		byPosition bool
	}{
		{"top-1 per key", &plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: desc, RankStart: 1, RankEnd: 1, Cols: in.Cols}, 1, 1, true},
		{"top-2 per key", &plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: desc, RankStart: 1, RankEnd: 2, Cols: in.Cols}, 1, 2, false},
		{"ranks 2 to 3", &plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: desc, RankStart: 2, RankEnd: 3, Cols: in.Cols}, 2, 3, true},
		{"limit 1", &plan.Sort{Input: in, Keys: desc, Fetch: 1}, 1, 1, true},
		{"limit 2", &plan.Sort{Input: in, Keys: desc, Fetch: 2}, 1, 2, false},
		{"limit 2 offset 1", &plan.Sort{Input: in, Keys: desc, Offset: 1, Fetch: 2}, 2, 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := physical.Plan(c.node, &physical.Env{Config: config.New(), Streaming: true})
			if err != nil {
				t.Fatal(err)
			}
			_, nodes, err := jobgraph.Build(nil, physical.DefaultReuse, p)
			if err != nil {
				t.Fatal(err)
			}
			op := nodes[p].NewOperator()
			r, ok := op.(*runtime.Rank)
			if !ok {
				t.Fatalf("operator %T", op)
			}
			if !r.AppendOnly || r.RankStart != c.start || r.RankEnd != c.end || r.ByPosition() != c.byPosition {
				t.Errorf("runtime.Rank AppendOnly %v range [%d, %d] ByPosition %v, want true [%d, %d] %v",
					r.AppendOnly, r.RankStart, r.RankEnd, r.ByPosition(), c.start, c.end, c.byPosition)
			}
		})
	}
}

// textOp is an operator known only by its EXPLAIN name, as a plan read
// back from EXPLAIN text would have: no builder knows it.
type textOp string

func (o textOp) Name() string                         { return string(o) }
func (textOp) Explain(*physical.Node) []physical.Attr { return nil }

// A plan of operators the builder does not know cannot run.
func TestTextPlanDoesNotBuild(t *testing.T) {
	scan := &physical.Node{Op: textOp("TableSourceScan"), Parallelism: 1}
	calc := &physical.Node{Op: textOp("Calc"), Inputs: []*physical.Node{scan}, Parallelism: 1}
	if _, _, err := jobgraph.Build(nil, physical.DefaultReuse, calc); err == nil {
		t.Fatal("a text plan built")
	}
}
