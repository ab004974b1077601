package runtime

import (
	"fmt"
	"slices"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowJoinStateVersion is the format version of WindowJoin snapshots.
const windowJoinStateVersion = 1

// A WindowJoin snapshot (CheckpointedOperator) holds, after the header and
// the operator's shape (join kind, keys, both sides' types, window_end
// columns, the residual condition): the watermark it has seen (rows of
// windows that fired under it are late) and each input's watermark, then
// each buffered window in order of its end: its end and the rows of each
// side (a RowStore of the side's types).

func (j *WindowJoin) stateShape() string {
	s := fmt.Sprintf("%s join; keys %v = %v; left (%s) end $%d; right (%s) end $%d; null-safe %v",
		j.Spec.Kind, j.Spec.LeftKeys, j.Spec.RightKeys, typesShape(j.Spec.LeftTypes), j.LeftEnd,
		typesShape(j.Spec.RightTypes), j.RightEnd, j.Spec.NullSafe)
	if j.Spec.Residual != nil {
		s += fmt.Sprintf("; residual %v", j.Spec.Residual)
	}
	return s
}

// SnapshotState implements CheckpointedOperator.
func (j *WindowJoin) SnapshotState() ([]byte, error) {
	w := state.NewWriter(64 + int(j.rows)*8*(len(j.Spec.LeftTypes)+len(j.Spec.RightTypes)))
	w.Header("WindowJoin", windowJoinStateVersion)
	w.String(j.stateShape())
	w.Varint(j.wm)
	writeWatermarkTracker(w, j.wms)
	ends := make([]int64, 0, len(j.windows))
	for e := range j.windows {
		ends = append(ends, e)
	}
	slices.Sort(ends)
	w.Count(len(ends))
	for _, e := range ends {
		win := j.windows[e]
		w.Varint(e)
		writeBufferedRows(w, win[0], j.Spec.LeftTypes)
		writeBufferedRows(w, win[1], j.Spec.RightTypes)
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("WindowJoin: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (j *WindowJoin) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("WindowJoin", windowJoinStateVersion)
	checkShape(r, "WindowJoin", j.stateShape())
	wm := r.Varint()
	wms := readWatermarkTracker(r, 2)
	nw := r.Count(5)
	windows := make(map[int64]*[2][]*types.Batch, nw)
	var rows int64
	for i := 0; i < nw && r.Err() == nil; i++ {
		e := r.Varint()
		win := &[2][]*types.Batch{readBufferedRows(r, j.Spec.LeftTypes), nil}
		if r.Err() == nil {
			win[1] = readBufferedRows(r, j.Spec.RightTypes)
		}
		if _, dup := windows[e]; r.Err() == nil && dup {
			r.Failf("want each window once, found end %d twice", e)
		}
		windows[e] = win
		rows += int64(batchRows(win[0]) + batchRows(win[1]))
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("WindowJoin: restoring state: %w", err)
	}
	j.windows, j.wms, j.wm, j.rows = windows, wms, wm, rows
	if j.Ctx != nil {
		j.Ctx.ReportState(j.StateSize())
	}
	return nil
}
