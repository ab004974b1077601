package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// sessionStateOp builds session windows of 5 s per key: SUM and COUNT(*)
// per session (aggregation), or every row with window_start and
// window_end (TVF mode).
func sessionStateOp(rows bool) (func() Operator, []*types.DataType) {
	spec := opspec.WindowSpec{Kind: opspec.SessionWindow, Gap: 5_000}
	props := []opspec.WindowProp{opspec.PropStart, opspec.PropEnd}
	if rows {
		out := append(append([]*types.DataType(nil), winTypes...), types.TimestampType(3), types.TimestampType(3))
		return func() Operator {
			return &SessionWindows{Keys: []int{0}, KeyTypes: winTypes[:1], Window: spec, TimeCol: 2, Rows: true,
				InTypes: winTypes, OutTypes: out, Props: props}
		}, out
	}
	out := []*types.DataType{types.StringType(), types.IntType(), types.BigIntType().NotNull(), types.TimestampType(3), types.TimestampType(3)}
	return func() Operator {
		return &SessionWindows{Keys: []int{0}, KeyTypes: winTypes[:1], Window: spec, TimeCol: 2, OutTypes: out, Props: props,
			Aggs: []opspec.AggSpec{
				{Func: "SUM", Args: []int{1}, ArgTypes: winTypes[1:2], Filter: -1, Type: types.IntType()},
				{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()}}}
	}, out
}

// Session windows keep their open sessions across a snapshot: a row after
// the cut merges two sessions saved before it, a session saved open fires
// after the cut, a fired key starts a new session, a late row is dropped;
// in aggregation and in TVF mode.
func TestSessionStateRoundTrip(t *testing.T) {
	long := "a key of more than seven bytes"
	first := []stateStep{
		pushStep(0, winTypes, ins("a", int32(1), ms(1_000)), ins(long, int32(2), ms(2_000)), ins("a", int32(3), ms(12_000))),
		pushStep(0, winTypes, ins("b", int32(4), ms(3_000)), ins("a", int32(5), ms(3_000))),
		watermarkStep(0, 7_500), // b's session [3 s, 8 s) is open, long's [2 s, 7 s) fires
	}
	second := []stateStep{
		pushStep(0, winTypes, ins("a", int32(6), ms(8_000)), ins(long, int32(7), ms(1_000)), ins("b", int32(8), ms(6_000))),
		watermarkStep(0, 20_000),
		pushStep(0, winTypes, ins(long, int32(9), ms(30_000))),
		watermarkStep(0, 40_000),
	}
	for _, c := range []struct {
		name     string
		rows     bool
		afterCut []string
	}{
		// a's row at 8 s joins [1 s, 8 s) and [12 s, 17 s); long's row at 1 s is late
		{"aggregation", false, []string{
			"+I[b, 12, 2, 1970-01-01T00:00:03, 1970-01-01T00:00:11]",
			"+I[a, 15, 4, 1970-01-01T00:00:01, 1970-01-01T00:00:17]",
			"WM(20000)",
			"+I[a key of more than seven bytes, 9, 1, 1970-01-01T00:00:30, 1970-01-01T00:00:35]",
			"WM(40000)"}},
		{"TVF", true, []string{
			"+I[b, 4, 1970-01-01T00:00:03, 1970-01-01T00:00:03, 1970-01-01T00:00:11]",
			"+I[b, 8, 1970-01-01T00:00:06, 1970-01-01T00:00:03, 1970-01-01T00:00:11]",
			"+I[a, 1, 1970-01-01T00:00:01, 1970-01-01T00:00:01, 1970-01-01T00:00:17]",
			"+I[a, 5, 1970-01-01T00:00:03, 1970-01-01T00:00:01, 1970-01-01T00:00:17]",
			"+I[a, 3, 1970-01-01T00:00:12, 1970-01-01T00:00:01, 1970-01-01T00:00:17]",
			"+I[a, 6, 1970-01-01T00:00:08, 1970-01-01T00:00:01, 1970-01-01T00:00:17]",
			"WM(20000)",
			"+I[a key of more than seven bytes, 9, 1970-01-01T00:00:30, 1970-01-01T00:00:30, 1970-01-01T00:00:35]",
			"WM(40000)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp, out := sessionStateOp(c.rows)
			afterCut, _ := stateRoundTrip{newOp: newOp, outTypes: out}.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and a WindowAgg's snapshot are refused.
func TestSessionStateErrors(t *testing.T) {
	for _, rows := range []bool{false, true} {
		newOp, out := sessionStateOp(rows)
		h := newHarness(t, newOp(), out, false, NewManualClock(time.UnixMilli(0)))
		h.push(0, winTypes, ins("a", int32(1), ms(1_000)), ins("bb", int32(2), ms(7_000)), ins("a", int32(3), ms(8_000)))
		h.push(0, winTypes, ins("a", int32(4), ms(4_000)))
		h.watermark(0, 5_000)
		snap, err := h.op.(CheckpointedOperator).SnapshotState()
		if err != nil {
			t.Fatal(err)
		}
		aggOp, aggOut := windowAggStateOp(opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 10_000}, true)
		agg := aggOp()
		newHarness(t, agg, aggOut, false, NewManualClock(time.UnixMilli(0)))
		other, err := agg.(CheckpointedOperator).SnapshotState()
		if err != nil {
			t.Fatal(err)
		}
		checkRestoreErrors(t, newOp, out, snap, other, "SessionWindows", "WindowAgg")
		checkCorruptSnapshots(t, newOp, out, snap)
	}
}
