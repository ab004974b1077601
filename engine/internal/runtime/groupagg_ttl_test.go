package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// table.exec.state.ttl on a streaming GROUP BY, on the job's manual clock.
func TestGroupAggStateTTL(t *testing.T) {
	for _, miniBatch := range []bool{false, true} {
		clock := NewManualClock(time.UnixMilli(1_000_000))
		op := &GroupAgg{Keys: []int{0}, KeyTypes: []*types.DataType{types.StringType()},
			Aggs:     []opspec.AggSpec{{Func: "SUM", Args: []int{1}, ArgTypes: []*types.DataType{types.IntType()}, Filter: -1, Type: types.IntType()}},
			OutTypes: []*types.DataType{types.StringType(), types.IntType()}}
		h := newHarness(t, op, op.OutTypes, false, clock, func(c *JobConfig) {
			c.StateTTL = 10 * time.Second
			c.MiniBatch = miniBatch
		})
		in := []*types.DataType{types.StringType(), types.IntType()}
		h.push(0, in, ins("a", int32(1)), ins("b", int32(2)))
		h.expect("+I[a, 1]", "+I[b, 2]")
		// an unchanged result still emits -U/+U while a TTL is set
		clock.Advance(6 * time.Second)
		h.push(0, in, ins("a", int32(0)))
		h.expect("-U[a, 1]", "+U[a, 1]")
		// b was last written 12 s ago: its state is gone, it starts afresh;
		// a was written 6 s ago and lives on
		clock.Advance(6 * time.Second)
		h.push(0, in, ins("b", int32(5)), ins("a", int32(3)))
		h.expect("+I[b, 5]", "-U[a, 1]", "+U[a, 4]")
		// the cleanup timer drops both once they expire, silently
		next, ok := op.NextProcessingTime()
		if !ok {
			t.Fatal("no cleanup timer")
		}
		clock.Advance(11 * time.Second)
		if next > clock.Now().UnixMilli() {
			t.Fatalf("cleanup due at %d, after the expiry", next)
		}
		if err := op.OnProcessingTime(clock.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		h.expect()
		if keys, _ := op.StateSize(); keys != 0 {
			t.Errorf("mini-batch %v: %d groups left after cleanup", miniBatch, keys)
		}
		// a retraction for an expired group is ignored, as Flink does
		h.push(0, in, row(types.UpdateBefore, "a", int32(3)), ins("a", int32(7)))
		h.expect("+I[a, 7]")
	}
}
