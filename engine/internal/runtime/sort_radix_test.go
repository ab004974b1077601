package runtime

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestRadixSortIndexMatchesComparator checks that the radix path orders
// rows exactly as the comparator sort does (ties in arrival order) for
// integral, temporal, boolean and low cardinality string keys, ASC and
// DESC, NULLS FIRST and LAST, several keys, and extreme BIGINT values, and
// that sortRows, which decodes the key columns from the sorted codes,
// returns the same rows as gathering them (strings of up to 8 bytes alone,
// and mixed with longer ones).
func TestRadixSortIndexMatchesComparator(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.IntType(), types.BigIntType(), types.BooleanType(), types.TimestampType(3), types.TinyIntType()}
	r := rand.New(rand.NewSource(11))
	base := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	build := func(n int, nullRate int, extreme bool) *types.Batch {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < n; i++ {
			row := []any{
				fmt.Sprintf("k%02d", r.Intn(30)),
				int32(r.Intn(400) - 200),
				int64(r.Intn(1000)) * 1_000_003,
				r.Intn(2) == 0,
				base.Add(time.Duration(r.Intn(5000)) * time.Minute),
				int8(r.Intn(256) - 128),
			}
			if extreme {
				row[2] = []int64{math.MinInt64, math.MaxInt64, 0, -1, 1}[r.Intn(5)]
			}
			if nullRate > 0 && r.Intn(4) == 0 {
				// values longer than a word beside the short ones
				row[0] = fmt.Sprintf("a longer key %02d", r.Intn(10))
			}
			for c := range row {
				if nullRate > 0 && r.Intn(nullRate) == 0 {
					row[c] = nil
				}
			}
			if err := bb.Append(types.Insert, row); err != nil {
				t.Fatal(err)
			}
		}
		return bb.Build()
	}
	keySets := [][]opspec.SortKey{
		{{Col: 0, NullsFirst: true}, {Col: 1, Desc: true}},
		{{Col: 1}, {Col: 3, Desc: true, NullsFirst: true}},
		{{Col: 2, Desc: true, NullsFirst: true}, {Col: 0, Desc: true}},
		{{Col: 4}, {Col: 5, Desc: true}},
		{{Col: 3}, {Col: 0}, {Col: 5, NullsFirst: true}},
		{{Col: 0, Desc: true, NullsFirst: false}},
	}
	cases := []radixCase{
		{"no nulls", build(6000, 0, false), false},
		{"nulls", build(5000, 7, false), false},
		{"extreme bigint", build(4096, 9, true), true},
	}
	// with small leaves the batches take the bucketed path too (the
	// leading key's top digit split while packing, the buckets sorted by
	// the rest, larger ones split again)
	defer func(old int) { radixLeafRows = old }(radixLeafRows)
	for _, leaf := range []int{radixLeafRows, 100} {
		radixLeafRows = leaf
		t.Run(fmt.Sprintf("leaf %d", leaf), func(t *testing.T) { checkRadixAgainstComparator(t, ts, cases, keySets) })
	}
}

// radixCase is a batch for checkRadixAgainstComparator; extreme when its
// BIGINT column holds the type's extremes.
type radixCase struct {
	name    string
	b       *types.Batch
	extreme bool
}

// checkRadixAgainstComparator checks radixSortIndex and sortRows against
// the comparator sort on every case and key set.
func checkRadixAgainstComparator(t *testing.T, ts []*types.DataType, cases []radixCase, keySets [][]opspec.SortKey) {
	t.Helper()
	for _, tc := range cases {
		for ks, keys := range keySets {
			want := make([]int32, tc.b.Len)
			for i := range want {
				want[i] = int32(i)
			}
			stableSortIndex(want, newSortComparator(tc.b, keys, ts))
			got := radixSortIndex(tc.b, keys)
			if got == nil {
				if tc.extreme && keys[0].Col == 2 {
					continue // the full BIGINT range does not fit with the other codes
				}
				t.Fatalf("%s keys %d: radix path not taken", tc.name, ks)
			}
			// sortRows decodes the key columns from the sorted codes: the
			// same rows as gathering them
			sortedRows, gathered := sortRows(tc.b, keys, ts), TakeRows(tc.b, want)
			for i := 0; i < tc.b.Len; i++ {
				g, w := sortedRows.Row(i, ts).Values, gathered.Row(i, ts).Values
				if fmt.Sprint(g) != fmt.Sprint(w) {
					t.Fatalf("%s keys %d: sortRows row %d is %v, want %v", tc.name, ks, i, g, w)
				}
			}
			for c := range ts {
				if sortedRows.Cols[c].DataType().ID() != tc.b.Cols[c].DataType().ID() || sortedRows.Cols[c].NullN() != gathered.Cols[c].NullN() {
					t.Fatalf("%s keys %d: sortRows column %d is %v with %d NULLs, want %v with %d", tc.name, ks, c,
						sortedRows.Cols[c].DataType(), sortedRows.Cols[c].NullN(), tc.b.Cols[c].DataType(), gathered.Cols[c].NullN())
				}
			}
			if !slices.Equal(got, want) {
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s keys %d: position %d is row %d, want row %d (%v vs %v)", tc.name, ks, i, got[i], want[i],
							tc.b.Row(int(got[i]), ts).Values, tc.b.Row(int(want[i]), ts).Values)
					}
				}
			}
		}
	}
}

