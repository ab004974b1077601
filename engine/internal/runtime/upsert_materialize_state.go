package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// upsertMaterializeStateVersion is the format version of
// SinkUpsertMaterializer snapshots; materializingSinkStateVersion of
// MaterializingSink snapshots.
const (
	upsertMaterializeStateVersion = 1
	materializingSinkStateVersion = 1
)

// A SinkUpsertMaterializer snapshot (CheckpointedOperator) holds, after
// the header and the operator's shape (key and row types): the number of
// key ids, the key index, the rows held (a RowStore of the row types, the
// rows still added, oldest first per key), each key's number of rows, the
// state TTL's last writes and cleanup timer and the free ids.
//
// A MaterializingSink snapshot holds the materializer's snapshot and, when
// the sink it feeds saves state, the sink's.

func (m *SinkUpsertMaterializer) stateShape() string {
	return fmt.Sprintf("keys %v (%s); rows (%s)", m.Keys, typesShape(m.KeyTypes), typesShape(m.Types))
}

// SnapshotState implements CheckpointedOperator.
func (m *SinkUpsertMaterializer) SnapshotState() ([]byte, error) {
	n := int(m.n)
	w := state.NewWriter(64 + int(m.store.Bytes()) + 8*n)
	w.Header("SinkUpsertMaterializer", upsertMaterializeStateVersion)
	w.String(m.stateShape())
	w.Count(n)
	writeGroupIndex(w, m.index)
	// only the rows still added: removed rows are never read again
	var keep []int32
	counts := make([]int64, n)
	for g, rs := range m.rows[:n] {
		keep = append(keep, rs...)
		counts[g] = int64(len(rs))
	}
	rebuildStore(m.store, keep).WriteState(w)
	w.Int64s(counts)
	writeTTL(w, &m.ttl)
	w.Int32s(m.free)
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("SinkUpsertMaterializer: %w", err)
	}
	return w.Data(), nil
}

// upsertMaterializeState is a decoded SinkUpsertMaterializer snapshot.
type upsertMaterializeState struct {
	index groupIndex
	n     int32
	rows  [][]int32
	store *RowStore
	live  int64
	ttl   ttlState
	free  []int32
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (m *SinkUpsertMaterializer) RestoreState(snapshot []byte) error {
	st, err := m.decodeState(snapshot)
	if err != nil {
		return err
	}
	m.apply(st)
	return nil
}

func (m *SinkUpsertMaterializer) decodeState(snapshot []byte) (*upsertMaterializeState, error) {
	r := state.NewReader(snapshot)
	r.Header("SinkUpsertMaterializer", upsertMaterializeStateVersion)
	checkShape(r, "SinkUpsertMaterializer", m.stateShape())
	n := r.Count(1)
	st := &upsertMaterializeState{index: newGroupIndex(m.Keys, m.KeyTypes), n: int32(n), ttl: m.ttl}
	readGroupIndex(r, st.index, int32(n))
	if r.Err() == nil {
		st.store = ReadRowStore(r, m.Types)
	}
	counts := readN(r, n, r.Int64s, "row counts")
	if r.Err() == nil {
		held := int64(st.store.Len())
		st.rows = make([][]int32, n)
		at := int32(0)
		for g, c := range counts {
			if c < 0 || c > held-int64(at) {
				r.Failf("want row counts adding up to %d, found %d for key %d", held, c, g)
				break
			}
			if c == 0 {
				continue
			}
			rs := make([]int32, c)
			for x := range rs {
				rs[x] = at
				at++
			}
			st.rows[g] = rs
		}
		if r.Err() == nil && int64(at) != held {
			r.Failf("want row counts adding up to %d, found %d", held, at)
		}
		st.live = int64(at)
	}
	readTTL(r, &st.ttl, n)
	st.free = readIDs(r, int32(n), "a free key id")
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("SinkUpsertMaterializer: restoring state: %w", err)
	}
	return st, nil
}

func (m *SinkUpsertMaterializer) apply(st *upsertMaterializeState) {
	m.index, m.n, m.rows, m.store, m.live, m.ttl, m.free = st.index, st.n, st.rows, st.store, st.live, st.ttl, st.free
	if m.Ctx != nil {
		m.Ctx.ReportState(m.StateSize())
	}
}

// SnapshotState implements CheckpointedOperator: the materializer's state
// and the sink's (when it saves state).
func (m *MaterializingSink) SnapshotState() ([]byte, error) {
	mat, err := m.Materializer.SnapshotState()
	if err != nil {
		return nil, err
	}
	var sink []byte
	co, saves := m.Sink.(CheckpointedOperator)
	if saves {
		if sink, err = co.SnapshotState(); err != nil {
			return nil, err
		}
	}
	w := state.NewWriter(16 + len(mat) + len(sink))
	w.Header("MaterializingSink", materializingSinkStateVersion)
	w.Bytes(mat)
	w.Bool(saves)
	if saves {
		w.Bytes(sink)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the materializer's state
// is decoded first and replaces its own only once the sink restored its
// own.
func (m *MaterializingSink) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("MaterializingSink", materializingSinkStateVersion)
	mat := r.Bytes()
	saved := r.Bool()
	var sink []byte
	if saved {
		sink = r.Bytes()
	}
	co, saves := m.Sink.(CheckpointedOperator)
	if r.Err() == nil && saved != saves {
		r.Failf("the sink's state was saved: %v; this sink saves state: %v", saved, saves)
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("MaterializingSink: restoring state: %w", err)
	}
	st, err := m.Materializer.decodeState(mat)
	if err != nil {
		return err
	}
	if saves {
		if err := co.RestoreState(sink); err != nil {
			return err
		}
	}
	m.Materializer.apply(st)
	return nil
}

// PrepareCommit implements CommittingOperator for a sink that commits on
// checkpoints (nothing to do otherwise).
func (m *MaterializingSink) PrepareCommit(checkpointID int64) error {
	if co, ok := m.Sink.(CommittingOperator); ok {
		return co.PrepareCommit(checkpointID)
	}
	return nil
}

// NotifyCheckpointComplete implements CommittingOperator for a sink that
// commits on checkpoints (nothing to do otherwise).
func (m *MaterializingSink) NotifyCheckpointComplete(checkpointID int64) error {
	if co, ok := m.Sink.(CommittingOperator); ok {
		return co.NotifyCheckpointComplete(checkpointID)
	}
	return nil
}

// CommitAtFinalCheckpoint implements FinalCheckpointOperator for a sink
// that commits the end of its input through a final checkpoint.
func (m *MaterializingSink) CommitAtFinalCheckpoint() bool {
	if fo, ok := m.Sink.(FinalCheckpointOperator); ok {
		return fo.CommitAtFinalCheckpoint()
	}
	return false
}

// FinishCommit implements FinalCheckpointOperator.
func (m *MaterializingSink) FinishCommit() error {
	if fo, ok := m.Sink.(FinalCheckpointOperator); ok {
		return fo.FinishCommit()
	}
	return nil
}
