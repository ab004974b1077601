package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// The upsert materializer's state expires TTL after its last write: an
// expired key's next row is +I, a retraction for it is ignored; the
// cleanup timer drops expired keys silently; emptied and expired keys
// give their ids to new keys.
func TestSinkUpsertMaterializerStateTTL(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	clock := NewManualClock(time.UnixMilli(1_000_000))
	op := &SinkUpsertMaterializer{Keys: []int{0}, KeyTypes: ts[:1], Types: ts}
	h := newHarness(t, op, ts, false, clock, func(c *JobConfig) { c.StateTTL = 10 * time.Second })
	h.push(0, ts, ins(int32(1), "a"), ins(int32(2), "x"), ins(int32(3), "p"))
	h.expect("+I[1, a]", "+I[2, x]", "+I[3, p]")
	clock.Advance(6 * time.Second)
	// a retraction of a row the key does not hold writes nothing
	h.push(0, ts, ins(int32(1), "b"), row(types.Delete, int32(2), "zzz"))
	h.expect("+U[1, b]")
	clock.Advance(6 * time.Second)
	// 2 expired: its retraction is ignored, its next row is +I; 1 lives
	h.push(0, ts, row(types.Delete, int32(2), "x"), ins(int32(3), "q"), row(types.UpdateBefore, int32(1), "b"))
	h.expect("+I[3, q]", "+U[1, a]")
	if keys, _ := op.StateSize(); keys != 2 || len(op.free) != 1 {
		t.Fatalf("%d keys, %d free ids; want 2, 1", keys, len(op.free))
	}
	// the cleanup timer drops both once they expire, silently
	clock.Advance(11 * time.Second)
	fireDue(t, op, clock.Now().UnixMilli())
	h.expect()
	if keys, _ := op.StateSize(); keys != 0 || op.live != 0 {
		t.Fatalf("%d keys, %d rows after cleanup", keys, op.live)
	}
	h.push(0, ts, ins(int32(1), "c"), ins(int32(4), "y"), ins(int32(5), "z"))
	h.expect("+I[1, c]", "+I[4, y]", "+I[5, z]")
	if op.n != 3 {
		t.Errorf("%d ids numbered for at most 3 live keys", op.n)
	}
}

// Without a TTL, a key emptied by retractions gives its id to the next
// new key: with keys that rotate, the per-key slice stays short.
func TestSinkUpsertMaterializerReusesIDs(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	op := &SinkUpsertMaterializer{Keys: []int{0}, KeyTypes: ts[:1], Types: ts}
	h := newHarness(t, op, ts, false, nil)
	for k := int32(0); k < 1000; k++ {
		h.push(0, ts, ins(k, "a"), row(types.Delete, k, "a"))
	}
	if len(op.rows) > 1 || op.n > 1 {
		t.Errorf("%d per-key slots for one key alive at a time", len(op.rows))
	}
}

// A MaterializingSink runs the materializer's cleanup timer.
func TestMaterializingSinkTimers(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	clock := NewManualClock(time.UnixMilli(1_000_000))
	mat := &SinkUpsertMaterializer{Keys: []int{0}, KeyTypes: ts[:1], Types: ts}
	op := &MaterializingSink{Materializer: mat, Sink: &DropUpdateBefore{}}
	h := newHarness(t, op, ts, false, clock, func(c *JobConfig) { c.StateTTL = time.Second })
	h.push(0, ts, ins(int32(1), "a"))
	var timed Operator = op
	pt, ok := timed.(ProcessingTimeOperator)
	if !ok {
		t.Fatal("MaterializingSink runs no timers")
	}
	clock.Advance(2 * time.Second)
	fireDue(t, pt, clock.Now().UnixMilli())
	if keys, _ := mat.StateSize(); keys != 0 {
		t.Errorf("%d keys after cleanup", keys)
	}
}
