package table

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
)

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCompleteStatement(t *testing.T) {
	env := MustCreate(InBatchMode())
	for _, st := range []string{"CREATE TABLE orders (order_id INT, `select` STRING) WITH ('connector' = 'datagen')",
		"CREATE DATABASE sales", "CREATE TABLE sales.items (item_id INT) WITH ('connector' = 'datagen')"} {
		if _, err := env.ExecuteSQL(st); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		stmt     string
		pos      int
		want     []string
		not      []string
		complete bool // want is the whole answer
	}{
		{"SEL", 3, []string{"SELECT"}, nil, false},
		{"sel", 3, []string{"SELECT"}, nil, false},
		{"SELECT * FROM o", 15, []string{"orders"}, []string{"ORDER", "order_id"}, true},
		{"SELECT sel FROM orders", 10, []string{"`select`", "SELECT"}, nil, false},
		{"SELECT * FROM sales.", 20, []string{"items"}, nil, true},
		{"SELECT * FROM default_catalog.sales.i", 37, []string{"items"}, nil, true},
		{"SELECT orders.o FROM orders", 15, []string{"order_id"}, nil, true},
		{"USE s", 5, []string{"sales"}, nil, true},
		{"SELECT '-- SEL", 14, nil, []string{"SELECT"}, false},
		{"SELECT 1 -- SEL", 15, nil, []string{"SELECT"}, false},
		// positions count UTF-16 code units: "😀" is two
		{"SELECT '😀', SUB", 16, []string{"SUBSTRING"}, nil, false},
		{"SEL", 99, []string{"SELECT"}, nil, false},
	}
	for _, c := range cases {
		got := CompleteStatement(env, c.stmt, c.pos)
		for _, w := range c.want {
			if !has(got, w) {
				t.Errorf("%q @%d: %q not in %v", c.stmt, c.pos, w, got)
			}
		}
		for _, w := range c.not {
			if has(got, w) {
				t.Errorf("%q @%d: %q offered: %v", c.stmt, c.pos, w, got)
			}
		}
		if c.complete && strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q @%d: %v, want exactly %v", c.stmt, c.pos, got, c.want)
		}
	}
	if n := len(CompleteStatement(env, "", 0)); n == 0 || n > maxCompletions {
		t.Errorf("empty prefix: %d candidates", n)
	}
}

func TestEmbeddedEngine(t *testing.T) {
	env := MustCreate(InStreamingMode())
	e := NewEmbeddedEngine(env)
	ctx := context.Background()
	if _, err := e.ExecuteStatement(ctx, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')", sql.Pos{}); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteStatement(ctx, "SELECT a FROM gen", sql.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsQuery() || !res.IsStreaming() || len(res.JobID()) != 32 || res.TimeZone() == nil {
		t.Errorf("result: query %v streaming %v job %q", res.IsQuery(), res.IsStreaming(), res.JobID())
	}
	jobs, err := e.Jobs(ctx)
	if err != nil || len(jobs) != 1 || jobs[0].ID != res.JobID() || jobs[0].IsTerminal() {
		t.Fatalf("jobs %+v %v", jobs, err)
	}
	if err := e.CancelJob(ctx, res.JobID()); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitJob(ctx, res.JobID()); err == nil {
		t.Error("a cancelled job waited without error")
	}
	if err := e.WaitJob(ctx, "00000000000000000000000000000000"); !errors.Is(err, ErrJobNotFound) {
		t.Errorf("unknown job: %v", err)
	}
	// a statement placed in a script reports script positions
	_, err = e.ExecuteStatement(ctx, "SELECT nope FROM gen", sql.Pos{Line: 4, Column: 3, Offset: 50})
	if err == nil || !strings.HasPrefix(err.Error(), "From line 4, column 10 to line 4, column 13") {
		t.Errorf("error %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}
