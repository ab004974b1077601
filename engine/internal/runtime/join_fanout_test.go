package runtime

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// A hash join that fans out (every probe row matches hundreds of build
// rows) emits the same rows whatever maxJoinBatchRows is, in batches of at
// most that many pairs (the last one of a LEFT or FULL probe batch adds
// the probe rows that matched nothing): for every join kind, with a single
// STRING key (the numbered-key table) and a STRING + INT key (the byte-key
// table), with and without a residual condition.
func TestHashJoinFanOutEmitsBoundedBatches(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.IntType()}
	out := append(append([]*types.DataType(nil), ts...), ts...)
	var build, probe []*types.Row
	for i := 0; i < 300; i++ {
		build = append(build, ins("k", int32(i%7)))
	}
	build = append(build, ins("only on the build side", int32(0)))
	for i := 0; i < 50; i++ {
		probe = append(probe, ins("k", int32(i%7)))
	}
	for i := 0; i < 5; i++ {
		probe = append(probe, ins(fmt.Sprintf("unmatched %d", i), int32(i)))
	}
	// the probe row's INT below the build row's (one key), below 4 (two
	// keys, where the two are equal)
	lt, _ := expr.Builtins.Lookup("<")
	residual, err := expr.ResolveCall(lt, "<", []expr.Expr{&expr.InputRef{Index: 1, T: types.IntType()}, &expr.InputRef{Index: 3, T: types.IntType()}})
	if err != nil {
		t.Fatal(err)
	}
	residual2, err := expr.ResolveCall(lt, "<", []expr.Expr{&expr.InputRef{Index: 1, T: types.IntType()}, &expr.Literal{Value: int32(4), T: types.IntType()}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, spec opspec.JoinSpec, limit int) (rows []string, lens []int) {
		t.Helper()
		saved := maxJoinBatchRows
		maxJoinBatchRows = limit
		defer func() { maxJoinBatchRows = saved }()
		outTypes := out
		if spec.OutputsLeftOnly() {
			outTypes = ts
		}
		h := newHarness(t, &HashJoin{Spec: spec}, outTypes, true, nil)
		h.push(1, ts, build...)
		if err := h.op.EndInput(1); err != nil {
			t.Fatal(err)
		}
		h.push(0, ts, probe...)
		probeLens := len(h.out.lens)
		if err := h.op.EndInput(0); err != nil {
			t.Fatal(err)
		}
		rows = h.out.take()
		slices.Sort(rows)
		return rows, h.out.lens[:probeLens]
	}
	for _, twoKeys := range []bool{false, true} {
		for _, withResidual := range []bool{false, true} {
			for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin, opspec.SemiJoin, opspec.AntiJoin} {
				t.Run(fmt.Sprintf("%v/twoKeys=%v/residual=%v", kind, twoKeys, withResidual), func(t *testing.T) {
					spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: ts, RightTypes: ts}
					if twoKeys {
						spec.LeftKeys, spec.RightKeys = []int{0, 1}, []int{0, 1}
					}
					if withResidual {
						spec.Residual = residual
						if twoKeys {
							spec.Residual = residual2
						}
					}
					want, wantLens := run(t, spec, 1<<20)
					if len(want) == 0 {
						t.Fatal("the case checks nothing")
					}
					if kind == opspec.InnerJoin && !twoKeys && !withResidual && (len(want) != 50*300 || len(wantLens) != 1) {
						t.Fatalf("unbounded: %d rows in %d batches, want 15000 in 1", len(want), len(wantLens))
					}
					for _, limit := range []int{1, 7, 100, 299, 300, 301} {
						got, lens := run(t, spec, limit)
						if strings.Join(got, "\n") != strings.Join(want, "\n") {
							t.Fatalf("limit %d: %d rows, want %d", limit, len(got), len(want))
						}
						for k, n := range lens {
							max := limit
							if k == len(lens)-1 && (kind == opspec.LeftJoin || kind == opspec.FullJoin) {
								max += len(probe)
							}
							if kind == opspec.SemiJoin || kind == opspec.AntiJoin {
								max = len(probe)
							}
							if n > max {
								t.Fatalf("limit %d: batch %d of %d has %d rows, more than %d", limit, k, len(lens), n, max)
							}
						}
					}
				})
			}
		}
	}
}

// A streaming join that fans out sends a batch's changes on as they are
// made, in batches that end at an input row once maxJoinBatchRows changes
// are made: the same changes in the same order as one batch, for inner and
// outer joins, inserts and retractions, with state in memory and in the
// disk state backend (its store cached to a few entries).
func TestStreamingJoinFanOutEmitsBoundedBatches(t *testing.T) {
	var right, left, retract []*types.Row
	for i := 0; i < 40; i++ {
		right = append(right, ins(int32(1), fmt.Sprintf("r%d", i)))
	}
	for i := 0; i < 30; i++ {
		left = append(left, ins(int32(1+i%2), fmt.Sprintf("l%d", i)))
		retract = append(retract, row(types.Delete, int32(1+i%2), fmt.Sprintf("l%d", i)))
	}
	residual := notEqualTo(t, 3, types.StringType(), "r7") // the right row's name is not r7
	for _, disk := range []bool{false, true} {
		run := func(t *testing.T, kind opspec.JoinKind, withResidual bool, limit int) (events []string, lens []int) {
			t.Helper()
			h := fanOutJoinHarness(t, kind, withResidual, residual, limit, disk, joinOut)
			h.push(1, joinRight, right...)
			h.push(0, joinLeft, left...)
			h.push(0, joinLeft, retract...)
			return h.out.take(), h.out.lens
		}
		for _, withResidual := range []bool{false, true} {
			for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin} {
				t.Run(fmt.Sprintf("%v/residual=%v/disk=%v", kind, withResidual, disk), func(t *testing.T) {
					testStreamingFanOut(t, kind, withResidual, run)
				})
			}
		}
	}
}

