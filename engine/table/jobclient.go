package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// JobStatus is the state of a job, with Flink's names and ordinals
// (common.JobStatus, the same type). A Riffle job goes CREATED → RUNNING →
// FINISHED, CANCELED or FAILED; a job on a Flink cluster may also report
// Flink's other states.
type JobStatus = common.JobStatus

// Job states, in Flink's order (common's constants).
const (
	JobCreated     = common.JobCreated
	JobRunning     = common.JobRunning
	JobFailing     = common.JobFailing
	JobFailed      = common.JobFailed
	JobCancelling  = common.JobCancelling
	JobCanceled    = common.JobCanceled
	JobFinished    = common.JobFinished
	JobRestarting  = common.JobRestarting
	JobSuspended   = common.JobSuspended
	JobReconciling = common.JobReconciling
)

// JobExecutionResult is the result of a finished job (PyFlink's
// JobExecutionResult); see common.JobExecutionResult.
type JobExecutionResult = common.JobExecutionResult

// ErrCanceled is the error of a job that was cancelled: Wait and
// Engine.WaitJob return an error for which errors.Is(err, ErrCanceled)
// holds, embedded or through a gateway. It is common.ErrCanceled (the
// same variable), which the runtime's cancelled jobs end with.
var ErrCanceled = common.ErrCanceled

// JobClient controls a submitted job (PyFlink's JobClient). Methods that
// return futures in PyFlink block here, bounded by a context (Wait,
// ExecutionResult), or signal through Done and Err; the Async forms that
// return a common.CompletableFuture are compatibility names
// (pyflink_names.go).
type JobClient struct {
	job       *runtime.Job
	statement string
	plan      *physical.Node
	nodes     map[*physical.Node]*runtime.Node

	viewOnce sync.Once
	view     *PlanNode // the view of plan, built once (Plan)
}

// A nil *JobClient is what TableResult.GetJobClient returns for a
// statement that runs no job (DDL, SHOW, ...). Its methods do not panic:
// the error-returning ones return an error, Status reports FINISHED
// (the statement completed inside ExecuteSQL) and the other getters return
// zero values.

// JobID returns the job's 32-hex-digit id (PyFlink's get_job_id); "" for
// a nil JobClient.
func (c *JobClient) JobID() string {
	if c == nil {
		return ""
	}
	return c.job.ID
}

// JobName returns the job's name ("" for a nil JobClient).
func (c *JobClient) JobName() string {
	if c == nil {
		return ""
	}
	return c.job.Name
}

// Status returns the current state (PyFlink's get_job_status); FINISHED
// for a nil JobClient.
func (c *JobClient) Status() JobStatus {
	if c == nil {
		return JobFinished
	}
	return c.job.Status()
}

// errNilJobClient is reported by the methods of a nil JobClient, which
// TableResult.GetJobClient returns for statements that run no job.
var errNilJobClient = errors.New("nil JobClient: the statement runs no job (DDL, SHOW, ... have none)")

// Cancel stops the job and returns at once; use Wait to wait for the end
// (PyFlink's cancel). Cancelling a finished job does nothing; a nil
// JobClient is an error.
func (c *JobClient) Cancel() error {
	if c == nil {
		return errNilJobClient
	}
	c.job.Cancel()
	return nil
}

// Wait blocks until the job ends or ctx is done; it returns the job's
// error (nil when FINISHED, ErrCanceled when CANCELED); a nil JobClient is
// an error.
func (c *JobClient) Wait(ctx context.Context) error {
	if c == nil {
		return errNilJobClient
	}
	return c.job.Wait(ctx)
}

// Bounded reports whether the job ends by itself: every source of its
// dataflow is bounded (batch mode, or bounded sources in streaming mode). An
// unbounded job runs until it is cancelled or fails.
func (c *JobClient) Bounded() bool {
	if c == nil {
		return true
	}
	if c.job.Graph == nil {
		return false
	}
	for _, n := range c.job.Graph.Nodes {
		if n.Source != nil && !n.Bounded {
			return false
		}
	}
	return true
}

