package runtime

import "github.com/riffle-sql/riffle/engine/types"

// State time-to-live of streaming group aggregation (table.exec.state.ttl,
// Flink's StateTtlConfig as GroupAggFunction uses it: processing time,
// refreshed on every write, expired state never returned).
//
// A group whose state was last written TTL or more milliseconds ago (job
// clock) is gone: its next row starts it afresh (+I, not -U/+U) and a
// retraction for it is ignored; a timer also drops expired groups that
// see no more rows, without emitting anything. With a TTL set, a row that
// leaves the result unchanged still emits -U/+U, as Flink does so that
// downstream state does not expire too early.
//
// Expired state leaves memory: the group leaves the key index, and its id
// (with its slot in every per-group slice: accumulators, row count, last
// result, last write) goes to a free list that the next new group takes,
// reset. The per-group slices are therefore as long as the most groups
// ever alive at once, not the number of keys ever seen. Groups emptied by
// retractions free their ids the same way.

// ttlState tracks the last write of each group.
type ttlState struct {
	ttl   int64 // milliseconds; 0: state never expires
	clock Clock
	last  []int64 // per group id: epoch ms of the last write
	next  int64   // when the cleanup timer fires next (0: none pending)
}

func (t *ttlState) open(ctx *OpContext) {
	t.ttl = ctx.Config.StateTTL.Milliseconds()
	t.clock = ctx.Config.clock()
}

// on reports whether a TTL is set.
func (t *ttlState) on() bool { return t.ttl > 0 }

// now is the job clock in epoch ms (0 when no TTL is set: not needed).
func (t *ttlState) now() int64 {
	if t.ttl <= 0 {
		return 0
	}
	return t.clock.Now().UnixMilli()
}

// expired reports whether group g's state has expired at now.
func (t *ttlState) expired(g int32, now int64) bool {
	return t.ttl > 0 && int(g) < len(t.last) && t.last[g]+t.ttl <= now
}

// write records a write of group g at now.
func (t *ttlState) write(g int32, now int64) {
	if t.ttl <= 0 {
		return
	}
	for int(g) >= len(t.last) {
		t.last = append(t.last, 0)
	}
	t.last[g] = now
	if t.next == 0 {
		t.next = now + t.ttl
	}
}

// expire drops group g's state as the row i of b is about to touch it. It
// returns the group to use and whether it still exists: the same id reset
// when the accumulators can reset, else none (the caller creates a group).
func (a *GroupAgg) expire(b *types.Batch, i int, g int32) (int32, bool) {
	a.prev[g] = nil
	a.rowCount[g] = 0
	if canReset(a.accs) {
		for _, acc := range a.accs {
			acc.(resettableAcc).reset(g)
		}
		return g, true
	}
	a.index.remove(b, i)
	return -1, false
}

// NextProcessingTime implements ProcessingTimeOperator: the cleanup timer.
func (a *GroupAgg) NextProcessingTime() (int64, bool) {
	return a.ttl.next, a.ttl.on() && a.ttl.next > 0 && !a.Final
}

// OnProcessingTime drops the groups whose state expired.
func (a *GroupAgg) OnProcessingTime(now int64) error {
	if !a.ttl.on() || a.ttl.next == 0 || now < a.ttl.next {
		return nil
	}
	reset := canReset(a.accs)
	next := int64(0)
	a.index.evict(func(g int32) bool {
		if a.ttl.expired(g, now) {
			a.prev[g] = nil
			a.rowCount[g] = 0
			if reset {
				for _, acc := range a.accs {
					acc.(resettableAcc).reset(g)
				}
			}
			a.release(g)
			return true
		}
		if int(g) < len(a.ttl.last) {
			if due := a.ttl.last[g] + a.ttl.ttl; next == 0 || due < next {
				next = due
			}
		}
		return false
	})
	a.ttl.next = next
	a.reportState()
	return nil
}

// newGroup adds the group of row i of b to the index and returns its id:
// a freed id, reset, when there is one, else the next new id.
func (a *GroupAgg) newGroup(b *types.Batch, i int) int32 {
	if n := len(a.free); n > 0 {
		id := a.free[n-1]
		a.free = a.free[:n-1]
		g, _ := a.index.lookup(b, i, id)
		for _, acc := range a.accs {
			acc.(resettableAcc).reset(g)
		}
		a.rowCount[g] = 0
		a.prev[g] = nil
		if a.disk != nil {
			a.diskNewGroup(g, b, i)
		}
		return g
	}
	g, _ := a.index.lookup(b, i, a.nGroups)
	a.nGroups++
	for _, acc := range a.accs {
		acc.resize(int(a.nGroups))
	}
	a.rowCount = append(a.rowCount, 0)
	a.prev = append(a.prev, nil)
	if a.disk != nil {
		a.diskNewGroup(g, b, i)
	}
	return g
}

// release frees the id of a group just removed from the index.
func (a *GroupAgg) release(g int32) {
	if a.reuse {
		a.free = append(a.free, g)
	}
}
