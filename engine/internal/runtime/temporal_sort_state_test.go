package runtime

import (
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

func temporalSortStateOp(proctime bool) func() Operator {
	return func() Operator {
		return &TemporalSort{TimeCol: 2, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, Types: winTypes, Proctime: proctime}
	}
}

// A temporal sort keeps its buffered rows and the last time it emitted
// across a snapshot: saved rows are emitted in order with the rows after
// the cut, a row not after the last emitted time is late; on rowtime and
// on proctime (the pending flush restored).
func TestTemporalSortStateRoundTrip(t *testing.T) {
	first := []stateStep{
		pushStep(0, winTypes, ins("a", int32(1), ms(300)), ins("b", int32(2), ms(100)), ins("c", int32(3), ms(200))),
		watermarkStep(0, 150),
		pushStep(0, winTypes, ins("d", int32(4), ms(200)), ins("e", int32(5), ms(400))),
	}
	second := []stateStep{
		pushStep(0, winTypes, ins("f", int32(6), ms(250)), ins("g", int32(7), ms(90)), ins("h", int32(8), ms(200))),
		advanceStep(time.Millisecond),
		watermarkStep(0, 350),
		pushStep(0, winTypes, ins("i", int32(9), ms(500))),
		advanceStep(time.Millisecond),
		watermarkStep(0, MaxWatermark),
	}
	for _, c := range []struct {
		name     string
		proctime bool
		afterCut []string
	}{
		// g (90 ms) is late: 100 ms was emitted
		{"rowtime", false, []string{
			"+I[h, 8, 1970-01-01T00:00:00.200]", "+I[d, 4, 1970-01-01T00:00:00.200]", "+I[c, 3, 1970-01-01T00:00:00.200]",
			"+I[f, 6, 1970-01-01T00:00:00.250]", "+I[a, 1, 1970-01-01T00:00:00.300]",
			"WM(350)",
			"+I[e, 5, 1970-01-01T00:00:00.400]", "+I[i, 9, 1970-01-01T00:00:00.500]",
			"WM(9223372036854775807)"}},
		// the rows saved buffered (the clock has not moved) are sorted
		// with the rows after the cut, by value descending
		{"proctime", true, []string{
			"+I[h, 8, 1970-01-01T00:00:00.200]", "+I[g, 7, 1970-01-01T00:00:00.090]", "+I[f, 6, 1970-01-01T00:00:00.250]",
			"+I[e, 5, 1970-01-01T00:00:00.400]", "+I[d, 4, 1970-01-01T00:00:00.200]", "+I[c, 3, 1970-01-01T00:00:00.200]",
			"+I[b, 2, 1970-01-01T00:00:00.100]", "+I[a, 1, 1970-01-01T00:00:00.300]",
			"WM(350)",
			"+I[i, 9, 1970-01-01T00:00:00.500]",
			"WM(9223372036854775807)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			afterCut, _ := stateRoundTrip{newOp: temporalSortStateOp(c.proctime), outTypes: winTypes}.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and a WindowRank's snapshot are refused.
func TestTemporalSortStateErrors(t *testing.T) {
	newOp := temporalSortStateOp(false)
	h := newHarness(t, newOp(), winTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("a", int32(1), ms(300)), ins("bb", int32(2), ms(100)))
	h.watermark(0, 150)
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
	checkRestoreErrors(t, newOp, winTypes, snap, other, "TemporalSort", "WindowRank")
	checkCorruptSnapshots(t, newOp, winTypes, snap)
}

// The lookup joins save no state (Flink checkpoints no lookup cache): an
// empty snapshot, and a restore refuses any other.
func TestLookupJoinsSaveNoState(t *testing.T) {
	for _, op := range []CheckpointedOperator{&SourceLookupJoin{}, &LookupJoin{}} {
		snap, err := op.SnapshotState()
		if err != nil || len(snap) != 0 {
			t.Fatalf("%T: snapshot %q, %v; want none", op, snap, err)
		}
		if err := op.RestoreState(nil); err != nil {
			t.Fatalf("%T: restoring an empty snapshot: %v", op, err)
		}
		if err := op.RestoreState([]byte("RFST")); err == nil || !strings.Contains(err.Error(), "saves no state, but the snapshot holds 4 bytes") {
			t.Fatalf("%T: restoring 4 bytes: %v", op, err)
		}
	}
}
