package runtime

import (
	"fmt"
	"math/rand"
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

// Two string columns: pairs of values of up to 3 bytes each are keyed by
// their bytes and lengths (tinyPairKey), the others through each column's
// numbers; both ways give the byte-encoded index's groups in its order,
// batch and row by row, and find and remove see the same pairs. The
// values include ones whose bytes differ only by length ("", "\x00",
// "\x00\x00") or split differently between the columns ("ab"+"c",
// "a"+"bc"), values of 4 bytes and more, NULLs and sliced batches.
func TestPairIndexTinyStringPairs(t *testing.T) {
	strs := []string{"", "a", "ab", "abc", "bc", "c", "abcd", "ORD", "LAX", "\x00", "\x00\x00", "\x00\x00\x00", "a long name"}
	ts := []*types.DataType{types.StringType(), types.StringType()}
	r := rand.New(rand.NewSource(7))
	var batches []*types.Batch
	for k := 0; k < 8; k++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < 400; i++ {
			row := []any{strs[r.Intn(len(strs))], strs[r.Intn(len(strs))]}
			for c := range row {
				if k%2 == 1 && r.Intn(8) == 0 {
					row[c] = nil
				}
			}
			if err := bb.Append(types.Insert, row); err != nil {
				t.Fatal(err)
			}
		}
		b := bb.Build()
		if k >= 5 {
			b = b.Slice(13, 390)
		}
		batches = append(batches, b)
	}
	keys := []int{0, 1}
	byBatch, byRow := newPairIndex(keys, ts), newPairIndex(keys, ts)
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
				t.Fatalf("batch %d row %d: groups %d (row) %d (batch), want %d", k, i, g, gids[i], w)
			}
			if f, ok := byBatch.find(b, i); !ok || f != w {
				t.Fatalf("batch %d row %d: find %d %v, want %d", k, i, f, ok, w)
			}
		}
		if nextB != nextW || nextR != nextW || fmt.Sprint(newRows) != fmt.Sprint(wantNew) {
			t.Fatalf("batch %d: next %d/%d new rows %v, want %d %v", k, nextB, nextR, newRows, nextW, wantNew)
		}
	}
	if byBatch.count() != want.count() || byRow.count() != want.count() {
		t.Fatalf("%d and %d groups, want %d", byBatch.count(), byRow.count(), want.count())
	}
	if want.count() < 100 {
		t.Fatalf("only %d groups: the values do not mix", want.count())
	}
	// remove forgets exactly the pair removed, tiny or not
	b := batches[0]
	for _, i := range []int{0, 1, 2, 3} {
		byBatch.remove(b, i)
	}
	for i := 0; i < b.Len; i++ {
		w, _ := want.find(b, i)
		gone := false
		for _, j := range []int{0, 1, 2, 3} {
			if g, _ := want.find(b, j); g == w {
				gone = true
			}
		}
		if f, ok := byBatch.find(b, i); ok == gone || ok && f != w {
			t.Fatalf("row %d after remove: find %d %v, want %d (removed %v)", i, f, ok, w, gone)
		}
	}
}
