//go:build interop

package interop

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/table"
)

// TestFlinkClientStreamingChangelog: a GROUP BY over a bounded source in
// streaming mode arrives as the changelog Flink sends (+I, -U, +U), paged
// to the end of the stream; applied, it gives the batch answer.
func TestFlinkClientStreamingChangelog(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	e := fcConnectFlink(t, f, fcStreamingProps())
	fcCreateTables(t, ctx, e, t.TempDir())

	res := fcExec(t, ctx, e, "SELECT name, COUNT(*) AS n, SUM(amount) AS total FROM orders_csv GROUP BY name")
	if !res.IsQuery() || !res.IsStreaming() || res.JobID() == "" {
		t.Fatalf("IsQuery %v, IsStreaming %v, JobID %q", res.IsQuery(), res.IsStreaming(), res.JobID())
	}
	got := fcFormatRows(t, res)
	fcMustEqual(t, "changelog", got, []string{
		"+I[apple, 1, 2.50]", "+I[pear, 1, 1.25]",
		"-U[apple, 1, 2.50]", "+U[apple, 2, 6.50]",
		"+I[plum, 1, 0.75]",
	})
	fcMustEqual(t, "applied", fcApplyChangelog(t, got), []string{"[apple, 2, 6.50]", "[pear, 1, 1.25]", "[plum, 1, 0.75]"})

	// Top-1 per key (FastTop1Function: the partition key is the unique
	// key, so -U/+U); Riffle's embedded engine gives the same changelog
	top1 := "SELECT name, amount FROM (SELECT name, amount, " +
		"ROW_NUMBER() OVER (PARTITION BY name ORDER BY amount DESC) AS rn FROM orders_csv) WHERE rn = 1"
	wantTop1 := []string{
		"+I[apple, 2.50]", "+I[pear, 1.25]", "-U[apple, 2.50]", "+U[apple, 4.00]", "+I[plum, 0.75]",
	}
	fcMustEqual(t, "top-1 changelog", fcRowsOf(t, ctx, e, top1), wantTop1)
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	env.GetConfig().Set("table.dml-sync", "true")
	// one subtask, as the test cluster's Flink: at Riffle's default (the
	// number of cores) the keys' changes interleave in either order
	env.GetConfig().Set("parallelism.default", "1")
	embedded := table.NewEmbeddedEngine(env)
	defer embedded.Close()
	fcCreateTables(t, ctx, embedded, t.TempDir())
	fcMustEqual(t, "embedded top-1 changelog", fcRowsOf(t, ctx, embedded, top1), wantTop1)

	// many rows come in many pages, all of them, in order, up to EOS
	fcExec(t, ctx, e, "CREATE TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "+
		"'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20000')")
	res = fcExec(t, ctx, e, "SELECT id FROM seq")
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := int64(0)
	for it.Next() {
		n++
		if id := it.Row().Values[0].(int64); id != n {
			t.Fatalf("row %d has id %d", n, id)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 20000 {
		t.Fatalf("%d rows, want 20000", n)
	}
}

// TestFlinkClientStreamingCancel: closing the rows of an unbounded
// streaming query closes its operation, and Flink cancels the job.
func TestFlinkClientStreamingCancel(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	e := fcConnectFlink(t, f, fcStreamingProps())
	fcExec(t, ctx, e, "CREATE TABLE endless (id BIGINT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')")
	res := fcExec(t, ctx, e, "SELECT id, v FROM endless")
	job := res.JobID()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if !it.Next() {
			t.Fatalf("the unbounded query ended after %d rows: %v", i, it.Err())
		}
	}
	if st := fcClusterJobState(t, f, job); st != "RUNNING" {
		t.Fatalf("job %s is %q while its rows are read, want RUNNING", job, st)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	fcWaitUntil(t, time.Minute, func() bool { return fcClusterJobState(t, f, job) == "CANCELED" },
		func() string { return fmt.Sprintf("job %s is %q, want CANCELED", job, fcClusterJobState(t, f, job)) })
	// the engine agrees
	if err := e.WaitJob(ctx, job); err == nil || !strings.Contains(err.Error(), "CANCELED") {
		t.Errorf("WaitJob of the cancelled job = %v, want CANCELED", err)
	}
}

// TestFlinkClientStreamingContextCancel: rows collected with a context
// (RemoteResult.CollectContext) end when it is cancelled, with its error,
// and Flink cancels the query's job.
func TestFlinkClientStreamingContextCancel(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	e := fcConnectFlink(t, f, fcStreamingProps())
	fcExec(t, ctx, e, "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')")
	res, err := e.ExecuteSQLContext(ctx, "SELECT id FROM endless")
	if err != nil {
		t.Fatal(err)
	}
	readCtx, stop := context.WithCancel(ctx)
	it, err := res.CollectContext(readCtx)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	done := make(chan int)
	go func() {
		n := 0
		for it.Next() {
			n++
			if n == 10 {
				stop()
			}
		}
		done <- n
	}()
	select {
	case n := <-done:
		if n < 10 || it.Err() != context.Canceled {
			t.Errorf("read %d rows, then Err %v; want 10 or more and context.Canceled", n, it.Err())
		}
	case <-time.After(time.Minute):
		t.Fatal("rows do not end after the context was cancelled")
	}
	fcWaitUntil(t, time.Minute, func() bool { return fcClusterJobState(t, f, res.JobID()) == "CANCELED" },
		func() string { return "job " + res.JobID() + " is " + fcClusterJobState(t, f, res.JobID()) })
}

// TestFlinkClientStopJob: an unbounded INSERT submitted in the background
// (table.dml-sync false) is listed by Jobs as RUNNING, and both STOP JOB
// and RemoteEngine.CancelJob end such jobs: CANCELED on the cluster.
func TestFlinkClientStopJob(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	props := fcStreamingProps()
	props["table.dml-sync"] = "false"
	e := fcConnectFlink(t, f, props)
	fcExec(t, ctx, e, "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')")
	fcExec(t, ctx, e, "CREATE TABLE drain (id BIGINT) WITH ('connector' = 'blackhole')")

	start := func() string {
		res := fcExec(t, ctx, e, "INSERT INTO drain SELECT id FROM endless")
		if res.JobID() == "" || !strings.Contains(res.Message(), "Job ID: "+res.JobID()) {
			t.Fatalf("INSERT: job %q, message %q", res.JobID(), res.Message())
		}
		job := res.JobID()
		state := ""
		fcWaitUntil(t, time.Minute, func() bool {
			state = fcClusterJobState(t, f, job)
			return state == "RUNNING" || state == "FAILED"
		}, func() string { return "job " + job + " is " + state })
		if state == "FAILED" {
			t.Fatalf("the INSERT's job failed: %v", e.WaitJob(ctx, job))
		}
		return job
	}
	submitted := time.Now() // this host's clock, which the local cluster shares
	job1 := start()
	jobs, err := e.Jobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	listed := time.Now()
	if len(jobs) != 1 || jobs[0].ID != job1 || jobs[0].Status != "RUNNING" || jobs[0].StartTime.IsZero() {
		t.Fatalf("Jobs = %+v, want only %s RUNNING with its start time", jobs, job1)
	}
	// the job started after the INSERT was sent and before it was listed
	// (the lower bound truncated to the second, the coarsest precision a
	// listing may give)
	if st := jobs[0].StartTime; st.Before(submitted.Truncate(time.Second)) || st.After(listed) {
		t.Errorf("start time %v is not between the INSERT (%v) and the listing (%v)", st, submitted, listed)
	}
	res := fcExec(t, ctx, e, "STOP JOB '"+job1+"'")
	if res.Message() != "[INFO] Execute statement succeeded." {
		t.Errorf("STOP JOB: %q", res.Message())
	}
	fcWaitUntil(t, time.Minute, func() bool { return fcClusterJobState(t, f, job1) == "CANCELED" },
		func() string { return "job " + job1 + " is " + fcClusterJobState(t, f, job1) })

	job2 := start()
	if err := e.CancelJob(ctx, job2); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitJob(ctx, job2); err == nil || !strings.Contains(err.Error(), "CANCELED") {
		t.Errorf("WaitJob after CancelJob = %v, want CANCELED", err)
	}
	if st := fcClusterJobState(t, f, job2); st != "CANCELED" {
		t.Errorf("job %s is %q on the cluster, want CANCELED", job2, st)
	}
	rj, err := e.RemoteJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range rj {
		if j.StatusName() != "CANCELED" || j.EndTime().IsZero() || !strings.HasPrefix(j.Statement(), "INSERT INTO drain") {
			t.Errorf("RemoteJob %s: status %s, end %v, statement %q", j.JobID(), j.StatusName(), j.EndTime(), j.Statement())
		}
	}
	if len(rj) != 2 {
		t.Errorf("RemoteJobs lists %d jobs, want 2", len(rj))
	}
	// an unknown job
	if err := e.WaitJob(ctx, "00000000000000000000000000000000"); err == nil {
		t.Error("WaitJob of an unknown job succeeded")
	}
}

// TestFlinkClientJobsWithoutClusterREST: without the cluster's REST URL
// the jobs come from Flink's SHOW JOBS: the engine's own job, RUNNING, with
// its start time (a TIMESTAMP_LTZ read as Flink writes it), cancelled by
// CancelJob and then reported CANCELED by WaitJob.
func TestFlinkClientJobsWithoutClusterREST(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	props := fcStreamingProps()
	props["table.dml-sync"] = "false"
	props["table.local-time-zone"] = "America/New_York"
	e, err := gateway.Connect(ctx, f.Gateway, gateway.RemoteOptions{Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	fcExec(t, ctx, e, "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')")
	fcExec(t, ctx, e, "CREATE TABLE drain (id BIGINT) WITH ('connector' = 'blackhole')")
	before := time.Now().Add(-time.Minute)
	job := fcExec(t, ctx, e, "INSERT INTO drain SELECT id FROM endless").JobID()
	var jobs []table.JobInfo
	fcWaitUntil(t, time.Minute, func() bool {
		jobs, err = e.Jobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(jobs) == 1 && (jobs[0].Status == "RUNNING" || jobs[0].Status == "FAILED")
	}, func() string { return fmt.Sprintf("Jobs = %+v, want %s RUNNING", jobs, job) })
	if jobs[0].Status == "FAILED" {
		t.Fatalf("the INSERT's job failed: %v", e.WaitJob(ctx, job))
	}
	if jobs[0].ID != job || jobs[0].StartTime.Before(before) || jobs[0].StartTime.After(time.Now().Add(time.Minute)) {
		t.Errorf("Jobs = %+v: want %s started about now (%v)", jobs, job, time.Now())
	}
	if err := e.CancelJob(ctx, job); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitJob(ctx, job); err == nil || !strings.Contains(err.Error(), "CANCELED") {
		t.Errorf("WaitJob = %v, want CANCELED", err)
	}
}

// TestFlinkClientFailedJobReason: WaitJob of a job that failed on the
// cluster says why, from the cluster's REST API.
func TestFlinkClientFailedJobReason(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	props := fcBatchProps()
	props["table.dml-sync"] = "false"
	e := fcConnectFlink(t, f, props)
	fcCreateTables(t, ctx, e, t.TempDir())
	fcExec(t, ctx, e, "CREATE TABLE drain (n INT) WITH ('connector' = 'blackhole')")
	job := fcExec(t, ctx, e, "INSERT INTO drain SELECT CAST(name AS INT) FROM orders_csv").JobID()
	err := e.WaitJob(ctx, job)
	if err == nil || !strings.Contains(err.Error(), "FAILED: ") || !strings.Contains(err.Error(), "apple") {
		t.Errorf("WaitJob = %v, want FAILED with Flink's reason naming 'apple'", err)
	}
	t.Log(err)
}
