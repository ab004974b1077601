package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Rows of the OVER tests: (k STRING, v BIGINT, t TIMESTAMP(3)); the
// output appends SUM(v) OVER (PARTITION BY k ORDER BY t).
var (
	overIn     = []*types.DataType{types.StringType(), types.BigIntType(), types.TimestampType(3)}
	overTTLOut = append(append([]*types.DataType(nil), overIn...), types.BigIntType())
)

func overTTLHarness(t *testing.T, rowtime bool, ttl time.Duration) (*StreamOver, *harness, *ManualClock) {
	clock := NewManualClock(time.UnixMilli(1_000_000))
	op := &StreamOver{PartitionKeys: []int{0}, KeyTypes: overIn[:1], InTypes: overIn, TimeCol: 2, Rowtime: rowtime,
		Frame: opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}},
		Calls: []opspec.OverCall{{Func: "SUM", Args: []int{1}, ArgTypes: overIn[1:2], Type: types.BigIntType(), Filter: -1}}}
	h := newHarness(t, op, overTTLOut, false, clock, func(c *JobConfig) { c.StateTTL = ttl })
	return op, h, clock
}

// Proctime UNBOUNDED PRECEDING: the accumulators expire TTL after the
// partition's last row; its next row starts from empty ones; the cleanup
// timer drops idle partitions silently and new partitions reuse their ids.
func TestStreamOverStateTTLProctime(t *testing.T) {
	op, h, clock := overTTLHarness(t, false, 10*time.Second)
	h.push(0, overIn, ins("a", int64(1), ms(0)), ins("b", int64(5), ms(0)))
	h.expect("+I[a, 1, 1970-01-01T00:00, 1]", "+I[b, 5, 1970-01-01T00:00, 5]")
	clock.Advance(6 * time.Second)
	h.push(0, overIn, ins("a", int64(2), ms(0)))
	h.expect("+I[a, 2, 1970-01-01T00:00, 3]")
	clock.Advance(6 * time.Second)
	h.push(0, overIn, ins("a", int64(4), ms(0)), ins("b", int64(6), ms(0)))
	h.expect("+I[a, 4, 1970-01-01T00:00, 7]", "+I[b, 6, 1970-01-01T00:00, 6]")
	clock.Advance(11 * time.Second)
	fireDue(t, op, clock.Now().UnixMilli())
	h.expect()
	if keys, _ := op.StateSize(); keys != 0 || len(op.free) != 2 {
		t.Fatalf("%d partitions, %d free ids after cleanup; want 0, 2", keys, len(op.free))
	}
	h.push(0, overIn, ins("c", int64(1), ms(0)), ins("a", int64(1), ms(0)), ins("c", int64(2), ms(0)))
	h.expect("+I[c, 1, 1970-01-01T00:00, 1]", "+I[a, 1, 1970-01-01T00:00, 1]", "+I[c, 2, 1970-01-01T00:00, 3]")
	if op.nParts != 2 {
		t.Errorf("%d ids numbered for 2 live partitions", op.nParts)
	}
}

// Rowtime: Flink's cleanup timer at now + 1.5 x TTL, moved only when
// now + TTL passes it; rows waiting for the watermark keep the state.
func TestStreamOverStateTTLRowtime(t *testing.T) {
	op, h, clock := overTTLHarness(t, true, 10*time.Second)
	h.push(0, overIn, ins("a", int64(1), ms(100)))
	h.watermark(0, 100)
	h.expect("+I[a, 1, 1970-01-01T00:00:00.100, 1]", "WM(100)")
	// 12 s on: before the cleanup time (15 s): the state lives; the
	// cleanup moves to 12 + 15 = 27 s
	clock.Advance(12 * time.Second)
	h.push(0, overIn, ins("a", int64(2), ms(200)))
	h.watermark(0, 200)
	h.expect("+I[a, 2, 1970-01-01T00:00:00.200, 3]", "WM(200)")
	// 28 s: cleared; a row waits for the watermark past the cleanup time
	clock.Advance(16 * time.Second)
	h.push(0, overIn, ins("a", int64(4), ms(300)))
	clock.Advance(50 * time.Second)
	fireDue(t, op, clock.Now().UnixMilli())
	if keys, _ := op.StateSize(); keys != 1 {
		t.Fatalf("%d partitions while a row waits, want 1", keys)
	}
	h.watermark(0, 300)
	h.expect("+I[a, 4, 1970-01-01T00:00:00.300, 4]", "WM(300)")
	clock.Advance(16 * time.Second)
	fireDue(t, op, clock.Now().UnixMilli())
	if keys, _ := op.StateSize(); keys != 0 {
		t.Fatalf("%d partitions after cleanup, want 0", keys)
	}
}
