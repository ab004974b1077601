package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestWatermarkPerSplit: with splits read together, the watermark is the
// minimum over the active splits; a split without rows holds it back until
// it is idle; idle splits go idle in the order of their timeouts (the
// watermark advances past the earlier one) and an idle split's next row
// makes it active again.
func TestWatermarkPerSplit(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.TimestampType(3)}
	w, err := NewWatermarkAssigner(&expr.InputRef{Index: 1, Name: "ts", T: ts[1]}, 1)
	if err != nil {
		t.Fatal(err)
	}
	clock := NewManualClock(time.Unix(1000, 0))
	h := newHarness(t, w, ts, false, clock, func(c *JobConfig) {
		c.WatermarkEvery = 0
		c.IdleTimeout = time.Second
	})
	splits := newSourceSplits()
	h.ctx.Splits = splits

	splits.setCurrent("t-0", []string{"t-0", "t-1", "t-2"})
	h.push(0, ts, ins(int32(1), ms(1000)))
	h.expect("+I[1, 1970-01-01T00:00:01]") // t-1 and t-2 have no watermark yet
	clock.Advance(300 * time.Millisecond)
	splits.setCurrent("t-1", nil)
	h.push(0, ts, ins(int32(2), ms(500)))
	h.expect("+I[2, 1970-01-01T00:00:00.500]") // t-2 still holds it back
	clock.Advance(300 * time.Millisecond)
	splits.setCurrent("t-2", nil)
	h.push(0, ts, ins(int32(3), ms(700)))
	h.expect("+I[3, 1970-01-01T00:00:00.700]", "WM(500)")
	splits.setCurrent("t-1", nil)
	h.push(0, ts, ins(int32(4), ms(900)))
	h.expect("+I[4, 1970-01-01T00:00:00.900]", "WM(700)")

	// t-0 (last row at +0 ms) idles first: the minimum of t-1 and t-2
	next, ok := w.NextProcessingTime()
	if !ok || next != time.Unix(1001, 0).UnixMilli() {
		t.Fatalf("next timer %d %v", next, ok)
	}
	clock.Advance(400 * time.Millisecond) // now +1000 ms
	if err := w.OnProcessingTime(clock.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	h.expect() // t-0 idle: min(t-1 900, t-2 700) = 700, already emitted
	// t-2 (last row at +600 ms) and t-1 (+600 ms) idle by +1600 ms: t-1
	// and t-2 share their last-row time; t-1 goes first (name order) and
	// the watermark moves to t-2's 700, then all are idle
	clock.Advance(600 * time.Millisecond)
	if err := w.OnProcessingTime(clock.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	h.expect()
	if !w.isIdle {
		t.Fatal("instance not idle with every split idle")
	}
	p := splits.wms
	if !p["t-0"].idle || !p["t-1"].idle || !p["t-2"].idle || p["t-0"].wm != 1000 || p["t-1"].wm != 900 || p["t-2"].wm != 700 {
		t.Fatalf("split marks %+v", p)
	}
	// a row of t-0 makes it active: it alone drives the watermark
	splits.setCurrent("t-0", nil)
	h.push(0, ts, ins(int32(5), ms(3000)))
	h.expect("+I[5, 1970-01-01T00:00:03]", "WM(3000)")
	if w.isIdle {
		t.Fatal("instance still idle after a row")
	}
	// a finished split leaves the set
	splits.setCurrent("t-0", []string{"t-0"})
	h.push(0, ts, ins(int32(6), ms(3500)))
	h.expect("+I[6, 1970-01-01T00:00:03.500]", "WM(3500)")
}