// Done is closed when the job ends (at once for a nil JobClient).
func (c *JobClient) Done() <-chan struct{} {
	if c == nil {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	return c.job.Done()
}

// Err returns the failure cause of a FAILED job (an error for a nil
// JobClient).
func (c *JobClient) Err() error {
	if c == nil {
		return errNilJobClient
	}
	return c.job.Err()
}

// ExecutionResult waits for the job to end and returns its result
// (PyFlink's get_job_execution_result): the job's error when it failed or
// was cancelled, ctx's error when ctx ends first.
func (c *JobClient) ExecutionResult(ctx context.Context) (*JobExecutionResult, error) {
	if c == nil {
		return nil, errNilJobClient
	}
	if err := c.job.Wait(ctx); err != nil {
		return nil, err
	}
	return common.NewJobExecutionResult(common.JobID(c.job.ID), c.job.EndTime().Sub(c.job.StartTime()), c.Accumulators()), nil
}

// Accumulators returns the job's accumulators: the number of rows each
// operator emitted, keyed "<operator>.numRecordsOut" (PyFlink's
// get_accumulators).
func (c *JobClient) Accumulators() map[string]any {
	out := map[string]any{}
	if c == nil {
		return out
	}
	for _, m := range c.job.Metrics() {
		out[m.Name+".numRecordsOut"] = m.RecordsOut.Load()
	}
	return out
}

// SavepointContext takes a savepoint of the running streaming job into
// dir (a new directory savepoint-<job id[:6]>-<12 hex digits> under it)
// and returns that directory as a file: URI, as Flink prints it. A job
// resumes from it with 'execution.state-recovery.path'. ctx bounds the
// wait. Errors: a nil JobClient, a batch or ended job, a source or
// operator that cannot save its state, a directory that cannot be written
// (nothing is left half-written: the savepoint appears complete or not at
// all).
func (c *JobClient) SavepointContext(ctx context.Context, dir string) (string, error) {
	if c == nil {
		return "", errNilJobClient
	}
	if st := c.Status(); st.IsTerminal() {
		return "", fmt.Errorf("job %s is not running (it is %s)", c.JobID(), st)
	}
	sp, err := c.job.TriggerSavepoint(ctx, dir)
	if err != nil {
		if errors.Is(err, runtime.ErrNoCheckpointing) {
			return "", fmt.Errorf("job %s is a batch job: batch jobs take no savepoints", c.JobID())
		}
		return "", err
	}
	return savepointPathURI(sp.Path), nil
}

// StopOption is an option of StopWithSavepointContext.
type StopOption func(*stopOptions)

type stopOptions struct{ drain bool }

// Drain is STOP JOB ... WITH DRAIN (PyFlink's advance_to_end_of_event_time):
// before the savepoint each source emits MAX_WATERMARK, so that every
// event-time timer fires and every window emits its rows, and then ends.
func Drain() StopOption { return func(o *stopOptions) { o.drain = true } }

// StopWithSavepointContext takes a savepoint as SavepointContext does and
// stops the job at it (its status becomes FINISHED, as Flink's
// stop-with-savepoint ends it): the sources emit nothing after the
// savepoint's barrier and no later checkpoint is taken, so the sinks
// commit nothing a job resumed from the savepoint would write again; it
// returns once the job has ended. When the savepoint fails the sources go
// on, the job runs on and the error is returned. With Drain, event time advances to its end
// first and the sources end after the savepoint; the job finishes as a
// bounded one does (its sinks commit what the windows emitted), and when
// the savepoint fails it finishes all the same, as Flink's drained job
// does not go back to reading.
func (c *JobClient) StopWithSavepointContext(ctx context.Context, dir string, opts ...StopOption) (string, error) {
	var o stopOptions
	for _, f := range opts {
		f(&o)
	}
	if o.drain {
		return c.stopWithDrain(ctx, dir)
	}
	if c == nil {
		return "", errNilJobClient
	}
	if st := c.Status(); st.IsTerminal() {
		return "", fmt.Errorf("job %s is not running (it is %s)", c.JobID(), st)
	}
	// the sources emit nothing after the savepoint's barrier, so nothing
	// after it is committed; the call returns once the job has ended
	sp, err := c.job.StopWithSavepoint(ctx, dir)
	if err != nil {
		if errors.Is(err, runtime.ErrNoCheckpointing) {
			return "", fmt.Errorf("job %s is a batch job: batch jobs take no savepoints", c.JobID())
		}
		return "", err
	}
	return savepointPathURI(sp.Path), nil
}

// stopWithDrain is StopWithSavepointContext with Drain: the savepoint,
// then the wait for the job's end (bounded by ctx; then it is stopped).
func (c *JobClient) stopWithDrain(ctx context.Context, dir string) (string, error) {
	if c == nil {
		return "", errNilJobClient
	}
	if st := c.Status(); st.IsTerminal() {
		return "", fmt.Errorf("job %s is not running (it is %s)", c.JobID(), st)
	}
	sp, err := c.job.StopWithDrain(ctx, dir)
	if err != nil {
		if errors.Is(err, runtime.ErrNoCheckpointing) {
			return "", fmt.Errorf("job %s is a batch job: batch jobs take no savepoints", c.JobID())
		}
		return "", err
	}
	select {
	case <-c.job.Done():
	case <-ctx.Done():
		c.job.Stop()
	}
	return savepointPathURI(sp.Path), nil
}

// Statement is the SQL the job runs ("" for a nil JobClient).
func (c *JobClient) Statement() string {
	if c == nil {
		return ""
	}
	return c.statement
}

// StartTime is when the job was submitted (zero for a nil JobClient).
func (c *JobClient) StartTime() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.job.StartTime()
}

// EndTime is when the job ended (zero while running and for a nil
// JobClient).
func (c *JobClient) EndTime() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.job.EndTime()
}

// Plan is the job's physical plan as a read-only view (nil for a nil
// JobClient): the operators EXPLAIN prints, each with its inputs, columns,
// changelog mode and parallelism; NodeMetrics reads the metrics of its
// nodes. A statement set's job shows its first sink's plan. The view is
// built once; the same nodes are returned each time.
func (c *JobClient) Plan() *PlanNode {
	if c == nil {
		return nil
	}
	c.viewOnce.Do(func() { c.view = planViews{}.of(c.plan) })
	return c.view
}

// Metrics returns a snapshot of every operator's metrics, in the order of
// the job's dataflow (none for a nil JobClient).
func (c *JobClient) Metrics() []OperatorMetrics {
	if c == nil {
		return nil
	}
	ms := c.job.Metrics()
	out := make([]OperatorMetrics, len(ms))
	for i, m := range ms {
		out[i] = metricsOf(m)
	}
	return out
}

// NodeMetrics returns a snapshot of the metrics of the operator that runs
// plan node n (a node of Plan's view); false when there are none: a node
// the job runs no operator for, a node of another job's plan or of a plan
// read from text, and a nil JobClient.
func (c *JobClient) NodeMetrics(n *PlanNode) (OperatorMetrics, bool) {
	if c == nil || n == nil || n.phys == nil {
		return OperatorMetrics{}, false
	}
	if rn, ok := c.nodes[n.phys]; ok {
		if m := rn.Metrics(); m != nil {
			return metricsOf(m), true
		}
	}
	return OperatorMetrics{}, false
}
