package runtime

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// WindowRank is window Top-N and window deduplication (Flink's
// WindowRankOperator and WindowDeduplicateOperator): rows carry the
// window_end of their window; a window's rows are held until the
// watermark passes its end, then ranked per partition by the order keys
// and the rows ranked RankStart..RankEnd are emitted once (insert-only),
// with their rank number when WithRankNum is set. Rows of a window that
// already fired are late: dropped and counted.
type WindowRank struct {
	BaseOperator
	PartitionKeys []int
	Keys          []opspec.SortKey
	Types         []*types.DataType
	EndCol        int
	RankType      string
	RankStart     int64
	RankEnd       int64
	WithRankNum   bool

	windows map[int64][]*types.Batch
	wm      int64
	rows    int64
}

// Open implements Operator.
func (w *WindowRank) Open(ctx *OpContext, out Output) error {
	w.BaseOperator.Open(ctx, out)
	w.windows = map[int64][]*types.Batch{}
	w.wm = MinWatermark
	if w.RankType == "" {
		w.RankType = "ROW_NUMBER"
	}
	return nil
}

// ProcessBatch buffers rows by window.
func (w *WindowRank) ProcessBatch(_ int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("WindowRank doesn't support consuming update and delete changes")
	}
	groups, order, late := groupByWindowEnd(b.Cols[w.EndCol], w.wm)
	if late > 0 {
		w.Ctx.Metrics.LateDropped.Add(late)
	}
	for _, e := range order {
		sub := b
		if sel := groups[e]; len(sel) != b.Len {
			sub = TakeRows(b, sel)
		}
		w.windows[e] = append(w.windows[e], sub)
		w.rows += int64(sub.Len)
	}
	w.Ctx.ReportState(int64(len(w.windows)), w.rows*int64(16*len(w.Types)))
	return nil
}

// ProcessWatermark fires complete windows.
func (w *WindowRank) ProcessWatermark(_ int, wm int64) error {
	if wm <= w.wm {
		return nil
	}
	w.wm = wm
	var ends []int64
	for e := range w.windows {
		if wm == MaxWatermark || e-1 <= wm {
			ends = append(ends, e)
		}
	}
	sort.Slice(ends, func(a, b int) bool { return ends[a] < ends[b] })
	for _, e := range ends {
		bs := w.windows[e]
		delete(w.windows, e)
		all := ConcatBatches(bs, len(w.Types))
		w.rows -= int64(all.Len)
		if err := w.rank(all); err != nil {
			return err
		}
	}
	w.Ctx.ReportState(int64(len(w.windows)), w.rows*int64(16*len(w.Types)))
	return w.Out.EmitWatermark(wm)
}

func (w *WindowRank) rank(b *types.Batch) error {
	perm := sortIndex(b, overSortKeys(w.PartitionKeys, w.Keys), w.Types)
	var partCmp, orderCmp rowComparator
	if len(w.PartitionKeys) > 0 {
		keys := make([]opspec.SortKey, len(w.PartitionKeys))
		for i, p := range w.PartitionKeys {
			keys[i] = opspec.SortKey{Col: p, NullsFirst: true}
		}
		partCmp = newRowComparator(b, keys, w.Types)
	}
	orderCmp = newRowComparator(b, w.Keys, w.Types)
	var sel []int32
	var ranks []int64
	var rank, dense, pos int64
	for k, r := range perm {
		newPart := k == 0 || (partCmp != nil && partCmp(int(perm[k-1]), int(r)) != 0)
		if newPart {
			rank, dense, pos = 0, 0, 0
		}
		pos++
		tie := !newPart && orderCmp(int(perm[k-1]), int(r)) == 0
		switch w.RankType {
		case "RANK":
			if !tie {
				rank = pos
			}
		case "DENSE_RANK":
			if !tie {
				dense++
			}
			rank = dense
		default:
			rank = pos
		}
		if rank >= w.RankStart && (w.RankEnd < 0 || rank <= w.RankEnd) {
			sel = append(sel, r)
			ranks = append(ranks, rank)
		}
	}
	if len(sel) == 0 {
		return nil
	}
	out := TakeRows(b, sel)
	if w.WithRankNum {
		out.Cols = append(append([]arrow.Array(nil), out.Cols...), vector.FromValues(arrow.PrimitiveTypes.Int64, ranks, nil, 0))
	}
	return w.Emit(out)
}

// StateSize implements StateReporter.
func (w *WindowRank) StateSize() (int64, int64) {
	return int64(len(w.windows)), w.rows * int64(16*len(w.Types))
}
