package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/vector"
)

// Batch loops of the accumulators (issue 19 §3): one loop per column type
// over a batch and its group-id vector (gids[i] < 0 skips row i), the
// values read straight from the column's buffer and NULLs from its
// validity bitmap, instead of a call per value.

type intValue interface {
	~int8 | ~int16 | ~int32 | ~int64
}

type numValue interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// addInts adds vals[i] to sums[gids[i]] and counts it in cnt.
func addInts[T intValue](sums, cnt []int64, gids []int32, vals []T, bits []byte, off int) {
	vals = vals[:len(gids)]
	if bits == nil {
		for i, g := range gids {
			if g >= 0 {
				sums[g] += int64(vals[i])
				cnt[g]++
			}
		}
		return
	}
	for i, g := range gids {
		if g >= 0 && isValidBit(bits, off, i) {
			sums[g] += int64(vals[i])
			cnt[g]++
		}
	}
}

// addFloats adds vals[i] as float64 to sums[gids[i]] and counts it in cnt.
func addFloats[T numValue](sums []float64, cnt []int64, gids []int32, vals []T, bits []byte, off int) {
	vals = vals[:len(gids)]
	if bits == nil {
		for i, g := range gids {
			if g >= 0 {
				sums[g] += float64(vals[i])
				cnt[g]++
			}
		}
		return
	}
	for i, g := range gids {
		if g >= 0 && isValidBit(bits, off, i) {
			sums[g] += float64(vals[i])
			cnt[g]++
		}
	}
}

// sumIntsBatch is addInts over an integral, date/time or interval
// column; ok is false for another layout (the caller goes row by row).
func sumIntsBatch(sums, cnt []int64, gids []int32, col arrow.Array) (ok bool) {
	bits, off := validityOf(col)
	switch col.DataType().ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		addInts(sums, cnt, gids, vector.Values[int64](col), bits, off)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		addInts(sums, cnt, gids, vector.Values[int32](col), bits, off)
	case arrow.INT16:
		addInts(sums, cnt, gids, vector.Values[int16](col), bits, off)
	case arrow.INT8:
		addInts(sums, cnt, gids, vector.Values[int8](col), bits, off)
	default:
		return false
	}
	return true
}

// sumFloatsBatch is addFloats over a numeric column of a fixed-width
// type; ok is false for another layout.
func sumFloatsBatch(sums []float64, cnt []int64, gids []int32, col arrow.Array) (ok bool) {
	bits, off := validityOf(col)
	switch col.DataType().ID() {
	case arrow.FLOAT64:
		addFloats(sums, cnt, gids, vector.Values[float64](col), bits, off)
	case arrow.FLOAT32:
		addFloats(sums, cnt, gids, vector.Values[float32](col), bits, off)
	case arrow.INT64:
		addFloats(sums, cnt, gids, vector.Values[int64](col), bits, off)
	case arrow.INT32:
		addFloats(sums, cnt, gids, vector.Values[int32](col), bits, off)
	case arrow.INT16:
		addFloats(sums, cnt, gids, vector.Values[int16](col), bits, off)
	case arrow.INT8:
		addFloats(sums, cnt, gids, vector.Values[int8](col), bits, off)
	default:
		return false
	}
	return true
}

// extremeInts keeps the least (or, with isMax, the greatest) of vals per
// group in best, has marking the groups that have one.
func extremeInts[T intValue](best []int64, has []bool, isMax bool, gids []int32, vals []T, bits []byte, off int) {
	vals = vals[:len(gids)]
	for i, g := range gids {
		if g < 0 || bits != nil && !isValidBit(bits, off, i) {
			continue
		}
		v := int64(vals[i])
		if !has[g] || (isMax && v > best[g]) || (!isMax && v < best[g]) {
			best[g] = v
			has[g] = true
		}
	}
}

// extremeFloats is extremeInts for floating point values (NaN never
// replaces a value, nor is it replaced, as cmpF orders it).
func extremeFloats[T ~float32 | ~float64](best []float64, has []bool, isMax bool, gids []int32, vals []T, bits []byte, off int) {
	vals = vals[:len(gids)]
	for i, g := range gids {
		if g < 0 || bits != nil && !isValidBit(bits, off, i) {
			continue
		}
		v := float64(vals[i])
		if !has[g] || (isMax && v > best[g]) || (!isMax && v < best[g]) {
			best[g] = v
			has[g] = true
		}
	}
}
