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

// clustered reports whether the rows of a batch come in runs of one group
// (input sorted or clustered by the key, as the hours of time-ordered
// rows), judged by its first 64 rows: then the loops below keep a run's
// sum in registers instead of storing and loading it for every row, which
// otherwise chains each row to the previous one through memory. Each
// group's values are added one by one in row order either way.
func clustered(gids []int32) bool {
	n := min(len(gids), 64)
	changes := 0
	for i := 1; i < n; i++ {
		if gids[i] != gids[i-1] {
			changes++
		}
	}
	return changes*4 <= n
}

// addSums adds vals[i], converted to S, to sums[gids[i]] and counts it
// in cnt (gids[i] < 0: skipped; with bits, only the rows whose value is
// not NULL). Each group's values are added in row order, also when a run
// of rows of one group is summed in registers, so that DOUBLE sums are
// those of the row-at-a-time accumulators. addSums[int64, T] sums an
// integral column exactly, addSums[float64, T] any numeric one as DOUBLE.
func addSums[S int64 | float64, T numValue](sums []S, cnt []int64, gids []int32, vals []T, bits []byte, off int) {
	vals = vals[:len(gids)]
	if !clustered(gids) {
		if bits == nil {
			for i, g := range gids {
				if g >= 0 {
					sums[g] += S(vals[i])
					cnt[g]++
				}
			}
			return
		}
		for i, g := range gids {
			if g >= 0 && isValidBit(bits, off, i) {
				sums[g] += S(vals[i])
				cnt[g]++
			}
		}
		return
	}
	cur := int32(-1)
	var s S
	var c int64
	for i, g := range gids {
		if g != cur {
			if cur >= 0 {
				sums[cur], cnt[cur] = s, c
			}
			if cur = g; g >= 0 {
				s, c = sums[g], cnt[g]
			}
		}
		if g >= 0 && (bits == nil || isValidBit(bits, off, i)) {
			s += S(vals[i])
			c++
		}
	}
	if cur >= 0 {
		sums[cur], cnt[cur] = s, c
	}
}

// countRows adds to counts[g] the rows of group g (gids[i] < 0: skipped;
// with bits, only the rows whose value is not NULL).
func countRows(counts []int64, gids []int32, bits []byte, off int) {
	if !clustered(gids) {
		if bits == nil {
			for _, g := range gids {
				if g >= 0 {
					counts[g]++
				}
			}
			return
		}
		for i, g := range gids {
			if g >= 0 && isValidBit(bits, off, i) {
				counts[g]++
			}
		}
		return
	}
	cur := int32(-1)
	var c int64
	for i, g := range gids {
		if g != cur {
			if cur >= 0 {
				counts[cur] = c
			}
			if cur = g; g >= 0 {
				c = counts[g]
			}
		}
		if g >= 0 && (bits == nil || isValidBit(bits, off, i)) {
			c++
		}
	}
	if cur >= 0 {
		counts[cur] = c
	}
}

// sumIntsBatch is addSums over an integral, date/time or interval
// column; ok is false for another layout (the caller goes row by row).
func sumIntsBatch(sums, cnt []int64, gids []int32, col arrow.Array) (ok bool) {
	bits, off := validityOf(col)
	switch col.DataType().ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		addSums(sums, cnt, gids, vector.Values[int64](col), bits, off)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		addSums(sums, cnt, gids, vector.Values[int32](col), bits, off)
	case arrow.INT16:
		addSums(sums, cnt, gids, vector.Values[int16](col), bits, off)
	case arrow.INT8:
		addSums(sums, cnt, gids, vector.Values[int8](col), bits, off)
	default:
		return false
	}
	return true
}

// sumFloatsBatch is addSums over a numeric column of a fixed-width
// type; ok is false for another layout.
func sumFloatsBatch(sums []float64, cnt []int64, gids []int32, col arrow.Array) (ok bool) {
	bits, off := validityOf(col)
	switch col.DataType().ID() {
	case arrow.FLOAT64:
		addSums(sums, cnt, gids, vector.Values[float64](col), bits, off)
	case arrow.FLOAT32:
		addSums(sums, cnt, gids, vector.Values[float32](col), bits, off)
	case arrow.INT64:
		addSums(sums, cnt, gids, vector.Values[int64](col), bits, off)
	case arrow.INT32:
		addSums(sums, cnt, gids, vector.Values[int32](col), bits, off)
	case arrow.INT16:
		addSums(sums, cnt, gids, vector.Values[int16](col), bits, off)
	case arrow.INT8:
		addSums(sums, cnt, gids, vector.Values[int8](col), bits, off)
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
