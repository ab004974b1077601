package runtime

import (
	"fmt"
	"slices"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowRankStateVersion is the format version of WindowRank snapshots.
const windowRankStateVersion = 1

// A WindowRank snapshot (CheckpointedOperator) holds, after the header and
// the operator's shape (partition and order keys, row types, window_end
// column, the rank function and range): the watermark it has seen (rows
// of windows that fired under it are late), then each buffered window in
// order of its end: its end and its rows (a RowStore of the row types).

func (w *WindowRank) stateShape() string {
	return fmt.Sprintf("partition %v; order %v; rows (%s); end $%d; %s from %d to %d; rank number %v",
		w.PartitionKeys, w.Keys, typesShape(w.Types), w.EndCol, w.RankType, w.RankStart, w.RankEnd, w.WithRankNum)
}

// SnapshotState implements CheckpointedOperator.
func (w *WindowRank) SnapshotState() ([]byte, error) {
	wr := state.NewWriter(64 + int(w.rows)*8*len(w.Types))
	wr.Header("WindowRank", windowRankStateVersion)
	wr.String(w.stateShape())
	wr.Varint(w.wm)
	ends := make([]int64, 0, len(w.windows))
	for e := range w.windows {
		ends = append(ends, e)
	}
	slices.Sort(ends)
	wr.Count(len(ends))
	for _, e := range ends {
		wr.Varint(e)
		writeBufferedRows(wr, w.windows[e], w.Types)
	}
	if err := wr.Err(); err != nil {
		return nil, fmt.Errorf("WindowRank: %w", err)
	}
	return wr.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (w *WindowRank) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("WindowRank", windowRankStateVersion)
	checkShape(r, "WindowRank", w.stateShape())
	wm := r.Varint()
	nw := r.Count(3)
	windows := make(map[int64][]*types.Batch, nw)
	var rows int64
	for i := 0; i < nw && r.Err() == nil; i++ {
		e := r.Varint()
		bs := readBufferedRows(r, w.Types)
		if _, dup := windows[e]; r.Err() == nil && (dup || len(bs) == 0) {
			r.Failf("want each window once and with rows, found end %d again or empty", e)
		}
		windows[e] = bs
		rows += int64(batchRows(bs))
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("WindowRank: restoring state: %w", err)
	}
	w.windows, w.wm, w.rows = windows, wm, rows
	if w.Ctx != nil {
		w.Ctx.ReportState(w.StateSize())
	}
	return nil
}
