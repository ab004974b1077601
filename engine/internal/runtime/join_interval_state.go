package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// intervalJoinStateVersion is the format version of IntervalJoin snapshots.
const intervalJoinStateVersion = 1

// An IntervalJoin snapshot (CheckpointedOperator) holds, after the header
// and the operator's shape (join kind, keys, both sides' types, time
// columns, bounds, event or processing time, the residual condition): the
// operator time, each side's expiration time, the per-input watermarks
// (the combined one drives the cleanup timers), the join key index, each
// side's stored rows (RowStore), whether each was emitted and the number
// of cached rows, then each key's caches (time slots of row ids) and
// cleanup timers, the pending timers in heap order and the number of keys
// holding rows.

func (j *IntervalJoin) stateShape() string {
	s := fmt.Sprintf("%s join; keys %v = %v; left (%s) time $%d; right (%s) time $%d; null-safe %v; bounds [%d, %d] proctime %v",
		j.Spec.Kind, j.Spec.LeftKeys, j.Spec.RightKeys, typesShape(j.Spec.LeftTypes), j.LeftTime,
		typesShape(j.Spec.RightTypes), j.RightTime, j.Spec.NullSafe, j.LowerBound, j.UpperBound, j.Proctime)
	if j.Spec.Residual != nil {
		s += fmt.Sprintf("; residual %v", j.Spec.Residual)
	}
	return s
}

// SnapshotState implements CheckpointedOperator.
func (j *IntervalJoin) SnapshotState() ([]byte, error) {
	w := state.NewWriter(64 + int(j.stores[0].Bytes()+j.stores[1].Bytes()) + 16*len(j.state))
	w.Header("IntervalJoin", intervalJoinStateVersion)
	w.String(j.stateShape())
	w.Varint(j.opTime)
	w.Varint(j.expiration[0])
	w.Varint(j.expiration[1])
	writeWatermarkTracker(w, j.wms)
	saveJoinKeyIndex(w, j.keys)
	for side := 0; side < 2; side++ {
		j.stores[side].WriteState(w)
		w.Bools(j.emitted[side])
		w.Varint(j.live[side])
	}
	w.Varint(j.cachedRows)
	for _, st := range j.state[:j.keys.n] {
		for side := 0; side < 2; side++ {
			w.Count(len(st.cache[side]))
			for _, slot := range st.cache[side] {
				w.Varint(slot.t)
				w.Int32s(slot.entries)
			}
			w.Varint(st.timer[side])
		}
	}
	w.Count(len(j.timers))
	for _, t := range j.timers {
		w.Varint(t.t)
		w.Varint(int64(t.key))
	}
	w.Varint(int64(j.liveKeys))
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("IntervalJoin: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (j *IntervalJoin) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("IntervalJoin", intervalJoinStateVersion)
	checkShape(r, "IntervalJoin", j.stateShape())
	opTime := r.Varint()
	expiration := [2]int64{r.Varint(), r.Varint()}
	wms := readWatermarkTracker(r, 2)
	keys := newJoinKeyIndex(j.Spec)
	loadJoinKeyIndex(r, keys)
	var stores [2]*RowStore
	var emitted [2][]bool
	var live [2]int64
	for side := 0; side < 2 && r.Err() == nil; side++ {
		ts := j.Spec.LeftTypes
		if side == 1 {
			ts = j.Spec.RightTypes
		}
		stores[side] = ReadRowStore(r, ts)
		emitted[side] = readN(r, int(stores[side].Len()), r.Bools, "emitted flags")
		live[side] = r.Varint()
		if r.Err() == nil && (live[side] < 0 || live[side] > int64(stores[side].Len())) {
			r.Failf("want a number of cached rows from 0 to %d, found %d", stores[side].Len(), live[side])
		}
	}
	cachedRows := r.Varint()
	var keyState []*intervalKey
	if r.Err() == nil && int64(keys.n) > int64(r.Remaining())/4 {
		r.Failf("want the caches of %d join keys, %d bytes left (truncated snapshot)", keys.n, r.Remaining())
	}
	if r.Err() == nil {
		keyState = make([]*intervalKey, keys.n)
	}
	for k := range keyState {
		st := &intervalKey{}
		keyState[k] = st
		for side := 0; side < 2 && r.Err() == nil; side++ {
			cnt := r.Count(2)
			if cnt > 0 {
				st.cache[side] = make([]intervalSlot, cnt)
			}
			for s := range st.cache[side] {
				st.cache[side][s] = intervalSlot{t: r.Varint(), entries: readIDs(r, stores[side].Len(), "a cached row's id")}
			}
			st.timer[side] = r.Varint()
		}
		if r.Err() != nil {
			break
		}
	}
	nt := r.Count(2)
	var timers timerHeap
	if r.Err() == nil {
		timers = make(timerHeap, 0, nt)
	}
	for i := 0; i < nt && r.Err() == nil; i++ {
		t := keyTimer{t: r.Varint(), key: r.Int32()}
		if r.Err() == nil && (t.key < 0 || t.key >= keys.n) {
			r.Failf("want a timer's key id below %d, found %d", keys.n, t.key)
		}
		timers = append(timers, t)
		if r.Err() == nil && i > 0 && timers.Less(i, (i-1)/2) {
			r.Failf("want the timers in heap order")
		}
	}
	liveKeys := r.Int32()
	if r.Err() == nil && (liveKeys < 0 || liveKeys > keys.n) {
		r.Failf("want a number of keys holding rows from 0 to %d, found %d", keys.n, liveKeys)
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("IntervalJoin: restoring state: %w", err)
	}
	j.opTime, j.expiration, j.wms, j.keys = opTime, expiration, wms, keys
	j.stores, j.emitted, j.live, j.cachedRows = stores, emitted, live, cachedRows
	j.state, j.timers, j.liveKeys = keyState, timers, liveKeys
	if j.Ctx != nil {
		j.Ctx.ReportState(j.StateSize())
	}
	return nil
}
