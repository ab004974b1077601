package table

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// keepResult runs, over 1..n in order at the given parallelism, a query
// whose BIGINT columns hold small numbers (the shared table's boxes),
// numbers past 65,535 and negatives with NULLs between them.
func keepResult(t *testing.T, n, parallelism, converters int) *TableResult {
	t.Helper()
	env := sequenceEnv(t, n, parallelism)
	res := queryWith(t, env, `SELECT v, v * 70000 AS big,
		CASE WHEN MOD(v, 5) = 0 THEN CAST(NULL AS BIGINT) ELSE v - 12000 END AS neg,
		CAST(v AS STRING) AS s
		FROM seq ORDER BY v`, converters)
	return res
}

// wantKeep is row v of keepResult.
func wantKeep(v int64) []any {
	var neg any = v - 12000
	if v%5 == 0 {
		neg = nil
	}
	return []any{v, v * 70000, neg, strconv.FormatInt(v, 10)}
}

// Rows taken with Row and kept while the iteration goes on through many
// batches stay as they were (values, names, kind), whatever else was
// asked of the rows between (Row twice, Values, Kind, nothing), at
// parallelism 1, 2 and 4 with as many converters; Row twice on a row is
// one *types.Row, Row on the next row another one; and the BIGINTs, boxed
// in the shared table or not, are int64s to a type switch and to a map
// keyed by ordinary boxes.
func TestRowsKeptAcrossBatchesStayIntact(t *testing.T) {
	const n = 30000 // several batches of the sort's output
	for _, p := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("p%d", p), func(t *testing.T) {
			it, err := keepResult(t, n, p, p).Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			type kept struct {
				v int64
				r *types.Row
			}
			var keep []kept
			var prev *types.Row
			var vals []any
			byValue := map[any]int64{}
			for v := int64(1); v <= 2000; v++ {
				byValue[v] = v // ordinary boxes
			}
			got := int64(0)
			batches := 0
			var batch *types.Batch
			for it.Next() {
				got++
				if it.batch != batch {
					batch = it.batch
					batches++
				}
				want := wantKeep(got)
				switch got % 4 {
				case 0:
					r := it.Row()
					if it.Row() != r {
						t.Fatalf("row %d: Row twice gave two rows", got)
					}
					if r == prev {
						t.Fatalf("row %d: the same *Row as the row before", got)
					}
					vals = it.Values(vals)
					if fmt.Sprint(vals) != fmt.Sprint(want) || it.Kind() != types.Insert {
						t.Fatalf("row %d: Values %v Kind %v, want %v", got, vals, it.Kind(), want)
					}
					keep = append(keep, kept{got, r})
					prev = r
				case 1:
					vals = it.Values(vals)
					if fmt.Sprint(vals) != fmt.Sprint(want) {
						t.Fatalf("row %d: Values %v, want %v", got, vals, want)
					}
				case 2:
					if it.Kind() != types.Insert {
						t.Fatalf("row %d: Kind %v", got, it.Kind())
					}
					r := it.Row()
					if r == prev {
						t.Fatalf("row %d: the same *Row as an earlier row", got)
					}
					keep = append(keep, kept{got, r})
					prev = r
				}
				if got%4 == 0 || got%4 == 2 {
					r := prev
					switch x := r.Values[0].(type) {
					case int64:
						if x != got {
							t.Fatalf("row %d: v %d", got, x)
						}
					default:
						t.Fatalf("row %d: v is %T", got, x)
					}
					if got <= 2000 {
						if byValue[r.Values[0]] != got || r.Values[0] != any(got) {
							t.Fatalf("row %d: v %#v is no key of the map of ordinary boxes", got, r.Values[0])
						}
					}
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if got != n || batches < 3 {
				t.Fatalf("%d rows in %d batches, want %d in 3 or more", got, batches, n)
			}
			if it.Next() || it.Next() {
				t.Fatal("Next after the end returned true")
			}
			for _, k := range keep {
				if fmt.Sprint(k.r.Values) != fmt.Sprint(wantKeep(k.v)) || strings.Join(k.r.Names, ",") != "v,big,neg,s" || k.r.Kind != types.Insert {
					t.Fatalf("row %d kept: %v %v %v, want %v", k.v, k.r.Kind, k.r.Names, k.r.Values, wantKeep(k.v))
				}
			}
		})
	}
}

