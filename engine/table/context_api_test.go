package table

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// The Go-first API: contexts on calls that run or wait, rows as an
// iter.Seq2, Overwrite() for PyFlink's overwrite=True.

func TestTableRowsYieldsTheTablesErrorOnce(t *testing.T) {
	env := MustCreate(InBatchMode())
	src, err := env.FromElements([]any{[]any{1}}, "a")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for row, err := range src.Select(Col("nope")).Rows(t.Context()) {
		n++
		if row != nil || err == nil || !strings.Contains(err.Error(), "nope") {
			t.Fatalf("got %v, %v; want a nil row and the table's error", row, err)
		}
	}
	if n != 1 {
		t.Fatalf("%d values, want the error once", n)
	}
}

func TestTableResultRowsStoppedEarlyCancelsTheJob(t *testing.T) {
	ctx := t.Context()
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQLContext(ctx, "CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')"); err != nil {
		t.Fatal(err)
	}
	tab, err := env.FromPath("g")
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.ExecuteContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for row, err := range res.Rows(ctx) {
		if err != nil || row == nil {
			t.Fatalf("first row: %v, %v", row, err)
		}
		break
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := res.JobClient().Wait(wctx); !errors.Is(err, ErrCanceled) {
		t.Fatalf("the job ended with %v, want it cancelled", err)
	}
	for _, err := range res.Rows(ctx) {
		if !errors.Is(err, ErrAlreadyCollected) {
			t.Fatalf("a second read: %v, want ErrAlreadyCollected", err)
		}
	}
}

func TestWaitContextEndsWithItsContext(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL("CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"); err != nil {
		t.Fatal(err)
	}
	tab, err := env.FromPath("g")
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.ExecuteInsertContext(t.Context(), ForConnector("blackhole").Build())
	if err != nil {
		t.Fatal(err)
	}
	defer res.JobClient().Cancel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := res.WaitContext(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitContext with a cancelled context: %v", err)
	}
	if res.JobClient().Status().IsTerminal() {
		t.Fatal("the job must outlive the context WaitContext was given")
	}
}

func TestOverwriteOptionReachesThePlanner(t *testing.T) {
	ctx := t.Context()
	env := MustCreate(InBatchMode())
	src, err := env.FromElements([]any{[]any{1}}, "a")
	if err != nil {
		t.Fatal(err)
	}
	const want = "implements the SupportsOverwrite interface"
	if _, err := src.ExecuteInsertContext(ctx, ForConnector("blackhole").Build(), Overwrite()); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("ExecuteInsertContext with Overwrite into blackhole: %v", err)
	}
	set := env.CreateStatementSet()
	if _, err := set.AddInsert(ForConnector("blackhole").Build(), src, Overwrite()); err != nil {
		t.Fatal(err)
	}
	if _, err := set.ExecuteContext(ctx); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("a statement set with Overwrite into blackhole: %v", err)
	}
	res, err := src.ExecuteInsertContext(ctx, ForConnector("blackhole").Build())
	if err != nil {
		t.Fatal(err)
	}
	if err := res.WaitContext(ctx); err != nil {
		t.Fatal(err)
	}
}