// A semi or anti join whose rows meet many candidate partners takes
// them (and evaluates its residual condition) a segment of rows at a time:
// the same changes in the same order whatever maxJoinBatchRows is, in
// memory and on disk, for both sides' inserts and retractions.
func TestStreamingSemiAntiJoinSegmentsCandidates(t *testing.T) {
	var right1, right2, unright1, left, unleft []*types.Row
	for i := 0; i < 40; i++ {
		right1 = append(right1, ins(int32(1), fmt.Sprintf("r%d", i)))
		unright1 = append(unright1, row(types.Delete, int32(1), fmt.Sprintf("r%d", i)))
	}
	for i := 0; i < 10; i++ {
		right2 = append(right2, ins(int32(2), fmt.Sprintf("r%d", 40+i)))
	}
	for i := 0; i < 30; i++ {
		left = append(left, ins(int32(1+i%2), fmt.Sprintf("l%d", i)))
		unleft = append(unleft, row(types.Delete, int32(1+i%2), fmt.Sprintf("l%d", i)))
	}
	residual := notEqualTo(t, 3, types.StringType(), "r7") // the right row's name is not r7
	for _, disk := range []bool{false, true} {
		for _, kind := range []opspec.JoinKind{opspec.SemiJoin, opspec.AntiJoin} {
			for _, withResidual := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/residual=%v/disk=%v", kind, withResidual, disk), func(t *testing.T) {
					run := func(limit int) ([]string, []int) {
						h := fanOutJoinHarness(t, kind, withResidual, residual, limit, disk, joinLeft)
						h.push(1, joinRight, right1...)
						h.push(0, joinLeft, left...)
						h.push(1, joinRight, right2...)
						h.push(1, joinRight, unright1...)
						h.push(0, joinLeft, unleft...)
						return h.out.take(), h.out.lens
					}
					want := checkFanOut(t, []int{1, 39, 40, 41, 100}, run,
						func(limit int) bool { return limit == 1 },
						// a batch ends at the first row boundary at or past
						// the limit: one right row changes at most the 15
						// left rows of its key
						func(limit, _, _ int) int { return limit + 15 })
					// every left row is forwarded once (it has a match, or
					// none) and retracted once
					if len(want) < 30 {
						t.Fatalf("%d changes: %v", len(want), want)
					}
				})
			}
		}
	}
}

// fanOutJoinHarness opens a streaming join of kind on the first column,
// with maxJoinBatchRows set to limit for the test, its state in memory or
// on disk.
func fanOutJoinHarness(t *testing.T, kind opspec.JoinKind, withResidual bool, residual expr.Expr, limit int, disk bool, out []*types.DataType) *harness {
	t.Helper()
	setMaxJoinBatchRows(t, limit)
	spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
	if withResidual {
		spec.Residual = residual
	}
	if disk {
		return newDiskHarness(t, &StreamingJoin{Spec: spec}, stateRoundTrip{outTypes: out}, nil, 3)
	}
	return newHarness(t, &StreamingJoin{Spec: spec}, out, false, nil)
}

func testStreamingFanOut(t *testing.T, kind opspec.JoinKind, withResidual bool, run func(*testing.T, opspec.JoinKind, bool, int) ([]string, []int)) {
	want := checkFanOut(t, []int{1, 39, 40, 41, 100}, func(limit int) ([]string, []int) { return run(t, kind, withResidual, limit) },
		func(int) bool { return true },
		// a batch ends at the first row boundary at or past the limit:
		// one row adds at most 40 joined rows and the outer joins'
		// NULL-padded changes of its partners
		func(limit, _, _ int) int { return limit + 2*40 + 1 })
	if len(want) < 2*15*39 {
		t.Fatalf("the case fans out to %d changes, want at least %d", len(want), 2*15*39)
	}
}

