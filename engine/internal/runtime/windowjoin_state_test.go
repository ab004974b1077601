package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowJoinStateOp joins two inputs of winTypes (the third column read
// as window_end) on the key.
func windowJoinStateOp(kind opspec.JoinKind) (func() Operator, []*types.DataType) {
	out := append(append([]*types.DataType(nil), winTypes...), winTypes...)
	if kind == opspec.SemiJoin || kind == opspec.AntiJoin {
		out = winTypes
	}
	return func() Operator {
		return &WindowJoin{Spec: opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: winTypes, RightTypes: winTypes},
			LeftEnd: 2, RightEnd: 2}
	}, out
}

// A window join keeps each window's buffered rows of both sides and the
// watermarks it has seen across a snapshot: a window saved with rows of
// one side is completed after the cut, a row of a fired window is late,
// each input's watermark still holds the combined one back.
func TestWindowJoinStateRoundTrip(t *testing.T) {
	long := "a key of more than seven bytes"
	first := []stateStep{
		pushStep(0, winTypes, ins("a", int32(1), ms(10_000)), ins(long, int32(2), ms(10_000)), ins("b", int32(3), ms(20_000))),
		pushStep(1, winTypes, ins("a", int32(10), ms(10_000)), ins("c", int32(11), ms(10_000))),
		watermarkStep(0, 12_000),
		watermarkStep(1, 10_000), // window 10 s fires
		pushStep(1, winTypes, ins("b", int32(12), ms(20_000))),
	}
	second := []stateStep{
		pushStep(0, winTypes, ins("a", int32(4), ms(10_000)), ins("b", int32(5), ms(20_000)), ins(long, int32(6), ms(30_000))),
		watermarkStep(1, 25_000), // the left input holds the combined watermark at 12 s
		pushStep(1, winTypes, ins(long, int32(13), ms(30_000)), ins("c", int32(14), ms(20_000))),
		watermarkStep(0, 40_000),
	}
	for _, c := range []struct {
		name     string
		kind     opspec.JoinKind
		afterCut []string
	}{
		// a's left row for the fired window 10 s is late; long's rows
		// wait for the window 30 s
		{"full", opspec.FullJoin, []string{
			"WM(12000)",
			"+I[b, 3, 1970-01-01T00:00:20, b, 12, 1970-01-01T00:00:20]",
			"+I[b, 5, 1970-01-01T00:00:20, b, 12, 1970-01-01T00:00:20]",
			"+I[null, null, null, c, 14, 1970-01-01T00:00:20]",
			"WM(25000)"}},
		// b's left rows match the right row saved before the cut
		{"anti", opspec.AntiJoin, []string{"WM(12000)", "WM(25000)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp, out := windowJoinStateOp(c.kind)
			afterCut, _ := stateRoundTrip{newOp: newOp, outTypes: out}.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and a WindowRank's snapshot are refused.
func TestWindowJoinStateErrors(t *testing.T) {
	newOp, out := windowJoinStateOp(opspec.InnerJoin)
	h := newHarness(t, newOp(), out, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("a", int32(1), ms(10_000)), ins("bb", int32(2), ms(20_000)))
	h.push(1, winTypes, ins("a", int32(3), ms(10_000)))
	h.watermark(0, 5_000)
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	rankOp, rankOut := windowRankStateOp()
	rank := rankOp()
	newHarness(t, rank, rankOut, false, NewManualClock(time.UnixMilli(0)))
	other, err := rank.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, out, snap, other, "WindowJoin", "WindowRank")
	checkCorruptSnapshots(t, newOp, out, snap)
}
