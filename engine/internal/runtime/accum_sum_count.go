package runtime

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// The state SUM, SUM0 and AVG keep per group: the running sum of the
// non-NULL values and how many there are (a retraction subtracts both).
// SUM and AVG of one input type share it and differ only in their result;
// there is one kind per sum's Go type: int64 for integral input, float64
// for FLOAT/DOUBLE, *big.Int for DECIMAL (so that 38-digit sums never
// overflow mid-way). Each kind's saved form is its sums, then its counts.

// sumCountState saves and restores a sum-and-count state (accum_state.go
// for a whole accumulator, accum_group_state.go for one key's group in the
// disk state backend).
type sumCountState interface {
	writeState(w *state.Writer, n int)
	readState(r *state.Reader, n int)
	writeGroupState(w *state.Writer, g int32)
	readGroupState(r *state.Reader, g int32)
}

// sumCount is the sum and count of integral (int64) or FLOAT/DOUBLE
// (float64) values per group: what intSumCount and floatSumCount share.
type sumCount[T int64 | float64] struct {
	sums []T
	cnt  []int64
}

func (s *sumCount[T]) resize(n int) {
	for len(s.sums) < n {
		s.sums = append(s.sums, 0)
		s.cnt = append(s.cnt, 0)
	}
}

// add adds v to group g, or takes it away when retract.
func (s *sumCount[T]) add(g int32, v T, retract bool) {
	if retract {
		s.sums[g] -= v
		s.cnt[g]--
	} else {
		s.sums[g] += v
		s.cnt[g]++
	}
}

// mergeGroup adds group sg of src to group dst.
func (s *sumCount[T]) mergeGroup(dst int32, src *sumCount[T], sg int32) {
	s.sums[dst] += src.sums[sg]
	s.cnt[dst] += src.cnt[sg]
}

func (s *sumCount[T]) reset(g int32) { s.sums[g], s.cnt[g] = 0, 0 }

func (s *sumCount[T]) size() int64 { return int64(len(s.sums)) * 16 }

// intSumCount is the sum and count of integral values per group.
type intSumCount struct{ sumCount[int64] }

func (s *intSumCount) update(g int32, args []arrow.Array, i int, retract bool) {
	if args[0].IsNull(i) {
		return
	}
	s.add(g, int64Of(args[0], i), retract)
}

func (s *intSumCount) accumulateBatch(gids []int32, args []arrow.Array) {
	col := args[0]
	if sumIntsBatch(s.sums, s.cnt, gids, col) {
		return
	}
	vals := int64Values(col)
	nulls := col.NullN() > 0
	for i, g := range gids {
		if g < 0 || (nulls && col.IsNull(i)) {
			continue
		}
		s.sums[g] += vals[i]
		s.cnt[g]++
	}
}

func (s *intSumCount) writeState(w *state.Writer, n int) {
	w.Int64s(s.sums[:n])
	w.Int64s(s.cnt[:n])
}

func (s *intSumCount) readState(r *state.Reader, n int) {
	s.sums = readN(r, n, r.Int64s, "sums")
	s.cnt = readN(r, n, r.Int64s, "counts")
}

func (s *intSumCount) writeGroupState(w *state.Writer, g int32) {
	w.Varint(s.sums[g])
	w.Varint(s.cnt[g])
}

func (s *intSumCount) readGroupState(r *state.Reader, g int32) {
	s.sums[g] = r.Varint()
	s.cnt[g] = r.Varint()
}

// floatSumCount is the sum and count of FLOAT and DOUBLE values per group.
type floatSumCount struct{ sumCount[float64] }

func (s *floatSumCount) update(g int32, args []arrow.Array, i int, retract bool) {
	if args[0].IsNull(i) {
		return
	}
	s.add(g, float64Of(args[0], i), retract)
}

func (s *floatSumCount) accumulateBatch(gids []int32, args []arrow.Array) {
	col := args[0]
	if sumFloatsBatch(s.sums, s.cnt, gids, col) {
		return
	}
	nulls := col.NullN() > 0
	for i, g := range gids {
		if g < 0 || (nulls && col.IsNull(i)) {
			continue
		}
		s.sums[g] += float64Of(col, i)
		s.cnt[g]++
	}
}

func (s *floatSumCount) writeState(w *state.Writer, n int) {
	w.Float64s(s.sums[:n])
	w.Int64s(s.cnt[:n])
}

func (s *floatSumCount) readState(r *state.Reader, n int) {
	s.sums = readN(r, n, r.Float64s, "sums")
	s.cnt = readN(r, n, r.Int64s, "counts")
}

func (s *floatSumCount) writeGroupState(w *state.Writer, g int32) {
	w.Float64(s.sums[g])
	w.Varint(s.cnt[g])
}

func (s *floatSumCount) readGroupState(r *state.Reader, g int32) {
	s.sums[g] = r.Float64()
	s.cnt[g] = r.Varint()
}

// decSumCount is the sum (unscaled, at the input's scale) and count of
// DECIMAL values per group.
type decSumCount struct {
	sums []*big.Int
	cnt  []int64
}

func (s *decSumCount) resize(n int) {
	for len(s.sums) < n {
		s.sums = append(s.sums, new(big.Int))
		s.cnt = append(s.cnt, 0)
	}
}

func (s *decSumCount) update(g int32, args []arrow.Array, i int, retract bool) {
	if args[0].IsNull(i) {
		return
	}
	v := args[0].(*array.Decimal128).Value(i).BigInt()
	if retract {
		s.sums[g].Sub(s.sums[g], v)
		s.cnt[g]--
	} else {
		s.sums[g].Add(s.sums[g], v)
		s.cnt[g]++
	}
}

func (s *decSumCount) accumulateBatch(gids []int32, args []arrow.Array) {
	col := args[0].(*array.Decimal128)
	for i, g := range gids {
		if g >= 0 && col.IsValid(i) {
			s.sums[g].Add(s.sums[g], col.Value(i).BigInt())
			s.cnt[g]++
		}
	}
}

// mergeGroup adds group sg of src to group dst.
func (s *decSumCount) mergeGroup(dst int32, src *decSumCount, sg int32) {
	s.sums[dst].Add(s.sums[dst], src.sums[sg])
	s.cnt[dst] += src.cnt[sg]
}

func (s *decSumCount) reset(g int32) { s.sums[g].SetInt64(0); s.cnt[g] = 0 }

func (s *decSumCount) size() int64 { return int64(len(s.sums)) * 48 }

func (s *decSumCount) writeState(w *state.Writer, n int) {
	writeBigInts(w, s.sums[:n])
	w.Int64s(s.cnt[:n])
}

func (s *decSumCount) readState(r *state.Reader, n int) {
	s.sums = readBigInts(r, n)
	s.cnt = readN(r, n, r.Int64s, "counts")
}

func (s *decSumCount) writeGroupState(w *state.Writer, g int32) {
	w.BigInt(s.sums[g])
	w.Varint(s.cnt[g])
}

func (s *decSumCount) readGroupState(r *state.Reader, g int32) {
	if v := r.BigInt(); v != nil {
		s.sums[g].Set(v)
	}
	s.cnt[g] = r.Varint()
}
