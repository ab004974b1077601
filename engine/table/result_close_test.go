package table

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// unboundedResult is a streaming query over an unbounded slow datagen
// source: Next waits for rows most of the time.
func unboundedResult(t *testing.T, parallelism, converters int, rate string) *TableResult {
	t.Helper()
	env := MustCreate(InStreamingMode())
	mustExec(t, env, "SET 'parallelism.default' = '"+strconv.Itoa(parallelism)+"'",
		`CREATE TABLE gen (v BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '`+rate+`')`)
	res := queryWith(t, env, "SELECT v, s FROM gen", converters)
	return res
}

// Close from another goroutine while Next, having read values (so
// converting ahead on several goroutines), waits for rows: Next returns
// false, without a data race under -race, and Err says the job was
// cancelled whatever the number of converters (six times each: which
// goroutine sees the end first varies).
func TestCloseFromAnotherGoroutineWhileNextWaits(t *testing.T) {
	for _, converters := range []int{1, 3} {
		for _, useRow := range []bool{false, true} {
			t.Run(fmt.Sprintf("c%d row=%v", converters, useRow), func(t *testing.T) {
				for range 6 {
					closeWhileNextWaits(t, converters, useRow)
				}
			})
		}
	}
}

// closeWhileNextWaits reads an unbounded result on a goroutine and
// closes it from the test's once the first row is read.
func closeWhileNextWaits(t *testing.T, converters int, useRow bool) {
	t.Helper()
	res := unboundedResult(t, 1, converters, "20")
	it, err := res.CollectContext(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first := make(chan struct{})
	done := make(chan int)
	go func() {
		got := 0
		var vals []any
		for it.Next() {
			got++
			if useRow {
				_ = it.Row()
			} else {
				vals = it.Values(vals)
			}
			if got == 1 {
				close(first)
			}
		}
		done <- got
	}()
	<-first
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got < 1 {
		t.Fatalf("%d rows", got)
	}
	if it.Next() {
		t.Fatal("Next after Close returned true")
	}
	// the caller's context did not end: Err is the job's cancellation (or
	// nil when Next saw Close first), never context.Canceled, with one
	// converter or three
	if err := it.Err(); err != nil && !errors.Is(err, ErrCanceled) || errors.Is(err, context.Canceled) {
		t.Fatalf("Err after Close: %v", err)
	}
}

// Close on the reader's own goroutine in the middle of a batch: the next
// Next is false (its fast path, which steps through a batch without
// leaving it, looks at Close too) and Err stays nil, with one converter
// and with three; the rows taken before stay intact, a row taken twice
// is the same *types.Row, and every row carries the schema's names.
func TestNextAfterCloseInTheMiddleOfABatch(t *testing.T) {
	for _, converters := range []int{1, 3} {
		it, err := nullsLaterResult(t, 50000, converters).Collect()
		if err != nil {
			t.Fatal(err)
		}
		var taken []*types.Row
		for range 5 {
			if !it.Next() {
				t.Fatalf("%d converters: the result ended before its sixth row: %v", converters, it.Err())
			}
			r := it.Row()
			if it.Row() != r {
				t.Fatalf("%d converters: Row twice gave two rows", converters)
			}
			taken = append(taken, r)
		}
		if it.bpos >= it.end {
			t.Fatalf("%d converters: row 5 ended its batch (bpos %d, end %d): the test needs one in the middle", converters, it.bpos, it.end)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if it.Next() || it.Next() {
			t.Errorf("%d converters: Next after Close gave a row", converters)
		}
		if it.Err() != nil {
			t.Errorf("%d converters: Err after a Close between rows = %v, want nil", converters, it.Err())
		}
		for i, r := range taken {
			if fmt.Sprint(r.Values) != fmt.Sprint(wantNullsLater(i+1)) || fmt.Sprint(r.Names) != "[v s w]" {
				t.Errorf("%d converters: row %d taken before Close = %v %v", converters, i, r.Names, r.Values)
			}
		}
	}
}
