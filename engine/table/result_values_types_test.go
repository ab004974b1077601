package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// allTypesResult runs, over 1..n in order, a query with a column of each
// type a result holds: no NULL up to 10,000, every column NULL from 10,001
// to 20,000 (whole batches of NULLs), non-NULL again, then NULL on every
// third row above 24,000; the last column is NULL throughout.
func allTypesResult(t *testing.T, n, parallelism, converters int) *TableResult {
	t.Helper()
	env := sequenceEnv(t, n, parallelism, "SET 'table.local-time-zone' = 'UTC'")
	res := queryWith(t, env, `SELECT v,
		CASE WHEN n THEN NULL ELSE MOD(v, 2) = 0 END AS b,
		CASE WHEN n THEN NULL ELSE CAST(v AS INT) END AS i,
		CASE WHEN n THEN NULL ELSE v * 3 END AS l,
		CASE WHEN n THEN NULL ELSE CAST(v AS DOUBLE) / 4 END AS d,
		CASE WHEN n THEN NULL ELSE CAST(v AS DECIMAL(12, 2)) / 8 END AS m,
		CASE WHEN n THEN NULL ELSE CAST(v AS STRING) END AS s,
		CASE WHEN n THEN NULL ELSE CAST(CAST(v AS STRING) AS BYTES) END AS y,
		CASE WHEN n THEN NULL ELSE CAST(TO_TIMESTAMP_LTZ(v * 86400000, 3) AS DATE) END AS dt,
		CASE WHEN n THEN NULL ELSE CAST(TO_TIMESTAMP_LTZ(v * 1000, 3) AS TIME) END AS tm,
		CASE WHEN n THEN NULL ELSE CAST(TO_TIMESTAMP_LTZ(v * 1001, 3) AS TIMESTAMP(3)) END AS ts,
		CASE WHEN n THEN NULL ELSE TO_TIMESTAMP_LTZ(v * 1002, 3) END AS ltz,
		CASE WHEN n THEN NULL ELSE ARRAY[v, v + 1] END AS a,
		CASE WHEN n THEN NULL ELSE MAP[CAST(v AS STRING), v] END AS mp,
		CASE WHEN n THEN NULL ELSE ROW(v, CAST(v AS STRING)) END AS r,
		CAST(NULL AS INT) AS z
		FROM (SELECT v, (v > 10000 AND v <= 20000) OR (v > 24000 AND MOD(v, 3) = 0) AS n FROM seq) ORDER BY v`, converters)
	return res
}

