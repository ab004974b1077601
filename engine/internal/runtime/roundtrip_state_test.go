package runtime

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// A checkpoint round trip of one operator (CheckpointedOperator): a
// stream in two halves is fed to one operator (run A) and, in run B, the
// first half to an operator whose snapshot a new operator restores before
// it takes the second half. Both runs must emit the same changelog after
// the cut, and the same final result.

// stateStep is one step of a stream: rows pushed, the clock advanced,
// timers fired.
type stateStep func(h *harness, clock *ManualClock)

// pushStep pushes rows of types ts to input in.
func pushStep(in int, ts []*types.DataType, rows ...*types.Row) stateStep {
	return func(h *harness, _ *ManualClock) { h.push(in, ts, rows...) }
}

// advanceStep advances the clock by d and fires the timers then due.
func advanceStep(d time.Duration) stateStep {
	return func(h *harness, clock *ManualClock) {
		clock.Advance(d)
		fireDue(h.t, h.op.(ProcessingTimeOperator), clock.Now().UnixMilli())
	}
}

// stateRoundTrip is a round trip's setup: newOp builds a new operator,
// outTypes are its output's types, tweak sets the job configuration.
type stateRoundTrip struct {
	newOp    func() Operator
	outTypes []*types.DataType
	tweak    func(*JobConfig)
}

// run feeds first and second as described above and returns run A's
// changelog after the cut and its final result (the changelog applied to
// a multiset of rows, sorted), checking that run B's are the same.
func (rt stateRoundTrip) run(t *testing.T, first, second []stateStep) (afterCut, final []string) {
	t.Helper()
	tweak := rt.tweak
	if tweak == nil {
		tweak = func(*JobConfig) {}
	}
	feed := func(h *harness, clock *ManualClock, steps []stateStep) []string {
		for _, s := range steps {
			s(h, clock)
		}
		return h.out.take()
	}
	clockA := NewManualClock(time.UnixMilli(1_000_000))
	hA := newHarness(t, rt.newOp(), rt.outTypes, false, clockA, tweak)
	beforeA := feed(hA, clockA, first)
	afterA := feed(hA, clockA, second)

	clockB := NewManualClock(time.UnixMilli(1_000_000))
	hB1 := newHarness(t, rt.newOp(), rt.outTypes, false, clockB, tweak)
	beforeB := feed(hB1, clockB, first)
	snap, err := hB1.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	hB2 := newHarness(t, rt.newOp(), rt.outTypes, false, clockB, tweak)
	if err := hB2.op.(CheckpointedOperator).RestoreState(snap); err != nil {
		t.Fatal(err)
	}
	// a snapshot of the restored operator is the same state again
	again, err := hB2.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(snap) {
		t.Errorf("snapshot of the restored operator: %d bytes, the original's %d", len(again), len(snap))
	}
	afterB := feed(hB2, clockB, second)

	if !slices.Equal(beforeA, beforeB) {
		t.Fatalf("before the cut, run A emitted:\n%s\nrun B:\n%s", strings.Join(beforeA, "\n"), strings.Join(beforeB, "\n"))
	}
	if !slices.Equal(afterA, afterB) {
		t.Fatalf("after the cut, run A emitted:\n%s\nrun B (restored):\n%s", strings.Join(afterA, "\n"), strings.Join(afterB, "\n"))
	}
	finalA := materialize(append(beforeA, afterA...))
	finalB := materialize(append(beforeB, afterB...))
	if !slices.Equal(finalA, finalB) {
		t.Fatalf("final result of run A:\n%s\nrun B:\n%s", strings.Join(finalA, "\n"), strings.Join(finalB, "\n"))
	}
	return afterA, finalA
}

// materialize applies a changelog ("+I[a, 1]", "-U[a, 1]", …) to a
// multiset of rows and returns the rows left, sorted, without their kind.
func materialize(changelog []string) []string {
	var rows []string
	for _, c := range changelog {
		if strings.HasPrefix(c, "WM(") {
			continue
		}
		kind, body := c[:2], c[2:]
		switch kind {
		case "+I", "+U":
			rows = append(rows, body)
		default:
			if i := slices.Index(rows, body); i >= 0 {
				rows = slices.Delete(rows, i, i+1)
			} else {
				rows = append(rows, "unmatched "+c)
			}
		}
	}
	slices.Sort(rows)
	return rows
}

// checkLines compares emitted lines with the expected ones.
func checkLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// checkRestoreErrors checks that every truncation of snap and a snapshot
// of another kind fail with errors, and that a failed restore leaves the
// operator as it was (an operator that then restores snap works).
func checkRestoreErrors(t *testing.T, newOp func() Operator, outTypes []*types.DataType, snap, otherKind []byte, kind, otherName string) {
	t.Helper()
	h := newHarness(t, newOp(), outTypes, false, NewManualClock(time.UnixMilli(1_000_000)))
	op := h.op.(CheckpointedOperator)
	for n := 0; n < len(snap); n++ {
		err := op.RestoreState(snap[:n])
		if err == nil {
			t.Fatalf("restoring the first %d of %d bytes: no error", n, len(snap))
		}
		if !strings.HasPrefix(err.Error(), kind+": restoring state: state snapshot: at byte ") {
			t.Fatalf("restoring the first %d bytes: %v", n, err)
		}
	}
	err := op.RestoreState(otherKind)
	want := kind + ": restoring state: state snapshot: at byte 0: a snapshot of a " + otherName + ", not of a " + kind
	if err == nil || err.Error() != want {
		t.Fatalf("restoring a %s snapshot: %v\nwant %s", otherName, err, want)
	}
	if err := op.RestoreState(snap); err != nil {
		t.Fatalf("restoring after failed restores: %v", err)
	}
}

// checkCorruptSnapshots restores snap with each byte changed in turn
// (flipped, incremented, zeroed): a restore may fail or succeed, never
// panic.
func checkCorruptSnapshots(t *testing.T, newOp func() Operator, outTypes []*types.DataType, snap []byte) {
	t.Helper()
	h := newHarness(t, newOp(), outTypes, false, NewManualClock(time.UnixMilli(1_000_000)))
	restore := func(data []byte, at int) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("restoring a snapshot with byte %d changed panics: %v", at, p)
			}
		}()
		if err := h.op.(CheckpointedOperator).RestoreState(data); err == nil {
			// it decoded: the next restore starts from a fresh operator
			h = newHarness(t, newOp(), outTypes, false, NewManualClock(time.UnixMilli(1_000_000)))
		}
	}
	data := make([]byte, len(snap))
	for i := range snap {
		for _, b := range []byte{snap[i] ^ 0xff, snap[i] + 1, 0} {
			copy(data, snap)
			data[i] = b
			restore(data, i)
		}
	}
}
