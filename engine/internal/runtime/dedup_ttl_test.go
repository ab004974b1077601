package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

var dedupTypes = []*types.DataType{types.StringType(), types.IntType(), types.TimestampType(3)}

func dedupHarness(t *testing.T, keepLast, rowtime bool, ttl time.Duration) (*Deduplicate, *harness, *ManualClock) {
	clock := NewManualClock(time.UnixMilli(1_000_000))
	op := &Deduplicate{Keys: []int{0}, KeyTypes: []*types.DataType{types.StringType()}, Types: dedupTypes,
		KeepLast: keepLast, Rowtime: rowtime, TimeCol: 2}
	h := newHarness(t, op, dedupTypes, false, clock, func(c *JobConfig) { c.StateTTL = ttl })
	return op, h, clock
}

// Keep-first on proctime writes its state once, on the key's first row:
// the key expires TTL after it, even while duplicates keep coming, and
// its next row is a first row again.
func TestDedupTTLKeepFirst(t *testing.T) {
	op, h, clock := dedupHarness(t, false, false, 10*time.Second)
	h.push(0, dedupTypes, ins("a", int32(1), ms(0)), ins("b", int32(2), ms(0)))
	h.expect("+I[a, 1, 1970-01-01T00:00]", "+I[b, 2, 1970-01-01T00:00]")
	clock.Advance(6 * time.Second)
	h.push(0, dedupTypes, ins("a", int32(3), ms(0)))
	h.expect() // a duplicate: not emitted, and no refresh
	clock.Advance(5 * time.Second)
	h.push(0, dedupTypes, ins("a", int32(4), ms(0)))
	h.expect("+I[a, 4, 1970-01-01T00:00]")
	// the cleanup timer drops b (expired) silently; a was rewritten 0 s ago
	fireDue(t, op, clock.Now().UnixMilli())
	h.expect()
	if keys, _ := op.StateSize(); keys != 1 || len(op.free) != 1 {
		t.Fatalf("%d keys, %d free ids after cleanup; want 1, 1", keys, len(op.free))
	}
	// a new key takes b's id
	h.push(0, dedupTypes, ins("c", int32(5), ms(0)))
	h.expect("+I[c, 5, 1970-01-01T00:00]")
	if op.n != 2 {
		t.Errorf("%d ids numbered for 2 live keys", op.n)
	}
}

// Keep-last on proctime refreshes on every row; an expired key's next row
// is +I (no -U of the expired row). With a TTL a row equal to the kept
// one still emits -U/+U; without one it emits nothing, as Flink does.
func TestDedupTTLKeepLast(t *testing.T) {
	op, h, clock := dedupHarness(t, true, false, 10*time.Second)
	h.push(0, dedupTypes, ins("a", int32(1), ms(0)), ins("b", int32(2), ms(0)))
	h.expect("+I[a, 1, 1970-01-01T00:00]", "+I[b, 2, 1970-01-01T00:00]")
	clock.Advance(6 * time.Second)
	h.push(0, dedupTypes, ins("a", int32(1), ms(0)))
	h.expect("-U[a, 1, 1970-01-01T00:00]", "+U[a, 1, 1970-01-01T00:00]")
	clock.Advance(6 * time.Second)
	h.push(0, dedupTypes, ins("b", int32(3), ms(0)), ins("a", int32(4), ms(0)))
	h.expect("+I[b, 3, 1970-01-01T00:00]", "-U[a, 1, 1970-01-01T00:00]", "+U[a, 4, 1970-01-01T00:00]")
	clock.Advance(11 * time.Second)
	fireDue(t, op, clock.Now().UnixMilli())
	h.expect()
	if keys, _ := op.StateSize(); keys != 0 {
		t.Fatalf("%d keys after cleanup", keys)
	}

	_, h, _ = dedupHarness(t, true, false, 0)
	h.push(0, dedupTypes, ins("a", int32(1), ms(0)), ins("a", int32(1), ms(0)), ins("a", int32(2), ms(0)))
	h.expect("+I[a, 1, 1970-01-01T00:00]", "-U[a, 1, 1970-01-01T00:00]", "+U[a, 2, 1970-01-01T00:00]")
}

// On rowtime only a row that replaces the kept one writes the state: a
// row that loses does not refresh it.
func TestDedupTTLRowtime(t *testing.T) {
	op, h, clock := dedupHarness(t, true, true, 10*time.Second)
	h.push(0, dedupTypes, ins("a", int32(1), ms(100)))
	h.expect("+I[a, 1, 1970-01-01T00:00:00.100]")
	clock.Advance(6 * time.Second)
	h.push(0, dedupTypes, ins("a", int32(2), ms(50))) // older: loses, no write
	h.expect()
	clock.Advance(5 * time.Second)
	h.push(0, dedupTypes, ins("a", int32(3), ms(60)))
	h.expect("+I[a, 3, 1970-01-01T00:00:00.060]")
	h.push(0, dedupTypes, ins("a", int32(4), ms(70)))
	h.expect("-U[a, 3, 1970-01-01T00:00:00.060]", "+U[a, 4, 1970-01-01T00:00:00.070]")
	if keys, _ := op.StateSize(); keys != 1 {
		t.Fatalf("%d keys", keys)
	}
}
