package runtime

import (
	"container/heap"

	"github.com/riffle-sql/riffle/engine/types"
)

// Memory of the interval join follows its cached rows (issue 18).
//
// The interval join needs no state TTL: the watermark (or processing
// time) removes every row once no partner can come any more, as Flink's
// TimeIntervalJoin does with its cleanup timers. But removed rows stayed
// in the side's RowStore and join keys whose rows were all removed stayed
// in the key index (with their per-key state), so that with keys that
// rotate the state grew with every key ever seen. Now, as with the
// streaming join (join_stream_ttl.go):
//
//   - a side's RowStore is rebuilt with its cached rows only once removed
//     rows are the majority and at least joinRowCompactMin;
//   - keys whose caches are both empty leave the key index (and the
//     per-key state and pending timers) once they are the majority and at
//     least joinKeyCompactMin; a key that comes back gets a new id.
//
// Compaction runs between batches and after timers fire, never while a
// batch's key ids or row ids are in use. It changes no output.

// keyEmptied counts key st out of the live keys when both its caches are
// now empty (call it after removing rows from a non-empty cache).
func (j *IntervalJoin) keyEmptied(st *intervalKey) {
	if len(st.cache[0]) == 0 && len(st.cache[1]) == 0 {
		j.liveKeys--
	}
}

// compact drops removed rows and forgotten keys when they are enough.
func (j *IntervalJoin) compact() {
	for side := 0; side < 2; side++ {
		j.compactRows(side)
	}
	j.compactKeys()
}

// compactRows rebuilds side's RowStore with the rows its caches hold,
// renumbered densely in their old order.
func (j *IntervalJoin) compactRows(side int) {
	store := j.stores[side]
	total := int64(store.Len())
	live := j.live[side]
	if dead := total - live; dead < joinRowCompactMin || dead < live {
		return
	}
	remap := make([]int32, total)
	for e := range remap {
		remap[e] = -1
	}
	for _, st := range j.state {
		for _, slot := range st.cache[side] {
			for _, e := range slot.entries {
				remap[e] = 0
			}
		}
	}
	keep := make([]int32, 0, live)
	for e, r := range remap {
		if r == 0 {
			remap[e] = int32(len(keep))
			keep = append(keep, int32(e))
		}
	}
	next := NewRowStore(store.types)
	if len(keep) > 0 {
		next.Append(&types.Batch{Cols: store.Gather(keep), Len: len(keep)}, nil)
	}
	emitted := make([]bool, len(keep))
	for n, e := range keep {
		emitted[n] = j.emitted[side][e]
	}
	for _, st := range j.state {
		for _, slot := range st.cache[side] {
			for x, e := range slot.entries {
				slot.entries[x] = remap[e]
			}
		}
	}
	j.stores[side], j.emitted[side] = next, emitted
	j.live[side] = int64(len(keep))
}

// compactKeys forgets the keys that hold no row, renumbering the others
// densely; pending timers of forgotten keys, and timers that were
// replaced by later ones, are dropped.
func (j *IntervalJoin) compactKeys() {
	n := j.keys.n
	live := j.liveKeys
	if dead := n - live; n < joinKeyCompactMin || dead < joinKeyCompactMin || dead < live {
		return
	}
	remap := make([]int32, n)
	state := make([]*intervalKey, 0, live)
	for k := int32(0); k < n; k++ {
		remap[k] = -1
		if st := j.state[k]; len(st.cache[0]) > 0 || len(st.cache[1]) > 0 {
			remap[k] = int32(len(state))
			state = append(state, st)
		}
	}
	j.keys.compact(remap, int32(len(state)))
	timers := make(timerHeap, 0, len(state))
	for _, t := range j.timers {
		r := remap[t.key]
		if r < 0 {
			continue
		}
		if st := j.state[t.key]; st.timer[0] == t.t || st.timer[1] == t.t {
			timers = append(timers, keyTimer{t: t.t, key: r})
		}
	}
	heap.Init(&timers)
	j.timers, j.state = timers, state
	j.liveKeys = int32(len(state))
}
