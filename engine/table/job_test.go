package table

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// An unbounded datagen query runs until its result is closed; closing
// cancels the job promptly.
func TestCancelUnboundedQuery(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')`); err != nil {
		t.Fatal(err)
	}
	res, err := env.ExecuteSQL("SELECT id FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if !it.Next() {
			t.Fatalf("stream ended early: %v", it.Err())
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = res.JobClient().Wait(ctx)
	if !errors.Is(err, ErrCanceled) || !errors.Is(err, runtime.ErrCanceled) {
		t.Fatalf("job ended with %v, want cancellation", err)
	}
	if s := res.JobClient().Status(); s != JobCanceled {
		t.Fatalf("status %s", s)
	}
}

// A panic inside a function fails only its job, with the panic in the
// error's message and its stack kept apart; the environment keeps working.
func TestPanickingFunctionFailsOnlyItsJob(t *testing.T) {
	env := MustCreate(InBatchMode())
	RegisterGoFunction("test.boom", &expr.Function{Name: "boom", MinArgs: 1, MaxArgs: 1,
		Infer: func(c *expr.InferCtx) (*types.DataType, error) { return types.IntType(), nil },
		Build: func(args []*types.DataType, ret *types.DataType) (expr.Kernel, error) {
			return func(*expr.Ctx, []*expr.Vec, int) (*expr.Vec, error) { panic("kaboom") }, nil
		}})
	if _, err := env.ExecuteSQL("CREATE TEMPORARY FUNCTION boom AS 'test.boom'"); err != nil {
		t.Fatal(err)
	}
	res, err := env.ExecuteSQL("SELECT boom(x) FROM (VALUES (1), (2)) AS v(x)")
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	for it.Next() {
	}
	// the message names the panic; its stack is kept for sql-client.verbose
	var ps interface{ PanicStack() string }
	if it.Err() == nil || !strings.Contains(it.Err().Error(), "kaboom") || strings.Contains(it.Err().Error(), "goroutine") ||
		!errors.As(it.Err(), &ps) || !strings.Contains(ps.PanicStack(), "goroutine") {
		t.Fatalf("error %v should name the panic and carry a stack apart", it.Err())
	}
	if res.JobClient().Status() != JobFailed {
		t.Fatalf("status %s", res.JobClient().Status())
	}
	// the environment still runs queries
	if out := run(t, env, "SELECT 1 AS v"); !strings.Contains(out, "| 1 |") {
		t.Fatalf("environment broken after a failed job:\n%s", out)
	}
}

// JobClient.Bounded tells an INSERT over bounded sources (which ends by
// itself) from one over an unbounded source, in streaming mode.
func TestJobClientBounded(t *testing.T) {
	env := MustCreate(InStreamingMode())
	for _, ddl := range []string{
		`CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')`,
		`CREATE TABLE few (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5')`,
		`CREATE TABLE sink (id BIGINT) WITH ('connector' = 'blackhole')`,
	} {
		if _, err := env.ExecuteSQL(ddl); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		stmt    string
		bounded bool
	}{
		{"INSERT INTO sink SELECT id FROM few", true},
		{"INSERT INTO sink SELECT id FROM endless", false},
		{"INSERT INTO sink SELECT f.id FROM few AS f JOIN endless AS e ON f.id = e.id", false},
	} {
		res, err := env.ExecuteSQL(c.stmt)
		if err != nil {
			t.Fatal(err)
		}
		jc := res.JobClient()
		if got := jc.Bounded(); got != c.bounded {
			t.Errorf("%s: Bounded() = %v, want %v", c.stmt, got, c.bounded)
		}
		_ = jc.Cancel()
		_ = jc.Wait(context.Background())
	}
}

// STOP JOB refuses a job that is not running, and WITH SAVEPOINT when no
// savepoint directory is set (the job runs on); plain STOP JOB cancels a
// running one. (The savepoint itself: checkpoint_test.go; WITH DRAIN:
// drain_test.go.)
func TestStopJobStatement(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100')`); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL(`CREATE TABLE few (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	done, err := env.ExecuteSQL("SELECT id FROM few")
	if err != nil {
		t.Fatal(err)
	}
	if err := done.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = env.ExecuteSQL("STOP JOB '" + done.JobClient().JobID() + "'")
	if err == nil || !strings.Contains(err.Error(), "not running (it is FINISHED)") {
		t.Errorf("STOP JOB of a finished job: %v", err)
	}

	res, err := env.ExecuteSQL("SELECT id FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	job := res.JobClient()
	_, err = env.ExecuteSQL("STOP JOB '" + job.JobID() + "' WITH SAVEPOINT")
	if err == nil || !strings.Contains(err.Error(), "no savepoint directory is configured: set 'execution.checkpointing.savepoint-dir'") {
		t.Errorf("STOP JOB WITH SAVEPOINT and no directory: %v", err)
	}
	if s := job.Status(); s != JobRunning && s != JobCreated {
		t.Errorf("the job is %s after a refused STOP JOB WITH SAVEPOINT", s)
	}
	if _, err := env.ExecuteSQL("SET 'execution.checkpointing.savepoint-dir' = '" + t.TempDir() + "'"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL("STOP JOB '" + job.JobID() + "'"); err != nil {
		t.Fatal(err)
	}
	if err := job.Wait(ctx); !errors.Is(err, runtime.ErrCanceled) || job.Status() != JobCanceled {
		t.Errorf("after STOP JOB: %v, %s", err, job.Status())
	}
}

// A runtime error in a Calc chained after a source names the Calc, as
// Flink does, not the source that pushed the batch.
func TestRuntimeErrorNamesTheFailingOperator(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE t (s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.s.length' = '3')`); err != nil {
		t.Fatal(err)
	}
	res, err := env.ExecuteSQL("SELECT CAST(CONCAT('x', s) AS INT) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = res.JobClient().Wait(ctx)
	if err == nil || !strings.Contains(err.Error(), "cannot cast") || !strings.HasSuffix(err.Error(), "(in operator Calc)") {
		t.Errorf("job error %v, want the CAST error in operator Calc", err)
	}
}
