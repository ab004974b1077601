package runtime

import (
	"fmt"
	"slices"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// temporalJoinStateVersion is the format version of TemporalJoin snapshots.
const temporalJoinStateVersion = 1

// A TemporalJoin snapshot (CheckpointedOperator) holds, after the header
// and the operator's shape (join kind, keys, both sides' types, rowtime
// columns, output columns, the residual condition): the per-input
// watermarks, the join key index, the left and right RowStores, the left
// rows waiting for the watermark per key (NULL keys as -1; time and row
// id, in arrival order), each key's versions (time, row id, deletion),
// then the state retention's cleanup timer, each key's cleanup time and
// event-time timer, and when the key index is looked at again. The
// counts of waiting rows and versions and the keys with several versions
// follow from what is saved.

func (j *TemporalJoin) stateShape() string {
	s := fmt.Sprintf("%s join; keys %v = %v; left (%s) time $%d; right (%s) time $%d; null-safe %v; left columns %d",
		j.Spec.Kind, j.Spec.LeftKeys, j.Spec.RightKeys, typesShape(j.Spec.LeftTypes), j.LeftTime,
		typesShape(j.Spec.RightTypes), j.RightTime, j.Spec.NullSafe, j.NumLeft)
	if j.Spec.Residual != nil {
		s += fmt.Sprintf("; residual %v", j.Spec.Residual)
	}
	return s
}

// SnapshotState implements CheckpointedOperator.
func (j *TemporalJoin) SnapshotState() ([]byte, error) {
	w := state.NewWriter(64 + int(j.left.Bytes()+j.right.Bytes()) + 16*int(j.nPending+j.nVersions))
	w.Header("TemporalJoin", temporalJoinStateVersion)
	w.String(j.stateShape())
	writeWatermarkTracker(w, j.wms)
	saveJoinKeyIndex(w, j.keys)
	j.left.WriteState(w)
	j.right.WriteState(w)
	keys := sortedKeys(j.pending)
	w.Count(len(keys))
	for _, k := range keys {
		rows := j.pending[k]
		w.Varint(int64(k))
		w.Count(len(rows))
		for _, r := range rows {
			w.Varint(r.t)
			w.Varint(int64(r.row))
		}
	}
	keys = sortedKeys(j.versions)
	w.Count(len(keys))
	for _, k := range keys {
		vs := j.versions[k]
		w.Varint(int64(k))
		w.Count(len(vs))
		for _, v := range vs {
			w.Varint(v.t)
			w.Varint(int64(v.row))
			w.Bool(v.deleted)
		}
	}
	w.Varint(j.ttl.next)
	writeKeyTimes(w, j.cleanupAt)
	writeKeyTimes(w, j.evTimer)
	w.Varint(int64(j.nextKeyScan))
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("TemporalJoin: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (j *TemporalJoin) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("TemporalJoin", temporalJoinStateVersion)
	checkShape(r, "TemporalJoin", j.stateShape())
	wms := readWatermarkTracker(r, 2)
	keys := newJoinKeyIndex(j.Spec)
	loadJoinKeyIndex(r, keys)
	var left, right *RowStore
	if r.Err() == nil {
		left = ReadRowStore(r, j.Spec.LeftTypes)
	}
	if r.Err() == nil {
		right = ReadRowStore(r, j.Spec.RightTypes)
	}
	key := func(lo int32) int32 {
		k := r.Int32()
		if r.Err() == nil && (k < lo || k >= keys.n) {
			r.Failf("want a join key id from %d to %d, found %d", lo, keys.n-1, k)
		}
		return k
	}
	rowID := func(s *RowStore) int32 {
		id := r.Int32()
		if r.Err() == nil && (id < 0 || id >= s.Len()) {
			r.Failf("want a stored row's id below %d, found %d", s.Len(), id)
		}
		return id
	}
	pending := map[int32][]temporalRow{}
	var nPending int64
	nk := r.Count(3)
	for i := 0; i < nk && r.Err() == nil; i++ {
		k := key(-1)
		rows := make([]temporalRow, r.Count(2))
		for x := range rows {
			rows[x] = temporalRow{t: r.Varint(), row: rowID(left)}
		}
		if _, dup := pending[k]; r.Err() == nil && (dup || len(rows) == 0) {
			r.Failf("want each key's waiting rows once, found key %d again or empty", k)
		}
		pending[k] = rows
		nPending += int64(len(rows))
	}
	versions := map[int32][]temporalVersion{}
	multi := map[int32]struct{}{}
	var nVersions int64
	nk = r.Count(3)
	for i := 0; i < nk && r.Err() == nil; i++ {
		k := key(0)
		vs := make([]temporalVersion, r.Count(3))
		for x := range vs {
			vs[x] = temporalVersion{t: r.Varint(), row: rowID(right), deleted: r.Bool()}
			if r.Err() == nil && x > 0 && vs[x].t < vs[x-1].t {
				r.Failf("want a key's versions in order of time")
			}
		}
		if _, dup := versions[k]; r.Err() == nil && (dup || len(vs) == 0) {
			r.Failf("want each key's versions once, found key %d again or empty", k)
		}
		versions[k] = vs
		nVersions += int64(len(vs))
		if len(vs) > 1 {
			multi[k] = struct{}{}
		}
	}
	next := r.Varint()
	cleanupAt := readKeyTimes(r, keys.n)
	evTimer := readKeyTimes(r, keys.n)
	nextKeyScan := r.Int32()
	if err := r.Done(); err != nil {
		return fmt.Errorf("TemporalJoin: restoring state: %w", err)
	}
	j.wms, j.keys, j.left, j.right = wms, keys, left, right
	j.pending, j.nPending, j.versions, j.nVersions, j.multi = pending, nPending, versions, nVersions, multi
	j.ttl.next, j.cleanupAt, j.evTimer, j.nextKeyScan = next, cleanupAt, evTimer, nextKeyScan
	if j.Ctx != nil {
		j.Ctx.ReportState(j.StateSize())
	}
	return nil
}

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[V any](m map[int32]V) []int32 {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// writeKeyTimes saves a map of key ids to times, in order of key.
func writeKeyTimes(w *state.Writer, m map[int32]int64) {
	w.Count(len(m))
	for _, k := range sortedKeys(m) {
		w.Varint(int64(k))
		w.Varint(m[k])
	}
}

// readKeyTimes reads what writeKeyTimes saved; key ids lie in [0, n).
func readKeyTimes(r *state.Reader, n int32) map[int32]int64 {
	cnt := r.Count(2)
	m := make(map[int32]int64, cnt)
	for i := 0; i < cnt && r.Err() == nil; i++ {
		k := r.Int32()
		t := r.Varint()
		if r.Err() == nil && (k < 0 || k >= n) {
			r.Failf("want a key id below %d, found %d", n, k)
		}
		m[k] = t
	}
	return m
}
