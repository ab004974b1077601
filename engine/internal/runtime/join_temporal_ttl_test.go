package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

var (
	tjLeft  = []*types.DataType{types.IntType(), types.TimestampType(3)}
	tjRight = []*types.DataType{types.IntType(), types.TimestampType(3), types.StringType()}
	tjOut   = append(append([]*types.DataType(nil), tjLeft...), tjRight...)
)

func temporalTTLHarness(t *testing.T, ttl time.Duration) (*TemporalJoin, *harness, *ManualClock) {
	clock := NewManualClock(time.UnixMilli(0))
	op := &TemporalJoin{Spec: opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: tjLeft, RightTypes: tjRight},
		LeftTime: 1, RightTime: 1, NumLeft: 2}
	h := newHarness(t, op, tjOut, false, clock, func(c *JobConfig) { c.StateTTL = ttl })
	return op, h, clock
}

func (h *harness) watermarks(wm int64) {
	h.t.Helper()
	h.watermark(0, wm)
	h.watermark(1, wm)
}

// With a TTL of 10 s a key's state is cleaned 15 s after it was last
// registered (Flink's 1.5 x retention), the registration moving only when
// now + 10 s passes it; cleaned state drops the key's version and its
// waiting left rows without output.
func TestTemporalJoinStateTTL(t *testing.T) {
	op, h, clock := temporalTTLHarness(t, 10*time.Second)
	h.push(1, tjRight, ins(int32(1), ms(100), "v1"))
	h.watermarks(100)
	h.expect("WM(100)")
	// 12 s: before the cleanup (15 s); it moves to 27 s
	clock.Advance(12 * time.Second)
	h.push(0, tjLeft, ins(int32(1), ms(200)))
	h.watermarks(200)
	h.expect("+I[1, 1970-01-01T00:00:00.200, 1, 1970-01-01T00:00:00.100, v1]", "WM(200)")
	// 28 s: key 1 was cleaned: its version is gone
	clock.Advance(16 * time.Second)
	h.push(0, tjLeft, ins(int32(1), ms(300)))
	h.watermarks(300)
	h.expect("+I[1, 1970-01-01T00:00:00.300, null, null, null]", "WM(300)")
	// a left row waiting for the watermark past the cleanup time is
	// dropped with the key's state
	h.push(1, tjRight, ins(int32(2), ms(300), "w"))
	h.push(0, tjLeft, ins(int32(2), ms(400)))
	clock.Advance(16 * time.Second)
	fireDue(t, op, clock.Now().UnixMilli())
	h.watermarks(400)
	h.expect("WM(400)")
	if keys, _ := op.StateSize(); keys != 0 || op.nPending != 0 || len(op.cleanupAt) != 0 || len(op.evTimer) != 0 {
		t.Fatalf("%d keys, %d rows waiting, %d cleanups, %d timers after cleanup", keys, op.nPending, len(op.cleanupAt), len(op.evTimer))
	}
}

// Keys that hold nothing leave the key index, with or without a TTL: left
// rows of keys that never had a version, once emitted.
func TestTemporalJoinForgetsEmptyKeys(t *testing.T) {
	setCompactMins(t, 64, 64)
	op, h, _ := temporalTTLHarness(t, 0)
	h.push(1, tjRight, ins(int32(-1), ms(0), "v"))
	for k := int32(0); k < 2000; k++ {
		h.push(0, tjLeft, ins(k, ms(int64(k)+1)))
		h.watermarks(int64(k) + 1)
		h.out.take()
	}
	if n := op.keys.n; n > 2*64+2 {
		t.Errorf("%d keys in the index for one holding a version", n)
	}
	// the kept version still joins
	h.push(0, tjLeft, ins(int32(-1), ms(5000)))
	h.watermarks(5000)
	h.expect("+I[-1, 1970-01-01T00:00:05, -1, 1970-01-01T00:00, v]", "WM(5000)")
}
