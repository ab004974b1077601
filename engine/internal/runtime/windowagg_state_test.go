package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// winTypes are the input of the window state tests: a key, a value and
// the event time.
var winTypes = []*types.DataType{types.StringType(), types.IntType(), types.TimestampType(3)}

// watermarkStep sends watermark wm to input in.
func watermarkStep(in int, wm int64) stateStep {
	return func(h *harness, _ *ManualClock) { h.watermark(in, wm) }
}

// windowAggStateOp builds a window aggregate per key: SUM of the value
// and LISTAGG of the key (not mergeable: rows go to every window, not to
// slices) or COUNT(*) (mergeable: slices), then window_start and
// window_end.
func windowAggStateOp(spec opspec.WindowSpec, mergeable bool) (func() Operator, []*types.DataType) {
	second := opspec.AggSpec{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()}
	if !mergeable {
		second = opspec.AggSpec{Func: "LISTAGG", Args: []int{0}, ArgTypes: winTypes[:1], Filter: -1, Type: types.StringType()}
	}
	out := []*types.DataType{types.StringType(), types.IntType(), second.Type, types.TimestampType(3), types.TimestampType(3)}
	return func() Operator {
		return &WindowAgg{Keys: []int{0}, KeyTypes: winTypes[:1],
			Aggs: []opspec.AggSpec{
				{Func: "SUM", Args: []int{1}, ArgTypes: winTypes[1:2], Filter: -1, Type: types.IntType()},
				second},
			OutTypes: out, Window: spec, TimeCol: 2,
			Props: []opspec.WindowProp{opspec.PropStart, opspec.PropEnd}}
	}, out
}

