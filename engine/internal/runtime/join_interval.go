package runtime

import (
	"container/heap"
	"fmt"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// IntervalJoin is the time-windowed join (Flink's TimeIntervalJoin with
// RowTimeIntervalJoin / ProcTimeIntervalJoin): an equi-join whose
// condition bounds the left time by the right one,
//
//	right.t + LowerBound <= left.t <= right.t + UpperBound   (milliseconds)
//
// Rows wait in per-key caches ordered by time and expire once the
// operator time (the watermark, or the processing time) has passed the
// last time a partner could have: rows then no longer match, and rows of
// an outer side that never matched are emitted NULL-padded. The output is
// insert-only; the output watermark is held back by the largest bound so
// that joined rows are never late downstream.
type IntervalJoin struct {
	BaseOperator
	Spec       opspec.JoinSpec
	LowerBound int64
	UpperBound int64
	// LeftTime and RightTime are the time attribute columns.
	LeftTime, RightTime int
	Proctime            bool

	residual      expr.Evaluator
	keys          *joinKeyIndex
	stores        [2]*RowStore
	emitted       [2][]bool
	state         []*intervalKey
	timers        timerHeap
	opTime        int64
	relative      [2]int64 // leftRelativeSize, rightRelativeSize
	expiration    [2]int64 // left and right expiration times
	minCleanUp    int64
	wms           *WatermarkTracker
	cachedRows    int64
	clock         Clock
	lastProcTimer int64
	// live counts the rows each side's caches hold, liveKeys the keys
	// with at least one cached row (see join_interval_ttl.go).
	live     [2]int64
	liveKeys int32
}

// intervalKey is the state of one join key: each side's rows by time and
// the cleanup timer registered for each side's cache (0 = none).
type intervalKey struct {
	cache [2][]intervalSlot
	timer [2]int64
}

type intervalSlot struct {
	t       int64
	entries []int32
}

type keyTimer struct {
	t   int64
	key int32
}

type timerHeap []keyTimer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	return h[i].t < h[j].t || (h[i].t == h[j].t && h[i].key < h[j].key)
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(keyTimer)) }
func (h *timerHeap) Pop() any     { old := *h; x := old[len(old)-1]; *h = old[:len(old)-1]; return x }
func (h timerHeap) peek() (keyTimer, bool) {
	if len(h) == 0 {
		return keyTimer{}, false
	}
	return h[0], true
}

// Open implements Operator.
func (j *IntervalJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	if j.Spec.Kind == opspec.SemiJoin || j.Spec.Kind == opspec.AntiJoin {
		return fmt.Errorf("semi and anti interval joins are not supported")
	}
	j.keys = newJoinKeyIndex(j.Spec)
	j.stores[0] = NewRowStore(j.Spec.LeftTypes)
	j.stores[1] = NewRowStore(j.Spec.RightTypes)
	j.relative = [2]int64{-j.LowerBound, j.UpperBound}
	j.minCleanUp = max((j.relative[0]+j.relative[1])/2, 0)
	j.wms = NewWatermarkTracker(2)
	j.clock = ctx.Config.clock()
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return nil
}

func (j *IntervalJoin) outer(side int) bool {
	switch j.Spec.Kind {
	case opspec.LeftJoin:
		return side == 0
	case opspec.RightJoin:
		return side == 1
	case opspec.FullJoin:
		return true
	}
	return false
}

// maxOutputDelay is how far the output watermark is held back.
func (j *IntervalJoin) maxOutputDelay() int64 { return max(j.relative[0], j.relative[1]) }

func (j *IntervalJoin) expirationTime(relative int64) int64 {
	if j.opTime == MaxWatermark {
		return MaxWatermark
	}
	return j.opTime - relative - 1
}

func (j *IntervalJoin) updateOperatorTime() {
	if j.Proctime {
		j.opTime = j.clock.Now().UnixMilli()
		return
	}
	wm := j.wms.Current()
	if wm > 0 {
		j.opTime = wm
	} else {
		j.opTime = 0
	}
}

