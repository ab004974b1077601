package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// An interval join keeps its cached rows, whether each matched, the
// cleanup timers and the watermarks across a snapshot: rows saved before
// the cut match rows after it, saved unmatched rows of an outer side are
// NULL-padded when their timers fire after the cut; on event time and on
// processing time.
func TestIntervalJoinStateRoundTrip(t *testing.T) {
	outT := append(append([]*types.DataType(nil), ivTypes...), ivTypes...)
	eventFirst := []stateStep{
		pushStep(0, ivTypes, ins(int64(1), ms(100), "l1"), ins(int64(2), ms(100), "l2"), ins(int64(3), ms(120), "l3")),
		pushStep(1, ivTypes, ins(int64(1), ms(110), "r1"), ins(int64(4), ms(90), "r4")),
		watermarkStep(0, 80),
		watermarkStep(1, 90),
	}
	eventSecond := []stateStep{
		pushStep(1, ivTypes, ins(int64(2), ms(95), "r2"), ins(int64(1), ms(125), "r1b")),
		pushStep(0, ivTypes, ins(int64(4), ms(100), "l4"), ins(int64(1), ms(40), "late")),
		watermarkStep(0, 300),
		watermarkStep(1, 300),
	}
	procFirst := []stateStep{
		pushStep(0, ivTypes, ins(int64(1), nil, "l1"), ins(int64(2), nil, "l2"), ins(int64(3), nil, "l3")),
		advanceStep(10 * time.Millisecond),
		pushStep(1, ivTypes, ins(int64(1), nil, "r1")),
	}
	procSecond := []stateStep{
		pushStep(1, ivTypes, ins(int64(2), nil, "r2")),
		advanceStep(100 * time.Millisecond),
		pushStep(1, ivTypes, ins(int64(1), nil, "r1b")),
	}
	for _, c := range []struct {
		name          string
		proctime      bool
		first, second []stateStep
		afterCut      []string
	}{
		// l2 and l4 (saved) match rows after the cut; l1 (saved, matched)
		// does not match r1b at 125 ms; the row at 40 ms is too late to
		// wait; r1b and l3 (saved, never matched) are NULL-padded when the
		// watermark removes them
		{"event time", false, eventFirst, eventSecond, []string{
			"+I[2, 1970-01-01T00:00:00.100, l2, 2, 1970-01-01T00:00:00.095, r2]",
			"+I[4, 1970-01-01T00:00:00.100, l4, 4, 1970-01-01T00:00:00.090, r4]",
			"+I[1, 1970-01-01T00:00:00.040, late, null, null, null]",
			"WM(60)",
			"+I[null, null, null, 1, 1970-01-01T00:00:00.125, r1b]",
			"+I[3, 1970-01-01T00:00:00.120, l3, null, null, null]",
			"WM(270)"}},
		// l3's cleanup timer, saved, fires after the cut
		{"processing time", true, procFirst, procSecond, []string{
			"+I[2, null, l2, 2, null, r2]",
			"+I[3, null, l3, null, null, null]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp := func() Operator { return ivJoin(opspec.FullJoin, c.proctime) }
			afterCut, _ := stateRoundTrip{newOp: newOp, outTypes: outT}.run(t, c.first, c.second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and a WindowJoin's snapshot are refused.
func TestIntervalJoinStateErrors(t *testing.T) {
	outT := append(append([]*types.DataType(nil), ivTypes...), ivTypes...)
	newOp := func() Operator { return ivJoin(opspec.LeftJoin, false) }
	h := newHarness(t, newOp(), outT, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, ivTypes, ins(int64(1), ms(100), "l1"), ins(int64(2), ms(110), "l2"))
	h.push(1, ivTypes, ins(int64(1), ms(105), "r1"))
	h.watermark(0, 50)
	h.watermark(1, 60)
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	joinOp, joinOut := windowJoinStateOp(opspec.InnerJoin)
	join := joinOp()
	newHarness(t, join, joinOut, false, NewManualClock(time.UnixMilli(0)))
	other, err := join.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, outT, snap, other, "IntervalJoin", "WindowJoin")
	checkCorruptSnapshots(t, newOp, outT, snap)
}
