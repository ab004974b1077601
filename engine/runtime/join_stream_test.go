package runtime

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

var (
	joinLeft  = []*types.DataType{types.IntType(), types.StringType()}
	joinRight = []*types.DataType{types.IntType(), types.StringType()}
	joinOut   = append(append([]*types.DataType(nil), joinLeft...), joinRight...)
)

func joinHarness(t *testing.T, kind JoinKind) *harness {
	spec := JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
	return newHarness(t, &StreamingJoin{Spec: spec}, joinOut, false, nil)
}

// Inner joins forward the input's row kind (StreamingJoinOperator:
// "send +I/+U[record+other]s (using input RowKind)").
func TestStreamingInnerJoinForwardsRowKinds(t *testing.T) {
	h := joinHarness(t, InnerJoin)
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
	h := joinHarness(t, LeftJoin)
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
	h := joinHarness(t, FullJoin)
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
	h := joinHarness(t, InnerJoin)
	h.push(1, joinRight, ins(int32(1), "m"), ins(int32(2), "n"))
	h.push(0, joinLeft, ins(int32(2), "b"), ins(int32(3), "c"), ins(int32(1), "a"))
	h.expect("+I[2, b, 2, n]", "+I[1, a, 1, m]")
	if k, _ := h.op.(*StreamingJoin).StateSize(); k != 3 {
		t.Fatalf("state keys %d", k)
	}
}
