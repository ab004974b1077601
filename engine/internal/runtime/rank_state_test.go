package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

func rankStateOp(end int64, rankNum, appendOnly bool) (func() Operator, []*types.DataType) {
	out := rankTypes
	if rankNum {
		out = append(append([]*types.DataType(nil), rankTypes...), types.BigIntType().NotNull())
	}
	return func() Operator {
		return &Rank{PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, Types: rankTypes,
			RankStart: 1, RankEnd: end, WithRankNum: rankNum, AppendOnly: appendOnly}
	}, out
}

// Top-N keeps its partitions across a snapshot: the kept rows in rank
// order, ties by arrival, the emitted range; over retracting input, over
// insert-only input, and with a state TTL.
func TestRankStateRoundTrip(t *testing.T) {
	first := []stateStep{
		pushStep(0, rankTypes, ins("a", int32(1)), ins("a", int32(5)), ins("b", int32(2)), ins("a", int32(3)), ins("d", int32(7))),
		advanceStep(6 * time.Second),
		pushStep(0, rankTypes, ins("a", int32(5)), ins("b", int32(4))),
	}
	retracting := []stateStep{
		pushStep(0, rankTypes, row(types.Delete, "a", int32(5)), ins("a", int32(4))),
		advanceStep(5 * time.Second), // with a TTL, d (written 11 s ago) expires
		pushStep(0, rankTypes, row(types.Delete, "b", int32(4)), ins("c", int32(9)), ins("a", int32(6)), ins("d", int32(8))),
	}
	inserting := []stateStep{
		pushStep(0, rankTypes, ins("a", int32(4)), ins("c", int32(9))),
		advanceStep(5 * time.Second),
		pushStep(0, rankTypes, ins("a", int32(6)), ins("b", int32(1)), ins("d", int32(8))),
	}
	for _, c := range []struct {
		name                string
		rankNum, appendOnly bool
		ttl                 time.Duration
		second              []stateStep
		afterCut, final     []string
	}{
		// the retraction removes the first of the two equal rows 5: the
		// second takes rank 1 (-U/+U of equal values)
		{"retracting with rank number", true, false, 0, retracting,
			[]string{"-U[a, 5, 1]", "+U[a, 5, 1]", "-U[a, 5, 2]", "+U[a, 3, 2]", "-U[a, 3, 2]", "+U[a, 4, 2]",
				"-U[b, 4, 1]", "+U[b, 2, 1]", "-D[b, 2, 2]", "+I[c, 9, 1]",
				"-U[a, 5, 1]", "+U[a, 6, 1]", "-U[a, 4, 2]", "+U[a, 5, 2]",
				"-U[d, 7, 1]", "+U[d, 8, 1]", "+I[d, 7, 2]"},
			[]string{"[a, 5, 2]", "[a, 6, 1]", "[b, 2, 1]", "[c, 9, 1]", "[d, 7, 2]", "[d, 8, 1]"}},
		// d's state expired: 8 starts an empty Top-N, 7 is never retracted
		{"retracting with TTL", true, false, 10 * time.Second, retracting,
			[]string{"-U[a, 5, 1]", "+U[a, 5, 1]", "-U[a, 5, 2]", "+U[a, 3, 2]", "-U[a, 3, 2]", "+U[a, 4, 2]",
				"-U[b, 4, 1]", "+U[b, 2, 1]", "-D[b, 2, 2]", "+I[c, 9, 1]",
				"-U[a, 5, 1]", "+U[a, 6, 1]", "-U[a, 4, 2]", "+U[a, 5, 2]",
				"+I[d, 8, 1]"},
			[]string{"[a, 5, 2]", "[a, 6, 1]", "[b, 2, 1]", "[c, 9, 1]", "[d, 7, 1]", "[d, 8, 1]"}},
		// an append-only Top-2 kept only its two best rows: 4 and 1 never
		// enter
		{"insert-only membership", false, true, 0, inserting,
			[]string{"+I[c, 9]", "-D[a, 5]", "+I[a, 6]", "+I[d, 8]"},
			[]string{"[a, 5]", "[a, 6]", "[b, 2]", "[b, 4]", "[c, 9]", "[d, 7]", "[d, 8]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp, out := rankStateOp(2, c.rankNum, c.appendOnly)
			rt := stateRoundTrip{newOp: newOp, outTypes: out, tweak: func(cfg *JobConfig) { cfg.StateTTL = c.ttl }}
			afterCut, final := rt.run(t, first, c.second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
			checkLines(t, "final result", final, c.final...)
		})
	}
}

// Truncated snapshots and a Deduplicate's snapshot are refused.
func TestRankStateErrors(t *testing.T) {
	newOp, out := rankStateOp(2, true, false)
	h := newHarness(t, newOp(), out, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, rankTypes, ins("a", int32(1)), ins("a", int32(2)), ins("bb", int32(3)))
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	dedup := &Deduplicate{Keys: []int{0}, KeyTypes: dedupTypes[:1], Types: dedupTypes}
	newHarness(t, dedup, dedupTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := dedup.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, out, snap, other, "Rank", "Deduplicate")
	checkCorruptSnapshots(t, newOp, out, snap)
}
