package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowAggStateVersion is the format version of WindowAgg snapshots.
const windowAggStateVersion = 1

// A WindowAgg snapshot (CheckpointedOperator) holds, after the header and
// the operator's shape (key types, aggregate calls, the window, time
// attribute or attached window columns): the watermark it has seen and
// the time up to which windows fired (they decide which rows are late and
// which windows are still to fire, so a restored operator neither fires a
// window twice nor takes a row run A dropped), then each bucket — a slice
// of aligned windows, or a whole window when rows are not sliced or the
// windows are attached — in order of its end: its end and (attached
// windows) start, its number of groups, the group index, the group keys
// (a RowStore of the key types) and each accumulator (accum_state.go).
// Processing-time windows' timers are the buckets' ends, so they come
// back with the buckets.

func (w *WindowAgg) stateShape() string {
	var b strings.Builder
	fmt.Fprintf(&b, "keys (%s); aggregates", typesShape(w.KeyTypes))
	for _, s := range w.Aggs {
		fmt.Fprintf(&b, " %s(%s) %s;", s.String(), typesShape(s.ArgTypes), s.Type)
	}
	fmt.Fprintf(&b, " window %s proctime %v", w.Window, w.Window.Proctime)
	if w.Window.Zone != nil {
		fmt.Fprintf(&b, " zone %s", w.Window.Zone)
	}
	if w.Attached {
		fmt.Fprintf(&b, "; attached start $%d end $%d", w.StartCol, w.EndCol)
	} else {
		fmt.Fprintf(&b, "; time $%d", w.TimeCol)
	}
	return b.String()
}

// SnapshotState implements CheckpointedOperator.
func (w *WindowAgg) SnapshotState() ([]byte, error) {
	if w.disk != nil {
		return w.snapshotDiskState()
	}
	_, size := w.StateSize()
	wr := state.NewWriter(64 + int(size))
	wr.Header("WindowAgg", windowAggStateVersion)
	wr.String(w.stateShape())
	wr.Varint(w.wm)
	wr.Varint(w.progress)
	ends := make([]int64, 0, len(w.slices))
	for e := range w.slices {
		ends = append(ends, e)
	}
	slices.Sort(ends)
	wr.Count(len(ends))
	for _, e := range ends {
		writeAggBucket(wr, w.slices[e], e, w.KeyTypes)
	}
	if err := wr.Err(); err != nil {
		return nil, fmt.Errorf("WindowAgg: %w", err)
	}
	return wr.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (w *WindowAgg) RestoreState(snapshot []byte) error {
	if w.disk != nil {
		return w.restoreDiskState(snapshot)
	}
	r := state.NewReader(snapshot)
	r.Header("WindowAgg", windowAggStateVersion)
	checkShape(r, "WindowAgg", w.stateShape())
	wm := r.Varint()
	progress := r.Varint()
	nb := r.Count(4)
	buckets := make(map[int64]*aggBucket, nb)
	for i := 0; i < nb && r.Err() == nil; i++ {
		e, bk, err := readAggBucket(r, w.Keys, w.KeyTypes, w.Aggs)
		if err != nil {
			return fmt.Errorf("WindowAgg: restoring state: %w", err)
		}
		if _, dup := buckets[e]; r.Err() == nil && dup {
			r.Failf("want the buckets in order of their end, found end %d twice", e)
		}
		buckets[e] = bk
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("WindowAgg: restoring state: %w", err)
	}
	w.slices, w.wm, w.progress = buckets, wm, progress
	w.reportState()
	return nil
}

// writeAggBucket saves a window aggregate's bucket ending at end: its end
// and start, its number of groups, the group index, the keys of its
// groups and each accumulator's groups.
func writeAggBucket(w *state.Writer, bk *aggBucket, end int64, keyTypes []*types.DataType) {
	n := int(bk.n)
	w.Varint(end)
	w.Varint(bk.start)
	w.Count(n)
	writeGroupIndex(w, bk.index)
	keys := NewRowStore(keyTypes)
	if n > 0 {
		keys.Append(&types.Batch{Cols: bk.keyColumns(len(keyTypes)), Len: n}, nil)
	}
	keys.WriteState(w)
	for _, acc := range bk.accs {
		writeAcc(w, acc, n)
	}
}

// readAggBucket restores what writeAggBucket saved into a new bucket of
// the operator's keys and aggregate calls (keys are the input's key
// columns, as the bucket's index looks them up).
func readAggBucket(r *state.Reader, keys []int, keyTypes []*types.DataType, aggs []opspec.AggSpec) (int64, *aggBucket, error) {
	end := r.Varint()
	start := r.Varint()
	n := r.Count(1)
	bk, err := newAggBucket(keys, keyTypes, aggs)
	if err != nil {
		return 0, nil, err
	}
	bk.start = start
	readGroupIndex(r, bk.index, int32(n))
	var store *RowStore
	if r.Err() == nil {
		store = ReadRowStore(r, keyTypes)
	}
	if r.Err() == nil && int(store.Len()) != n {
		r.Failf("want the keys of %d groups, found %d", n, store.Len())
	}
	for _, acc := range bk.accs {
		if r.Err() == nil {
			readAcc(r, acc, n)
		}
	}
	if r.Err() != nil {
		return end, bk, nil
	}
	bk.n = int32(n)
	if n > 0 {
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = int32(i)
		}
		bk.keyChunks = [][]arrow.Array{store.Gather(ids)}
	}
	return end, bk, nil
}
