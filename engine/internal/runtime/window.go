package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// windowFired reports whether the window ending at the wall-clock time end has
// fired under the watermark wm (epoch ms): its last millisecond is not
// after the watermark (Flink's TimeWindowUtil.isWindowFired).
func windowFired(s opspec.WindowSpec, end, wm int64) bool {
	if wm == MinWatermark {
		return false
	}
	if wm == MaxWatermark {
		return true
	}
	return s.ToUTC(end)-1 <= wm
}

// timestampsMillis reads a TIMESTAMP / TIMESTAMP_LTZ column as epoch (or
// wall-clock) milliseconds, flooring finer precisions; valid reports
// non-NULL rows (nil when all are valid).
func timestampsMillis(arr arrow.Array) (ms []int64, valid []byte) {
	vals := vector.Values[int64](arr)
	unit := arrow.Millisecond
	if tt, ok := arr.DataType().(*arrow.TimestampType); ok {
		unit = tt.Unit
	}
	if arr.NullN() > 0 {
		valid = vector.Validity(arr)
	}
	per := types.UnitsPerSecond(unit) / 1000
	switch {
	case unit == arrow.Second:
		out := make([]int64, len(vals))
		for i, v := range vals {
			out[i] = v * 1000
		}
		return out, valid
	case per <= 1:
		return vals, valid
	}
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = floorDivInt(v, per)
	}
	return out, valid
}

// millisColumn builds a TIMESTAMP(3) column of n copies of v.
func millisColumn(v int64, n int) arrow.Array {
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = v
	}
	return vector.FromValues(&arrow.TimestampType{Unit: arrow.Millisecond}, vals, nil, 0)
}

// groupByWindowEnd groups the rows of a window-end column (window_end of a
// window TVF's output, epoch ms) by window, in order of first appearance.
// Rows with a NULL end are skipped; rows of windows that fired already
// under the watermark wm (their last millisecond is not after it) are
// counted in late and left out, as Flink's window operators drop them.
func groupByWindowEnd(endCol arrow.Array, wm int64) (groups map[int64][]int32, order []int64, late int64) {
	ends, valid := timestampsMillis(endCol)
	groups = map[int64][]int32{}
	for i, e := range ends {
		if valid != nil && !vector.BitIsSet(valid, i) {
			continue
		}
		if wm != MinWatermark && e-1 <= wm {
			late++
			continue
		}
		if _, ok := groups[e]; !ok {
			order = append(order, e)
		}
		groups[e] = append(groups[e], int32(i))
	}
	return groups, order, late
}
