package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

func temporalStateOp() Operator {
	return &TemporalJoin{Spec: opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: tjLeft, RightTypes: tjRight},
		LeftTime: 1, RightTime: 1, NumLeft: 2}
}

// An event-time temporal join keeps its versions, the left rows waiting
// for the watermark and the watermarks across a snapshot: saved waiting
// rows join the versions valid at their time (saved ones, later ones, a
// deletion), with and without a state TTL (whose cleanup times and
// timers are restored too).
func TestTemporalJoinStateRoundTrip(t *testing.T) {
	first := []stateStep{
		pushStep(1, tjRight, ins(int32(1), ms(100), "v1"), ins(int32(2), ms(100), "w1"), ins(int32(3), ms(50), "x1")),
		pushStep(0, tjLeft, ins(int32(1), ms(150)), ins(int32(2), ms(300)), ins(nil, ms(120))),
		watermarkStep(0, 200),
		watermarkStep(1, 130),
		pushStep(1, tjRight, ins(int32(1), ms(250), "v2"), row(types.Delete, int32(2), ms(250), "w1")),
		advanceStep(8 * time.Second),
		pushStep(0, tjLeft, ins(int32(3), ms(400))),
	}
	second := []stateStep{
		pushStep(0, tjLeft, ins(int32(1), ms(260)), ins(int32(2), ms(240))),
		watermarkStep(1, 300),
		advanceStep(4 * time.Second),
		pushStep(1, tjRight, ins(int32(3), ms(350), "x2")),
		// with a TTL of 10 s every key's cleanup (23 s: key 3's registered
		// before the cut, keys 1 and 2's after it) comes before the
		// watermark passes the waiting rows: they are dropped
		advanceStep(12 * time.Second),
		watermarkStep(0, 500),
		watermarkStep(1, 500),
	}
	for _, c := range []struct {
		name     string
		ttl      time.Duration
		afterCut []string
	}{
		// a saved waiting row (150 ms) and rows after the cut join the
		// saved versions valid at their time; key 2's saved deletion
		// (250 ms) leaves its saved row at 300 ms without a version; key
		// 3's saved waiting row joins a version after the cut
		{"no TTL", 0, []string{
			"+I[1, 1970-01-01T00:00:00.150, 1, 1970-01-01T00:00:00.100, v1]",
			"WM(200)",
			"+I[1, 1970-01-01T00:00:00.260, 1, 1970-01-01T00:00:00.250, v2]",
			"+I[2, 1970-01-01T00:00:00.240, 2, 1970-01-01T00:00:00.100, w1]",
			"+I[2, 1970-01-01T00:00:00.300, null, null, null]",
			"WM(300)",
			"+I[3, 1970-01-01T00:00:00.400, 3, 1970-01-01T00:00:00.350, x2]",
			"WM(500)"}},
		{"TTL", 10 * time.Second, []string{
			"+I[1, 1970-01-01T00:00:00.150, 1, 1970-01-01T00:00:00.100, v1]",
			"WM(200)",
			"WM(300)",
			"WM(500)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := stateRoundTrip{newOp: temporalStateOp, outTypes: tjOut, tweak: func(cfg *JobConfig) { cfg.StateTTL = c.ttl }}
			afterCut, _ := rt.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and an IntervalJoin's snapshot are refused.
func TestTemporalJoinStateErrors(t *testing.T) {
	h := newHarness(t, temporalStateOp(), tjOut, false, NewManualClock(time.UnixMilli(0)), func(c *JobConfig) { c.StateTTL = time.Minute })
	h.push(1, tjRight, ins(int32(1), ms(100), "v1"), ins(int32(1), ms(200), "v2"))
	h.push(0, tjLeft, ins(int32(1), ms(150)), ins(nil, ms(160)))
	h.watermark(0, 50)
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	outT := append(append([]*types.DataType(nil), ivTypes...), ivTypes...)
	iv := ivJoin(opspec.InnerJoin, false)
	newHarness(t, iv, outT, false, NewManualClock(time.UnixMilli(0)))
	other, err := iv.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, temporalStateOp, tjOut, snap, other, "TemporalJoin", "IntervalJoin")
	checkCorruptSnapshots(t, temporalStateOp, tjOut, snap)
}
