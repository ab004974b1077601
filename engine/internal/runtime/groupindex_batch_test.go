package runtime

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// mixedKeyBatches builds batches of (s STRING, n BIGINT, i INT, d DOUBLE)
// with short and long strings, -1 among the integers, NULLs in every
// column, and slices that do not start at row 0.
func mixedKeyBatches(t *testing.T) []*types.Batch {
	t.Helper()
	ts := []*types.DataType{types.StringType(), types.BigIntType(), types.IntType(), types.DoubleType()}
	r := rand.New(rand.NewSource(3))
	strs := []string{"", "a", "ORD", "1234567", "12345678", "a rather long airport name", "ORD ", "\x00", "\x00\x00"}
	var out []*types.Batch
	for k := 0; k < 6; k++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < 300; i++ {
			row := []any{strs[r.Intn(len(strs))], int64(r.Intn(7) - 3), int32(r.Intn(5) - 2), float64(r.Intn(100)) / 4}
			for c := range row {
				if k%2 == 1 && r.Intn(9) == 0 {
					row[c] = nil
				}
			}
			if err := bb.Append(types.Insert, row); err != nil {
				t.Fatal(err)
			}
		}
		b := bb.Build()
		if k >= 4 {
			b = b.Slice(17, 250)
		}
		out = append(out, b)
	}
	return out
}

// The batch lookup gives every row the group, and every new key the id,
// that the row-by-row lookup gives: string and integer keys, NULLs, -1,
// values longer than 7 bytes, sliced batches.
func TestLookupBatchMatchesRowByRow(t *testing.T) {
	batches := mixedKeyBatches(t)
	for _, col := range []int{0, 1, 2} {
		keyType := []*types.DataType{types.StringType(), types.BigIntType(), types.IntType()}[col]
		byBatch := newGroupIndex([]int{col}, []*types.DataType{keyType})
		byRow := newGroupIndex([]int{col}, []*types.DataType{keyType})
		bx, ok := byBatch.(batchIndex)
		if !ok {
			t.Fatalf("column %d: %T has no batch lookup", col, byBatch)
		}
		var nextB, nextR int32
		for k, b := range batches {
			gids := make([]int32, b.Len)
			var newRows []int32
			nextB, newRows = bx.lookupBatch(b, nextB, gids, nil)
			var wantNew []int32
			for i := 0; i < b.Len; i++ {
				g, isNew := byRow.lookup(b, i, nextR)
				if isNew {
					nextR++
					wantNew = append(wantNew, int32(i))
				}
				if gids[i] != g {
					t.Fatalf("column %d batch %d row %d: group %d, row by row %d", col, k, i, gids[i], g)
				}
			}
			if nextB != nextR || fmt.Sprint(newRows) != fmt.Sprint(wantNew) {
				t.Fatalf("column %d batch %d: next %d new rows %v, row by row %d %v", col, k, nextB, newRows, nextR, wantNew)
			}
		}
		if byBatch.count() != byRow.count() || byBatch.count() == 0 {
			t.Fatalf("column %d: %d groups, row by row %d", col, byBatch.count(), byRow.count())
		}
	}
}

// The join's batch probe finds what findIn finds, NULLs matching only
// null-safe.
func TestStrIndexFindBatch(t *testing.T) {
	batches := mixedKeyBatches(t)
	for _, nullSafe := range []bool{false, true} {
		x := newStrIndex(0)
		var next int32
		for i := 0; i < batches[1].Len; i += 2 { // every other row of a batch with NULLs
			if _, isNew := x.lookup(batches[1], i, next); isNew {
				next++
			}
		}
		for k, b := range batches {
			c := b.Cols[0]
			ids := make([]int32, c.Len())
			x.findBatch(c, nullSafe, ids, nil)
			for i := range ids {
				want, ok := x.findIn(c, i)
				if !ok || c.IsNull(i) && !nullSafe {
					want = -1
				}
				if ids[i] != want {
					t.Fatalf("nullSafe %v batch %d row %d: %d, findIn %d", nullSafe, k, i, ids[i], want)
				}
			}
		}
	}
}

