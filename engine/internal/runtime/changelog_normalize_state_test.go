package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func normalizeStateOp(noUB bool) func() Operator {
	return func() Operator {
		return &ChangelogNormalize{Keys: []int{0}, KeyTypes: cnTypes[:1], Types: cnTypes, NoUpdateBefore: noUB}
	}
}

// ChangelogNormalize keeps each key's last row across a snapshot: updates
// and tombstones after the cut retract the saved rows; with a state TTL
// the saved last writes expire keys after the cut.
func TestChangelogNormalizeStateRoundTrip(t *testing.T) {
	first := []stateStep{
		pushStep(0, cnTypes, row(types.UpdateAfter, int32(1), "scooter", 3.1), ins(int32(2), "battery", 8.1), ins(int32(3), "hammer", 0.8)),
		advanceStep(6 * time.Second),
		pushStep(0, cnTypes, row(types.UpdateAfter, int32(1), "scooter", 5.2), row(types.Delete, int32(3), nil, nil)),
	}
	second := []stateStep{
		pushStep(0, cnTypes, row(types.UpdateAfter, int32(2), "battery", 9.9), row(types.UpdateAfter, int32(1), "scooter", 5.2), ins(int32(4), "drill", 1.5)),
		advanceStep(5 * time.Second), // with a TTL of 10 s: 2 and 1 (written at 6 s) live, 4 too
		pushStep(0, cnTypes, row(types.Delete, int32(1), nil, nil), ins(int32(3), "saw", 2.5)),
		advanceStep(11 * time.Second), // every key expires
		pushStep(0, cnTypes, row(types.UpdateAfter, int32(2), "battery", 1.0)),
	}
	for _, c := range []struct {
		noUB     bool
		ttl      time.Duration
		afterCut []string
	}{
		// key 3 was deleted before the cut: saw is +I
		{false, 0, []string{
			"-U[2, battery, 8.1]", "+U[2, battery, 9.9]",
			"+I[4, drill, 1.5]",
			"-D[1, scooter, 5.2]", "+I[3, saw, 2.5]",
			"-U[2, battery, 9.9]", "+U[2, battery, 1.0]"}},
		// with a TTL an equal row still flows; 2 has expired at the end
		{true, 10 * time.Second, []string{
			"+U[2, battery, 9.9]", "+U[1, scooter, 5.2]",
			"+I[4, drill, 1.5]",
			"-D[1, scooter, 5.2]", "+I[3, saw, 2.5]",
			"+I[2, battery, 1.0]"}},
	} {
		t.Run(fmt.Sprintf("noUpdateBefore=%v ttl=%v", c.noUB, c.ttl), func(t *testing.T) {
			rt := stateRoundTrip{newOp: normalizeStateOp(c.noUB), outTypes: cnTypes, tweak: func(cfg *JobConfig) { cfg.StateTTL = c.ttl }}
			afterCut, _ := rt.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and a Deduplicate's snapshot are refused.
func TestChangelogNormalizeStateErrors(t *testing.T) {
	newOp := normalizeStateOp(false)
	h := newHarness(t, newOp(), cnTypes, false, NewManualClock(time.UnixMilli(0)), func(c *JobConfig) { c.StateTTL = time.Minute })
	h.push(0, cnTypes, ins(int32(1), "a", 1.0), ins(int32(2), "b", 2.0), row(types.Delete, int32(1), nil, nil))
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
	checkRestoreErrors(t, newOp, cnTypes, snap, other, "ChangelogNormalize", "Deduplicate")
	checkCorruptSnapshots(t, newOp, cnTypes, snap)
}
