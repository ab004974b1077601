package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// changelogNormalizeStateVersion is the format version of
// ChangelogNormalize snapshots.
const changelogNormalizeStateVersion = 1

// A ChangelogNormalize snapshot (CheckpointedOperator) holds, after the
// header and the operator's shape (key and row types, -U left out or not,
// the pushed condition): the number of key ids, the key index, each key's
// kept row (NULL for a freed id), the state TTL's last writes and cleanup
// timer, the number of kept rows and the free ids.

func (c *ChangelogNormalize) stateShape() string {
	s := fmt.Sprintf("keys %v (%s); rows (%s); no update before %v", c.Keys, typesShape(c.KeyTypes), typesShape(c.Types), c.NoUpdateBefore)
	if c.Condition != nil {
		s += fmt.Sprintf("; condition %v", c.Condition)
	}
	return s
}

// SnapshotState implements CheckpointedOperator.
func (c *ChangelogNormalize) SnapshotState() ([]byte, error) {
	n := int(c.n)
	w := state.NewWriter(64 + n*(16+8*len(c.Types)))
	w.Header("ChangelogNormalize", changelogNormalizeStateVersion)
	w.String(c.stateShape())
	writeKeyedRows(w, c.index, c.rows[:n], c.Types)
	writeKeyedTail(w, &c.ttl, c.live, c.free)
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("ChangelogNormalize: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (c *ChangelogNormalize) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("ChangelogNormalize", changelogNormalizeStateVersion)
	checkShape(r, "ChangelogNormalize", c.stateShape())
	index, rows := readKeyedRows(r, c.Keys, c.KeyTypes, c.Types)
	n := len(rows)
	ttl := c.ttl
	live, free := readKeyedTail(r, &ttl, n)
	if err := r.Done(); err != nil {
		return fmt.Errorf("ChangelogNormalize: restoring state: %w", err)
	}
	c.index, c.n, c.rows, c.ttl, c.live, c.free = index, int32(n), rows, ttl, live, free
	if c.Ctx != nil {
		c.Ctx.ReportState(c.StateSize())
	}
	return nil
}
