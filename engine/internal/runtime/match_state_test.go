package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// matchSpec is PARTITION BY $0 ORDER BY $2 MEASURES SUM(A.price),
// FIRST(price) PATTERN (A+ C) DEFINE A AS SUM(A.price) < 30 over rows
// (symbol, price, ts), with AFTER MATCH SKIP skip.
func matchSpec(t *testing.T, skip opspec.MatchSkip) *opspec.MatchSpec {
	t.Helper()
	price := &expr.InputRef{Index: 1, Name: "price", T: types.IntType()}
	sumT := types.IntType()
	lt, ok := expr.Builtins.Lookup("<")
	if !ok {
		t.Fatal("no < function")
	}
	cond, err := expr.ResolveCall(lt, "<", []expr.Expr{&expr.InputRef{Index: 0, T: sumT}, &expr.Literal{Value: int32(30), T: types.IntType().NotNull()}})
	if err != nil {
		t.Fatal(err)
	}
	return &opspec.MatchSpec{
		PartitionKeys: []int{0}, TimeCol: 2,
		Vars:    []string{"A", "C"},
		Pattern: []opspec.MatchElem{{Var: 0, Min: 1, Max: -1}, {Var: 1, Min: 1, Max: 1}},
		Defines: []expr.Expr{cond, nil},
		Inners:  []expr.Expr{price},
		Terms: []opspec.MatchTerm{
			{Kind: opspec.TermAgg, Var: 0, Inner: 0, Agg: "SUM", T: sumT},
			{Kind: opspec.TermFirst, Var: -1, Inner: 0, T: types.IntType()},
		},
		Measures:     []expr.Expr{&expr.InputRef{Index: 0, T: sumT}, &expr.InputRef{Index: 1, T: types.IntType()}},
		MeasureNames: []string{"sumPrice", "startPrice"},
		Skip:         skip, SkipVar: -1,
	}
}

var matchOutTypes = []*types.DataType{types.StringType(), types.IntType(), types.IntType()}

func matchStateOp(t *testing.T, skip opspec.MatchSkip) func() Operator {
	spec := matchSpec(t, skip)
	return func() Operator { return &Match{Spec: spec, InTypes: winTypes, OutTypes: matchOutTypes} }
}

// A Match keeps its rows waiting for the watermark, its partial matches
// and the matches it holds back across a snapshot: the run restored at the
// cut emits what the uninterrupted run emits (the docs' AFTER MATCH
// example, prices 7 9 10 5 10 7 14 of XYZ, a second symbol interleaved).
func TestMatchStateRoundTrip(t *testing.T) {
	first := []stateStep{
		pushStep(0, winTypes, ins("XYZ", int32(7), ms(1000)), ins("XYZ", int32(9), ms(2000)), ins("ABC", int32(40), ms(2000)),
			ins("XYZ", int32(10), ms(3000))),
		watermarkStep(0, 2500),
		// late: at or before the watermark
		pushStep(0, winTypes, ins("XYZ", int32(1), ms(2500))),
	}
	second := []stateStep{
		pushStep(0, winTypes, ins("XYZ", int32(5), ms(4000)), ins("ABC", int32(1), ms(4000)), ins("XYZ", int32(10), ms(5000))),
		watermarkStep(0, 4500),
		pushStep(0, winTypes, ins("XYZ", int32(7), ms(6000)), ins("XYZ", int32(14), ms(7000))),
		watermarkStep(0, MaxWatermark),
	}
	for _, c := range []struct {
		name     string
		skip     opspec.MatchSkip
		afterCut []string
	}{
		{"past last row", opspec.SkipPastLastRow, []string{
			"+I[XYZ, 26, 7]", "WM(4500)",
			"+I[XYZ, 17, 10]", "WM(9223372036854775807)"}},
		{"to next row", opspec.SkipToNextRow, []string{
			"+I[XYZ, 26, 7]", "WM(4500)",
			"+I[XYZ, 24, 9]", "+I[XYZ, 25, 10]", "+I[XYZ, 22, 5]", "+I[XYZ, 17, 10]", "WM(9223372036854775807)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			afterCut, _ := stateRoundTrip{newOp: matchStateOp(t, c.skip), outTypes: matchOutTypes}.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Snapshots of another operator, of another shape, or truncated are
// refused.
func TestMatchStateErrors(t *testing.T) {
	newOp := matchStateOp(t, opspec.SkipPastLastRow)
	h := newHarness(t, newOp(), matchOutTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, winTypes, ins("XYZ", int32(7), ms(1000)), ins("XYZ", int32(9), ms(2000)), ins("XYZ", int32(10), ms(3000)))
	h.watermark(0, 2500)
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	sortOp := temporalSortStateOp(false)()
	newHarness(t, sortOp, winTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := sortOp.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, matchOutTypes, snap, other, "Match", "TemporalSort")
	checkCorruptSnapshots(t, newOp, matchOutTypes, snap)
	// another pattern
	op := matchStateOp(t, opspec.SkipToNextRow)()
	newHarness(t, op, matchOutTypes, false, NewManualClock(time.UnixMilli(0)))
	if err := op.(CheckpointedOperator).RestoreState(snap); err == nil {
		t.Fatal("a snapshot of another AFTER MATCH strategy was restored")
	}
}

// On processing time the rows waiting for the clock and the WITHIN
// timers survive a snapshot.
func TestMatchProctimeStateRoundTrip(t *testing.T) {
	spec := *matchSpec(t, opspec.SkipPastLastRow)
	spec.Proctime = true
	spec.Keys = []opspec.SortKey{{Col: 1, Desc: true}}
	spec.WithinMillis = 5
	newOp := func() Operator { return &Match{Spec: &spec, InTypes: winTypes, OutTypes: matchOutTypes} }
	first := []stateStep{
		pushStep(0, winTypes, ins("XYZ", int32(7), ms(0)), ins("XYZ", int32(1), ms(0))),
		advanceStep(time.Millisecond),
		// waiting for the clock at the cut
		pushStep(0, winTypes, ins("XYZ", int32(9), ms(0)), ins("XYZ", int32(10), ms(0))),
	}
	second := []stateStep{
		advanceStep(time.Millisecond),
		// 7 1 then 10 9: A 7 1 10 (18), 9 makes 27, no match yet
		pushStep(0, winTypes, ins("XYZ", int32(20), ms(0))),
		advanceStep(time.Millisecond),
		// 20: 47, C: the match 7 1 10 9 (27) ends on it
		advanceStep(10 * time.Millisecond),
		pushStep(0, winTypes, ins("XYZ", int32(3), ms(0))),
		advanceStep(time.Millisecond),
	}
	afterCut, _ := stateRoundTrip{newOp: newOp, outTypes: matchOutTypes}.run(t, first, second)
	checkLines(t, "changelog after the cut", afterCut, "+I[XYZ, 27, 7]")
}
