package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowRankStateOp is a window Top-2 per key of winTypes (the third
// column read as window_end) by value, descending, with the rank number.
func windowRankStateOp() (func() Operator, []*types.DataType) {
	out := append(append([]*types.DataType(nil), winTypes...), types.BigIntType().NotNull())
	return func() Operator {
		return &WindowRank{PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, Types: winTypes,
			EndCol: 2, RankStart: 1, RankEnd: 2, WithRankNum: true}
	}, out
}

// A window Top-N keeps each window's buffered rows and the watermark it
// has seen across a snapshot: rows after the cut join the saved ones in
// the ranking, a row of a fired window is late.
func TestWindowRankStateRoundTrip(t *testing.T) {
	long := "a key of more than seven bytes"
	first := []stateStep{
		pushStep(0, winTypes, ins("a", int32(1), ms(10_000)), ins(long, int32(2), ms(10_000)), ins("a", int32(3), ms(20_000))),
		watermarkStep(0, 10_000),
		pushStep(0, winTypes, ins("a", int32(5), ms(20_000)), ins("b", int32(4), ms(20_000))),
	}
	second := []stateStep{
		pushStep(0, winTypes, ins("a", int32(4), ms(20_000)), ins("a", int32(9), ms(10_000)), ins(long, int32(6), ms(20_000))),
		watermarkStep(0, 20_000),
		pushStep(0, winTypes, ins("b", int32(7), ms(30_000))),
		watermarkStep(0, 30_000),
	}
	newOp, out := windowRankStateOp()
	afterCut, final := stateRoundTrip{newOp: newOp, outTypes: out}.run(t, first, second)
	// a's row at 10 s is late; its rows of the window 20 s saved before
	// the cut and taken after it are ranked together
	checkLines(t, "changelog after the cut", afterCut,
		"+I[a, 5, 1970-01-01T00:00:20, 1]",
		"+I[a, 4, 1970-01-01T00:00:20, 2]",
		"+I[a key of more than seven bytes, 6, 1970-01-01T00:00:20, 1]",
		"+I[b, 4, 1970-01-01T00:00:20, 1]",
		"WM(20000)",
		"+I[b, 7, 1970-01-01T00:00:30, 1]",
		"WM(30000)")
	checkLines(t, "final result", final,
		"[a key of more than seven bytes, 2, 1970-01-01T00:00:10, 1]",
		"[a key of more than seven bytes, 6, 1970-01-01T00:00:20, 1]",
		"[a, 1, 1970-01-01T00:00:10, 1]",
		"[a, 4, 1970-01-01T00:00:20, 2]",
		"[a, 5, 1970-01-01T00:00:20, 1]",
		"[b, 4, 1970-01-01T00:00:20, 1]",
		"[b, 7, 1970-01-01T00:00:30, 1]")
}

// Truncated snapshots and a WindowJoin's snapshot are refused.
func TestWindowRankStateErrors(t *testing.T) {
	newOp, out := windowRankStateOp()
	h := newHarness(t, newOp(), out, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("a", int32(1), ms(10_000)), ins("bb", int32(2), ms(20_000)), ins("a", int32(3), ms(20_000)))
	h.watermark(0, 10_000)
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	joinOp, joinOut := windowJoinStateOp(opspec.LeftJoin)
	join := joinOp()
	newHarness(t, join, joinOut, false, NewManualClock(time.UnixMilli(0)))
	other, err := join.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, out, snap, other, "WindowRank", "WindowJoin")
	checkCorruptSnapshots(t, newOp, out, snap)
}
