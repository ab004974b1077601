package runtime

import "github.com/riffle-sql/riffle/engine/types"

// State retention of the streaming OVER aggregate (table.exec.state.ttl),
// as Flink's OVER functions apply it:
//
//   - proctime with an UNBOUNDED PRECEDING frame
//     (ProcTimeUnboundedPrecedingFunction) keeps its accumulators in state
//     with a TTL refreshed by every row (StateTtlConfig OnCreateAndWrite):
//     a partition idle for the TTL is gone;
//   - the other frames and rowtime (RowTime*PrecedingFunction, the
//     AbstractRowTimeUnboundedPrecedingOver and ProcTime*Bounded*
//     functions: KeyedProcessFunctionWithCleanupState) register a
//     processing-time cleanup timer at now + 1.5 x TTL whenever a row
//     arrives (late rows included) or the watermark processes the
//     partition's rows, and the later timer replaces the earlier only when
//     now + TTL passes it; when it fires, a partition with rows waiting
//     for the watermark keeps its state and registers again, else its
//     state (accumulators, frame) is cleared.
//
// Cleared state emits nothing (the output is insert-only); the
// partition's next row starts from empty accumulators and an empty frame.
// A cleared partition leaves the key index and its id goes to a free list
// that the next new partition takes, reset, so the per-partition slices
// are as long as the most partitions alive at once (ids are not reused,
// only forgotten, when an accumulator cannot be reset).

// retention is Flink's (min, max) idle state retention in milliseconds.
func (o *StreamOver) retention() (int64, int64) {
	if !o.Rowtime && !o.bounded() {
		return o.ttl.ttl, o.ttl.ttl
	}
	return o.ttl.ttl, o.ttl.ttl * 3 / 2
}

// touch registers partition pid's cleanup at now, as Flink's
// registerProcessingCleanupTimer does.
func (o *StreamOver) touch(pid int32, now int64) {
	if !o.ttl.on() {
		return
	}
	lo, hi := o.retention()
	if cur := o.cleanup[pid]; cur == 0 || now+lo > cur {
		o.cleanup[pid] = now + hi
		if o.ttl.next == 0 {
			o.ttl.next = now + hi
		}
	}
}

// cleared reports whether partition pid's state is gone at now.
func (o *StreamOver) cleared(pid int32, now int64) bool {
	return o.ttl.on() && o.cleanup[pid] != 0 && o.cleanup[pid] <= now && !o.isWait[pid]
}

// partition returns the partition of row i, a new one when its key is new
// or its state was cleared.
func (o *StreamOver) partition(b *types.Batch, i int, now int64) int32 {
	next, free := o.nParts, len(o.free)
	if free > 0 {
		next = o.free[free-1]
	}
	pid, isNew := o.index.lookup(b, i, next)
	if !isNew {
		if !o.cleared(pid, now) {
			return pid
		}
		if o.reuse {
			o.reset(pid)
			return pid
		}
		o.index.remove(b, i)
		pid, _ = o.index.lookup(b, i, o.nParts)
		free = 0
	}
	if free > 0 {
		o.free = o.free[:free-1]
		o.reset(pid)
		return pid
	}
	o.nParts++
	for _, acc := range o.accs {
		acc.resize(int(o.nParts))
	}
	o.pending = append(o.pending, nil)
	o.isWait = append(o.isWait, false)
	o.frame = append(o.frame, nil)
	o.cleanup = append(o.cleanup, 0)
	return pid
}

// reset empties partition pid's state.
func (o *StreamOver) reset(pid int32) {
	for _, acc := range o.accs {
		acc.(resettableAcc).reset(pid)
	}
	o.frame[pid] = nil
	o.pending[pid] = nil
	o.cleanup[pid] = 0
}

// NextProcessingTime implements ProcessingTimeOperator: the cleanup
// timer.
func (o *StreamOver) NextProcessingTime() (int64, bool) {
	return o.ttl.next, o.ttl.on() && o.ttl.next > 0
}

// OnProcessingTime clears the partitions whose cleanup time has come,
// emitting nothing.
func (o *StreamOver) OnProcessingTime(now int64) error {
	if !o.ttl.on() || o.ttl.next == 0 || now < o.ttl.next {
		return nil
	}
	next := int64(0)
	o.index.evict(func(pid int32) bool {
		c := o.cleanup[pid]
		if c != 0 && c <= now {
			if !o.isWait[pid] {
				if o.reuse {
					o.reset(pid)
					o.free = append(o.free, pid)
				} else {
					o.frame[pid], o.cleanup[pid] = nil, 0
				}
				return true
			}
			o.cleanup[pid] = 0 // rows wait for the watermark: register again
			o.touch(pid, now)
			c = o.cleanup[pid]
		}
		if c != 0 && (next == 0 || c < next) {
			next = c
		}
		return false
	})
	o.ttl.next = next
	o.reportState()
	return nil
}
