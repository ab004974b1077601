package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// limitStateVersion is the format version of Limit snapshots.
const limitStateVersion = 1

// A Limit snapshot (CheckpointedOperator) holds, after the header and the
// operator's shape (offset and fetch), the number of rows it has seen:
// a restored LIMIT neither emits its rows again nor skips the offset
// again.

func (l *Limit) stateShape() string { return fmt.Sprintf("offset %d fetch %d", l.Offset, l.Fetch) }

// SnapshotState implements CheckpointedOperator.
func (l *Limit) SnapshotState() ([]byte, error) {
	w := state.NewWriter(32)
	w.Header("Limit", limitStateVersion)
	w.String(l.stateShape())
	w.Varint(l.seen)
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator.
func (l *Limit) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("Limit", limitStateVersion)
	checkShape(r, "Limit", l.stateShape())
	seen := r.Varint()
	if r.Err() == nil && seen < 0 {
		r.Failf("want a number of rows seen, found %d", seen)
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("Limit: restoring state: %w", err)
	}
	l.seen = seen
	return nil
}
