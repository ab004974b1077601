package runtime

import (
	"fmt"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// A pairIndex numbers (string, integer) and (integer, string) key pairs
// as the byte-encoded index does: the same groups in the same order,
// batch and row-by-row lookups alike, NULLs included; find sees the
// pairs it numbered and no others.
func TestPairIndexMatchesBytesIndex(t *testing.T) {
	batches := mixedKeyBatches(t)
	ts := []*types.DataType{types.StringType(), types.BigIntType(), types.IntType()}
	for _, keys := range [][]int{{0, 1}, {2, 0}, {1, 2}} {
		kts := []*types.DataType{ts[keys[0]], ts[keys[1]]}
		byBatch, byRow := newPairIndex(keys, kts), newPairIndex(keys, kts)
		want := &bytesIndex{cols: keys, m: map[string]int32{}}
		var nextB, nextR, nextW int32
		for k, b := range batches {
			gids := make([]int32, b.Len)
			var newRows []int32
			nextB, newRows = byBatch.lookupBatch(b, nextB, gids, nil)
			var wantNew []int32
			for i := 0; i < b.Len; i++ {
				g, isNew := byRow.lookup(b, i, nextR)
				if isNew {
					nextR++
				}
				w, isNewW := want.lookup(b, i, nextW)
				if isNewW {
					nextW++
					wantNew = append(wantNew, int32(i))
				}
				if g != w || gids[i] != w {
					t.Fatalf("keys %v batch %d row %d: groups %d (row) %d (batch), want %d", keys, k, i, g, gids[i], w)
				}
				if f, ok := byBatch.find(b, i); !ok || f != w {
					t.Fatalf("keys %v batch %d row %d: find %d %v, want %d", keys, k, i, f, ok, w)
				}
			}
			if nextB != nextW || nextR != nextW || fmt.Sprint(newRows) != fmt.Sprint(wantNew) {
				t.Fatalf("keys %v batch %d: next %d/%d new rows %v, want %d %v", keys, k, nextB, nextR, newRows, nextW, wantNew)
			}
		}
		if byBatch.count() != want.count() || byRow.count() != want.count() {
			t.Fatalf("keys %v: %d and %d groups, want %d", keys, byBatch.count(), byRow.count(), want.count())
		}
	}
	// a pair of known values never seen together is not found
	x := newPairIndex([]int{0, 1}, []*types.DataType{types.StringType(), types.BigIntType()})
	bb := types.NewBatchBuilder([]*types.DataType{types.StringType(), types.BigIntType()})
	for _, r := range [][]any{{"a", int64(1)}, {"b", int64(2)}, {"a", int64(2)}} {
		if err := bb.Append(types.Insert, r); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	x.lookup(b, 0, 0)
	x.lookup(b, 1, 1)
	if g, ok := x.find(b, 2); ok {
		t.Fatalf("(a, 2) found as group %d", g)
	}
}
