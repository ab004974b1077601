package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// WindowTableFunction evaluates a window TVF on its own (Flink's
// AlignedWindowTableFunctionOperator): every input row is emitted at once,
// once per window containing it (TUMBLE: one, HOP: size/slide, CUMULATE:
// one per step up to the window's end), followed by window_start,
// window_end and window_time. Rows with a NULL time attribute are dropped;
// late rows are not (the operator keeps no state). SESSION windows need
// state and use SessionWindowTableFunction.
type WindowTableFunction struct {
	BaseOperator
	Window  opspec.WindowSpec
	TimeCol int
	// TimeType is the type of window_time (TIMESTAMP(3) or TIMESTAMP_LTZ(3)).
	TimeType *types.DataType
	clock    Clock
	ws       [][2]int64
}

// Open implements Operator.
func (w *WindowTableFunction) Open(ctx *OpContext, out Output) error {
	w.BaseOperator.Open(ctx, out)
	w.clock = ctx.Config.clock()
	return w.Window.Validate()
}

// ProcessBatch implements Operator.
func (w *WindowTableFunction) ProcessBatch(_ int, b *types.Batch) error {
	var ts []int64
	var valid []byte
	if w.Window.Proctime {
		now := w.clock.Now().UnixMilli()
		ts = make([]int64, b.Len)
		for i := range ts {
			ts[i] = now
		}
	} else {
		ts, valid = timestampsMillis(b.Cols[w.TimeCol])
	}
	sel := make([]int32, 0, b.Len)
	starts := make([]int64, 0, b.Len)
	ends := make([]int64, 0, b.Len)
	times := make([]int64, 0, b.Len)
	all := true
	for i := 0; i < b.Len; i++ {
		if valid != nil && !vector.BitIsSet(valid, i) {
			all = false
			continue
		}
		w.ws = w.Window.WindowsOf(w.Window.ToLocal(ts[i]), w.ws)
		if len(w.ws) != 1 {
			all = false
		}
		for _, win := range w.ws {
			sel = append(sel, int32(i))
			starts = append(starts, win[0])
			ends = append(ends, win[1])
			t := win[1] - 1
			if w.TimeType.Root == types.TimestampLTZRoot {
				t = w.Window.ToUTC(win[1]) - 1
			}
			times = append(times, t)
		}
	}
	out := b
	if !all {
		out = TakeRows(b, sel)
	}
	ms := &arrow.TimestampType{Unit: arrow.Millisecond}
	cols := append(append([]arrow.Array(nil), out.Cols...),
		vector.FromValues(ms, starts, nil, 0),
		vector.FromValues(ms, ends, nil, 0),
		vector.FromValues(types.ToArrow(w.TimeType), times, nil, 0))
	return w.Emit(&types.Batch{Cols: cols, Kinds: out.Kinds, Len: len(sel)})
}