// TestRadixSortIndexFallsBack checks that keys the radix path cannot code
// (DOUBLE, high cardinality strings, small batches) leave it to the
// comparator.
func TestRadixSortIndexFallsBack(t *testing.T) {
	ts := []*types.DataType{types.DoubleType(), types.StringType(), types.IntType()}
	bb := types.NewBatchBuilder(ts)
	for i := 0; i < 5000; i++ {
		if err := bb.Append(types.Insert, []any{float64(i % 7), fmt.Sprint(i), int32(i % 3)}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	if radixSortIndex(b, []opspec.SortKey{{Col: 0}}) != nil {
		t.Error("DOUBLE key was radix sorted")
	}
	if radixSortIndex(b, []opspec.SortKey{{Col: 1}}) != nil {
		t.Error("a string key with 5,000 distinct values was radix sorted")
	}
	if radixSortIndex(b.Slice(0, 100), []opspec.SortKey{{Col: 2}}) != nil {
		t.Error("a batch of 100 rows was radix sorted")
	}
	// sortIndex still orders them: by the DOUBLE, ties by position
	idx := sortIndex(b, []opspec.SortKey{{Col: 0, Desc: true}}, ts)
	if idx[0] != 6 || idx[1] != 13 || idx[len(idx)-1] != 4998 {
		t.Errorf("sortIndex over DOUBLE DESC: first %d %d, last %d", idx[0], idx[1], idx[len(idx)-1])
	}
}

// TestRadixSortBucketed checks the bucketed path at its real size (more
// rows than a leaf, so the leading key's top digit splits the rows while
// they are packed) against the comparator sort: the OVER's keys (a string
// of 229 values, then a BIGINT DESC with NULLs last or first), a leading
// key of one value (no split), of one value and NULLs (two buckets), a
// leading BOOLEAN (two buckets larger than a leaf, split again), one
// value holding 95 % of the rows, and a leading key wider than a digit.
func TestRadixSortBucketed(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.BigIntType(), types.BooleanType(), types.IntType()}
	r := rand.New(rand.NewSource(17))
	const n = 150_000
	build := func(origin func() any) *types.Batch {
		bb := types.NewBatchBuilder(ts)
		for range n {
			var delay any = int64(r.Intn(2804) - 1116)
			if r.Intn(30) == 0 {
				delay = nil
			}
			if err := bb.Append(types.Insert, []any{origin(), delay, r.Intn(2) == 0, int32(r.Intn(100_000))}); err != nil {
				t.Fatal(err)
			}
		}
		return bb.Build()
	}
	code := func(i int) string { return fmt.Sprintf("%c%c%c", 'A'+i%26, 'A'+i/26%26, 'A'+i%7) }
	origins := build(func() any { return code(r.Intn(229)) })
	oneValue := build(func() any { return "ATL" })
	oneValueNulls := build(func() any {
		if r.Intn(10) == 0 {
			return nil
		}
		return "ATL"
	})
	skewed := build(func() any {
		if r.Intn(20) != 0 {
			return "ORD"
		}
		return code(r.Intn(229))
	})
	overKeys := []opspec.SortKey{{Col: 0, NullsFirst: true}, {Col: 1, Desc: true}}
	cases := []struct {
		name string
		b    *types.Batch
		keys []opspec.SortKey
	}{
		{"origin, delay desc", origins, overKeys},
		{"origin, delay desc nulls first", origins, []opspec.SortKey{{Col: 0, NullsFirst: true}, {Col: 1, Desc: true, NullsFirst: true}}},
		{"one origin", oneValue, overKeys},
		{"one origin and NULLs", oneValueNulls, overKeys},
		{"one origin and NULLs last", oneValueNulls, []opspec.SortKey{{Col: 0}, {Col: 1}}},
		{"boolean first", origins, []opspec.SortKey{{Col: 2, Desc: true}, {Col: 1}}},
		{"95 % one origin", skewed, overKeys},
		{"wide leading key", origins, []opspec.SortKey{{Col: 3, Desc: true}, {Col: 0}}},
	}
	for _, tc := range cases {
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		stableSortIndex(want, newSortComparator(tc.b, tc.keys, ts))
		got := radixSortIndex(tc.b, tc.keys)
		if got == nil {
			t.Fatalf("%s: radix path not taken", tc.name)
		}
		if !slices.Equal(got, want) {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: position %d is row %d, want row %d (%v vs %v)", tc.name, i, got[i], want[i],
						tc.b.Row(int(got[i]), ts).Values, tc.b.Row(int(want[i]), ts).Values)
				}
			}
		}
		// the decoded key columns are the rows' own
		sortedRows, gathered := sortRows(tc.b, tc.keys, ts), TakeRows(tc.b, want)
		for _, k := range tc.keys {
			for i := range n {
				g, w := types.ValueAt(sortedRows.Cols[k.Col], i, ts[k.Col]), types.ValueAt(gathered.Cols[k.Col], i, ts[k.Col])
				if fmt.Sprint(g) != fmt.Sprint(w) {
					t.Fatalf("%s: column %d at %d is %v, want %v", tc.name, k.Col, i, g, w)
				}
			}
		}
	}
}
