package table

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// applyChangelog applies a changelog to a table keyed by the first column and
// returns its rows as text, sorted by key.
func applyChangelog(t *testing.T, state map[string]string, rows []*types.Row) {
	t.Helper()
	for _, r := range rows {
		key := fmt.Sprint(r.Values[0])
		switch r.Kind {
		case types.Insert, types.UpdateAfter:
			state[key] = r.String()[2:] // without the kind
		case types.UpdateBefore, types.Delete:
			delete(state, key)
		}
	}
}

// A streaming aggregate stopped WITH SAVEPOINT half way and resumed from
// the savepoint with execution.state-recovery.path ends with the rows an
// uninterrupted run ends with: no row is counted twice or lost.
func TestStopWithSavepointAndResumeSQL(t *testing.T) {
	const rows, keys = 600, 5
	env := MustCreate(InStreamingMode())
	ddl := fmt.Sprintf(`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '300',
		'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, rows)
	if _, err := env.ExecuteSQL(ddl); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := env.ExecuteSQL("SET 'execution.checkpointing.savepoint-dir' = '" + dir + "'"); err != nil {
		t.Fatal(err)
	}
	const query = "SELECT v % 5 AS k, COUNT(*) AS n, SUM(v) AS s FROM gen GROUP BY v % 5"
	want := map[string]string{}
	for k := 0; k < keys; k++ {
		var n, s int64
		for v := int64(1); v <= rows; v++ {
			if v%keys == int64(k) {
				n++
				s += v
			}
		}
		want[fmt.Sprint(k)] = fmt.Sprintf("[%d, %d, %d]", k, n, s)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := env.ExecuteSQLContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	job := res.JobClient()
	// stop once some rows are in, well before the end
	it, err := res.CollectContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for seen := 0; seen < 40; seen++ {
		if !it.Next() {
			t.Fatalf("the query ended after %d changes: %v", seen, it.Err())
		}
	}
	stop, err := env.ExecuteSQL("STOP JOB '" + job.JobID() + "' WITH SAVEPOINT")
	if err != nil {
		t.Fatal(err)
	}
	var path string
	for r, err := range stop.Rows(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		path = r.Values[0].(string)
	}
	if cols := stop.Schema().FieldNames(); len(cols) != 1 || cols[0] != "savepoint path" {
		t.Fatalf("result columns %v", cols)
	}
	if !strings.HasPrefix(path, "file:"+filepath.ToSlash(dir)+"/savepoint-"+job.JobID()[:6]+"-") {
		t.Fatalf("savepoint path %q", path)
	}
	if err := job.Wait(ctx); err != nil || job.Status() != JobFinished {
		t.Fatalf("after STOP JOB WITH SAVEPOINT: %v, %s", err, job.Status())
	}
	if last, ok := job.LastCheckpoint(); !ok || !last.Savepoint || last.ID != 1 || "file:"+filepath.ToSlash(last.Path) != path || last.Size <= 0 || last.Duration() < 0 {
		t.Fatalf("last checkpoint %+v, %v", last, ok)
	}
	if n := job.CheckpointCounts(); n.Completed != 1 || n.Failed != 0 {
		t.Fatalf("checkpoint counts %+v", n)
	}
	if _, err := os.Stat(filepath.Join(strings.TrimPrefix(path, "file:"), "_metadata")); err != nil {
		t.Fatal(err)
	}

	if _, err := env.ExecuteSQL("SET 'execution.state-recovery.path' = '" + path + "'"); err != nil {
		t.Fatal(err)
	}
	resumed, err := env.ExecuteSQLContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var changes []*types.Row
	for r, err := range resumed.Rows(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, r)
	}
	applyChangelog(t, got, changes)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("resumed run ends with\n%v\nwant\n%v", got, want)
	}
	// the resumed job did not read from the start: its first change is an
	// update of a key the savepoint held
	if len(changes) == 0 || changes[0].Kind != types.UpdateBefore {
		t.Fatalf("first change of the resumed job: %v", changes)
	}
}

// A path that holds no checkpoint is an error naming it; the job does not
// start afresh.
func TestResumeFromMissingCheckpointSQL(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')`); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := env.ExecuteSQL("SET 'execution.savepoint.path' = '" + missing + "'"); err != nil {
		t.Fatal(err)
	}
	_, err := env.ExecuteSQL("SELECT v FROM gen")
	if err == nil || !strings.Contains(err.Error(), "Could not restore the job from '"+missing+"' (execution.state-recovery.path)") {
		t.Fatalf("missing checkpoint: %v", err)
	}
	if _, err := env.ExecuteSQL("RESET 'execution.savepoint.path'"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL("SET 'state.backend.type' = 'rocksdb'"); err != nil {
		t.Fatal(err)
	}
	// the disk state backend (state_backend_test.go) runs the query
	res, err := env.ExecuteSQL("SELECT v FROM gen")
	if err != nil {
		t.Fatalf("rocksdb: %v", err)
	}
	if rows := collectAll(t, context.Background(), res); len(rows) != 3 {
		t.Fatalf("rocksdb: %d rows, want 3", len(rows))
	}
	if _, err := env.ExecuteSQL("RESET 'state.backend.type'"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL("SET 'execution.state-recovery.path' = 's3://bucket/cp'"); err != nil {
		t.Fatal(err)
	}
	_, err = env.ExecuteSQL("SELECT v FROM gen")
	if err == nil || !strings.Contains(err.Error(), "local directories only") {
		t.Fatalf("s3 path: %v", err)
	}
}

// A streaming job with checkpoints that fails restarts as
// restart-strategy.* say, and fails for good once no restart is left,
// naming the strategy; an unknown strategy is refused at submission.
func TestRestartStrategySQL(t *testing.T) {
	env := MustCreate(InStreamingMode())
	for _, stmt := range []string{
		`CREATE TABLE t (s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.s.length' = '3')`,
		"SET 'execution.checkpointing.interval' = '50 ms'",
		"SET 'execution.checkpointing.dir' = '" + t.TempDir() + "'",
		"SET 'restart-strategy.type' = 'fixed-delay'",
		"SET 'restart-strategy.fixed-delay.attempts' = '2'",
		"SET 'restart-strategy.fixed-delay.delay' = '0 s'",
	} {
		if _, err := env.ExecuteSQL(stmt); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := env.ExecuteSQL("SELECT CAST(CONCAT('x', s) AS INT) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	err = res.JobClient().Wait(ctx)
	if err == nil || !strings.Contains(err.Error(), "cannot cast") || !strings.Contains(err.Error(), "(restart strategy fixed-delay: no restart left after 2)") {
		t.Fatalf("job error: %v", err)
	}
	if _, err := env.ExecuteSQL("SET 'restart-strategy.type' = 'sometimes'"); err == nil || !strings.Contains(err.Error(), "restart-strategy.type") {
		t.Fatalf("SET of an unknown strategy: %v", err)
	}
	if _, err := env.ExecuteSQL("SET 'restart-strategy' = 'sometimes'"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL("RESET 'restart-strategy.type'"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL("SELECT s FROM t"); err == nil || !strings.Contains(err.Error(), "Unknown restart strategy 'sometimes'") {
		t.Fatalf("unknown strategy: %v", err)
	}
}

// A source that cannot save its position is named when checkpointing is
// on: the job is refused at submission.
func TestCheckpointRefusesAPositionlessSource(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		`CREATE TABLE pg (id BIGINT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://127.0.0.1:1/none', 'table-name' = 'pg')`,
		"SET 'execution.checkpointing.interval' = '1 s'",
		"SET 'execution.checkpointing.dir' = '"+t.TempDir()+"'")
	_, err := env.ExecuteSQL("SELECT id FROM pg")
	if err == nil || !strings.Contains(err.Error(), "cannot save its read position") || !strings.Contains(err.Error(), "pg") {
		t.Fatalf("jdbc source with checkpoints: %v", err)
	}
}

// Checkpoint options that Flink refuses, or that ask for what Riffle does
// not do, are refused by SET.
func TestCheckpointOptionValues(t *testing.T) {
	env := MustCreate(InStreamingMode())
	for stmt, want := range map[string]string{
		"SET 'execution.checkpointing.interval' = '1 ns'":                     "it must be at least 10 ms",
		"SET 'execution.checkpointing.timeout' = '0 s'":                       "it must be at least 10 ms",
		"SET 'restart-strategy.exponential-delay.backoff-multiplier' = '0.5'": "it must be at least 1",
		"SET 'execution.checkpointing.unaligned.enabled' = 'true'":            "unaligned checkpoints are not supported",
		"SET 'execution.checkpointing.max-concurrent-checkpoints' = '3'":      "only 1 is supported",
		"SET 'execution.checkpointing.num-retained' = '0'":                    "it must be at least 1",
		"SET 'execution.checkpointing.mode' = 'MAYBE'":                        "expected one of EXACTLY_ONCE, AT_LEAST_ONCE",
	} {
		if _, err := env.ExecuteSQL(stmt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", stmt, err, want)
		}
	}
	for _, stmt := range []string{
		"SET 'execution.checkpointing.interval' = '0 s'",
		"SET 'execution.checkpointing.interval' = '10 ms'",
		"SET 'execution.checkpointing.unaligned.enabled' = 'false'",
	} {
		if _, err := env.ExecuteSQL(stmt); err != nil {
			t.Errorf("%s: %v", stmt, err)
		}
	}
}

// A synchronous INSERT (table.dml-sync) whose statement is cancelled
// while it waits cancels its job too, as riffle gateway does; the job
// does not go on in the background unseen.
func TestCancelledSyncInsertCancelsItsJob(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')`,
		`CREATE TABLE sink (v BIGINT) WITH ('connector' = 'blackhole')`,
		"SET 'table.dml-sync' = 'true'")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := env.ExecuteSQLContext(ctx, "INSERT INTO sink SELECT v FROM gen")
		done <- err
	}()
	testwait.Until(t, time.Minute, "the INSERT's job to run", func() bool {
		jobs := env.Jobs()
		return len(jobs) == 1 && jobs[0].Status() == JobRunning
	})
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled INSERT: %v", err)
	}
	job := env.Jobs()[0]
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if err := job.Wait(wctx); !errors.Is(err, ErrCanceled) || job.Status() != JobCanceled {
		t.Fatalf("the INSERT's job after the statement was cancelled: %v, %s", err, job.Status())
	}
}

// ReadCheckpoint describes a savepoint as a resume would load it, and
// names what is wrong with a broken one.
func TestReadCheckpoint(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')`,
		"SET 'execution.checkpointing.savepoint-dir' = '"+t.TempDir()+"'")
	res, err := env.ExecuteSQL("SELECT v % 3 AS k, COUNT(*) FROM gen GROUP BY v % 3")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path, err := res.JobClient().StopWithSavepointContext(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	info, err := ReadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Savepoint || info.ID != 1 || "file:"+filepath.ToSlash(info.Path) != path || info.Size <= 0 || info.Triggered.IsZero() {
		t.Fatalf("ReadCheckpoint: %+v", info)
	}
	if err := os.Remove(filepath.Join(info.Path, "_metadata")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCheckpoint(info.Path); err == nil || !strings.Contains(err.Error(), "no checkpoint at "+info.Path) {
		t.Fatalf("without _metadata: %v", err)
	}
}
