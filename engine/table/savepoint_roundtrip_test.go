package table

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// Savepoint round trips in SQL, one per kind of stateful operator (issue
// 16): a streaming query over a paced, bounded datagen sequence is stopped
// WITH SAVEPOINT part way and run again from the savepoint; the changes the
// two runs delivered, applied in order, end as an uninterrupted run does.
// With periodic checkpoints on (never due here), the query's results reach
// the reader only up to the savepoint, so nothing is seen twice.

const roundTripRows = 400

// roundTripEnv is a streaming environment with gen(v, k, ts): v the
// sequence 1..roundTripRows, k = v % 5, ts = v seconds as event time with
// a watermark, and dim(k, name) a small append table, paced when paced.
func roundTripEnv(t *testing.T, paced bool) *TableEnvironment {
	t.Helper()
	env := atParallelismOne(MustCreate(InStreamingMode()))
	rate := ""
	// Paced, the sources take 1.6 s; the tests stop with a savepoint once
	// a fifth of the rows are read, which leaves the savepoint 1.3 s
	// before the sources would end (at load 20–29, 0.7 s was too little).
	if paced {
		rate = "'rows-per-second' = '250', "
	}
	mustExec(t, env,
		"SET 'table.local-time-zone' = 'UTC'",
		fmt.Sprintf(`CREATE TABLE gen (v BIGINT, k AS v %% 5, ts AS TO_TIMESTAMP_LTZ(v * 1000, 3), WATERMARK FOR ts AS ts)
			WITH ('connector' = 'datagen', %s'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, rate, roundTripRows),
		fmt.Sprintf(`CREATE TABLE gen2 (w BIGINT, k2 AS w %% 5, ts2 AS TO_TIMESTAMP_LTZ(w * 1000, 3), WATERMARK FOR ts2 AS ts2)
			WITH ('connector' = 'datagen', %s'fields.w.kind' = 'sequence', 'fields.w.start' = '1', 'fields.w.end' = '%d')`, rate, roundTripRows))
	return env
}

// applyChanges materializes a changelog: a multiset of rows (as text).
func applyChanges(rows []*types.Row) []string {
	count := map[string]int{}
	for _, r := range rows {
		key := r.String()[2:]
		switch r.Kind {
		case types.Insert, types.UpdateAfter:
			count[key]++
		default:
			count[key]--
		}
	}
	var out []string
	for k, n := range count {
		for ; n > 0; n-- {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func collectAll(t *testing.T, ctx context.Context, res *TableResult) []*types.Row {
	t.Helper()
	var rows []*types.Row
	for r, err := range res.Rows(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestSavepointRoundTripPerOperator(t *testing.T) {
	if testing.Short() {
		t.Skip("paced sources")
	}
	for _, c := range []struct{ name, query string }{
		{"group aggregate", "SELECT k, COUNT(*), SUM(v), MAX(v), COUNT(DISTINCT v % 7) FROM gen GROUP BY k"},
		{"top-n", "SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM gen) WHERE rn <= 2"},
		{"deduplication", "SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts ASC) AS rn FROM gen) WHERE rn = 1"},
		{"regular join", "SELECT a.k, COUNT(*) FROM gen AS a JOIN gen2 AS b ON a.v = b.w GROUP BY a.k"},
		{"interval join", "SELECT a.v, b.w FROM gen AS a JOIN gen2 AS b ON a.k = b.k2 AND b.ts2 BETWEEN a.ts - INTERVAL '2' SECOND AND a.ts"},
		{"tumble window", "SELECT window_start, k, COUNT(*), SUM(v) FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k"},
		{"hop window", "SELECT window_start, COUNT(*) FROM TABLE(HOP(TABLE gen, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND)) GROUP BY window_start, window_end"},
		{"session window", "SELECT window_start, k, COUNT(*) FROM TABLE(SESSION(TABLE gen PARTITION BY k, DESCRIPTOR(ts), INTERVAL '3' SECOND)) GROUP BY window_start, window_end, k"},
		{"over", "SELECT v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM gen"},
		{"match_recognize", "SELECT * FROM gen MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES FIRST(A.v) AS a, COUNT(B.v) AS nb, C.v AS c " +
			"PATTERN (A B{2,4}? C) WITHIN INTERVAL '60' SECOND DEFINE B AS B.v > PREV(B.v) AND MOD(B.v, 7) <> 0, C AS MOD(C.v, 3) = 0)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// uninterrupted
			ref := roundTripEnv(t, false)
			res, err := ref.ExecuteSQLContext(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			want := applyChanges(collectAll(t, ctx, res))
			if len(want) == 0 {
				t.Fatal("the uninterrupted run gave no rows")
			}

			// stopped with a savepoint part way, then resumed
			env := roundTripEnv(t, true)
			mustExec(t, env,
				"SET 'execution.checkpointing.interval' = '1 h'",
				"SET 'execution.checkpointing.dir' = '"+t.TempDir()+"'")
			first, err := env.ExecuteSQLContext(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			job := first.JobClient()
			// the rows are read while the job runs, as a result view does:
			// the savepoint hands the reader what it covers before the job
			// ends
			got := readWhileRunning(ctx, first)
			testwait.Until(t, time.Minute, "a fifth of the rows read", func() bool {
				ms := job.Metrics()
				return len(ms) > 0 && ms[0].RecordsOut >= roundTripRows/5
			})
			path, err := job.StopWithSavepointContext(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			rows := <-got
			if n := job.Metrics()[0].RecordsOut; n >= roundTripRows {
				t.Fatalf("the first run read all %d rows before its savepoint: nothing to resume", n)
			}
			mustExec(t, env, "SET 'execution.state-recovery.path' = '"+path+"'")
			second, err := env.ExecuteSQLContext(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, collectAll(t, ctx, second)...)
			if got := applyChanges(rows); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("stopped and resumed: %d rows, uninterrupted: %d\n got %v\nwant %v", len(got), len(want), got, want)
			}
		})
	}
}

// readWhileRunning reads a result's rows while its job runs, as a result
// view does, and sends them all once the result ends (or fails).
func readWhileRunning(ctx context.Context, r *TableResult) <-chan []*types.Row {
	got := make(chan []*types.Row, 1)
	go func() {
		var rows []*types.Row
		for row, err := range r.Rows(ctx) {
			if err != nil {
				break
			}
			rows = append(rows, row)
		}
		got <- rows
	}()
	return got
}
