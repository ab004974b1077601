package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// keyedDiskSteps are two halves of a stream of rows (key, value) over 23
// keys, values scattered, in batches of 40; with retract, the second half
// retracts some rows of the first.
func keyedDiskSteps(retract bool) (first, second []stateStep) {
	batch := func(from, to int) stateStep {
		var rows []*types.Row
		for i := from; i < to; i++ {
			rows = append(rows, ins(fmt.Sprintf("k%d", i%23), int32(i*7919%1000)))
		}
		return pushStep(0, rankTypes, rows...)
	}
	first = []stateStep{batch(0, 40), batch(40, 80), batch(80, 120)}
	second = []stateStep{batch(120, 160)}
	if retract {
		var rows []*types.Row
		for i := 0; i < 120; i += 3 {
			rows = append(rows, row(types.Delete, fmt.Sprintf("k%d", i%23), int32(i*7919%1000)))
		}
		second = append(second, pushStep(0, rankTypes, rows...))
	}
	second = append(second, batch(160, 200))
	return first, second
}

// A Top-N on disk, with a cache of 3 partitions and a snapshot of its
// store in the middle, emits the changelog of one in memory: insert-only
// (Top-1 and Top-3, with and without the rank number) and retracting.
func TestRankDiskRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name                         string
		end                          int64
		rankNum, appendOnly, retract bool
	}{
		{"top-1 insert-only", 1, false, true, false},
		{"top-3 insert-only with rank number", 3, true, true, false},
		{"top-3 retracting", 3, false, false, true},
		{"top-2 retracting with rank number", 2, true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp, out := rankStateOp(c.end, c.rankNum, c.appendOnly)
			first, second := keyedDiskSteps(c.retract)
			final := stateRoundTrip{newOp: newOp, outTypes: out}.diskRoundTrip(t, 3, true, first, second)
			if len(final) < 23 {
				t.Fatalf("only %d rows: %v", len(final), final)
			}
		})
	}
}

// The partitions of a Top-N on disk are in its store: after 23
// partitions with a cache of 3, the cache holds at most 3 and one batch's,
// the store the rest.
func TestRankDiskKeepsPartitionsInTheStore(t *testing.T) {
	newOp, out := rankStateOp(2, false, true)
	h := newDiskHarness(t, newOp(), stateRoundTrip{outTypes: out}, NewManualClock(time.UnixMilli(0)), 3)
	r := h.op.(*Rank)
	first, second := keyedDiskSteps(false)
	for _, s := range append(first, second...) {
		s(h, nil)
		if len(r.parts) > 23 {
			t.Fatalf("the cache holds %d partitions", len(r.parts))
		}
	}
	h.push(0, rankTypes, ins("k1", int32(5)))
	if len(r.parts) != 1 {
		t.Fatalf("after a batch of one row the cache holds %d partitions, want 1", len(r.parts))
	}
	if n := storeKeys(t, r.disk.store); n != 23 {
		t.Fatalf("the store holds %d partitions, want 23", n)
	}
	if keys, _ := r.StateSize(); keys != 23 {
		t.Fatalf("StateSize reports %d partitions, want 23", keys)
	}
}

// Deduplication on disk, with a cache of 3 keys and a snapshot of its
// store in the middle, emits the changelog of one in memory: keep first
// and keep last, on proctime and rowtime.
func TestDedupDiskRoundTrip(t *testing.T) {
	batch := func(from, to int) stateStep {
		var rows []*types.Row
		for i := from; i < to; i++ {
			rows = append(rows, ins(fmt.Sprintf("k%d", i%19), int32(i), ms(int64(i*7919%1000))))
		}
		return pushStep(0, dedupTypes, rows...)
	}
	first := []stateStep{batch(0, 30), batch(30, 60), batch(60, 90)}
	second := []stateStep{batch(90, 120), batch(120, 150)}
	for _, keepLast := range []bool{false, true} {
		for _, rowtime := range []bool{false, true} {
			t.Run(fmt.Sprintf("keep last %v rowtime %v", keepLast, rowtime), func(t *testing.T) {
				final := stateRoundTrip{newOp: dedupStateOp(keepLast, rowtime), outTypes: dedupTypes}.diskRoundTrip(t, 3, true, first, second)
				if len(final) != 19 {
					t.Fatalf("%d rows, want one per key: %v", len(final), final)
				}
			})
		}
	}
	// the keys are in the store, the cache holds one batch's
	h := newDiskHarness(t, dedupStateOp(true, true)(), stateRoundTrip{outTypes: dedupTypes}, NewManualClock(time.UnixMilli(0)), 3)
	d := h.op.(*Deduplicate)
	for _, s := range append(first, second...) {
		s(h, nil)
	}
	h.push(0, dedupTypes, ins("k1", int32(5), ms(1)))
	if n, m := storeKeys(t, d.disk.store), len(d.disk.cache); n != 19 || m != 1 {
		t.Fatalf("the store holds %d keys and the cache %d, want 19 and 1", n, m)
	}
}
