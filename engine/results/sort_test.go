package results

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// sortCols: a key with NULLs and many ties, and the arrival number.
var sortCols = []Column{{"k", types.IntType()}, {"seq", types.BigIntType()}}

// filledForSort is a finished result of n rows (k random in 0..999 or
// NULL, seq = arrival number) with every 7th row retracted again, so that
// chunks have deleted rows; it returns the (k, seq) of the live rows in
// arrival order.
func filledForSort(t *testing.T, n int) (*Result, [][2]int64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	r := New(sortCols, Options{})
	var live [][2]int64
	for i := range n {
		var k any
		kv := int64(-1) // NULL
		if rng.IntN(20) != 0 {
			kv = int64(rng.IntN(1000))
			k = int32(kv)
		}
		row := []any{k, int64(i)}
		r.Add(types.Insert, row)
		if i%7 == 3 {
			r.Add(types.Delete, row)
			continue
		}
		live = append(live, [2]int64{kv, int64(i)})
	}
	r.Finish(nil)
	return r, live
}

// seqs are the seq column of the table view, in display order.
func seqs(r *Result) []int64 {
	f := r.Freeze(TableView)
	out := make([]int64, f.Len())
	for i := range out {
		out[i] = f.Value(i, 1).(int64)
	}
	return out
}

// A sort of several runs (merged) gives the stable order of the key with
// NULLs first ascending and last descending, over chunks with deleted rows;
// progress only grows and ends at its total.
func TestSortMergesRunsStably(t *testing.T) {
	r, live := filledForSort(t, 3*sortRun+1234)
	for _, desc := range []bool{false, true} {
		want := slices.Clone(live)
		slices.SortStableFunc(want, func(a, b [2]int64) int {
			c := 0
			switch {
			case a[0] == b[0]:
			case a[0] < b[0]: // NULL (-1) is lowest
				c = -1
			default:
				c = 1
			}
			if desc {
				return -c
			}
			return c
		})
		var last, total int64
		calls := 0
		err := r.SortByContext(context.Background(), 0, desc, func(done, tot int64) {
			if done < last || (total != 0 && tot != total) {
				t.Errorf("progress %d/%d after %d/%d", done, tot, last, total)
			}
			last, total = done, tot
			calls++
		})
		if err != nil {
			t.Fatal(err)
		}
		if last != total || calls < 5 {
			t.Errorf("progress ended at %d of %d after %d reports", last, total, calls)
		}
		got := seqs(r)
		if len(got) != len(want) {
			t.Fatalf("%d rows sorted, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i][1] {
				t.Fatalf("desc=%v: row %d is seq %d, want %d", desc, i, got[i], want[i][1])
			}
		}
		if s := r.Snapshot(TableView, 0, 1, nil); s.SortCol != 0 || s.Desc != desc {
			t.Errorf("snapshot says sorted by %d desc=%v", s.SortCol, s.Desc)
		}
	}
}

// A cancelled sort returns the context's error and leaves the view in the
// order it had: here the previous sort's, then arrival order.
func TestCanceledSortKeepsThePreviousOrder(t *testing.T) {
	r, _ := filledForSort(t, 2*sortRun+10)
	if err := r.SortBy(0, true); err != nil {
		t.Fatal(err)
	}
	before, version := seqs(r), r.Version()
	ctx, cancel := context.WithCancel(context.Background())
	reports := 0
	err := r.SortByContext(ctx, 1, true, func(done, total int64) {
		reports++
		if reports == 2 { // after the first run
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled sort returned %v", err)
	}
	if !slices.Equal(seqs(r), before) || r.Version() != version {
		t.Error("a cancelled sort changed the order")
	}
	if s := r.Snapshot(TableView, 0, 1, nil); s.SortCol != 0 || !s.Desc {
		t.Errorf("snapshot says sorted by %d desc=%v", s.SortCol, s.Desc)
	}
	r.ClearSort()
	arrival := seqs(r)
	if err := r.SortByContext(ctx, 1, true, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("sort with a cancelled context returned %v", err)
	}
	if !slices.Equal(seqs(r), arrival) {
		t.Error("a cancelled sort changed arrival order")
	}
}

// BenchmarkSort1M sorts the 1,000,000-row × 5-column store of
// BenchmarkStore1M by its STRING column and by its DOUBLE column, and
// reports the heap the order keeps per row.
func BenchmarkSort1M(b *testing.B) {
	r := New(benchCols, Options{})
	fillBench(r, 1_000_000)
	r.Finish(nil)
	for _, col := range []int{2, 1} {
		b.Run(benchCols[col].Name, func(b *testing.B) {
			for b.Loop() {
				r.ClearSort()
				before := heapInUse()
				if err := r.SortBy(col, true); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				b.ReportMetric(float64(heapInUse()-before)/1_000_000, "order-bytes/row")
				b.StartTimer()
			}
		})
	}
}
