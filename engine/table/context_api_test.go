package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
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

// rowStrings renders rows as "+I[1] +I[2]".
func rowStrings(rows []*types.Row) string {
	s := make([]string, len(rows))
	for i, r := range rows {
		s[i] = r.String()
	}
	return strings.Join(s, " ")
}

// waitCancelled waits for a job to end and fails unless it was cancelled.
func waitCancelled(t *testing.T, jc *JobClient) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := jc.Wait(ctx); !errors.Is(err, ErrCanceled) {
		t.Fatalf("the job ended with %v, want it cancelled", err)
	}
}

func TestDataStreamCollectContext(t *testing.T) {
	ctx := t.Context()
	env := MustCreate(InStreamingMode())
	rt := types.RowType(types.NewField("n", types.IntType()))
	tab, err := env.FromDataStream(DataStreamOf(rt, types.NewRow(int32(1)), types.NewRow(int32(2))))
	mustTable(t, tab, err)
	ds, err := env.ToDataStreamContext(ctx, tab)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ds.CollectContext(ctx)
	if got := rowStrings(rows); err != nil || got != "+I[1] +I[2]" {
		t.Fatalf("CollectContext of a bounded stream: %q, %v", got, err)
	}

	// an unbounded stream and a context that has already ended: no rows,
	// the context's error, and the job cancelled
	in := make(chan *types.Row)
	defer close(in)
	utab, err := env.FromDataStream(NewDataStream(in, rt))
	mustTable(t, utab, err)
	uds, err := env.ToDataStreamContext(ctx, utab)
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	rows, err = uds.CollectContext(ended)
	if rows != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("CollectContext with a cancelled context: %v, %v", rows, err)
	}
	waitCancelled(t, uds.JobClient())

	// cancelled while rows arrive: the rows read so far, in order
	in2 := make(chan *types.Row)
	defer close(in2)
	utab2, err := env.FromDataStream(NewDataStream(in2, rt))
	mustTable(t, utab2, err)
	uds2, err := env.ToDataStreamContext(ctx, utab2)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel2 := context.WithCancel(ctx)
	type collected struct {
		rows []*types.Row
		err  error
	}
	done := make(chan collected)
	go func() {
		rows, err := uds2.CollectContext(cctx)
		done <- collected{rows, err}
	}()
	for i := range 3 {
		in2 <- types.NewRow(int32(i + 1))
	}
	cancel2()
	got := <-done
	if !errors.Is(got.err, context.Canceled) || !strings.HasPrefix("+I[1] +I[2] +I[3]", rowStrings(got.rows)) {
		t.Fatalf("CollectContext cancelled while reading: %q, %v", rowStrings(got.rows), got.err)
	}
	waitCancelled(t, uds2.JobClient())

	var none *DataStream
	if _, err := none.CollectContext(ctx); !errors.Is(err, errNilDataStream) {
		t.Fatalf("CollectContext of a nil stream: %v", err)
	}
}

