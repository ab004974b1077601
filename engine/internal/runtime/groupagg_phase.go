package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// AggPhase is a GroupAgg's phase in a two-phase batch aggregation
// (engine/internal/plan/physical/agg_phase.go, Flink's LocalHashAggregate
// and HashAggregate(isMerge=[true])).
type AggPhase int8

const (
	// CompletePhase aggregates input rows into final results.
	CompletePhase AggPhase = iota
	// LocalPhase aggregates input rows and emits, at the end of its input,
	// one row per group: the keys, then each call's partial state (its
	// result, except for COUNT, whose count is never NULL, and AVG: sum and
	// count).
	LocalPhase
	// MergePhase merges the partial rows of LocalPhase operators (the
	// columns named by MergeCols) and emits the final results.
	MergePhase
)

// partialAcc is implemented by accumulators whose partial state is not
// their result, or that merge partial states otherwise than by
// accumulating them as input values.
type partialAcc interface {
	// partialArrays are the partial state columns of groups 0..n-1.
	partialArrays(n int) []arrow.Array
	// mergePartial merges row i of the partial columns into group gids[i]
	// (skipping gids[i] < 0).
	mergePartial(gids []int32, cols []arrow.Array)
}

// partialArrays fills cols after the keys with the partial state of every
// call (LocalPhase).
func (a *GroupAgg) partialArrays(cols []arrow.Array, n int) {
	j := len(a.Keys)
	for _, acc := range a.accs {
		if p, ok := acc.(partialAcc); ok {
			for _, arr := range p.partialArrays(n) {
				cols[j] = arr
				j++
			}
			continue
		}
		// SUM, SUM0, MIN, MAX: the partial state is the result, merged by
		// aggregating the partial results
		cols[j] = resultArray(acc, n, a.OutTypes[j])
		j++
	}
}

// mergePartial merges the partial columns of call k of batch b into the
// groups gids (MergePhase; the local phase applied FILTER already).
func (a *GroupAgg) mergePartial(k int, gids []int32, b *types.Batch) {
	cols := make([]arrow.Array, len(a.MergeCols[k]))
	for i, c := range a.MergeCols[k] {
		cols[i] = b.Cols[c]
	}
	if p, ok := a.accs[k].(partialAcc); ok {
		p.mergePartial(gids, cols)
		return
	}
	a.accs[k].accumulateBatch(gids, cols)
}

func (a *countAcc) partialArrays(n int) []arrow.Array {
	return []arrow.Array{vector.FromValues(arrow.PrimitiveTypes.Int64, append([]int64(nil), a.counts[:n]...), nil, 0)}
}

func (a *countAcc) mergePartial(gids []int32, cols []arrow.Array) {
	counts := int64Values(cols[0])
	for i, g := range gids {
		if g >= 0 {
			a.counts[g] += counts[i]
		}
	}
}

func (a *avgIntAcc) partialArrays(n int) []arrow.Array {
	return []arrow.Array{
		vector.FromValues(arrow.PrimitiveTypes.Int64, append([]int64(nil), a.sums[:n]...), nil, 0),
		vector.FromValues(arrow.PrimitiveTypes.Int64, append([]int64(nil), a.cnt[:n]...), nil, 0),
	}
}

func (a *avgIntAcc) mergePartial(gids []int32, cols []arrow.Array) {
	sums, counts := int64Values(cols[0]), int64Values(cols[1])
	for i, g := range gids {
		if g >= 0 {
			a.sums[g] += sums[i]
			a.cnt[g] += counts[i]
		}
	}
}

func (a *avgFloatAcc) partialArrays(n int) []arrow.Array {
	return []arrow.Array{
		vector.FromValues(arrow.PrimitiveTypes.Float64, append([]float64(nil), a.sums[:n]...), nil, 0),
		vector.FromValues(arrow.PrimitiveTypes.Int64, append([]int64(nil), a.cnt[:n]...), nil, 0),
	}
}

func (a *avgFloatAcc) mergePartial(gids []int32, cols []arrow.Array) {
	sums, counts := vector.Values[float64](cols[0]), int64Values(cols[1])
	for i, g := range gids {
		if g >= 0 {
			a.sums[g] += sums[i]
			a.cnt[g] += counts[i]
		}
	}
}
