package table

import (
	"context"
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
// false, without a data race under -race.
func TestBreak21CloseFromAnotherGoroutineWhileNextWaits(t *testing.T) {
	for _, converters := range []int{1, 3} {
		for _, useRow := range []bool{false, true} {
			t.Run(fmt.Sprintf("c%d row=%v", converters, useRow), func(t *testing.T) {
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
			})
		}
	}
}
