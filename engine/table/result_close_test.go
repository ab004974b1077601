package table

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// unboundedResult is a streaming query over an unbounded slow datagen
// source: Next waits for rows most of the time.
func unboundedResult(t *testing.T, parallelism, converters int, rate string) *TableResult {
	t.Helper()
	env := MustCreate(InStreamingMode())
	mustExec(t, env, "SET 'parallelism.default' = '"+strconv.Itoa(parallelism)+"'",
		`CREATE TABLE gen (v BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '`+rate+`')`)
	res, err := env.ExecuteSQL("SELECT v, s FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	res.converters = converters
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
