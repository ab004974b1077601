package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

func rankTTLHarness(t *testing.T, r *Rank, ttl time.Duration) (*harness, *ManualClock) {
	clock := NewManualClock(time.UnixMilli(1_000_000))
	r.Keys = []opspec.SortKey{{Col: 1, Desc: true}}
	r.Types = rankTypes
	return newHarness(t, r, rankTypes, false, clock, func(c *JobConfig) { c.StateTTL = ttl }), clock
}

// A Top-2 over insert-only input: a row entering the Top-N refreshes its
// partition's state, one that never enters does not; an expired
// partition's next row starts an empty Top-N (+I, no -D of the rows
// emitted before); the cleanup timer drops expired partitions silently.
func TestRankStateTTLAppendOnly(t *testing.T) {
	r := &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 2, AppendOnly: true}
	h, clock := rankTTLHarness(t, r, 10*time.Second)
	h.push(0, rankTypes, ins("a", int32(5)), ins("a", int32(3)), ins("b", int32(1)))
	h.expect("+I[a, 5]", "+I[a, 3]", "+I[b, 1]")
	clock.Advance(6 * time.Second)
	h.push(0, rankTypes, ins("a", int32(1)), ins("b", int32(2)))
	h.expect("+I[b, 2]") // a's 1 never enters: no write
	clock.Advance(5 * time.Second)
	h.push(0, rankTypes, ins("a", int32(2)), ins("b", int32(0)))
	h.expect("+I[a, 2]") // a expired: 2 is its Top-1; b lives (0 never enters)
	if keys, _ := r.StateSize(); keys != 2 || r.nRows != 3 {
		t.Fatalf("%d partitions, %d rows; want 2, 3", keys, r.nRows)
	}
	clock.Advance(10 * time.Second)
	fireDue(t, r, clock.Now().UnixMilli())
	h.expect()
	if keys, _ := r.StateSize(); keys != 0 || r.nRows != 0 || len(r.order) != 0 {
		t.Fatalf("%d partitions, %d rows, %d in order after cleanup", keys, r.nRows, len(r.order))
	}
}

// Over updating input a retraction writes the state; one for an expired
// partition is ignored; a partition emptied by retractions leaves the map
// (TTL or not), and a retraction for an unknown partition creates none.
func TestRankStateTTLRetract(t *testing.T) {
	for _, ttl := range []time.Duration{0, 10 * time.Second} {
		r := &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 1}
		h, clock := rankTTLHarness(t, r, ttl)
		h.push(0, rankTypes, ins("a", int32(5)), ins("a", int32(3)), ins("b", int32(1)))
		h.expect("+I[a, 5]", "+I[b, 1]")
		h.push(0, rankTypes, row(types.Delete, "b", int32(1)), row(types.Delete, "c", int32(1)))
		h.expect("-D[b, 1]")
		if keys, _ := r.StateSize(); keys != 1 {
			t.Fatalf("ttl %v: %d partitions, want 1", ttl, keys)
		}
		clock.Advance(6 * time.Second)
		h.push(0, rankTypes, row(types.Delete, "a", int32(5)))
		h.expect("-D[a, 5]", "+I[a, 3]")
		clock.Advance(6 * time.Second)
		if ttl == 0 {
			h.push(0, rankTypes, row(types.Delete, "a", int32(3)))
			h.expect("-D[a, 3]")
			continue
		}
		// written 6 s ago by the retraction: alive
		h.push(0, rankTypes, ins("a", int32(4)))
		h.expect("-D[a, 3]", "+I[a, 4]")
		clock.Advance(11 * time.Second)
		h.push(0, rankTypes, row(types.Delete, "a", int32(4)), ins("a", int32(1)))
		h.expect("+I[a, 1]")
	}
}
