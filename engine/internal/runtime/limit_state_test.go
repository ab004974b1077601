package runtime

import (
	"testing"
	"time"
)

// A LIMIT keeps the number of rows it has seen across a snapshot: the
// offset is not skipped again and no row beyond the fetch is emitted.
func TestLimitStateRoundTrip(t *testing.T) {
	newOp := func() Operator { return &Limit{Offset: 2, Fetch: 3} }
	first := []stateStep{pushStep(0, winTypes, ins("a", int32(1), ms(1)), ins("b", int32(2), ms(2)), ins("c", int32(3), ms(3)))}
	second := []stateStep{
		pushStep(0, winTypes, ins("d", int32(4), ms(4))),
		pushStep(0, winTypes, ins("e", int32(5), ms(5)), ins("f", int32(6), ms(6))),
	}
	afterCut, final := stateRoundTrip{newOp: newOp, outTypes: winTypes}.run(t, first, second)
	checkLines(t, "changelog after the cut", afterCut, "+I[d, 4, 1970-01-01T00:00:00.004]", "+I[e, 5, 1970-01-01T00:00:00.005]")
	checkLines(t, "final result", final, "[c, 3, 1970-01-01T00:00:00.003]", "[d, 4, 1970-01-01T00:00:00.004]", "[e, 5, 1970-01-01T00:00:00.005]")
}

// Truncated snapshots and a TemporalSort's snapshot are refused.
func TestLimitStateErrors(t *testing.T) {
	newOp := func() Operator { return &Limit{Offset: 2, Fetch: 3} }
	h := newHarness(t, newOp(), winTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("a", int32(1), ms(1)))
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	sortOp := temporalSortStateOp(false)()
	newHarness(t, sortOp, winTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := sortOp.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, winTypes, snap, other, "Limit", "TemporalSort")
	checkCorruptSnapshots(t, newOp, winTypes, snap)
}
