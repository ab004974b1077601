package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// groupAggStateVersion is the format version of GroupAgg snapshots.
const groupAggStateVersion = 1

// A GroupAgg snapshot (CheckpointedOperator) holds, after the header and
// the operator's shape (key types, aggregate calls, retractable input):
// the number of group ids, the group index (key → id), each group's row
// count and last emitted result (what the next change retracts), the
// free group ids, the state TTL's last writes and cleanup timer, and each
// accumulator's state (accum_state.go). Mini-batches are applied within
// one input batch, so no buffered rows outlive a batch. A batch
// aggregation (Final: one result per group at the end of input) has no
// checkpointed state.

// stateShape describes what a GroupAgg's state is made of.
func (a *GroupAgg) stateShape() string {
	var b strings.Builder
	fmt.Fprintf(&b, "keys (%s); aggregates", typesShape(a.KeyTypes))
	for _, s := range a.Aggs {
		fmt.Fprintf(&b, " %s(%s) %s;", s.String(), typesShape(s.ArgTypes), s.Type)
	}
	if a.Retractable {
		b.WriteString(" retractable")
	}
	return b.String()
}

var errFinalAggState = errors.New("GroupAgg: a batch aggregation (one result per group at the end of input) has no checkpointed state")

// SnapshotState implements CheckpointedOperator.
func (a *GroupAgg) SnapshotState() ([]byte, error) {
	if a.Final {
		return nil, errFinalAggState
	}
	if a.index == nil {
		return nil, errors.New("GroupAgg: SnapshotState before Open")
	}
	if a.disk != nil {
		return a.snapshotDiskState()
	}
	n := int(a.nGroups)
	w := state.NewWriter(64 + n*(8+8*len(a.accs)))
	w.Header("GroupAgg", groupAggStateVersion)
	w.String(a.stateShape())
	w.Count(n)
	writeGroupIndex(w, a.index)
	w.Int64s(a.rowCount[:n])
	valTypes := a.OutTypes[len(a.Keys):]
	for _, prev := range a.prev[:n] {
		w.Bool(prev != nil)
		for k, v := range prev {
			w.Value(v, valTypes[k])
		}
	}
	w.Int32s(a.free)
	writeTTL(w, &a.ttl)
	for _, acc := range a.accs {
		writeAcc(w, acc, n)
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("GroupAgg: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (a *GroupAgg) RestoreState(snapshot []byte) error {
	if a.Final {
		return errFinalAggState
	}
	if a.index == nil {
		return errors.New("GroupAgg: RestoreState before Open")
	}
	if a.disk != nil {
		return a.restoreDiskState(snapshot)
	}
	r := state.NewReader(snapshot)
	r.Header("GroupAgg", groupAggStateVersion)
	checkShape(r, "GroupAgg", a.stateShape())
	n := r.Count(1)
	index := newGroupIndex(a.Keys, a.KeyTypes)
	readGroupIndex(r, index, int32(n))
	rowCount := readN(r, n, r.Int64s, "row counts")
	valTypes := a.OutTypes[len(a.Keys):]
	var prev [][]any
	var backing []any // the groups' results, allocated at once
	if r.Err() == nil {
		prev = make([][]any, n)
		backing = make([]any, n*len(a.accs))
	}
	for g := 0; g < len(prev) && r.Err() == nil; g++ {
		if !r.Bool() {
			continue
		}
		vals := backing[g*len(a.accs) : (g+1)*len(a.accs) : (g+1)*len(a.accs)]
		for k := range vals {
			vals[k] = r.Value(valTypes[k])
		}
		prev[g] = vals
	}
	free := readIDs(r, int32(n), "a free group id")
	ttl := a.ttl
	readTTL(r, &ttl, n)
	accs, err := freshAccumulators(a.accs, a.Aggs, a.Retractable)
	if err != nil {
		return fmt.Errorf("GroupAgg: restoring state: %w", err)
	}
	for _, acc := range accs {
		if r.Err() == nil {
			readAcc(r, acc, n)
		}
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("GroupAgg: restoring state: %w", err)
	}
	a.index, a.nGroups, a.rowCount, a.prev, a.free, a.ttl, a.accs = index, int32(n), rowCount, prev, free, ttl, accs
	a.touchedAt, a.stamp = nil, 0
	a.reportState()
	return nil
}
