package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// overStateOp is SUM(v) OVER (PARTITION BY k ORDER BY t) over overIn with
// the given frame, on rowtime or proctime.
func overStateOp(rowtime bool, frame opspec.OverFrame) func() Operator {
	return func() Operator {
		return &StreamOver{PartitionKeys: []int{0}, KeyTypes: overIn[:1], InTypes: overIn, TimeCol: 2, Rowtime: rowtime, Frame: frame,
			Calls: []opspec.OverCall{{Func: "SUM", Args: []int{1}, ArgTypes: overIn[1:2], Type: overTTLOut[3], Filter: -1}}}
	}
}

// A streaming OVER aggregate keeps its accumulators, the rows waiting for
// the watermark, the rows of bounded frames and the watermark it has seen
// across a snapshot: rows saved waiting are processed after the cut, rows
// saved in a frame leave it after the cut, a late row is dropped; with a
// state TTL the cleanup times are restored too.
func TestStreamOverStateRoundTrip(t *testing.T) {
	unbounded := opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	rows2 := opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.Preceding, Offset: 2}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	range10 := opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.Preceding, Offset: 10}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	first := []stateStep{
		pushStep(0, overIn, ins("a", int64(1), ms(100)), ins("b", int64(10), ms(100)), ins("a", int64(2), ms(105))),
		watermarkStep(0, 100),
		pushStep(0, overIn, ins("a", int64(4), ms(108)), ins("a", int64(8), ms(112))),
		advanceStep(6 * time.Second),
	}
	second := []stateStep{
		pushStep(0, overIn, ins("a", int64(16), ms(112)), ins("b", int64(20), ms(99)), ins("b", int64(30), ms(115))),
		watermarkStep(0, 120),
		advanceStep(6 * time.Second),
		pushStep(0, overIn, ins("a", int64(32), ms(130)), ins("b", int64(64), ms(130))),
		watermarkStep(0, 200),
	}
	for _, c := range []struct {
		rowtime  bool
		frame    opspec.OverFrame
		ttl      time.Duration
		afterCut []string
	}{
		// b's row at 99 ms is late; a's rows at 108 and 112 ms, saved
		// waiting, are processed after the cut
		{true, unbounded, 0, []string{
			"+I[a, 2, 1970-01-01T00:00:00.105, 3]",
			"+I[a, 4, 1970-01-01T00:00:00.108, 7]",
			"+I[a, 8, 1970-01-01T00:00:00.112, 15]",
			"+I[a, 16, 1970-01-01T00:00:00.112, 31]",
			"+I[b, 30, 1970-01-01T00:00:00.115, 40]",
			"WM(120)",
			"+I[a, 32, 1970-01-01T00:00:00.130, 63]",
			"+I[b, 64, 1970-01-01T00:00:00.130, 104]",
			"WM(200)"}},
		// a's saved frame rows (1, 2) leave the frame after the cut
		{true, rows2, 0, []string{
			"+I[a, 2, 1970-01-01T00:00:00.105, 3]",
			"+I[a, 4, 1970-01-01T00:00:00.108, 7]",
			"+I[a, 8, 1970-01-01T00:00:00.112, 14]",
			"+I[a, 16, 1970-01-01T00:00:00.112, 28]",
			"+I[b, 30, 1970-01-01T00:00:00.115, 40]",
			"WM(120)",
			"+I[a, 32, 1970-01-01T00:00:00.130, 56]",
			"+I[b, 64, 1970-01-01T00:00:00.130, 104]",
			"WM(200)"}},
		// the frame holds the rows of the last 10 ms: a's saved rows at
		// 100 ms and b's at 100 ms have left it after the cut
		{true, range10, 10 * time.Second, []string{
			"+I[a, 2, 1970-01-01T00:00:00.105, 3]",
			"+I[a, 4, 1970-01-01T00:00:00.108, 7]",
			"+I[a, 8, 1970-01-01T00:00:00.112, 30]",
			"+I[a, 16, 1970-01-01T00:00:00.112, 30]",
			"+I[b, 30, 1970-01-01T00:00:00.115, 30]",
			"WM(120)",
			"+I[a, 32, 1970-01-01T00:00:00.130, 32]",
			"+I[b, 64, 1970-01-01T00:00:00.130, 64]",
			"WM(200)"}},
		// proctime, TTL 5 s: the partitions expired before the cut (their
		// ids free) and expire again 5 s after their rows after it
		{false, unbounded, 5 * time.Second, []string{
			"+I[a, 16, 1970-01-01T00:00:00.112, 16]",
			"+I[b, 20, 1970-01-01T00:00:00.099, 20]",
			"+I[b, 30, 1970-01-01T00:00:00.115, 50]",
			"WM(120)",
			"+I[a, 32, 1970-01-01T00:00:00.130, 32]",
			"+I[b, 64, 1970-01-01T00:00:00.130, 64]",
			"WM(200)"}},
		{false, rows2, 0, []string{
			"+I[a, 16, 1970-01-01T00:00:00.112, 28]",
			"+I[b, 20, 1970-01-01T00:00:00.099, 30]",
			"+I[b, 30, 1970-01-01T00:00:00.115, 60]",
			"WM(120)",
			"+I[a, 32, 1970-01-01T00:00:00.130, 56]",
			"+I[b, 64, 1970-01-01T00:00:00.130, 114]",
			"WM(200)"}},
	} {
		t.Run(fmt.Sprintf("rowtime=%v %s ttl=%v", c.rowtime, c.frame, c.ttl), func(t *testing.T) {
			rt := stateRoundTrip{newOp: overStateOp(c.rowtime, c.frame), outTypes: overTTLOut, tweak: func(cfg *JobConfig) { cfg.StateTTL = c.ttl }}
			afterCut, _ := rt.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and a TemporalJoin's snapshot are refused.
func TestStreamOverStateErrors(t *testing.T) {
	frame := opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.Preceding, Offset: 1}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	newOp := overStateOp(true, frame)
	h := newHarness(t, newOp(), overTTLOut, false, NewManualClock(time.UnixMilli(0)), func(c *JobConfig) { c.StateTTL = time.Minute })
	h.push(0, overIn, ins("a", int64(1), ms(100)), ins("bb", int64(2), ms(100)), ins("a", int64(3), ms(105)))
	h.watermark(0, 100)
	h.push(0, overIn, ins("a", int64(5), ms(110)))
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	tj := temporalStateOp()
	newHarness(t, tj, tjOut, false, NewManualClock(time.UnixMilli(0)))
	other, err := tj.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, overTTLOut, snap, other, "StreamOver", "TemporalJoin")
	checkCorruptSnapshots(t, newOp, overTTLOut, snap)
}
