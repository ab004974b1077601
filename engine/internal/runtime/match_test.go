package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
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

// On processing time with secondary ORDER BY keys, the rows of one
// millisecond run ordered by those keys once the clock moves on (Flink's
// CepOperator): prices 7 9 10 5 by price descending are 10 9 7 5.
func TestMatchProctimeSecondaryKeys(t *testing.T) {
	spec := *matchSpec(t, opspec.SkipPastLastRow)
	spec.Proctime = true
	spec.Keys = []opspec.SortKey{{Col: 1, Desc: true}}
	op := &Match{Spec: &spec, InTypes: winTypes, OutTypes: matchOutTypes}
	clock := NewManualClock(time.UnixMilli(1_000_000))
	h := newHarness(t, op, matchOutTypes, false, clock)
	h.push(0, winTypes, ins("XYZ", int32(7), ms(0)), ins("XYZ", int32(9), ms(0)), ins("XYZ", int32(10), ms(0)), ins("XYZ", int32(5), ms(0)))
	h.expect()
	if due, ok := op.NextProcessingTime(); !ok || due != 1_000_001 {
		t.Fatalf("next processing time %d %v, want 1000001", due, ok)
	}
	clock.Advance(time.Millisecond)
	fireDue(t, op, clock.Now().UnixMilli())
	h.expect("+I[XYZ, 26, 10]")
}

// On processing time WITHIN drops partial matches when the clock passes
// their bound, without waiting for a row.
func TestMatchProctimeWithin(t *testing.T) {
	spec := *matchSpec(t, opspec.SkipPastLastRow)
	spec.Proctime = true
	spec.WithinMillis = 5
	op := &Match{Spec: &spec, InTypes: winTypes, OutTypes: matchOutTypes}
	clock := NewManualClock(time.UnixMilli(1_000_000))
	h := newHarness(t, op, matchOutTypes, false, clock)
	h.push(0, winTypes, ins("XYZ", int32(7), ms(0)), ins("XYZ", int32(9), ms(0)))
	if keys, _ := op.StateSize(); keys != 1 {
		t.Fatalf("%d partitions, want 1", keys)
	}
	if due, ok := op.NextProcessingTime(); !ok || due != 1_000_005 {
		t.Fatalf("next processing time %d %v, want 1000005", due, ok)
	}
	clock.Advance(5 * time.Millisecond)
	fireDue(t, op, clock.Now().UnixMilli())
	if keys, _ := op.StateSize(); keys != 0 {
		t.Fatalf("%d partitions after the bound, want none", keys)
	}
	if _, ok := op.NextProcessingTime(); ok {
		t.Fatal("a timer is left")
	}
	// the rows after the bound start afresh: 10 5 10 (sum 25), then 7
	h.push(0, winTypes, ins("XYZ", int32(10), ms(0)), ins("XYZ", int32(5), ms(0)), ins("XYZ", int32(10), ms(0)), ins("XYZ", int32(7), ms(0)))
	h.expect("+I[XYZ, 25, 10]")
}

// Rows arriving out of order run through the pattern in time order, and
// the skip strategies prune by that order (the docs' AFTER MATCH SKIP TO
// NEXT ROW example with its rows shuffled).
func TestMatchOutOfOrderRows(t *testing.T) {
	op := matchStateOp(t, opspec.SkipToNextRow)()
	h := newHarness(t, op, matchOutTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("XYZ", int32(10), ms(3000)), ins("XYZ", int32(9), ms(2000)), ins("XYZ", int32(5), ms(4000)),
		ins("XYZ", int32(7), ms(1000)), ins("XYZ", int32(14), ms(7000)), ins("XYZ", int32(7), ms(6000)), ins("XYZ", int32(10), ms(5000)))
	h.watermark(0, MaxWatermark)
	h.expect("+I[XYZ, 26, 7]", "+I[XYZ, 24, 9]", "+I[XYZ, 25, 10]", "+I[XYZ, 22, 5]", "+I[XYZ, 17, 10]", "WM(9223372036854775807)")
}

// A match held back for an earlier partial match comes out as soon as
// that partial match ends, even without another match: PATTERN (A B* C)
// DEFINE B AS B.price <= A.price AND B.price > 0, C AS C.price > A.price
// over 10 1 5 -1: A 1, C 5 completes while the match from 10 is alive
// (5 is a B for it); -1 ends that one.
func TestMatchHeldMatchReleased(t *testing.T) {
	intT := types.IntType()
	call := func(name string, args ...expr.Expr) expr.Expr { return builtinCall(t, name, args...) }
	ref := func(i int) expr.Expr { return &expr.InputRef{Index: i, T: intT} }
	zero := &expr.Literal{Value: int32(0), T: intT.NotNull()}
	spec := &opspec.MatchSpec{
		PartitionKeys: []int{0}, TimeCol: 2,
		Vars:    []string{"A", "B", "C"},
		Pattern: []opspec.MatchElem{{Var: 0, Min: 1, Max: 1}, {Var: 1, Min: 0, Max: -1}, {Var: 2, Min: 1, Max: 1}},
		Inners:  []expr.Expr{&expr.InputRef{Index: 1, Name: "price", T: intT}},
		Terms: []opspec.MatchTerm{
			{Kind: opspec.TermLast, Var: 1, Inner: 0, T: intT},
			{Kind: opspec.TermLast, Var: 0, Inner: 0, T: intT},
			{Kind: opspec.TermLast, Var: 2, Inner: 0, T: intT},
		},
		Defines:      []expr.Expr{nil, call("AND", call("<=", ref(0), ref(1)), call(">", ref(0), zero)), call(">", ref(2), ref(1))},
		Measures:     []expr.Expr{ref(1), ref(2)},
		MeasureNames: []string{"a", "c"},
		Skip:         opspec.SkipToNextRow, SkipVar: -1,
	}
	for _, proctime := range []bool{false, true} {
		s := *spec
		s.Proctime = proctime
		op := &Match{Spec: &s, InTypes: winTypes, OutTypes: matchOutTypes}
		h := newHarness(t, op, matchOutTypes, false, NewManualClock(time.UnixMilli(0)))
		h.push(0, winTypes, ins("k", int32(10), ms(1000)), ins("k", int32(1), ms(2000)), ins("k", int32(5), ms(3000)))
		if proctime {
			h.expect()
			// on processing time the row that ends the blocking match
			// releases the held one
			h.push(0, winTypes, ins("k", int32(-1), ms(4000)))
			h.expect("+I[k, 1, 5]")
			continue
		}
		h.watermark(0, 3000)
		h.expect("WM(3000)")
		h.push(0, winTypes, ins("k", int32(-1), ms(4000)))
		h.watermark(0, 4000)
		h.expect("+I[k, 1, 5]", "WM(4000)")
	}
}
