package runtime

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// dedupStateVersion is the format version of Deduplicate snapshots.
const dedupStateVersion = 1

// A Deduplicate snapshot (CheckpointedOperator) holds, after the header
// and the operator's shape (key and row types, keep first or last,
// rowtime or proctime): the number of key ids, the key index, each key's
// kept row (NULL for a freed id) and its rowtime, the state TTL's last
// writes and cleanup timer, the number of live keys and the free ids.

func (d *Deduplicate) stateShape() string {
	s := fmt.Sprintf("keys %v (%s); rows (%s); keep ", d.Keys, typesShape(d.KeyTypes), typesShape(d.Types))
	if d.KeepLast {
		s += "last"
	} else {
		s += "first"
	}
	if d.Rowtime {
		return s + fmt.Sprintf(" on rowtime $%d", d.TimeCol)
	}
	return s + " on proctime"
}

// SnapshotState implements CheckpointedOperator.
func (d *Deduplicate) SnapshotState() ([]byte, error) {
	if d.index == nil {
		return nil, errors.New("Deduplicate: SnapshotState before Open")
	}
	if d.disk != nil {
		return d.snapshotDiskState()
	}
	n := int(d.n)
	w := state.NewWriter(64 + n*(16+8*len(d.Types)))
	w.Header("Deduplicate", dedupStateVersion)
	w.String(d.stateShape())
	writeKeyedRows(w, d.index, d.rows[:n], d.Types)
	w.Int64s(d.ts[:n])
	writeKeyedTail(w, &d.ttl, d.live, d.free)
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("Deduplicate: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (d *Deduplicate) RestoreState(snapshot []byte) error {
	if d.index == nil {
		return errors.New("Deduplicate: RestoreState before Open")
	}
	if d.disk != nil {
		return d.restoreDiskState(snapshot)
	}
	r := state.NewReader(snapshot)
	r.Header("Deduplicate", dedupStateVersion)
	checkShape(r, "Deduplicate", d.stateShape())
	index, rows := readKeyedRows(r, d.Keys, d.KeyTypes, d.Types)
	n := len(rows)
	ts := readN(r, n, r.Int64s, "rowtimes")
	ttl := d.ttl
	live, free := readKeyedTail(r, &ttl, n)
	if err := r.Done(); err != nil {
		return fmt.Errorf("Deduplicate: restoring state: %w", err)
	}
	d.index, d.n, d.rows, d.ts, d.ttl, d.live, d.free = index, int32(n), rows, ts, ttl, live, free
	if d.Ctx != nil {
		d.Ctx.ReportState(d.StateSize())
	}
	return nil
}
