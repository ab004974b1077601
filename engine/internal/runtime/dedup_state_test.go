package runtime

import (
	"fmt"
	"testing"
	"time"
)

func dedupStateOp(keepLast, rowtime bool) func() Operator {
	return func() Operator {
		return &Deduplicate{Keys: []int{0}, KeyTypes: dedupTypes[:1], Types: dedupTypes,
			KeepLast: keepLast, Rowtime: rowtime, TimeCol: 2}
	}
}

// Deduplication keeps its rows across a snapshot: keep first and keep
// last, on proctime and rowtime, with and without a state TTL (whose
// last writes and cleanup timer are restored too).
func TestDedupStateRoundTrip(t *testing.T) {
	const long = "a key of more than seven bytes"
	first := []stateStep{
		pushStep(0, dedupTypes, ins("a", int32(1), ms(100)), ins(long, int32(2), ms(200)), ins("a", int32(3), ms(50))),
		advanceStep(6 * time.Second),
		pushStep(0, dedupTypes, ins("b", int32(4), ms(300)), ins(long, int32(5), ms(250))),
	}
	second := []stateStep{
		pushStep(0, dedupTypes, ins("a", int32(6), ms(400)), ins("b", int32(7), ms(10))),
		advanceStep(5 * time.Second), // with a TTL: a and the long key expire unless rewritten after 6 s
		pushStep(0, dedupTypes, ins(long, int32(8), ms(500)), ins("c", int32(9), ms(600)), ins("a", int32(10), ms(20))),
	}
	for _, c := range []struct {
		keepLast, rowtime bool
		ttl               time.Duration
		afterCut          []string
	}{
		{false, false, 0, []string{"+I[c, 9, 1970-01-01T00:00:00.600]"}},
		{true, false, 0, []string{
			"-U[a, 3, 1970-01-01T00:00:00.050]", "+U[a, 6, 1970-01-01T00:00:00.400]",
			"-U[b, 4, 1970-01-01T00:00:00.300]", "+U[b, 7, 1970-01-01T00:00:00.010]",
			"-U[a key of more than seven bytes, 5, 1970-01-01T00:00:00.250]", "+U[a key of more than seven bytes, 8, 1970-01-01T00:00:00.500]",
			"+I[c, 9, 1970-01-01T00:00:00.600]",
			"-U[a, 6, 1970-01-01T00:00:00.400]", "+U[a, 10, 1970-01-01T00:00:00.020]"}},
		{false, true, 0, []string{
			"-U[b, 4, 1970-01-01T00:00:00.300]", "+U[b, 7, 1970-01-01T00:00:00.010]",
			"+I[c, 9, 1970-01-01T00:00:00.600]",
			"-U[a, 3, 1970-01-01T00:00:00.050]", "+U[a, 10, 1970-01-01T00:00:00.020]"}},
		{true, true, 0, []string{
			"-U[a, 1, 1970-01-01T00:00:00.100]", "+U[a, 6, 1970-01-01T00:00:00.400]",
			"-U[a key of more than seven bytes, 5, 1970-01-01T00:00:00.250]", "+U[a key of more than seven bytes, 8, 1970-01-01T00:00:00.500]",
			"+I[c, 9, 1970-01-01T00:00:00.600]"}},
		{false, false, 10 * time.Second, []string{
			"+I[a key of more than seven bytes, 8, 1970-01-01T00:00:00.500]",
			"+I[c, 9, 1970-01-01T00:00:00.600]",
			"+I[a, 10, 1970-01-01T00:00:00.020]"}},
		{true, true, 10 * time.Second, []string{
			"-U[a, 1, 1970-01-01T00:00:00.100]", "+U[a, 6, 1970-01-01T00:00:00.400]",
			"-U[a key of more than seven bytes, 5, 1970-01-01T00:00:00.250]", "+U[a key of more than seven bytes, 8, 1970-01-01T00:00:00.500]",
			"+I[c, 9, 1970-01-01T00:00:00.600]"}},
	} {
		name := fmt.Sprintf("keepLast=%v rowtime=%v ttl=%v", c.keepLast, c.rowtime, c.ttl)
		t.Run(name, func(t *testing.T) {
			rt := stateRoundTrip{newOp: dedupStateOp(c.keepLast, c.rowtime), outTypes: dedupTypes,
				tweak: func(cfg *JobConfig) { cfg.StateTTL = c.ttl }}
			afterCut, _ := rt.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots, and a GroupAgg's snapshot, are refused.
func TestDedupStateErrors(t *testing.T) {
	newOp := dedupStateOp(true, false)
	h := newHarness(t, newOp(), dedupTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, dedupTypes, ins("a", int32(1), ms(1)), ins("bb", int32(2), ms(2)))
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	agg := sumAggOp()
	newHarness(t, agg, agg.OutTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := agg.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, dedupTypes, snap, other, "Deduplicate", "GroupAgg")
	checkCorruptSnapshots(t, newOp, dedupTypes, snap)
}
