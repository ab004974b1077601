package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

var (
	joinLeft  = []*types.DataType{types.IntType(), types.StringType()}
	joinRight = []*types.DataType{types.IntType(), types.StringType()}
	joinOut   = append(append([]*types.DataType(nil), joinLeft...), joinRight...)
)

func joinHarness(t *testing.T, kind opspec.JoinKind) *harness {
	spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
	return newHarness(t, &StreamingJoin{Spec: spec}, joinOut, false, nil)
}

// Inner joins forward the input's row kind (StreamingJoinOperator:
// "send +I/+U[record+other]s (using input RowKind)").
func TestStreamingInnerJoinForwardsRowKinds(t *testing.T) {
	h := joinHarness(t, opspec.InnerJoin)
	h.push(0, joinLeft, ins(int32(1), "x"))
	h.expect()
	h.push(1, joinRight, ins(int32(1), "m"))
	h.expect("+I[1, x, 1, m]")
	h.push(0, joinLeft, row(types.UpdateAfter, int32(1), "y"))
	h.expect("+U[1, y, 1, m]")
	h.push(0, joinLeft, row(types.UpdateBefore, int32(1), "x"))
	h.expect("-U[1, x, 1, m]")
	h.push(1, joinRight, row(types.Delete, int32(1), "m"))
	h.expect("-D[1, y, 1, m]")
	// a NULL key never matches
	h.push(0, joinLeft, ins(nil, "z"))
	h.push(1, joinRight, ins(nil, "w"))
	h.expect()
}

// Outer joins emit +I/-D only, NULL-padding a row while it has no
// partner (StreamingJoinOperator's association counts).
func TestStreamingLeftJoinAssociations(t *testing.T) {
	h := joinHarness(t, opspec.LeftJoin)
	h.push(0, joinLeft, ins(int32(1), "x"))
	h.expect("+I[1, x, null, null]")
	h.push(1, joinRight, ins(int32(1), "m"))
	h.expect("-D[1, x, null, null]", "+I[1, x, 1, m]")
	h.push(1, joinRight, ins(int32(1), "n"))
	h.expect("+I[1, x, 1, n]")
	h.push(1, joinRight, row(types.Delete, int32(1), "m"))
	h.expect("-D[1, x, 1, m]")
	h.push(1, joinRight, row(types.Delete, int32(1), "n"))
	h.expect("-D[1, x, 1, n]", "+I[1, x, null, null]")
	// an update of the left row: -D then +I, never -U/+U in outer joins
	h.push(1, joinRight, ins(int32(1), "m"))
	h.expect("-D[1, x, null, null]", "+I[1, x, 1, m]")
	h.push(0, joinLeft, row(types.UpdateBefore, int32(1), "x"), row(types.UpdateAfter, int32(1), "y"))
	h.expect("-D[1, x, 1, m]", "+I[1, y, 1, m]")
	h.push(0, joinLeft, row(types.Delete, int32(1), "y"))
	h.expect("-D[1, y, 1, m]")
	// the right side is inner: nothing for a right row without partner
	h.push(1, joinRight, ins(int32(2), "r"))
	h.expect()
}

func TestStreamingFullJoinWithResidualAndDuplicates(t *testing.T) {
	h := joinHarness(t, opspec.FullJoin)
	h.push(1, joinRight, ins(int32(2), "r"))
	h.expect("+I[null, null, 2, r]")
	// the same row twice is one record with multiplicity 2
	h.push(0, joinLeft, ins(int32(2), "a"), ins(int32(2), "a"))
	h.expect("-D[null, null, 2, r]", "+I[2, a, 2, r]", "+I[2, a, 2, r]")
	h.push(1, joinRight, row(types.Delete, int32(2), "r"))
	h.expect("-D[2, a, 2, r]", "+I[2, a, null, null]", "-D[2, a, 2, r]", "+I[2, a, null, null]")
}

// Rows of a whole batch are matched against the other side in one go; the
// order follows the input rows.
func TestStreamingJoinBatchOrder(t *testing.T) {
	h := joinHarness(t, opspec.InnerJoin)
	h.push(1, joinRight, ins(int32(1), "m"), ins(int32(2), "n"))
	h.push(0, joinLeft, ins(int32(2), "b"), ins(int32(3), "c"), ins(int32(1), "a"))
	h.expect("+I[2, b, 2, n]", "+I[1, a, 1, m]")
	if k, _ := h.op.(*StreamingJoin).StateSize(); k != 3 {
		t.Fatalf("state keys %d", k)
	}
}

