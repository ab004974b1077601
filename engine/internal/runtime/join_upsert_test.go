package runtime

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// An inner join whose left input is an upsert stream keyed on the join
// key: +U replaces the key's row (no -U needed), a tombstone removes it.
func TestStreamingJoinUpsertInput(t *testing.T) {
	spec := opspec.JoinSpec{Kind: opspec.InnerJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight,
		UpsertInputs: [2]bool{true, false}}
	h := newHarness(t, &StreamingJoin{Spec: spec}, joinOut, false, nil)
	h.push(0, joinLeft, ins(int32(1), "x"), row(types.UpdateAfter, int32(1), "y"))
	h.expect()
	h.push(1, joinRight, ins(int32(1), "m"))
	h.expect("+I[1, y, 1, m]") // x was replaced by y
	h.push(0, joinLeft, row(types.UpdateAfter, int32(1), "z"))
	h.expect("+U[1, z, 1, m]")
	h.push(1, joinRight, ins(int32(1), "n"))
	h.expect("+I[1, z, 1, n]")
	h.push(0, joinLeft, row(types.Delete, int32(1), nil))
	h.expect("-D[1, null, 1, m]", "-D[1, null, 1, n]")
	h.push(1, joinRight, ins(int32(1), "o"))
	h.expect()
}