// ProcessBatch implements Operator.
func (j *IntervalJoin) ProcessBatch(side int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("IntervalJoin doesn't support consuming update and delete changes")
	}
	j.updateOperatorTime()
	other := 1 - side
	keyCols, timeCol := j.Spec.LeftKeys, j.LeftTime
	if side == 1 {
		keyCols, timeCol = j.Spec.RightKeys, j.RightTime
	}
	keyIDs := j.keys.ids(b, keyCols, j.Spec.NullSafe, true)
	for int(j.keys.n) > len(j.state) {
		j.state = append(j.state, &intervalKey{})
	}
	times := make([]int64, b.Len)
	if j.Proctime {
		for i := range times {
			times[i] = j.opTime
		}
	} else {
		ts, valid := timestampsMillis(b.Cols[timeCol])
		copy(times, ts)
		if valid != nil {
			for i := range times {
				if !vector.BitIsSet(valid, i) {
					keyIDs[i] = -1 // a NULL time matches nothing
				}
			}
		}
	}
	// bounds of the other side's qualifying times for a row at t
	lowerOf := func(t int64) int64 { return t - j.relative[other] }
	upperOf := func(t int64) int64 { return t + j.relative[side] }
	// candidatesFrom gives the candidate pairs of the rows from lo on,
	// against the caches as they are then, up to the first row boundary at
	// or past maxJoinBatchRows pairs (hi), so that a batch that fans out
	// holds no more of them at a time. Processing earlier rows of the
	// batch only drops expired slots of the other side's cache (entries it
	// marks removed, and skips) and caches rows of this side.
	var pRow, pEntry []int32
	var matched []bool
	candidatesFrom := func(lo int) (hi int, err error) {
		pRow, pEntry = pRow[:0], pEntry[:0]
		for hi = lo; hi < b.Len && len(pRow) < maxJoinBatchRows; hi++ {
			k := keyIDs[hi]
			if k < 0 {
				continue
			}
			from, to := lowerOf(times[hi]), upperOf(times[hi])
			for _, slot := range j.state[k].cache[other] {
				if slot.t >= from && slot.t <= to {
					for _, e := range slot.entries {
						pRow = append(pRow, int32(hi))
						pEntry = append(pEntry, e)
					}
				}
			}
		}
		matched = slices.Grow(matched[:0], len(pRow))[:len(pRow)]
		for i := range matched {
			matched[i] = true
		}
		if j.residual != nil && len(pRow) > 0 {
			cand := pairBatchOf(b, side, j.stores[other], pRow, pEntry)
			v, err := j.residual(j.Ctx.Eval, cand)
			if err != nil {
				return 0, err
			}
			arr := v.Materialize(cand.Len)
			sel, all := vector.SelectionFromBools(arr)
			if !all {
				for i := range matched {
					matched[i] = false
				}
				for _, s := range sel {
					matched[s] = true
				}
			}
		}
		return hi, nil
	}
	out := &joinOutput{}
	var padOther []int32 // NULL-padded rows of the other side (expired unmatched)
	removed := map[int32]bool{}
	var cache []int32
	p := 0
	for i, segEnd := 0, 0; i < b.Len; i++ {
		if i == segEnd {
			var err error
			if segEnd, err = candidatesFrom(i); err != nil {
				return err
			}
			p = 0
		}
		if len(out.kinds) >= maxJoinBatchRows {
			// sent on at a row's boundary: the other side's stored rows
			// are compacted only at the batch's end
			if err := j.emit(b, side, out); err != nil {
				return err
			}
			out = &joinOutput{}
		}
		start := p
		for p < len(pRow) && int(pRow[p]) == i {
			p++
		}
		k := keyIDs[i]
		t := times[i]
		emitted := false
		if k >= 0 {
			st := j.state[k]
			hi := upperOf(t)
			if j.expiration[other] < hi {
				j.expiration[other] = j.expirationTime(j.relative[other])
				for q := start; q < p; q++ {
					e := pEntry[q]
					if !matched[q] || removed[e] {
						continue
					}
					out.add(types.Insert, int32(i), e)
					emitted = true
					if j.outer(other) {
						j.emitted[other][e] = true
					}
				}
				// expire the other side's old rows of this key
				keep := st.cache[other][:0]
				dropped := false
				for _, slot := range st.cache[other] {
					if slot.t <= j.expiration[other] {
						dropped = true
						for _, e := range slot.entries {
							removed[e] = true
							j.cachedRows--
							j.live[other]--
							if j.outer(other) && !j.emitted[other][e] {
								padOther = append(padOther, e)
							}
						}
						continue
					}
					keep = append(keep, slot)
				}
				st.cache[other] = keep
				if dropped {
					j.keyEmptied(st)
				}
			}
			if j.opTime < hi {
				// cache the row: later rows of the other side may match it
				entry := j.stores[side].Len() + int32(len(cache))
				cache = append(cache, int32(i))
				j.emitted[side] = append(j.emitted[side], emitted)
				if len(st.cache[0]) == 0 && len(st.cache[1]) == 0 {
					j.liveKeys++
				}
				st.cache[side] = insertSlot(st.cache[side], t, entry)
				j.cachedRows++
				j.live[side]++
				if st.timer[side] == 0 {
					j.registerCleanup(k, t, side)
				}
				continue
			}
		}
		if !emitted && j.outer(side) {
			out.add(types.Insert, int32(i), -1)
		}
	}
	if len(cache) > 0 {
		j.stores[side].Append(b, cache)
	}
	if err := j.emit(b, side, out); err != nil {
		return err
	}
	if len(padOther) > 0 {
		if err := j.emitPadded(other, padOther); err != nil {
			return err
		}
	}
	j.compact()
	j.Ctx.ReportState(j.StateSize())
	return nil
}

