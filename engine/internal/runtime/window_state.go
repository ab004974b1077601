package runtime

import (
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// Snapshots of what several window and time operators share: rows
// buffered as batches and the per-input watermarks of a two-input
// operator.

// writeBufferedRows saves the rows of batches bs (columns of types ts, in
// order) as one RowStore. The batches hold insert-only rows: their kinds
// are not saved.
func writeBufferedRows(w *state.Writer, bs []*types.Batch, ts []*types.DataType) {
	store := NewRowStore(ts)
	for _, b := range bs {
		if b.Len > 0 {
			store.Append(b, nil)
		}
	}
	store.WriteState(w)
}

// readBufferedRows reads what writeBufferedRows saved: one batch of the
// rows, or none when there were none. The result is only valid when r
// has no error.
func readBufferedRows(r *state.Reader, ts []*types.DataType) []*types.Batch {
	store := ReadRowStore(r, ts)
	if r.Err() != nil || store.Len() == 0 {
		return nil
	}
	n := int(store.Len())
	return []*types.Batch{{Cols: store.Gather(seqIDs(n)), Len: n}}
}

// writeWatermarkTracker saves the per-input watermarks and the combined
// one of t. Idleness is not saved: it is the inputs' current status,
// which they announce again after a restore.
func writeWatermarkTracker(w *state.Writer, t *WatermarkTracker) {
	w.Int64s(t.wms)
	w.Varint(t.cur)
}

// readWatermarkTracker reads what writeWatermarkTracker saved into a new
// tracker of n inputs (all active).
func readWatermarkTracker(r *state.Reader, n int) *WatermarkTracker {
	t := NewWatermarkTracker(n)
	wms := readN(r, n, r.Int64s, "input watermarks")
	cur := r.Varint()
	if r.Err() == nil {
		copy(t.wms, wms)
		t.cur = cur
	}
	return t
}
