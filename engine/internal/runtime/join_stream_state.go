package runtime

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// joinStateVersion is the format version of StreamingJoin snapshots.
const joinStateVersion = 1

// A StreamingJoin snapshot (CheckpointedOperator) holds, after the header
// and the operator's shape (join kind, key columns, both sides' types,
// null-safe keys, upsert inputs, the residual condition): the join key
// index (key → id, shared by both sides), then each side: its stored rows
// (RowStore.WriteState), each row's multiplicity and number of
// associations, the rows of each key id, the number of live rows and the
// state TTL's last writes and cleanup timer. Watermarks are not state:
// they flow again after a restore.

func (j *StreamingJoin) stateShape() string {
	s := fmt.Sprintf("%s join; keys %v = %v; left (%s); right (%s); null-safe %v; upsert inputs %v",
		j.Spec.Kind, j.Spec.LeftKeys, j.Spec.RightKeys, typesShape(j.Spec.LeftTypes), typesShape(j.Spec.RightTypes),
		j.Spec.NullSafe, j.Spec.UpsertInputs)
	if j.Spec.Residual != nil {
		s += fmt.Sprintf("; residual %v", j.Spec.Residual)
	}
	return s
}

// SnapshotState implements CheckpointedOperator.
func (j *StreamingJoin) SnapshotState() ([]byte, error) {
	if j.sides[0] == nil {
		return nil, errors.New("StreamingJoin: SnapshotState before Open")
	}
	if j.disk != nil {
		return j.snapshotDiskState()
	}
	size := 64
	for _, s := range j.sides {
		size += int(s.store.Bytes()) + 12*len(s.count)
	}
	w := state.NewWriter(size)
	w.Header("StreamingJoin", joinStateVersion)
	w.String(j.stateShape())
	saveJoinKeyIndex(w, j.keys)
	for _, s := range j.sides {
		s.store.WriteState(w)
		w.Int32s(s.count)
		w.Int32s(s.assoc)
		w.Count(len(s.buckets))
		for _, bk := range s.buckets {
			w.Int32s(bk)
		}
		w.Varint(s.live)
		writeTTL(w, &s.ttl)
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("StreamingJoin: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (j *StreamingJoin) RestoreState(snapshot []byte) error {
	if j.sides[0] == nil {
		return errors.New("StreamingJoin: RestoreState before Open")
	}
	if j.disk != nil {
		return j.restoreDiskState(snapshot)
	}
	r := state.NewReader(snapshot)
	r.Header("StreamingJoin", joinStateVersion)
	checkShape(r, "StreamingJoin", j.stateShape())
	x := newJoinKeyIndex(j.Spec)
	loadJoinKeyIndex(r, x)
	var sides [2]*joinSide
	for i := range sides {
		ts := j.Spec.LeftTypes
		if i == 1 {
			ts = j.Spec.RightTypes
		}
		s := &joinSide{ttl: j.sides[i].ttl}
		sides[i] = s
		if r.Err() != nil {
			break
		}
		s.store = ReadRowStore(r, ts)
		rows := s.store.Len()
		s.count = readN(r, int(rows), r.Int32s, "row multiplicities")
		s.assoc = readN(r, int(rows), r.Int32s, "association counts")
		nb := r.Count(1)
		if r.Err() == nil && nb > int(x.n) {
			r.Failf("want the rows of at most %d join keys, found %d", x.n, nb)
			break
		}
		s.buckets = make([][]int32, 0, nb)
		for k := 0; k < nb && r.Err() == nil; k++ {
			s.buckets = append(s.buckets, readIDs(r, rows, "a stored row's id"))
		}
		s.live = r.Varint()
		if r.Err() == nil && (s.live < 0 || s.live > int64(rows)) {
			r.Failf("want a number of live rows from 0 to %d, found %d", rows, s.live)
		}
		readTTL(r, &s.ttl, int(rows))
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("StreamingJoin: restoring state: %w", err)
	}
	j.keys, j.sides = x, sides
	if j.Ctx != nil {
		j.Ctx.ReportState(j.StateSize())
	}
	return nil
}
