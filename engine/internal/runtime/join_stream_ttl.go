package runtime

import "github.com/riffle-sql/riffle/engine/types"

// State time-to-live and compaction of the streaming regular join.
//
// With table.exec.state.ttl set, a stored row whose state (its count or
// its number of associations) was last written TTL or more milliseconds
// ago is gone, as with Flink's JoinRecordStateView TTL: it joins no new
// rows and leaves silently (an outer join emits no retraction for it). A
// processing-time timer removes expired rows.
//
// Removed rows (retracted to a count of zero, or expired) stay in the
// side's RowStore until they outnumber the live ones; the side is then
// rebuilt with only its live rows. Likewise join keys that no row of
// either side holds any more leave the key index once they outnumber the
// live keys (maybeCompactKeys), so that state follows the live keys, not
// every key ever seen.

// NextProcessingTime implements ProcessingTimeOperator: the TTL cleanup.
func (j *StreamingJoin) NextProcessingTime() (int64, bool) {
	next := int64(0)
	for _, s := range j.sides {
		if s.ttl.on() && s.ttl.next > 0 && (next == 0 || s.ttl.next < next) {
			next = s.ttl.next
		}
	}
	return next, next > 0
}

// OnProcessingTime removes the expired rows of both sides.
func (j *StreamingJoin) OnProcessingTime(now int64) error {
	for _, s := range j.sides {
		if !s.ttl.on() || s.ttl.next == 0 || now < s.ttl.next {
			continue
		}
		next := int64(0)
		for k, bk := range s.buckets {
			kept := bk[:0]
			for _, e := range bk {
				if s.ttl.expired(e, now) {
					s.count[e] = 0
					s.live--
					continue
				}
				if due := s.ttl.last[e] + s.ttl.ttl; next == 0 || due < next {
					next = due
				}
				kept = append(kept, e)
			}
			s.buckets[k] = kept
		}
		s.ttl.next = next
		s.maybeCompact()
	}
	j.maybeCompactKeys()
	j.Ctx.ReportState(j.StateSize())
	return nil
}

// joinKeyCompactMin is the least number of forgotten join keys worth
// rebuilding the key index for (a variable: tests force compactions).
var joinKeyCompactMin int32 = 4096

// maybeCompactKeys forgets the join keys for which neither side holds a
// row any more (their rows expired or were retracted) once they are the
// majority of the key index, and at least joinKeyCompactMin: the index's
// maps are rebuilt with the live keys only, renumbered densely, and both
// sides' buckets follow. A forgotten key that comes back gets a new id and
// finds no rows, as before. It runs between batches only (key ids of a
// batch in progress would be stale).
func (j *StreamingJoin) maybeCompactKeys() {
	n := j.keys.n
	if n < joinKeyCompactMin {
		return
	}
	used := func(k int32) bool {
		return len(j.sides[0].bucket(k)) > 0 || len(j.sides[1].bucket(k)) > 0
	}
	live := int32(0)
	for k := int32(0); k < n; k++ {
		if used(k) {
			live++
		}
	}
	if dead := n - live; dead < joinKeyCompactMin || dead < live {
		return
	}
	remap := make([]int32, n)
	next := int32(0)
	for k := int32(0); k < n; k++ {
		remap[k] = -1
		if used(k) {
			remap[k] = next
			next++
		}
	}
	j.keys.compact(remap, live)
	for _, s := range j.sides {
		buckets := make([][]int32, live)
		for k, bk := range s.buckets {
			if r := remap[k]; r >= 0 {
				buckets[r] = bk
			}
		}
		s.buckets = buckets
	}
}

// compact keeps the keys whose id maps to a new id (remap[id] >= 0), with
// that id, in new maps (a Go map never gives back the memory of deleted
// entries); live is the number of kept keys.
func (x *joinKeyIndex) compact(remap []int32, live int32) {
	if x.intKey {
		m := make(map[int64]int32, live)
		for k, id := range x.ints {
			if r := remap[id]; r >= 0 {
				m[k] = r
			}
		}
		x.ints = m
	} else {
		m := make(map[string]int32, live)
		for k, id := range x.strs {
			if r := remap[id]; r >= 0 {
				m[k] = r
			}
		}
		x.strs = m
	}
	x.n = live
}

// joinRowCompactMin is the least number of removed rows worth rebuilding
// a side for (a variable: tests force compactions).
var joinRowCompactMin int64 = 4096

// maybeCompact rebuilds the side with its live rows once removed rows
// are the majority (and there are enough of them to be worth it); it
// reports whether it did.
func (s *joinSide) maybeCompact() bool {
	total := int64(s.store.Len())
	if dead := total - s.live; dead < joinRowCompactMin || dead < s.live {
		return false
	}
	remap := make([]int32, total)
	var keep []int32
	for e := range remap {
		remap[e] = -1
		if s.count[e] > 0 {
			remap[e] = int32(len(keep))
			keep = append(keep, int32(e))
		}
	}
	store := NewRowStore(s.store.types)
	if len(keep) > 0 {
		store.Append(&types.Batch{Cols: s.store.Gather(keep), Len: len(keep)}, nil)
	}
	count := make([]int32, len(keep))
	assoc := make([]int32, len(keep))
	var last []int64
	if s.ttl.on() {
		last = make([]int64, len(keep))
	}
	for n, e := range keep {
		count[n] = s.count[e]
		assoc[n] = s.assoc[e]
		if last != nil && int(e) < len(s.ttl.last) {
			last[n] = s.ttl.last[e]
		}
	}
	for k, bk := range s.buckets {
		kept := bk[:0]
		for _, e := range bk {
			if r := remap[e]; r >= 0 {
				kept = append(kept, r)
			}
		}
		s.buckets[k] = kept
	}
	s.store, s.count, s.assoc = store, count, assoc
	if last != nil {
		s.ttl.last = last
	}
	s.live = int64(len(keep))
	return true
}
