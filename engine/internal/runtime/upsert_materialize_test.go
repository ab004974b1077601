package runtime

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// SinkUpsertMaterializer keeps the rows of each key and emits the latest.
func TestSinkUpsertMaterializer(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	op := &SinkUpsertMaterializer{Keys: []int{0}, KeyTypes: ts[:1], Types: ts}
	h := newHarness(t, op, ts, false, nil)
	h.push(0, ts, ins(int32(1), "a"), ins(int32(1), "b"), ins(int32(2), "x"))
	h.expect("+I[1, a]", "+U[1, b]", "+I[2, x]")
	// removing a row that is not the latest changes nothing
	h.push(0, ts, row(types.UpdateBefore, int32(1), "a"))
	h.expect()
	// removing the latest goes back to the one before
	h.push(0, ts, ins(int32(1), "c"), row(types.Delete, int32(1), "c"))
	h.expect("+U[1, c]", "+U[1, b]")
	// removing the last row deletes the key; unknown rows are ignored
	h.push(0, ts, row(types.Delete, int32(1), "b"), row(types.Delete, int32(1), "zzz"), row(types.Delete, int32(3), "q"))
	h.expect("-D[1, b]")
	h.push(0, ts, ins(int32(1), "d"))
	h.expect("+I[1, d]")
}
