package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// temporalSortStateVersion is the format version of TemporalSort
// snapshots.
const temporalSortStateVersion = 1

// A TemporalSort snapshot (CheckpointedOperator) holds, after the header
// and the operator's shape (time column, secondary keys, row types,
// rowtime or proctime): the buffered rows (a RowStore of the row types,
// in arrival order), the last timestamp emitted and whether any was (rows
// not after it are late), the smallest buffered timestamp, and the
// processing time of the pending flush (proctime).

func (s *TemporalSort) stateShape() string {
	return fmt.Sprintf("time $%d; keys %v; rows (%s); proctime %v", s.TimeCol, s.Keys, typesShape(s.Types), s.Proctime)
}

// SnapshotState implements CheckpointedOperator.
func (s *TemporalSort) SnapshotState() ([]byte, error) {
	w := state.NewWriter(64 + 8*s.held*len(s.Types))
	w.Header("TemporalSort", temporalSortStateVersion)
	w.String(s.stateShape())
	writeBufferedRows(w, s.buf, s.Types)
	w.Varint(s.lastFired)
	w.Bool(s.fired)
	w.Varint(s.minTs)
	w.Varint(s.due)
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("TemporalSort: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (s *TemporalSort) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("TemporalSort", temporalSortStateVersion)
	checkShape(r, "TemporalSort", s.stateShape())
	buf := readBufferedRows(r, s.Types)
	lastFired := r.Varint()
	fired := r.Bool()
	minTs := r.Varint()
	due := r.Varint()
	if err := r.Done(); err != nil {
		return fmt.Errorf("TemporalSort: restoring state: %w", err)
	}
	s.buf, s.held, s.lastFired, s.fired, s.minTs, s.due = buf, batchRows(buf), lastFired, fired, minTs, due
	if s.Ctx != nil {
		s.reportState()
	}
	return nil
}
