package runtime

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// The event-time temporal join joins each left row with the version valid
// at its time, and drops the rows it no longer needs from its stores.
func TestTemporalJoinVersionsAndCompaction(t *testing.T) {
	lt := []*types.DataType{types.IntType(), types.TimestampType(3)}
	rt := []*types.DataType{types.IntType(), types.TimestampType(3), types.StringType()}
	op := &TemporalJoin{Spec: opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: lt, RightTypes: rt},
		LeftTime: 1, RightTime: 1, NumLeft: 2}
	out := append(append([]*types.DataType(nil), lt...), rt...)
	h := newHarness(t, op, out, false, nil)
	h.push(1, rt, ins(int32(1), ms(0), "v0"), ins(int32(1), ms(10_000), "v1"))
	var rows []*types.Row
	for i := 0; i < 5000; i++ {
		rows = append(rows, ins(int32(1), ms(int64(i))))
	}
	h.push(0, lt, rows...)
	h.watermark(0, 20_000)
	h.watermark(1, 20_000)
	if got := len(h.out.take()); got != 5001 { // 5000 rows and the watermark
		t.Fatalf("%d events", got)
	}
	h.push(0, lt, ins(int32(1), ms(12_000)), ins(int32(2), ms(12_000)))
	h.watermark(0, 30_000)
	h.watermark(1, 30_000)
	h.expect("+I[1, 1970-01-01T00:00:12, 1, 1970-01-01T00:00:10, v1]", "+I[2, 1970-01-01T00:00:12, null, null, null]", "WM(30000)")
	if n := op.left.Len(); n > 2 {
		t.Errorf("left store keeps %d rows after compaction", n)
	}
	if n := op.right.Len(); n != 2 {
		t.Errorf("right store keeps %d rows", n)
	}
}
