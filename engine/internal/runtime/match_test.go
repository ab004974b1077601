package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// On a processing-time attribute rows are matched as they arrive: the
// match completes with the row that ends it, before any watermark.
func TestMatchProctime(t *testing.T) {
	spec := *matchSpec(t, opspec.SkipPastLastRow)
	spec.Proctime = true
	op := &Match{Spec: &spec, InTypes: winTypes, OutTypes: matchOutTypes}
	h := newHarness(t, op, matchOutTypes, false, NewManualClock(time.UnixMilli(1_000_000)))
	h.push(0, winTypes, ins("XYZ", int32(7), ms(0)), ins("XYZ", int32(9), ms(0)), ins("XYZ", int32(10), ms(0)))
	h.expect()
	h.push(0, winTypes, ins("XYZ", int32(5), ms(0)), ins("XYZ", int32(10), ms(0)))
	h.expect("+I[XYZ, 26, 7]")
}

// WITHIN bounds the state: partial matches are dropped once the
// watermark is WITHIN past their first row, and an empty partition goes.
func TestMatchWithinBoundsState(t *testing.T) {
	spec := *matchSpec(t, opspec.SkipPastLastRow)
	spec.WithinMillis = 2000
	op := &Match{Spec: &spec, InTypes: winTypes, OutTypes: matchOutTypes}
	h := newHarness(t, op, matchOutTypes, false, NewManualClock(time.UnixMilli(0)))
	// 1 + 2 + 3 < 30: A+ keeps growing, no match
	h.push(0, winTypes, ins("a", int32(1), ms(1000)), ins("b", int32(2), ms(1000)), ins("a", int32(2), ms(2000)), ins("a", int32(3), ms(2500)))
	h.watermark(0, 2600)
	h.expect("WM(2600)")
	if keys, _ := op.StateSize(); keys != 2 {
		t.Fatalf("%d partitions before the bound, want 2", keys)
	}
	// the partial matches from 1000 end at 3000; the ones from 2000 and
	// 2500 at 4000 and 4500
	h.watermark(0, 3000)
	h.expect("WM(3000)")
	if keys, _ := op.StateSize(); keys != 1 {
		t.Fatalf("%d partitions once b's match expired, want 1", keys)
	}
	h.watermark(0, 4500)
	h.expect("WM(4500)")
	if keys, bytes := op.StateSize(); keys != 0 || bytes != 0 {
		t.Fatalf("state %d partitions, %d bytes after every bound passed, want none", keys, bytes)
	}
	// a row within the bound of its match's first row still completes it
	h.push(0, winTypes, ins("a", int32(20), ms(5000)), ins("a", int32(9), ms(6000)), ins("a", int32(4), ms(6900)))
	h.watermark(0, 7000)
	h.expect("+I[a, 29, 20]", "WM(7000)")
}
