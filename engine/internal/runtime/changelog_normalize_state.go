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
	w.Count(n)
	writeGroupIndex(w, c.index)
	for _, row := range c.rows[:n] {
		w.Bool(row != nil)
		for k, v := range row {
			w.Value(v, c.Types[k])
		}
	}
	writeTTL(w, &c.ttl)
	w.Varint(c.live)
	w.Int32s(c.free)
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
	n := r.Count(1)
	index := newGroupIndex(c.Keys, c.KeyTypes)
	readGroupIndex(r, index, int32(n))
	var rows [][]any
	if r.Err() == nil {
		rows = make([][]any, n)
	}
	for g := 0; g < len(rows) && r.Err() == nil; g++ {
		if !r.Bool() {
			continue
		}
		vals := make([]any, len(c.Types))
		for k := range vals {
			vals[k] = r.Value(c.Types[k])
		}
		rows[g] = vals
	}
	ttl := c.ttl
	readTTL(r, &ttl, n)
	live := r.Varint()
	if r.Err() == nil && (live < 0 || live > int64(n)) {
		r.Failf("want a number of kept rows from 0 to %d, found %d", n, live)
	}
	free := readIDs(r, int32(n), "a free key id")
	if err := r.Done(); err != nil {
		return fmt.Errorf("ChangelogNormalize: restoring state: %w", err)
	}
	c.index, c.n, c.rows, c.ttl, c.live, c.free = index, int32(n), rows, ttl, live, free
	if c.Ctx != nil {
		c.Ctx.ReportState(c.StateSize())
	}
	return nil
}
