package runtime

import (
	"context"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

type collectOut struct{ rows [][]any }

func (c *collectOut) Emit(b *types.Batch) error {
	for i := 0; i < b.Len; i++ {
		row := make([]any, len(b.Cols))
		for j, col := range b.Cols {
			row[j] = types.ValueAt(col, i, nil)
		}
		c.rows = append(c.rows, row)
	}
	return nil
}
func (c *collectOut) EmitWatermark(int64) error { return nil }

// TestSortTopNMatchesFullSort checks that the heap-based SortLimit path
// returns exactly the rows (and tie order) of a full stable sort.
func TestSortTopNMatchesFullSort(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.BigIntType().NotNull()}
	r := rand.New(rand.NewSource(1))
	var batches []*types.Batch
	var all [][]any
	seq := int64(0)
	for b := 0; b < 20; b++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < 1+r.Intn(300); i++ {
			var k any = int32(r.Intn(50))
			if r.Intn(10) == 0 {
				k = nil
			}
			row := []any{k, seq}
			seq++
			if err := bb.Append(types.Insert, row); err != nil {
				t.Fatal(err)
			}
			all = append(all, row)
		}
		batches = append(batches, bb.Build())
	}
	for _, desc := range []bool{false, true} {
		for _, lim := range [][2]int64{{0, 10}, {5, 7}, {0, 0}, {100, 1000}, {0, 5000}} {
			out := &collectOut{}
			s := &Sort{Keys: []opspec.SortKey{{Col: 0, Desc: desc, NullsFirst: opspec.DefaultNullsFirst(desc)}}, Types: ts, Offset: lim[0], Fetch: lim[1]}
			if err := s.Open(&OpContext{Ctx: context.Background(), Config: JobConfig{BatchSize: 64}}, out); err != nil {
				t.Fatal(err)
			}
			for _, b := range batches {
				if err := s.ProcessBatch(0, b); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.EndInput(0); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(all)
			slices.SortStableFunc(want, func(a, b []any) int { return cmpKey(a[0], b[0], desc) })
			from := min(int(lim[0]), len(want))
			to := min(from+int(lim[1]), len(want))
			want = want[from:to]
			if len(out.rows) != len(want) {
				t.Fatalf("desc=%v limit=%v: %d rows, want %d", desc, lim, len(out.rows), len(want))
			}
			for i := range want {
				if out.rows[i][1] != want[i][1] {
					t.Fatalf("desc=%v limit=%v row %d: %v, want %v", desc, lim, i, out.rows[i], want[i])
				}
			}
		}
	}
}

// cmpKey orders NULL first ascending and last descending (Flink's default).
func cmpKey(a, b any, desc bool) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		if desc {
			return 1
		}
		return -1
	case b == nil:
		if desc {
			return -1
		}
		return 1
	}
	c := int(a.(int32)) - int(b.(int32))
	if desc {
		c = -c
	}
	return c
}

// TestRowComparatorStringRanks sorts a batch large enough for string keys
// to be compared by rank (low cardinality, with nulls, both directions and
// both null orderings, a second integer key) and checks the order against
// a plain comparison of the Go values, ties kept in arrival order.
func TestRowComparatorStringRanks(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.IntType(), types.BigIntType().NotNull()}
	r := rand.New(rand.NewSource(7))
	words := []string{"", "a", "ab", "b", "ba", "zz", "Z", "é", "ä", "aa"}
	bb := types.NewBatchBuilder(ts)
	var all [][]any
	for i := 0; i < 20000; i++ {
		var s any = words[r.Intn(len(words))]
		if r.Intn(15) == 0 {
			s = nil
		}
		row := []any{s, int32(r.Intn(5)), int64(i)}
		if err := bb.Append(types.Insert, row); err != nil {
			t.Fatal(err)
		}
		all = append(all, row)
	}
	b := bb.Build()
	if r, _ := stringRanks(b.Cols[0]); r == nil {
		t.Fatal("the string column was not rank-encoded; the test would not cover ranks")
	}
	for _, desc := range []bool{false, true} {
		for _, nullsFirst := range []bool{false, true} {
			keys := []opspec.SortKey{{Col: 0, Desc: desc, NullsFirst: nullsFirst}, {Col: 1}}
			idx := make([]int32, b.Len)
			for i := range idx {
				idx[i] = int32(i)
			}
			stableSortIndex(idx, newSortComparator(b, keys, ts))
			want := slices.Clone(all)
			slices.SortStableFunc(want, func(x, y []any) int {
				xn, yn := x[0] == nil, y[0] == nil
				switch {
				case xn && yn:
				case xn || yn:
					if xn == nullsFirst {
						return -1
					}
					return 1
				default:
					c := strings.Compare(x[0].(string), y[0].(string))
					if desc {
						c = -c
					}
					if c != 0 {
						return c
					}
				}
				return int(x[1].(int32) - y[1].(int32))
			})
			for i, id := range idx {
				if want[i][2] != int64(id) {
					t.Fatalf("desc=%v nullsFirst=%v: position %d holds row %d %v, want %v", desc, nullsFirst, i, id, all[id], want[i])
				}
			}
		}
	}
}
