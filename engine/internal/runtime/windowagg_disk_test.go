package runtime

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowDiskSteps are a stream of many keys over several windows, in two
// halves: keys k0..k199 at times 0..19.9 s in batches of 50, watermarks
// between them, then late and on-time rows after the cut.
func windowDiskSteps() (first, second []stateStep) {
	batch := func(from, to int) stateStep {
		var rows []*types.Row
		for i := from; i < to; i++ {
			rows = append(rows, ins(fmt.Sprintf("k%d", i%70), int32(i), ms(int64(i)*100)))
		}
		return pushStep(0, winTypes, rows...)
	}
	first = []stateStep{batch(0, 50), batch(50, 100), watermarkStep(0, 4_000), batch(100, 150), watermarkStep(0, 9_000)}
	second = []stateStep{batch(150, 200), watermarkStep(0, 12_000), batch(30, 60), batch(200, 260), watermarkStep(0, 40_000)}
	return first, second
}

// A window aggregate on disk, with a cache of 3 groups and a snapshot of
// its store in the middle, gives the windows of one in memory: TUMBLE,
// HOP and CUMULATE over slices (a window's groups merged from several
// slices' key ranges).
func TestWindowAggDiskRoundTrip(t *testing.T) {
	first, second := windowDiskSteps()
	for _, c := range []struct {
		name string
		spec opspec.WindowSpec
	}{
		{"tumble", opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 5_000}},
		{"hop", opspec.WindowSpec{Kind: opspec.HopWindow, Size: 10_000, Slide: 2_000}},
		{"cumulate", opspec.WindowSpec{Kind: opspec.CumulateWindow, Size: 10_000, Slide: 2_000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp, out := windowAggStateOp(c.spec, true)
			final := stateRoundTrip{newOp: newOp, outTypes: out}.diskRoundTrip(t, 3, false, first, second)
			if len(final) < 70 {
				t.Fatalf("only %d window rows", len(final))
			}
		})
	}
}

// The groups of a window aggregate on disk are in its store, the cache
// holding no more than its bound and one batch: after 200 keys in 4
// batches of 50, the store holds the 150 of the first three and the
// cache the last batch's.
func TestWindowAggDiskKeepsGroupsInTheStore(t *testing.T) {
	newOp, out := windowAggStateOp(opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 100_000}, true)
	h := newDiskHarness(t, newOp(), stateRoundTrip{outTypes: out}, NewManualClock(time.UnixMilli(0)), 10)
	w := h.op.(*WindowAgg)
	for b := 0; b < 4; b++ {
		var rows []*types.Row
		for i := b * 50; i < b*50+50; i++ {
			rows = append(rows, ins(fmt.Sprintf("key %d", i), int32(i), ms(int64(i))))
		}
		h.push(0, winTypes, rows...)
		if n := w.cachedGroups(); n > 50 {
			t.Fatalf("after batch %d the cache holds %d groups, want at most 50", b, n)
		}
	}
	if n := storeKeys(t, w.disk.store); n != 150 {
		t.Fatalf("the store holds %d groups, want 150", n)
	}
	if keys, _ := w.StateSize(); keys != 200 {
		t.Fatalf("StateSize reports %d groups, want 200", keys)
	}
	h.watermark(0, 200_000)
	var got []string
	for _, e := range h.out.take() {
		if !strings.HasPrefix(e, "WM") {
			got = append(got, e)
		}
	}
	if len(got) != 200 || !slices.Contains(got, "+I[key 7, 7, 1, 1970-01-01T00:00, 1970-01-01T00:01:40]") {
		t.Fatalf("fired %d rows: %v", len(got), got[:min(len(got), 5)])
	}
	// the fired window's groups are gone from the store
	if n := storeKeys(t, w.disk.store); n != 0 {
		t.Fatalf("after the window fired the store holds %d keys", n)
	}
}