// A window aggregate keeps its slices (or windows), the watermark it has
// seen and the windows that fired across a snapshot: TUMBLE, HOP over
// slices and HOP with an aggregate that cannot merge (every window its
// own bucket); a late row after the cut is dropped as in the run without
// a cut.
func TestWindowAggStateRoundTrip(t *testing.T) {
	long := "a key of more than seven bytes"
	first := []stateStep{
		pushStep(0, winTypes, ins("a", int32(1), ms(1_000)), ins(long, int32(2), ms(4_000)), ins("a", int32(3), ms(6_000))),
		watermarkStep(0, 5_000),
		pushStep(0, winTypes, ins("b", int32(4), ms(7_000)), ins("a", int32(5), ms(12_000))),
		watermarkStep(0, 10_000),
		pushStep(0, winTypes, ins("b", int32(6), ms(13_000))),
	}
	second := []stateStep{
		pushStep(0, winTypes, ins("a", int32(7), ms(9_000)), ins("b", int32(8), ms(14_000)), ins(long, int32(9), ms(16_000))),
		watermarkStep(0, 15_000),
		pushStep(0, winTypes, ins("a", int32(10), ms(21_000)), ins("b", int32(11), ms(14_500))),
		watermarkStep(0, 30_000),
	}
	tumble := opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 10_000}
	hop := opspec.WindowSpec{Kind: opspec.HopWindow, Size: 10_000, Slide: 5_000}
	for _, c := range []struct {
		name      string
		spec      opspec.WindowSpec
		mergeable bool
		afterCut  []string
	}{
		// a's row at 9 s is late: its only window [0 s, 10 s) fired
		{"tumble", tumble, true, []string{
			"WM(15000)",
			"+I[a, 5, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[b, 25, 3, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a key of more than seven bytes, 9, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a, 10, 1, 1970-01-01T00:00:20, 1970-01-01T00:00:30]",
			"WM(30000)"}},
		// a's row at 9 s still counts in [5 s, 15 s), b's at 14.5 s in [10 s, 20 s)
		{"hop sliced", hop, true, []string{
			"+I[a, 15, 3, 1970-01-01T00:00:05, 1970-01-01T00:00:15]",
			"+I[b, 18, 3, 1970-01-01T00:00:05, 1970-01-01T00:00:15]",
			"WM(15000)",
			"+I[a, 5, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[b, 25, 3, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a key of more than seven bytes, 9, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a key of more than seven bytes, 9, 1, 1970-01-01T00:00:15, 1970-01-01T00:00:25]",
			"+I[a, 10, 1, 1970-01-01T00:00:15, 1970-01-01T00:00:25]",
			"+I[a, 10, 1, 1970-01-01T00:00:20, 1970-01-01T00:00:30]",
			"WM(30000)"}},
		{"hop unsliced", hop, false, []string{
			"+I[a, 15, a,a,a, 1970-01-01T00:00:05, 1970-01-01T00:00:15]",
			"+I[b, 18, b,b,b, 1970-01-01T00:00:05, 1970-01-01T00:00:15]",
			"WM(15000)",
			"+I[a, 5, a, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[b, 25, b,b,b, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a key of more than seven bytes, 9, a key of more than seven bytes, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a key of more than seven bytes, 9, a key of more than seven bytes, 1970-01-01T00:00:15, 1970-01-01T00:00:25]",
			"+I[a, 10, a, 1970-01-01T00:00:15, 1970-01-01T00:00:25]",
			"+I[a, 10, a, 1970-01-01T00:00:20, 1970-01-01T00:00:30]",
			"WM(30000)"}},
		// b's row at 14.5 s counts only in [10 s, 20 s): [10 s, 15 s) fired
		{"cumulate", opspec.WindowSpec{Kind: opspec.CumulateWindow, Size: 10_000, Slide: 5_000}, true, []string{
			"+I[a, 5, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:15]",
			"+I[b, 14, 2, 1970-01-01T00:00:10, 1970-01-01T00:00:15]",
			"WM(15000)",
			"+I[a, 5, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[b, 25, 3, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a key of more than seven bytes, 9, 1, 1970-01-01T00:00:10, 1970-01-01T00:00:20]",
			"+I[a, 10, 1, 1970-01-01T00:00:20, 1970-01-01T00:00:25]",
			"+I[a, 10, 1, 1970-01-01T00:00:20, 1970-01-01T00:00:30]",
			"WM(30000)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp, out := windowAggStateOp(c.spec, c.mergeable)
			afterCut, _ := stateRoundTrip{newOp: newOp, outTypes: out}.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Windows attached to the input's window_start and window_end columns and
// processing-time windows (their timers are the saved buckets' ends) keep
// their buckets across a snapshot.
func TestWindowAggStateAttachedAndProctime(t *testing.T) {
	attTypes := []*types.DataType{types.StringType(), types.IntType(), types.TimestampType(3), types.TimestampType(3)}
	attOut := []*types.DataType{types.StringType(), types.IntType(), types.TimestampType(3), types.TimestampType(3)}
	attached := func() Operator {
		return &WindowAgg{Keys: []int{0}, KeyTypes: attTypes[:1],
			Aggs:     []opspec.AggSpec{{Func: "SUM", Args: []int{1}, ArgTypes: attTypes[1:2], Filter: -1, Type: types.IntType()}},
			OutTypes: attOut, Window: opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 10_000},
			Attached: true, StartCol: 2, EndCol: 3, Props: []opspec.WindowProp{opspec.PropStart, opspec.PropEnd}}
	}
	afterCut, _ := stateRoundTrip{newOp: attached, outTypes: attOut}.run(t,
		[]stateStep{
			pushStep(0, attTypes, ins("a", int32(1), ms(0), ms(10_000)), ins("a", int32(2), ms(10_000), ms(20_000))),
			watermarkStep(0, 10_000),
			pushStep(0, attTypes, ins("b", int32(3), ms(10_000), ms(20_000))),
		},
		[]stateStep{
			pushStep(0, attTypes, ins("a", int32(4), ms(0), ms(10_000)), ins("b", int32(5), ms(10_000), ms(20_000))),
			watermarkStep(0, 20_000),
		})
	// a's row for the window fired before the cut is late
	checkLines(t, "attached: changelog after the cut", afterCut,
		"+I[a, 2, 1970-01-01T00:00:10, 1970-01-01T00:00:20]", "+I[b, 8, 1970-01-01T00:00:10, 1970-01-01T00:00:20]", "WM(20000)")

	newOp, out := windowAggStateOp(opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 10_000, Proctime: true}, true)
	// the clock starts at 1,000 s: the window [1,000 s, 1,010 s) fires
	// when it reaches 1,010 s
	afterCut, _ = stateRoundTrip{newOp: newOp, outTypes: out}.run(t,
		[]stateStep{
			pushStep(0, winTypes, ins("a", int32(1), nil), ins("b", int32(2), nil)),
			advanceStep(4 * time.Second),
		},
		[]stateStep{
			pushStep(0, winTypes, ins("a", int32(3), nil)),
			advanceStep(6 * time.Second),
			pushStep(0, winTypes, ins("a", int32(4), nil)),
			advanceStep(10 * time.Second),
		})
	checkLines(t, "proctime: changelog after the cut",
		afterCut,
		"+I[a, 4, 2, 1970-01-01T00:16:40, 1970-01-01T00:16:50]", "+I[b, 2, 1, 1970-01-01T00:16:40, 1970-01-01T00:16:50]",
		"+I[a, 4, 1, 1970-01-01T00:16:50, 1970-01-01T00:17]")
}

// Truncated snapshots and a Deduplicate's snapshot are refused.
func TestWindowAggStateErrors(t *testing.T) {
	newOp, out := windowAggStateOp(opspec.WindowSpec{Kind: opspec.HopWindow, Size: 10_000, Slide: 5_000}, true)
	h := newHarness(t, newOp(), out, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("a", int32(1), ms(1_000)), ins("bb", int32(2), ms(7_000)), ins("a", int32(3), ms(8_000)))
	h.watermark(0, 5_000)
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	dedup := &Deduplicate{Keys: []int{0}, KeyTypes: dedupTypes[:1], Types: dedupTypes}
	newHarness(t, dedup, dedupTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := dedup.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, out, snap, other, "WindowAgg", "Deduplicate")
	checkCorruptSnapshots(t, newOp, out, snap)
}
