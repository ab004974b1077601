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
	n := int(d.n)
	w := state.NewWriter(64 + n*(16+8*len(d.Types)))
	w.Header("Deduplicate", dedupStateVersion)
	w.String(d.stateShape())
	w.Count(n)
	writeGroupIndex(w, d.index)
	for _, row := range d.rows[:n] {
		w.Bool(row != nil)
		for c, v := range row {
			w.Value(v, d.Types[c])
		}
	}
	w.Int64s(d.ts[:n])
	writeTTL(w, &d.ttl)
	w.Varint(d.live)
	w.Int32s(d.free)
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
	r := state.NewReader(snapshot)
	r.Header("Deduplicate", dedupStateVersion)
	checkShape(r, "Deduplicate", d.stateShape())
	n := r.Count(1)
	index := newGroupIndex(d.Keys, d.KeyTypes)
	readGroupIndex(r, index, int32(n))
	var rows [][]any
	if r.Err() == nil {
		rows = make([][]any, n)
	}
	for g := 0; g < len(rows) && r.Err() == nil; g++ {
		if !r.Bool() {
			continue
		}
		vals := make([]any, len(d.Types))
		for c := range vals {
			vals[c] = r.Value(d.Types[c])
		}
		rows[g] = vals
	}
	ts := readN(r, n, r.Int64s, "rowtimes")
	ttl := d.ttl
	readTTL(r, &ttl, n)
	live := r.Varint()
	if r.Err() == nil && (live < 0 || live > int64(n)) {
		r.Failf("want a number of live keys from 0 to %d, found %d", n, live)
	}
	free := readIDs(r, int32(n), "a free key id")
	if err := r.Done(); err != nil {
		return fmt.Errorf("Deduplicate: restoring state: %w", err)
	}
	d.index, d.n, d.rows, d.ts, d.ttl, d.live, d.free = index, int32(n), rows, ts, ttl, live, free
	if d.Ctx != nil {
		d.Ctx.ReportState(d.StateSize())
	}
	return nil
}