// checkFanOut runs a case with maxJoinBatchRows unbounded (1<<20) and at
// each of limits (run sets it): the same changes in the same order each
// time, in more batches than unbounded where moreBatches(limit) says so,
// batch k of n holding fewer than bound(limit, k, n) rows. It returns the
// unbounded run's changes.
func checkFanOut(t *testing.T, limits []int, run func(limit int) ([]string, []int), moreBatches func(limit int) bool, bound func(limit, k, n int) int) []string {
	t.Helper()
	want, wantLens := run(1 << 20)
	for _, limit := range limits {
		got, lens := run(limit)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("limit %d: %d changes, want %d in the same order:\n%s\nwant\n%s", limit, len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if moreBatches(limit) && len(lens) <= len(wantLens) {
			t.Fatalf("limit %d: %d batches, want more than %d", limit, len(lens), len(wantLens))
		}
		for k, n := range lens {
			if n >= bound(limit, k, len(lens)) {
				t.Fatalf("limit %d: batch %d of %d has %d changes", limit, k, len(lens), n)
			}
		}
	}
	return want
}

// setMaxJoinBatchRows sets maxJoinBatchRows to limit until the test ends.
func setMaxJoinBatchRows(t *testing.T, limit int) {
	saved := maxJoinBatchRows
	maxJoinBatchRows = limit
	t.Cleanup(func() { maxJoinBatchRows = saved })
}

// notEqualTo is the residual condition "input column i (of type typ) <>
// v".
func notEqualTo(t *testing.T, i int, typ *types.DataType, v any) expr.Expr {
	t.Helper()
	ne, _ := expr.Builtins.Lookup("<>")
	e, err := expr.ResolveCall(ne, "<>", []expr.Expr{&expr.InputRef{Index: i, T: typ}, &expr.Literal{Value: v, T: typ}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A window join whose window meets many rows on one key emits the
// window's joined rows maxJoinBatchRows at a time, at a left row's
// boundary, then its unmatched rows: the same rows in the same order as
// one batch, for every kind, with and without a residual condition.
func TestWindowJoinFanOutEmitsBoundedBatches(t *testing.T) {
	var left, right []*types.Row
	for i := 0; i < 30; i++ {
		left = append(left, ins([]string{"a", "b", "c"}[i%3], int32(i), ms(10_000)))
	}
	for i := 0; i < 40; i++ {
		right = append(right, ins([]string{"a", "b", "d"}[i%3], int32(i), ms(10_000)))
	}
	residual := notEqualTo(t, 4, types.IntType(), int32(7)) // the right row's number is not 7
	kinds := []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin, opspec.SemiJoin, opspec.AntiJoin}
	for _, kind := range kinds {
		for _, withResidual := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/residual=%v", kind, withResidual), func(t *testing.T) {
				run := func(limit int) ([]string, []int) {
					setMaxJoinBatchRows(t, limit)
					newOp, out := windowJoinStateOp(kind)
					op := newOp().(*WindowJoin)
					if withResidual {
						op.Spec.Residual = residual
					}
					h := newHarness(t, op, out, false, nil)
					h.push(0, winTypes, left...)
					h.push(1, winTypes, right...)
					h.watermark(0, 12_000)
					h.watermark(1, 12_000) // the window fires
					return h.out.take(), h.out.lens
				}
				pairs := kind != opspec.SemiJoin && kind != opspec.AntiJoin
				want := checkFanOut(t, []int{1, 13, 14, 15, 100}, run,
					func(limit int) bool { return pairs && limit == 1 },
					func(limit, k, n int) int {
						// pairs end at the first left row at or past the
						// limit (one left row meets at most 14 right rows);
						// the unmatched rows of both sides come last
						if pairs && k < n-1 {
							return limit + 14
						}
						return math.MaxInt
					})
				if len(want) < 10 {
					t.Fatalf("%d rows: %v", len(want), want)
				}
			})
		}
	}
}

// An interval join whose rows meet many cached rows of the other side
// takes its candidate pairs and sends its output on a segment of rows at
// a time: the same rows in the same order as one batch.
func TestIntervalJoinFanOutEmitsBoundedBatches(t *testing.T) {
	var left, right []*types.Row
	for i := 0; i < 30; i++ {
		left = append(left, ins(int64(1+i%2), ms(int64(100+i)), fmt.Sprintf("l%d", i)))
	}
	for i := 0; i < 40; i++ {
		right = append(right, ins(int64(1), ms(int64(90+i)), fmt.Sprintf("r%d", i)))
	}
	residual := notEqualTo(t, 5, types.StringType(), "r7") // the right row's name is not r7
	out := append(append([]*types.DataType(nil), ivTypes...), ivTypes...)
	for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin} {
		for _, withResidual := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/residual=%v", kind, withResidual), func(t *testing.T) {
				run := func(limit int) ([]string, []int) {
					setMaxJoinBatchRows(t, limit)
					op := ivJoin(kind, false)
					if withResidual {
						op.Spec.Residual = residual
					}
					h := newHarness(t, op, out, false, nil)
					h.push(1, ivTypes, right...)
					h.push(0, ivTypes, left...)
					h.watermark(0, 1_000)
					h.watermark(1, 1_000) // every row expires: outer joins pad the unmatched
					return h.out.take(), h.out.lens
				}
				want := checkFanOut(t, []int{1, 39, 40, 41, 100}, run, func(int) bool { return true },
					// one left row meets at most the 40 right rows
					func(limit, _, _ int) int { return limit + 40 })
				if len(want) < 15*30 {
					t.Fatalf("%d rows, want at least %d", len(want), 15*30)
				}
			})
		}
	}
}
