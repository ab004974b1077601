package runtime

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// rowsBatch is a batch of insert rows of types ts.
func rowsBatch(t *testing.T, ts []*types.DataType, rows ...[]any) *types.Batch {
	t.Helper()
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.Append(types.Insert, r); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build()
}

// A batch hash join whose probe input comes forward from a source it
// alone reads runs in that source's task: the task reads the build side
// (broadcast from two instances) to its end before it reads its source,
// and the join gives the rows it gives unchained. Inner, left, semi and
// anti joins (those the planner broadcasts the build side of) at
// parallelism 2, with a NULL probe key and a duplicate build key.
func TestBatchHashJoinChainedToProbeSource(t *testing.T) {
	strT := []*types.DataType{types.StringType(), types.IntType()}
	probe := [][][]any{
		{{"A", int32(1)}, {"B", int32(2)}, {nil, int32(3)}},
		{{"C", int32(4)}, {"A", int32(5)}},
	}
	build := [][][]any{
		{{"A", int32(10)}, {"B", int32(20)}},
		{{"B", int32(21)}, {"E", int32(50)}},
	}
	cases := []struct {
		kind opspec.JoinKind
		want string
	}{
		{opspec.InnerJoin, "A 1 A 10 | A 5 A 10 | B 2 B 20 | B 2 B 21"},
		{opspec.LeftJoin, "<nil> 3 <nil> <nil> | A 1 A 10 | A 5 A 10 | B 2 B 20 | B 2 B 21 | C 4 <nil> <nil>"},
		{opspec.SemiJoin, "A 1 | A 5 | B 2"},
		{opspec.AntiJoin, "<nil> 3 | C 4"},
	}
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			var buildEnded atomic.Int32
			var probeEarly atomic.Bool
			g := &Graph{}
			p := g.AddSource("probe", 2, true, func(ctx context.Context, inst, _ int, emit func(*types.Batch) error) error {
				if buildEnded.Load() < 2 {
					probeEarly.Store(true)
				}
				return emit(rowsBatch(t, strT, probe[inst]...))
			})
			b := g.AddSource("build", 2, true, func(ctx context.Context, inst, _ int, emit func(*types.Batch) error) error {
				defer buildEnded.Add(1)
				return emit(rowsBatch(t, strT, build[inst]...))
			})
			spec := opspec.JoinSpec{Kind: c.kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: strT, RightTypes: strT}
			j := g.AddOperator("HashJoin", 2, func() Operator { return &HashJoin{Spec: spec} },
				Edge{From: p, Part: opspec.Forward}, Edge{From: b, Part: opspec.Broadcast})
			j.BuildFirst = true
			ts := append(slices.Clone(strT), strT...)
			if spec.OutputsLeftOnly() {
				ts = strT
			}
			var got []string
			for _, out := range collectBatchJob(t, g, j) {
				for _, r := range out.Rows(ts) {
					got = append(got, strings.TrimSpace(fmt.Sprintln(r.Values...)))
				}
			}
			slices.Sort(got)
			if g := strings.Join(got, " | "); g != c.want {
				t.Errorf("got  %s\nwant %s", g, c.want)
			}
			if probeEarly.Load() {
				t.Error("the probe source was read before the build side ended: the join is not chained to it")
			}
		})
	}
}
