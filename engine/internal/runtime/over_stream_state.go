package runtime

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// streamOverStateVersion is the format version of StreamOver snapshots.
const streamOverStateVersion = 1

// A StreamOver snapshot (CheckpointedOperator) holds, after the header and
// the operator's shape (partition key types, input types, time column,
// rowtime or proctime, the frame, the calls): the watermark it has seen
// (rows not after it are late), the number of partition ids, the
// partition index, the rows held (a RowStore of the input types: the rows
// waiting for the watermark and the rows of bounded frames, which leave
// the frame by retraction) with their times, which rows each partition
// waits with and holds in its frame, the partitions waiting in order, the
// state retention's cleanup timer and per partition cleanup times, the
// free ids, then each accumulator (accum_state.go).

func (o *StreamOver) stateShape() string {
	var b strings.Builder
	fmt.Fprintf(&b, "partition (%s); input (%s); time $%d rowtime %v; frame %s; calls",
		typesShape(o.KeyTypes), typesShape(o.InTypes), o.TimeCol, o.Rowtime, o.Frame)
	for _, c := range o.Calls {
		s := overAggSpec(c)
		fmt.Fprintf(&b, " %s(%s) %s;", s.String(), typesShape(s.ArgTypes), s.Type)
	}
	return b.String()
}

// overSpecs are the aggregate calls of the operator's accumulators.
func (o *StreamOver) overSpecs() []opspec.AggSpec {
	specs := make([]opspec.AggSpec, len(o.Calls))
	for k, c := range o.Calls {
		specs[k] = overAggSpec(c)
	}
	return specs
}

// SnapshotState implements CheckpointedOperator.
func (o *StreamOver) SnapshotState() ([]byte, error) {
	_, size := o.StateSize()
	w := state.NewWriter(64 + int(size))
	w.Header("StreamOver", streamOverStateVersion)
	w.String(o.stateShape())
	w.Varint(o.wm)
	n := int(o.nParts)
	w.Count(n)
	writeGroupIndex(w, o.index)
	// the rows held, then per partition how many wait and how many are in
	// its frame (in that order in the store)
	store := NewRowStore(o.InTypes)
	var times []int64
	hold := func(rows []overRow) {
		for i := 0; i < len(rows); {
			j := i
			var sel []int32
			for j < len(rows) && rows[j].b == rows[i].b {
				sel = append(sel, rows[j].row)
				times = append(times, rows[j].ts)
				j++
			}
			store.Append(rows[i].b, sel)
			i = j
		}
	}
	counts := make([]int64, 0, 2*n)
	for pid := 0; pid < n; pid++ {
		var pending, frame []overRow
		if pid < len(o.pending) {
			pending = o.pending[pid]
		}
		if pid < len(o.frame) {
			frame = o.frame[pid]
		}
		hold(pending)
		hold(frame)
		counts = append(counts, int64(len(pending)), int64(len(frame)))
	}
	store.WriteState(w)
	w.Int64s(times)
	w.Int64s(counts)
	w.Int32s(o.waiting)
	w.Varint(o.ttl.next)
	w.Int64s(o.cleanup)
	w.Int32s(o.free)
	for _, acc := range o.accs {
		writeAcc(w, acc, n)
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("StreamOver: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (o *StreamOver) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("StreamOver", streamOverStateVersion)
	checkShape(r, "StreamOver", o.stateShape())
	wm := r.Varint()
	n := r.Count(1)
	index := newGroupIndex(o.PartitionKeys, o.KeyTypes)
	readGroupIndex(r, index, int32(n))
	var store *RowStore
	if r.Err() == nil {
		store = ReadRowStore(r, o.InTypes)
	}
	var held int
	if store != nil {
		held = int(store.Len())
	}
	times := readN(r, held, r.Int64s, "row times")
	counts := readN(r, 2*n, r.Int64s, "waiting and frame row counts")
	total := int64(0)
	for _, c := range counts {
		if r.Err() == nil && (c < 0 || c > int64(held)-total) {
			r.Failf("want row counts adding up to %d, found %v", held, c)
		}
		total += c
	}
	if r.Err() == nil && total != int64(held) {
		r.Failf("want row counts adding up to %d, found %d", held, total)
	}
	waiting := readIDs(r, int32(n), "a waiting partition")
	next := r.Varint()
	cleanup := readN(r, n, r.Int64s, "cleanup times")
	free := readIDs(r, int32(n), "a free partition id")
	var accs []accumulator
	if r.Err() == nil {
		var err error
		if accs, err = freshAccumulators(o.accs, o.overSpecs(), o.bounded()); err != nil {
			return fmt.Errorf("StreamOver: restoring state: %w", err)
		}
	}
	for _, acc := range accs {
		if r.Err() == nil {
			readAcc(r, acc, n)
		}
	}
	var pending, frame [][]overRow
	var isWait []bool
	if r.Err() == nil {
		pending, frame, isWait = make([][]overRow, n), make([][]overRow, n), make([]bool, n)
		b := &types.Batch{Cols: store.Gather(seqIDs(held)), Len: held}
		at := int32(0)
		take := func(c int64) []overRow {
			if c == 0 {
				return nil
			}
			rows := make([]overRow, c)
			for i := range rows {
				rows[i] = overRow{ts: times[at], b: b, row: at}
				at++
			}
			return rows
		}
		for pid := 0; pid < n; pid++ {
			pending[pid] = take(counts[2*pid])
			frame[pid] = take(counts[2*pid+1])
		}
		for _, pid := range waiting {
			if isWait[pid] || len(pending[pid]) == 0 {
				r.Failf("want each waiting partition once and with rows, found %d again or without", pid)
				break
			}
			isWait[pid] = true
		}
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("StreamOver: restoring state: %w", err)
	}
	o.wm, o.index, o.nParts, o.accs = wm, index, int32(n), accs
	o.pending, o.frame, o.waiting, o.isWait = pending, frame, waiting, isWait
	o.ttl.next, o.cleanup, o.free = next, cleanup, free
	o.reportState()
	return nil
}