// rowsPrinted reads a result with Row only (a fresh block a batch: the
// reference) and returns each row as Kind and values printed.
func rowsPrinted(t *testing.T, res *TableResult) []string {
	t.Helper()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		r := it.Row()
		out = append(out, r.String())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Values, with every kind of dst, gives each row of every type what Row
// gives on a separate run (no block reused there), the values kept from
// earlier rows and the rows taken with Row stay as they were, and calling
// Values twice on a row gives the same values: at parallelism 1, 2 and 4,
// converting on one goroutine and on three.
func TestValuesOfEveryTypeMatchRow(t *testing.T) {
	const n = 30000
	for _, pc := range [][2]int{{1, 1}, {2, 3}, {4, 3}} {
		t.Run(fmt.Sprintf("p%d c%d", pc[0], pc[1]), func(t *testing.T) {
			want := rowsPrinted(t, allTypesResult(t, n, pc[0], pc[1]))
			if len(want) != n {
				t.Fatalf("Row read %d rows", len(want))
			}
			it, err := allTypesResult(t, n, pc[0], pc[1]).Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			shared := make([]any, 0, 16)
			kept := map[int][]any{}
			keptRows := map[int]*types.Row{}
			got := 0
			for it.Next() {
				got++
				var vals []any
				switch got % 4 {
				case 0:
					shared = it.Values(shared)
					vals = shared
				case 1:
					vals = it.Values(nil)
				case 2:
					vals = it.Values(make([]any, 1, 2))
				case 3:
					long := make([]any, 40)
					for i := range long {
						long[i] = "stale"
					}
					vals = it.Values(long)
				}
				if len(vals) != 16 {
					t.Fatalf("row %d: %d values", got, len(vals))
				}
				if s := types.NewRowWithKind(it.Kind(), vals...).String(); s != want[got-1] {
					t.Fatalf("row %d: Values %s, Row %s", got, s, want[got-1])
				}
				if got%7 == 0 {
					again := it.Values(nil)
					if fmt.Sprint(again) != fmt.Sprint(vals) {
						t.Fatalf("row %d: second Values %v, first %v", got, again, vals)
					}
				}
				if got%997 == 0 {
					kept[got] = append([]any(nil), vals...)
				}
				// rows taken on a few batches only: their blocks are kept,
				// the others' reused
				if (got/4096)%3 == 0 && got%250 == 0 {
					keptRows[got] = it.Row()
				}
			}
			if err := it.Err(); err != nil || got != n {
				t.Fatalf("%d rows, %v", got, err)
			}
			for v, vals := range kept {
				if s := types.NewRowWithKind(types.Insert, vals...).String(); s != want[v-1] {
					t.Fatalf("kept values of row %d: %s, want %s", v, s, want[v-1])
				}
			}
			if len(keptRows) == 0 {
				t.Fatal("no row kept")
			}
			for v, r := range keptRows {
				if s := r.String(); s != want[v-1] {
					t.Fatalf("kept row %d: %s, want %s", v, s, want[v-1])
				}
			}
		})
	}
}

// labelledGoroutines counts the goroutine stacks labelled reader=name: the
// goroutines a RowIterator read inside pprof.Do with that label started
// (its converters and their reader).
func labelledGoroutines(name string) int {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
	return strings.Count(buf.String(), `"reader":"`+name+`"`)
}

// awaitNoLabelledGoroutines waits until no goroutine carries the label.
func awaitNoLabelledGoroutines(t *testing.T, name string) {
	t.Helper()
	if !testwait.Poll(20*time.Second, func() bool { return labelledGoroutines(name) == 0 }) {
		var buf bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
		t.Fatalf("goroutines of %s still running:\n%s", name, buf.String())
	}
}

var failAtThirdCalls atomic.Int64

func init() {
	// fails the job at its third batch (failAtThirdCalls counts)
	RegisterGoFunction("test.fail_at_third", &expr.Function{Name: "fail_at_third", MinArgs: 1, MaxArgs: 1,
		Infer: func(c *expr.InferCtx) (*types.DataType, error) { return c.Args[0], nil },
		Build: func(args []*types.DataType, ret *types.DataType) (expr.Kernel, error) {
			return func(_ *expr.Ctx, in []*expr.Vec, _ int) (*expr.Vec, error) {
				if failAtThirdCalls.Add(1) == 3 {
					return nil, errors.New("fails at its third batch")
				}
				return in[0], nil
			}, nil
		}})
}

// The iterator's converters end whichever way reading ends (the end of
// the rows, Close midway, the context's end, the job's failure), with
// Values read on one converter and on three; the error that ended it is
// Err's.
func TestConvertersEndWithTheIteration(t *testing.T) {
	for _, how := range []string{"end", "close", "cancel", "fail"} {
		for _, converters := range []int{1, 3} {
			name := fmt.Sprintf("%s-c%d", how, converters)
			t.Run(name, func(t *testing.T) {
				var res *TableResult
				if how == "fail" {
					failAtThirdCalls.Store(0)
					env := sequenceEnv(t, 40000, 1, "CREATE TEMPORARY FUNCTION fail_at_third AS 'test.fail_at_third'")
					var err error
					if res, err = env.ExecuteSQL("SELECT fail_at_third(v) AS v, CAST(v AS STRING) AS s FROM seq"); err != nil {
						t.Fatal(err)
					}
					res.converters = converters
				} else {
					res = sequenceResult(t, 40000)
					res.converters = converters
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var it *RowIterator
				var got int
				checked := false
				pprof.Do(ctx, pprof.Labels("reader", name), func(ctx context.Context) {
					var err error
					if it, err = res.CollectContext(ctx); err != nil {
						t.Fatal(err)
					}
					var vals []any
					for it.Next() {
						got++
						vals = it.Values(vals)
						if !checked && it.conversion != nil && how != "fail" {
							// the converters' reader now waits for Next to
							// take what it read ahead (ten batches)
							checked = true
							if live := labelledGoroutines(name); live < 2 { // 1: this goroutine
								t.Fatalf("%d labelled goroutines while converting", live)
							}
						}
						if len(vals) != 2 || vals[1] != strconv.FormatInt(vals[0].(int64), 10) {
							t.Fatalf("row %d: %v", got, vals)
						}
						if got == 5000 {
							switch how {
							case "close":
								_ = it.Close()
							case "cancel":
								cancel()
							}

						}
					}
				})
				if !checked && converters > 1 && how != "fail" {
					t.Fatal("no conversion on several goroutines seen")
				}
				switch err := it.Err(); how {
				case "end":
					if err != nil || got != 40000 {
						t.Fatalf("%d rows, %v", got, err)
					}
				case "close":
					if got < 5000 {
						t.Fatalf("%d rows", got)
					}
				case "cancel":
					if err != context.Canceled {
						t.Fatalf("Err %v, want context.Canceled", err)
					}
				case "fail":
					if err == nil || !strings.Contains(err.Error(), "fails at its third batch") || got >= 40000 {
						t.Fatalf("%d rows, Err %v", got, err)
					}
				}
				if it.Next() {
					t.Fatal("Next after the end returned true")
				}
				_ = it.Close()
				awaitNoLabelledGoroutines(t, name)
				wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer wcancel()
				_ = res.JobClient().Wait(wctx)
				if !res.JobClient().Status().IsTerminal() {
					t.Fatalf("job %v after the end", res.JobClient().Status())
				}
			})
		}
	}
}

// Values and Kind follow a changelog with -U, +U and -D at parallelism 1,
// 2 and 4: applying them (each retraction must match the row it retracts)
// leaves the final result.
func TestValuesFollowChangelog(t *testing.T) {
	for _, pc := range [][2]int{{1, 1}, {2, 3}, {4, 3}} {
		t.Run(fmt.Sprintf("p%d c%d", pc[0], pc[1]), func(t *testing.T) {
			env := MustCreate(InStreamingMode())
			mustExec(t, env, "SET 'parallelism.default' = '"+strconv.Itoa(pc[0])+"'",
				`CREATE TABLE seq (v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '2100',
					'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '2100')`)
			// counts of keys: each count is retracted (-D) once a key moves on
			res := queryWith(t, env, `SELECT c, COUNT(*) AS keys, CAST(c AS STRING) AS s
				FROM (SELECT MOD(v, 7) AS k, COUNT(*) AS c FROM seq GROUP BY MOD(v, 7)) GROUP BY c`, pc[1])
			it, err := res.Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			state := map[string]string{}
			seen := map[types.RowKind]int{}
			var vals []any
			for i := 0; it.Next(); i++ {
				vals = it.Values(vals)
				k := it.Kind()
				if i%3 == 0 {
					if r := it.Row(); r.Kind != k || fmt.Sprint(r.Values) != fmt.Sprint(vals) {
						t.Fatalf("row %d: Row %v, Values %v %v", i, r, k, vals)
					}
				}
				seen[k]++
				key, row := fmt.Sprint(vals[0]), fmt.Sprint(vals)
				switch k {
				case types.Insert, types.UpdateAfter:
					state[key] = row
				case types.UpdateBefore, types.Delete:
					if state[key] != row {
						t.Fatalf("row %d: %v %v retracts %q", i, k, vals, state[key])
					}
					delete(state, key)
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if len(state) != 1 || state["300"] != "[300 7 300]" {
				t.Fatalf("final state %v (kinds %v)", state, seen)
			}
			if seen[types.Delete] == 0 || seen[types.UpdateBefore] == 0 || seen[types.UpdateAfter] == 0 {
				t.Fatalf("kinds seen %v", seen)
			}
		})
	}
}

// An unbounded streaming source under LIMIT gives exactly LIMIT rows
// through Values, then the end.
func TestValuesOfUnboundedWithLimit(t *testing.T) {
	for _, pc := range [][2]int{{1, 1}, {2, 3}, {4, 3}} {
		t.Run(fmt.Sprintf("p%d c%d", pc[0], pc[1]), func(t *testing.T) {
			env := MustCreate(InStreamingMode())
			mustExec(t, env, "SET 'parallelism.default' = '"+strconv.Itoa(pc[0])+"'",
				`CREATE TABLE gen (v BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100000', 'fields.s.length' = '4')`)
			res := queryWith(t, env, "SELECT v, s, CHAR_LENGTH(s) AS n FROM gen LIMIT 3000", pc[1])
			it, err := res.Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			got := 0
			var vals []any
			for it.Next() {
				got++
				vals = it.Values(vals)
				if s, ok := vals[1].(string); !ok || len(s) != 4 || vals[2] != int32(4) || it.Kind() != types.Insert {
					t.Fatalf("row %d: %v", got, vals)
				}
			}
			if err := it.Err(); err != nil || got != 3000 {
				t.Fatalf("%d rows, %v", got, err)
			}
		})
	}
}

// Static results (DDL, SHOW, EXPLAIN) and an empty query result read
// through Values and Kind as through Row, with any dst.
func TestValuesOfStaticAndEmptyResults(t *testing.T) {
	env := MustCreate(InBatchMode())
	for _, stmt := range []string{
		"CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')",
		"SHOW TABLES",
		"EXPLAIN SELECT a FROM t",
		"SELECT a, b FROM t WHERE a <> a",
		"SHOW CURRENT DATABASE",
		"CREATE TABLE sink (a INT) WITH ('connector' = 'blackhole')",
		"INSERT INTO sink SELECT a FROM t",
	} {
		res, err := env.ExecuteSQL(stmt)
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		it, err := res.Collect()
		if err != nil {
			t.Fatal(err)
		}
		if v := it.Values([]any{"stale", "stale"}); len(v) != 0 || it.Kind() != types.Insert {
			t.Fatalf("%s: before Next Values %v", stmt, v)
		}
		rows := 0
		for it.Next() {
			rows++
			long := []any{"stale", "stale", "stale", "stale"}
			v := it.Values(long)
			if fmt.Sprint(v) != fmt.Sprint(it.Row().Values) || len(v) != res.Schema().FieldCount() || it.Kind() != types.Insert {
				t.Fatalf("%s: Values %v, Row %v", stmt, v, it.Row())
			}
			if len(v) > 0 && v[0] == "stale" {
				t.Fatalf("%s: stale value", stmt)
			}
		}
		if err := it.Err(); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		if strings.HasPrefix(stmt, "INSERT") {
			if rows != 1 {
				t.Fatalf("%s: %d rows", stmt, rows)
			}
		} else if want := strings.HasPrefix(stmt, "SELECT"); (rows == 0) != want {
			t.Fatalf("%s: %d rows", stmt, rows)
		}
		if b, err := it.NextBatch(context.Background()); err != io.EOF {
			t.Fatalf("%s: NextBatch after the end: %v, %v", stmt, b, err)
		}
		_ = it.Close()
	}
}

// NextBatch mixed with Next (documented as unsupported) does not panic,
// and every row still comes once: through Next (Values correct, in order)
// or in a batch NextBatch returned.
func TestNextBatchMixedWithValues(t *testing.T) {
	for _, converters := range []int{1, 3} {
		t.Run(fmt.Sprintf("c%d", converters), func(t *testing.T) {
			const n = 40000
			it, err := sequenceResult(t, n).Collect()
			if err != nil {
				t.Fatal(err)
			}
			it.res.converters = converters
			defer it.Close()
			seen := make([]bool, n+1)
			mark := func(v int64) {
				if v < 1 || v > n || seen[v] {
					t.Fatalf("row %d twice or out of range", v)
				}
				seen[v] = true
			}
			var vals []any
			last := int64(0)
			for i := 0; it.Next(); i++ {
				vals = it.Values(vals)
				v := vals[0].(int64)
				if v <= last || vals[1] != strconv.FormatInt(v, 10) {
					t.Fatalf("after %d: %v", last, vals)
				}
				last = v
				mark(v)
				if i%3000 == 0 {
					b, err := it.NextBatch(context.Background())
					if err == io.EOF {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					for j := range b.Len {
						mark(b.Cols[0].(interface{ Value(int) int64 }).Value(j))
					}
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			for v := 1; v <= n; v++ {
				if !seen[v] {
					t.Fatalf("row %d lost", v)
				}
			}
		})
	}
}