// The table-to-stream conversions' ctx bounds the stream: rows arrive as
// the input does; when ctx ends, the channel closes with no further
// value, the stream's Err is ctx's error and the job is cancelled.
func TestToStreamContextsEndWithTheirContext(t *testing.T) {
	rt := types.RowType(types.NewField("name", types.StringType()), types.NewField("score", types.IntType()))
	records := func(ds *DataStream, err error) (func() (string, bool), *DataStream, error) {
		recs := ds.Records()
		return func() (string, bool) {
			r, ok := <-recs
			if !ok {
				return "", false
			}
			return r.Row.String(), true
		}, ds, err
	}
	sum := func(tab *Table) *Table {
		return tab.GroupBy(Col("name")).Select(Col("name"), Col("score").Sum().As("total"))
	}
	for _, c := range []struct {
		name  string
		query func(*Table) *Table
		start func(ctx context.Context, env *TableEnvironment, tab *Table) (func() (string, bool), *DataStream, error)
		want  []string
	}{
		{"ToDataStreamContext", nil, func(ctx context.Context, env *TableEnvironment, tab *Table) (func() (string, bool), *DataStream, error) {
			ds, err := env.ToDataStreamContext(ctx, tab)
			return records(ds, err)
		}, []string{"+I[Alice, 12]", "+I[Alice, 100]"}},
		{"ToAppendStreamContext", nil, func(ctx context.Context, env *TableEnvironment, tab *Table) (func() (string, bool), *DataStream, error) {
			ds, err := env.ToAppendStreamContext(ctx, tab)
			return records(ds, err)
		}, []string{"+I[Alice, 12]", "+I[Alice, 100]"}},
		{"ToChangelogStreamContext", sum, func(ctx context.Context, env *TableEnvironment, tab *Table) (func() (string, bool), *DataStream, error) {
			ds, err := env.ToChangelogStreamContext(ctx, tab, nil)
			return records(ds, err)
		}, []string{"+I[Alice, 12]", "-U[Alice, 12]", "+U[Alice, 112]"}},
		{"ToRetractStreamContext", sum, func(ctx context.Context, env *TableEnvironment, tab *Table) (func() (string, bool), *DataStream, error) {
			ch, ds, err := env.ToRetractStreamContext(ctx, tab)
			return func() (string, bool) {
				r, ok := <-ch
				if !ok {
					return "", false
				}
				return fmt.Sprintf("%v %s", r.Add, r.Row), true
			}, ds, err
		}, []string{"true +I[Alice, 12]", "false +I[Alice, 12]", "true +I[Alice, 112]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := MustCreate(InStreamingMode())
			in := make(chan *types.Row)
			defer close(in)
			tab, err := env.FromDataStream(NewDataStream(in, rt))
			mustTable(t, tab, err)
			if c.query != nil {
				tab = c.query(tab)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			next, ds, err := c.start(ctx, env, tab)
			if err != nil {
				t.Fatal(err)
			}
			in <- types.NewRow("Alice", int32(12))
			in <- types.NewRow("Alice", int32(100))
			for i, want := range c.want {
				if got, ok := next(); !ok || got != want {
					t.Fatalf("value %d: %q (open %v), want %q; Err %v", i, got, ok, want, ds.Err())
				}
			}
			cancel()
			if got, ok := next(); ok {
				t.Fatalf("a value after the context ended: %q", got)
			}
			if err := ds.Err(); !errors.Is(err, context.Canceled) {
				t.Fatalf("the stream's Err after its context ended: %v", err)
			}
			waitCancelled(t, ds.JobClient())
		})
	}
}

// ToArrowContext applies the changelog to the end of a bounded job; on an
// unbounded one, ctx's end cancels the job and returns ctx's error.
func TestToArrowContext(t *testing.T) {
	ctx := t.Context()
	// one task: the expected order of the rows is one aggregate task's
	// (at parallelism 2 Alice and Bob may come from two tasks in either order)
	env := atParallelismOne(MustCreate(InStreamingMode()))
	rt := types.RowType(types.NewField("name", types.StringType()), types.NewField("score", types.IntType()))
	tab, err := env.FromDataStream(DataStreamOf(rt, types.NewRow("Alice", int32(12)), types.NewRow("Bob", int32(10)), types.NewRow("Alice", int32(100))))
	mustTable(t, tab, err)
	sum := tab.GroupBy(Col("name")).Select(Col("name"), Col("score").Sum().As("total"))
	rec, err := sum.ToArrowContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if got := fmt.Sprint(rec.NumRows(), rec.Column(0), rec.Column(1)); got != `2 ["Bob" "Alice"] [10 112]` {
		t.Fatalf("ToArrowContext of an updating table: %s", got)
	}

	in := make(chan *types.Row)
	defer close(in)
	utab, err := env.FromDataStream(NewDataStream(in, rt))
	mustTable(t, utab, err)
	cctx, cancel := context.WithCancel(ctx)
	type result struct {
		n   int64
		err error
	}
	done := make(chan result)
	go func() {
		rec, err := utab.ToArrowContext(cctx)
		r := result{err: err}
		if rec != nil {
			r.n = rec.NumRows()
			rec.Release()
		}
		done <- r
	}()
	cancel()
	if r := <-done; r.n != 0 || !errors.Is(r.err, context.Canceled) {
		t.Fatalf("ToArrowContext of an unbounded table, cancelled: %d rows, %v", r.n, r.err)
	}
	jobs := env.Jobs()
	waitCancelled(t, jobs[len(jobs)-1])
}

// TableEnvironment.ExecuteContext runs the buffered INSERTs as one job
// named jobName; when ctx ends before the job, the job is cancelled.
func TestEnvironmentExecuteContext(t *testing.T) {
	ctx := t.Context()
	env := atParallelismOne(MustCreate(InStreamingMode()))
	var printed strings.Builder
	env.SetStdout(&printed)
	for _, stmt := range []string{
		"CREATE TABLE printed (a INT) WITH ('connector' = 'print')",
		"CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')",
		"CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole')",
	} {
		if _, err := env.ExecuteSQLContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.SQLUpdate("INSERT INTO printed VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	r, err := env.ExecuteContext(ctx, "two rows")
	if err != nil {
		t.Fatal(err)
	}
	jobs := env.Jobs()
	last := jobs[len(jobs)-1]
	if string(r.JobID()) != last.JobID() || last.JobName() != "two rows" || last.Status() != JobFinished {
		t.Fatalf("result of job %s; the last job: %s %q %s", r.JobID(), last.JobID(), last.JobName(), last.Status())
	}
	if got := strings.Fields(printed.String()); strings.Join(got, " ") != "+I[1] +I[2]" {
		t.Fatalf("printed %q", printed.String())
	}

	if err := env.SQLUpdate("INSERT INTO bh SELECT a FROM g"); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() {
		r, err := env.ExecuteContext(cctx, "endless")
		if r != nil {
			err = fmt.Errorf("a result %v next to %v", r, err)
		}
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("ExecuteContext of an unbounded INSERT, cancelled: %v", err)
	}
	jobs = env.Jobs()
	last = jobs[len(jobs)-1]
	if last.JobName() != "endless" {
		t.Fatalf("the last job is %q", last.JobName())
	}
	waitCancelled(t, last)
}