// An empty query result: Row is nil and Kind INSERT before the first
// Next and after the end, with one converter and three.
func TestRowOfAnEmptyResult(t *testing.T) {
	for _, converters := range []int{1, 3} {
		env := MustCreate(InBatchMode())
		mustExec(t, env, "CREATE TABLE t (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '300')")
		res := queryWith(t, env, "SELECT a FROM t WHERE a <> a", converters)
		it, err := res.Collect()
		if err != nil {
			t.Fatal(err)
		}
		if it.Row() != nil || it.Kind() != types.Insert {
			t.Fatalf("c%d: before Next: %v %v", converters, it.Row(), it.Kind())
		}
		if it.Next() || it.Next() {
			t.Fatalf("c%d: a row in an empty result", converters)
		}
		if it.Row() != nil || it.Kind() != types.Insert || len(it.Values(nil)) != 0 || it.Err() != nil {
			t.Fatalf("c%d: after the end: %v %v %v", converters, it.Row(), it.Kind(), it.Err())
		}
		_ = it.Close()
	}
}

// Close from another goroutine while the reader steps through a bounded
// result's batches with Row: the reader stops (no data race under -race),
// Err is nil or the job's cancellation, and the rows it kept stay intact.
func TestCloseFromAnotherGoroutineWhileRowsAreRead(t *testing.T) {
	for _, converters := range []int{1, 3} {
		t.Run(fmt.Sprintf("c%d", converters), func(t *testing.T) {
			const n = 60000
			it, err := keepResult(t, n, 2, converters).Collect()
			if err != nil {
				t.Fatal(err)
			}
			first := make(chan struct{})
			done := make(chan []*types.Row)
			go func() {
				var kept []*types.Row
				for it.Next() {
					kept = append(kept, it.Row())
					if len(kept) == 100 {
						close(first)
					}
				}
				done <- kept
			}()
			<-first
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
			kept := <-done
			if it.Next() {
				t.Fatal("Next after Close returned true")
			}
			if err := it.Err(); err != nil && !errors.Is(err, ErrCanceled) || errors.Is(err, context.Canceled) {
				t.Fatalf("Err after Close: %v", err)
			}
			for i, r := range kept {
				if fmt.Sprint(r.Values) != fmt.Sprint(wantKeep(int64(i+1))) || len(r.Names) != 4 {
					t.Fatalf("row %d kept: %v %v", i+1, r.Names, r.Values)
				}
			}
		})
	}
}

// The context ends in the middle of a batch: Next goes on through the
// rows already there (at most the rest of that batch), then stops with
// the context's error; a job that fails mid-way ends Next with its error;
// in both cases the rows taken before stay intact and Next stays false.
func TestRowsKeptWhenTheContextEndsOrTheJobFails(t *testing.T) {
	for _, how := range []string{"cancel", "fail"} {
		for _, converters := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s-c%d", how, converters), func(t *testing.T) {
				var res *TableResult
				if how == "fail" {
					failAtThirdCalls.Store(0)
					env := sequenceEnv(t, 40000, 1, "CREATE TEMPORARY FUNCTION fail_at_third AS 'test.fail_at_third'")
					var err error
					if res, err = env.ExecuteSQL("SELECT fail_at_third(v) AS v, v * 70000 AS big FROM seq"); err != nil {
						t.Fatal(err)
					}
				} else {
					res = keepResult(t, 40000, 2, converters)
				}
				res.converters = converters
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				it, err := res.CollectContext(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer it.Close()
				var kept []*types.Row
				after := -1
				for it.Next() {
					kept = append(kept, it.Row())
					if after >= 0 {
						after++
					}
					if how == "cancel" && len(kept) == 7 {
						if it.bpos >= it.end {
							t.Fatalf("row 7 ends its batch: the test needs one in the middle")
						}
						cancel()
						after = 0
					}
				}
				err = it.Err()
				switch how {
				case "cancel":
					if !errors.Is(err, context.Canceled) || after < 0 || after >= it.batch.Len {
						t.Fatalf("Err %v, %d rows after the cancel (batch of %d)", err, after, it.batch.Len)
					}
				case "fail":
					if err == nil || !strings.Contains(err.Error(), "fails at its third batch") || len(kept) >= 40000 {
						t.Fatalf("%d rows, Err %v", len(kept), err)
					}
				}
				if it.Next() {
					t.Fatal("Next after the end returned true")
				}
				for i, r := range kept {
					v := int64(i + 1)
					want := wantKeep(v)
					if how == "fail" {
						want = want[:2]
						// one task reads the sequence in order
					}
					if fmt.Sprint(r.Values) != fmt.Sprint(want) {
						t.Fatalf("row %d kept: %v, want %v", v, r.Values, want)
					}
				}
			})
		}
	}
}
