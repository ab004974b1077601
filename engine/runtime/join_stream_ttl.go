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
// rebuilt with only its live rows.

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
	j.Ctx.ReportState(j.StateSize())
	return nil
}

// maybeCompact rebuilds the side with its live rows once removed rows
// are the majority (and there are enough of them to be worth it).
func (s *joinSide) maybeCompact() {
	total := int64(s.store.Len())
	if dead := total - s.live; dead < 4096 || dead < s.live {
		return
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
}