// table.exec.state.ttl: a stored row last written TTL ago no longer joins
// and leaves without a retraction; the cleanup timer removes it.
func TestStreamingJoinStateTTL(t *testing.T) {
	clock := NewManualClock(time.UnixMilli(5_000_000))
	spec := opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
	op := &StreamingJoin{Spec: spec}
	h := newHarness(t, op, joinOut, false, clock, func(c *JobConfig) { c.StateTTL = time.Minute })
	h.push(1, joinRight, ins(int32(1), "m"))
	h.push(0, joinLeft, ins(int32(1), "x"))
	h.expect("+I[1, x, 1, m]")
	clock.Advance(40 * time.Second)
	h.push(0, joinLeft, ins(int32(2), "y"))
	h.expect("+I[2, y, null, null]")
	// 70 s after they were written, m and x are gone
	clock.Advance(30 * time.Second)
	h.push(0, joinLeft, ins(int32(1), "z"))
	h.expect("+I[1, z, null, null]")
	h.push(1, joinRight, ins(int32(2), "n"))
	h.expect("-D[2, y, null, null]", "+I[2, y, 2, n]")
	if err := op.OnProcessingTime(clock.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if l, r := op.sides[0].live, op.sides[1].live; l != 2 || r != 1 {
		t.Errorf("live rows after cleanup: left %d, right %d; want 2, 1", l, r)
	}
}

// Retracted rows are compacted away once they outnumber the live ones.
func TestStreamingJoinCompaction(t *testing.T) {
	op := &StreamingJoin{Spec: opspec.JoinSpec{Kind: opspec.InnerJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}}
	h := newHarness(t, op, joinOut, false, nil)
	h.push(1, joinRight, ins(int32(7), "r"))
	var adds, dels []*types.Row
	for i := 0; i < 5000; i++ {
		adds = append(adds, ins(int32(i%10), fmt.Sprint("v", i)))
		dels = append(dels, row(types.Delete, int32(i%10), fmt.Sprint("v", i)))
	}
	h.push(0, joinLeft, adds...)
	h.push(0, joinLeft, dels[:4990]...)
	h.out.take()
	if n := op.sides[0].store.Len(); n != 10 {
		t.Fatalf("left store holds %d rows after compaction, want 10", n)
	}
	// the survivors still join and retract correctly
	h.push(1, joinRight, ins(int32(3), "s"))
	h.expect("+I[3, v4993, 3, s]")
	h.push(0, joinLeft, dels[4993])
	h.expect("-D[3, v4993, 3, s]")
}

// Semi and anti joins (StreamingSemiAntiJoinOperator): left rows are
// forwarded with their kind while matched (semi) / unmatched (anti); right
// rows that make or break a left row's first match emit +I / -D of it.
func TestStreamingSemiAntiJoin(t *testing.T) {
	leftOnly := joinLeft
	for _, kind := range []opspec.JoinKind{opspec.SemiJoin, opspec.AntiJoin} {
		spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
		h := newHarness(t, &StreamingJoin{Spec: spec}, leftOnly, false, nil)
		h.push(0, joinLeft, ins(int32(1), "x"), ins(int32(1), "x"))
		if kind == opspec.SemiJoin {
			h.expect()
		} else {
			h.expect("+I[1, x]", "+I[1, x]")
		}
		h.push(1, joinRight, ins(int32(1), "m"))
		if kind == opspec.SemiJoin {
			h.expect("+I[1, x]", "+I[1, x]")
		} else {
			h.expect("-D[1, x]", "-D[1, x]")
		}
		// a second match changes nothing
		h.push(1, joinRight, ins(int32(1), "n"))
		h.expect()
		h.push(1, joinRight, row(types.Delete, int32(1), "m"))
		h.expect()
		// a left retraction while matched
		h.push(0, joinLeft, row(types.Delete, int32(1), "x"))
		if kind == opspec.SemiJoin {
			h.expect("-D[1, x]")
		} else {
			h.expect()
		}
		// the last match leaves
		h.push(1, joinRight, row(types.Delete, int32(1), "n"))
		if kind == opspec.SemiJoin {
			h.expect("-D[1, x]")
		} else {
			h.expect("+I[1, x]")
		}
	}
}
