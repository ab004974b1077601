package runtime

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// rankTypes are the (k STRING, v INT) rows the Top-N tests rank by v DESC
// per k.
var rankTypes = []*types.DataType{types.StringType(), types.IntType()}

func rankHarness(t *testing.T, r *Rank) *harness {
	t.Helper()
	r.Keys = []opspec.SortKey{{Col: 1, Desc: true}}
	r.Types = rankTypes
	out := rankTypes
	if r.WithRankNum {
		out = append(append([]*types.DataType(nil), rankTypes...), types.BigIntType().NotNull())
	}
	return newHarness(t, r, out, false, nil)
}

// A Top-1 over insert-only input without the rank number updates the top
// row of its key in place (Flink's FastTop1Function): -U/+U, not -D/+I; a
// row that ties the top row or ranks below it changes nothing.
func TestRankTop1AppendOnlyUpdates(t *testing.T) {
	r := &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 1, AppendOnly: true}
	if !r.ByPosition() {
		t.Fatal("an append-only Top-1 emits by position")
	}
	h := rankHarness(t, r)
	h.push(0, rankTypes, ins("a", int32(1)), ins("b", int32(5)), ins("a", int32(3)))
	h.expect("+I[a, 1]", "+I[b, 5]", "-U[a, 1]", "+U[a, 3]")
	h.push(0, rankTypes, ins("a", int32(3)), ins("a", int32(2)), ins("b", int32(7)))
	h.expect("-U[b, 5]", "+U[b, 7]")
}

// Without -U (generateUpdateBefore = false, the consumer takes upserts)
// the Top-1 sends +U alone.
func TestRankTop1NoUpdateBefore(t *testing.T) {
	h := rankHarness(t, &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 1, AppendOnly: true, NoUpdateBefore: true})
	h.push(0, rankTypes, ins("a", int32(1)), ins("a", int32(3)))
	h.expect("+I[a, 1]", "+U[a, 3]")
}

// A Top-2 from rank 1 without the number over insert-only input
// (AppendOnlyTopNFunction) emits the row leaving (-D) and the row
// entering (+I).
func TestRankTopNAppendOnlyMembership(t *testing.T) {
	r := &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 2, AppendOnly: true}
	if r.ByPosition() {
		t.Fatal("an append-only Top-2 without the number emits by membership")
	}
	h := rankHarness(t, r)
	h.push(0, rankTypes, ins("a", int32(1)), ins("a", int32(3)), ins("a", int32(2)), ins("a", int32(0)))
	h.expect("+I[a, 1]", "+I[a, 3]", "-D[a, 1]", "+I[a, 2]")
}

// A range with an offset without the number (Flink's with-row-number
// algorithm, the rows carrying no number) updates the rows rank by rank.
func TestRankOffsetWithoutNumberByPosition(t *testing.T) {
	h := rankHarness(t, &Rank{PartitionKeys: []int{0}, RankStart: 2, RankEnd: 3, AppendOnly: true})
	// ranks of a: 1 → [1]; 3 → [3, 1]: rank 2 is a 1 (+I)
	h.push(0, rankTypes, ins("a", int32(1)), ins("a", int32(3)))
	h.expect("+I[a, 1]")
	// 2 → [3, 2, 1]: rank 2 becomes 2 (-U 1, +U 2), rank 3 is 1 (+I)
	h.push(0, rankTypes, ins("a", int32(2)))
	h.expect("-U[a, 1]", "+U[a, 2]", "+I[a, 1]")
	// 9 → [9, 3, 2]: rank 2 3 (was 2), rank 3 2 (was 1)
	h.push(0, rankTypes, ins("a", int32(9)))
	h.expect("-U[a, 2]", "+U[a, 3]", "-U[a, 1]", "+U[a, 2]")
}

// Over updating input (RetractStrategy) a Top-1 without the number is
// -D/+I (RetractableTopNFunction), also when the top row is retracted.
func TestRankTop1RetractMembership(t *testing.T) {
	r := &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 1}
	if r.ByPosition() {
		t.Fatal("a retracting Top-1 without the number emits by membership")
	}
	h := rankHarness(t, r)
	h.push(0, rankTypes, ins("a", int32(1)), ins("a", int32(3)))
	h.expect("+I[a, 1]", "-D[a, 1]", "+I[a, 3]")
	h.push(0, rankTypes, row(types.UpdateBefore, "a", int32(3)))
	h.expect("-D[a, 3]", "+I[a, 1]")
}

// With the rank number a retracted top row moves the next one up: -U/+U
// per rank and -D for the rank left empty.
func TestRankWithNumberRetract(t *testing.T) {
	h := rankHarness(t, &Rank{PartitionKeys: []int{0}, RankStart: 1, RankEnd: 2, WithRankNum: true})
	h.push(0, rankTypes, ins("a", int32(1)), ins("a", int32(3)))
	h.expect("+I[a, 1, 1]", "-U[a, 1, 1]", "+U[a, 3, 1]", "+I[a, 1, 2]")
	h.push(0, rankTypes, row(types.Delete, "a", int32(3)))
	h.expect("-U[a, 3, 1]", "+U[a, 1, 1]", "-D[a, 1, 2]")
}

// ORDER BY ... LIMIT 1 (no partition keys) is a global Top-1: -U/+U.
func TestRankGlobalTop1(t *testing.T) {
	h := rankHarness(t, &Rank{RankStart: 1, RankEnd: 1, AppendOnly: true})
	h.push(0, rankTypes, ins("a", int32(1)), ins("b", int32(5)), ins("a", int32(3)))
	h.expect("+I[a, 1]", "-U[a, 1]", "+U[b, 5]")
}