// The accumulators' batch loops agree with their row-by-row updates, also
// with NULLs, skipped rows (gid -1), runs of one group and sliced columns.
func TestAccumulateBatchMatchesUpdate(t *testing.T) {
	batches := mixedKeyBatches(t)
	argTypes := []*types.DataType{types.StringType(), types.BigIntType(), types.IntType(), types.DoubleType()}
	var specs []opspec.AggSpec
	for _, col := range []int{1, 2, 3} {
		at := argTypes[col]
		for _, f := range []string{"COUNT", "SUM", "SUM0", "AVG", "MIN", "MAX"} {
			specs = append(specs, opspec.AggSpec{Func: f, Args: []int{col}, ArgTypes: []*types.DataType{at}, Filter: -1, Type: at})
		}
	}
	for _, col := range []int{0, 1} {
		specs = append(specs, opspec.AggSpec{Func: "COUNT", Args: []int{col}, ArgTypes: []*types.DataType{argTypes[col]}, Distinct: true, Filter: -1, Type: types.BigIntType().NotNull()},
			opspec.AggSpec{Func: "SUM", Args: []int{1}, ArgTypes: []*types.DataType{types.BigIntType()}, Distinct: true, Filter: -1, Type: types.BigIntType()})
	}
	const groups = 5
	for _, s := range specs {
		byBatch, err := newAccumulator(s, false)
		if err != nil {
			t.Fatal(err)
		}
		byRow, _ := newAccumulator(s, false)
		byBatch.resize(groups)
		byRow.resize(groups)
		for k, b := range batches {
			gids := make([]int32, b.Len)
			for i := range gids {
				gids[i] = int32((i*7+k)%(groups+1)) - 1 // -1: a row skipped (FILTER)
				if k%3 == 1 {
					gids[i] = int32((i/40+k)%(groups+1)) - 1 // runs of one group (sorted input)
				}
			}
			args := []arrow.Array{b.Cols[s.Args[0]]}
			byBatch.accumulateBatch(gids, args)
			for i, g := range gids {
				if g >= 0 {
					byRow.update(g, args, i, false)
				}
			}
		}
		for g := int32(0); g < groups; g++ {
			got, want := byBatch.result(g), byRow.result(g)
			if !types.ValuesEqual(got, want) {
				t.Errorf("%s(%s%s) group %d: batch %v, row by row %v", s.Func, map[bool]string{true: "DISTINCT "}[s.Distinct], s.ArgTypes[0], g, got, want)
			}
		}
	}
}

// intIndex's memo of small keys never outlives the key: a key removed
// (retraction) or evicted (state TTL) and added again gets its new group
// in the batch lookup, keys on both sides of smallKeys and -1 keep theirs,
// and a key first numbered row by row is found by the batch lookup.
func TestIntIndexSmallKeysFollowTheTable(t *testing.T) {
	build := func(vals ...int64) *types.Batch {
		bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType()})
		for _, v := range vals {
			if err := bb.Append(types.Insert, []any{v}); err != nil {
				t.Fatal(err)
			}
		}
		return bb.Build()
	}
	x := newIntIndex(0)
	var next int32
	look := func(b *types.Batch) []int32 {
		gids := make([]int32, b.Len)
		next, _ = x.lookupBatch(b, next, gids, nil)
		return gids
	}
	// 7 first numbered by the row lookup, then found by the batch one
	if g, isNew := x.lookup(build(7), 0, next); !isNew || g != 0 {
		t.Fatalf("row lookup of 7: %d %v", g, isNew)
	}
	next++
	got := look(build(3, smallKeys-1, smallKeys, -1, 3, 7, smallKeys-1))
	if want := []int32{1, 2, 3, 4, 1, 0, 2}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("first batch: %v, want %v", got, want)
	}
	x.removeKey(3)
	x.evict(func(g int32) bool { return g == 2 }) // smallKeys-1
	got = look(build(smallKeys-1, 3, 3, smallKeys, -1, 7))
	if want := []int32{5, 6, 6, 3, 4, 0}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after removing 3 and evicting %d: %v, want %v", smallKeys-1, got, want)
	}
	if g, ok := x.findKey(3); !ok || g != 6 {
		t.Fatalf("findKey(3) = %d %v, want 6", g, ok)
	}
	if x.count() != 5 {
		t.Fatalf("%d groups, want 5 (7, 3, smallKeys-1, smallKeys, -1)", x.count())
	}
}