// insertSlot adds an entry at time t keeping slots ordered by time.
func insertSlot(slots []intervalSlot, t int64, entry int32) []intervalSlot {
	n := len(slots)
	if n > 0 && slots[n-1].t == t {
		slots[n-1].entries = append(slots[n-1].entries, entry)
		return slots
	}
	if n == 0 || slots[n-1].t < t {
		return append(slots, intervalSlot{t: t, entries: []int32{entry}})
	}
	pos := sort.Search(n, func(i int) bool { return slots[i].t >= t })
	if slots[pos].t == t {
		slots[pos].entries = append(slots[pos].entries, entry)
		return slots
	}
	slots = append(slots, intervalSlot{})
	copy(slots[pos+1:], slots[pos:])
	slots[pos] = intervalSlot{t: t, entries: []int32{entry}}
	return slots
}

// registerCleanup registers the timer that cleans side's cache of a key
// after a row at time t (Flink keeps it in the other stream's timer
// state: leftTimerState guards the right cache and vice versa).
func (j *IntervalJoin) registerCleanup(k int32, t int64, side int) {
	cleanup := t + j.relative[side] + j.minCleanUp + 1
	j.state[k].timer[side] = cleanup
	heap.Push(&j.timers, keyTimer{t: cleanup, key: k})
}

// ProcessWatermark fires due cleanup timers and forwards the watermark
// held back by the largest bound.
func (j *IntervalJoin) ProcessWatermark(in int, wm int64) error {
	m, ok := j.wms.Update(in, wm)
	if !ok {
		return nil
	}
	if !j.Proctime {
		if err := j.fireTimers(m); err != nil {
			return err
		}
	}
	if m == MaxWatermark {
		return j.Out.EmitWatermark(m)
	}
	return j.Out.EmitWatermark(m - j.maxOutputDelay())
}

// SetInputIdle implements InputIdler.
func (j *IntervalJoin) SetInputIdle(in int, idle bool) error {
	if m, ok := j.wms.SetIdle(in, idle); ok {
		if err := j.fireTimers(m); err != nil {
			return err
		}
		return j.Out.EmitWatermark(m - j.maxOutputDelay())
	}
	return nil
}

// NextProcessingTime implements ProcessingTimeOperator (proctime joins).
func (j *IntervalJoin) NextProcessingTime() (int64, bool) {
	if !j.Proctime {
		return 0, false
	}
	t, ok := j.timers.peek()
	return t.t, ok
}

