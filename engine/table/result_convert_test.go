package table

import (
	"context"
	"strconv"
	"testing"
)

// sequenceResult runs SELECT v, CAST(v AS STRING) over 1..n ORDER BY v
// at parallelism 2, its rows converted on three goroutines whatever the
// machine's cores.
func sequenceResult(t *testing.T, n int) *TableResult {
	t.Helper()
	env := sequenceEnv(t, n, 2)
	res, err := env.ExecuteSQL("SELECT v, CAST(v AS STRING) AS s FROM seq ORDER BY v")
	if err != nil {
		t.Fatal(err)
	}
	res.converters = 3
	return res
}

// Rows converted on several goroutines come in the collector's order
// (here ORDER BY's), every one with the schema's names and its values.
func TestCollectConvertsInOrderOnSeveralGoroutines(t *testing.T) {
	const n = 50000 // several batches of the sort's output
	res := sequenceResult(t, n)
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	got := 0
	for it.Next() {
		got++
		r := it.Row()
		if v, s := r.Values[0], r.Values[1]; v != int64(got) || s != strconv.Itoa(got) {
			t.Fatalf("row %d = (%v, %v), want (%d, %q)", got, v, s, got, strconv.Itoa(got))
		}
		if len(r.Names) != 2 || r.Names[1] != "s" {
			t.Fatalf("row %d names %v", got, r.Names)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if got != n {
		t.Fatalf("%d rows, want %d", got, n)
	}
	if it.Next() {
		t.Fatal("Next after the end returned true")
	}
}

// Closing the iterator after a few rows stops it: Next returns false and
// the job ends (cancelled or finished), nothing waits on the converters.
func TestCollectConvertedCloseEarly(t *testing.T) {
	res := sequenceResult(t, 50000)
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if !it.Next() {
			t.Fatalf("row %d missing: %v", i+1, it.Err())
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if it.Next() {
		t.Fatal("Next after Close returned true")
	}
	_ = res.JobClient().Wait(context.Background())
	if st := res.JobClient().Status(); st != JobCanceled && st != JobFinished {
		t.Fatalf("job status %v after Close", st)
	}
}

// A context that ends stops a converted iteration with its error.
func TestCollectConvertedContextEnds(t *testing.T) {
	res := sequenceResult(t, 50000)
	ctx, cancel := context.WithCancel(context.Background())
	it, err := res.CollectContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.Next() {
		t.Fatalf("no first row: %v", it.Err())
	}
	cancel()
	for it.Next() {
		// rows converted before the end may still come
	}
	if it.Err() != context.Canceled {
		t.Fatalf("Err %v, want context.Canceled", it.Err())
	}
}
