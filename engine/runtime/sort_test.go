package runtime

import (
	"context"
	"math/rand"
	"slices"
	"testing"

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
			s := &Sort{Keys: []SortKey{{Col: 0, Desc: desc, NullsFirst: DefaultNullsFirst(desc)}}, Types: ts, Offset: lim[0], Fetch: lim[1]}
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