// OnProcessingTime implements ProcessingTimeOperator.
func (j *IntervalJoin) OnProcessingTime(now int64) error {
	if !j.Proctime {
		return nil
	}
	return j.fireTimers(now)
}

// fireTimers runs the cleanup timers due at time `now` in time order.
func (j *IntervalJoin) fireTimers(now int64) error {
	for {
		t, ok := j.timers.peek()
		if !ok || t.t > now {
			j.compact()
			j.Ctx.ReportState(j.StateSize())
			return nil
		}
		heap.Pop(&j.timers)
		if j.Proctime {
			j.opTime = now
		} else {
			j.opTime = max(now, 0)
		}
		st := j.state[t.key]
		for side := 0; side < 2; side++ {
			if st.timer[side] != 0 && st.timer[side] == t.t {
				j.expiration[side] = j.expirationTime(j.relative[side])
				if err := j.removeExpired(t.key, side); err != nil {
					return err
				}
			}
		}
	}
}

// removeExpired drops the expired rows of side's cache for a key (emitting
// unmatched outer rows) and re-registers its cleanup timer while rows
// remain.
func (j *IntervalJoin) removeExpired(k int32, side int) error {
	st := j.state[k]
	exp := j.expiration[side]
	var pad []int32
	keep := st.cache[side][:0]
	earliest, found := int64(0), false
	for _, slot := range st.cache[side] {
		if slot.t <= exp {
			for _, e := range slot.entries {
				j.cachedRows--
				j.live[side]--
				if j.outer(side) && !j.emitted[side][e] {
					pad = append(pad, e)
				}
			}
			continue
		}
		if !found || slot.t < earliest {
			earliest, found = slot.t, true
		}
		keep = append(keep, slot)
	}
	had := len(st.cache[side]) > 0
	st.cache[side] = keep
	if found {
		j.registerCleanup(k, earliest, side)
	} else {
		st.timer[side] = 0
		st.cache[side] = nil
		if had {
			j.keyEmptied(st)
		}
	}
	if len(pad) > 0 {
		return j.emitPadded(side, pad)
	}
	return nil
}

func (j *IntervalJoin) emit(b *types.Batch, side int, out *joinOutput) error {
	if len(out.kinds) == 0 {
		return nil
	}
	inCols := make([]arrow.Array, len(b.Cols))
	for c, col := range b.Cols {
		inCols[c] = vector.Take(col, out.inRows)
	}
	stored := j.stores[1-side].Gather(out.stored)
	var cols []arrow.Array
	if side == 0 {
		cols = append(inCols, stored...)
	} else {
		cols = append(stored, inCols...)
	}
	return j.Emit(&types.Batch{Cols: cols, Len: len(out.kinds)})
}

// emitPadded emits stored rows of side NULL-padded on the other side.
func (j *IntervalJoin) emitPadded(side int, entries []int32) error {
	mine := j.stores[side].Gather(entries)
	none := make([]int32, len(entries))
	for i := range none {
		none[i] = -1
	}
	theirs := j.stores[1-side].Gather(none)
	var cols []arrow.Array
	if side == 0 {
		cols = append(mine, theirs...)
	} else {
		cols = append(theirs, mine...)
	}
	return j.Emit(&types.Batch{Cols: cols, Len: len(entries)})
}

// pairBatchOf builds joined candidate rows (input rows and stored rows of
// the other side) in left ++ right order.
func pairBatchOf(b *types.Batch, side int, store *RowStore, rows, entries []int32) *types.Batch {
	inCols := make([]arrow.Array, len(b.Cols))
	for c, col := range b.Cols {
		inCols[c] = vector.Take(col, rows)
	}
	stored := store.Gather(entries)
	var cols []arrow.Array
	if side == 0 {
		cols = append(inCols, stored...)
	} else {
		cols = append(stored, inCols...)
	}
	return &types.Batch{Cols: cols, Len: len(rows)}
}

// StateSize implements StateReporter.
func (j *IntervalJoin) StateSize() (int64, int64) {
	return int64(j.keys.n), j.stores[0].Bytes() + j.stores[1].Bytes()
}
