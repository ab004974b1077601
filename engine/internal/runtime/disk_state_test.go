package runtime

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/kvstate"
)

// Helpers of the disk state backend's operator tests: an operator opened
// with a store of its own and a cache of a few entries, and a round trip
// through a snapshot of the store compared with the operator in memory.

// newDiskHarness opens op with the job's keyed state in a disk backend
// under a test directory, its cache bounded to cacheEntries.
func newDiskHarness(t *testing.T, op Operator, rt stateRoundTrip, clock Clock, cacheEntries int) *harness {
	t.Helper()
	b, err := kvstate.NewBackend("test", kvstate.Options{Dir: t.TempDir(), BlockCache: 1 << 20, WriteBuffer: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	cfg := DefaultJobConfig()
	cfg.Clock = clock
	if rt.tweak != nil {
		rt.tweak(&cfg)
	}
	cfg.DiskState = &DiskStateConfig{CacheEntries: cacheEntries}
	ctx := &OpContext{Ctx: context.Background(), Eval: &expr.Ctx{Zone: time.UTC, Start: time.Now()}, Metrics: newMetrics(0, "test"),
		Config: cfg, Parallel: 1, disk: b, diskLabel: "op"}
	out := &testOutput{ts: rt.outTypes}
	if err := op.Open(ctx, out); err != nil {
		t.Fatal(err)
	}
	if d, ok := op.(DiskStateOperator); !ok || !d.UsesDisk() {
		t.Fatalf("%T does not keep its state in the store", op)
	}
	t.Cleanup(func() { _ = op.Close() })
	return &harness{t: t, op: op, out: out, ctx: ctx}
}

// diskRoundTrip feeds first then second to the operator in memory (run
// A), and to one on disk with a cache of cacheEntries that is snapshot
// (its bytes and its store) after first and restored into a new one
// (run B); the two runs' results before and after the cut, applied to
// multisets of rows, must be equal, and when ordered the changelogs too
// (else the order of rows within an output may differ: a store walks
// keys in their order). It returns run A's final result.
func (rt stateRoundTrip) diskRoundTrip(t *testing.T, cacheEntries int, ordered bool, first, second []stateStep) []string {
	t.Helper()
	feed := func(h *harness, clock *ManualClock, steps []stateStep) []string {
		for _, s := range steps {
			s(h, clock)
		}
		return h.out.take()
	}
	tweak := rt.tweak
	if tweak == nil {
		tweak = func(*JobConfig) {}
	}
	clockA := NewManualClock(time.UnixMilli(1_000_000))
	hA := newHarness(t, rt.newOp(), rt.outTypes, false, clockA, tweak)
	beforeA := feed(hA, clockA, first)
	afterA := feed(hA, clockA, second)

	clockB := NewManualClock(time.UnixMilli(1_000_000))
	hB1 := newDiskHarness(t, rt.newOp(), rt, clockB, cacheEntries)
	beforeB := feed(hB1, clockB, first)
	snap, err := hB1.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "chk")
	if err := hB1.op.(DiskStateOperator).SnapshotDisk(dir); err != nil {
		t.Fatal(err)
	}
	hB2 := newDiskHarness(t, rt.newOp(), rt, clockB, cacheEntries)
	if err := hB2.op.(DiskStateOperator).RestoreDisk(dir); err != nil {
		t.Fatal(err)
	}
	if err := hB2.op.(CheckpointedOperator).RestoreState(snap); err != nil {
		t.Fatal(err)
	}
	afterB := feed(hB2, clockB, second)
	for _, c := range []struct {
		what string
		a, b []string
	}{{"before the cut", beforeA, beforeB}, {"after the cut", afterA, afterB}} {
		if ordered && !slices.Equal(c.a, c.b) {
			t.Fatalf("%s, in memory:\n%s\non disk (restored):\n%s", c.what, strings.Join(c.a, "\n"), strings.Join(c.b, "\n"))
		}
		if a, b := materialize(c.a), materialize(c.b); !slices.Equal(a, b) {
			t.Fatalf("%s, in memory:\n%s\non disk (restored):\n%s", c.what, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	}
	return materialize(append(beforeA, afterA...))
}

// storeKeys is the number of keys in an operator's store.
func storeKeys(t *testing.T, s *kvstate.Store) int64 {
	t.Helper()
	n, err := s.CountPrefix(nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
