package table

import (
	"context"
	"time"

	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/runtime"
)

// JobStatus is a job's state: CREATED, RUNNING, FINISHED, CANCELED, FAILED.
type JobStatus = runtime.JobStatus

// Job states.
const (
	JobCreated  = runtime.Created
	JobRunning  = runtime.Running
	JobFinished = runtime.Finished
	JobCanceled = runtime.Canceled
	JobFailed   = runtime.Failed
)

// JobClient controls a submitted job (PyFlink's JobClient).
type JobClient struct {
	job       *runtime.Job
	statement string
	plan      *plan.PhysNode
	nodes     map[*plan.PhysNode]*runtime.Node
}

// GetJobID returns the job's 32-hex-digit id.
func (c *JobClient) GetJobID() string { return c.job.ID }

// GetJobName returns the job's name.
func (c *JobClient) GetJobName() string { return c.job.Name }

// GetJobStatus returns the current state.
func (c *JobClient) GetJobStatus() JobStatus { return c.job.Status() }

// Cancel stops the job (it returns at once; use Wait to wait).
func (c *JobClient) Cancel() error {
	c.job.Cancel()
	return nil
}

// Wait blocks until the job ends or ctx is done; it returns the job's
// error (nil when FINISHED).
func (c *JobClient) Wait(ctx context.Context) error { return c.job.Wait(ctx) }

// Done is closed when the job ends.
func (c *JobClient) Done() <-chan struct{} { return c.job.Done() }

// Err returns the failure cause of a FAILED job.
func (c *JobClient) Err() error { return c.job.Err() }

// Statement is the SQL the job runs.
func (c *JobClient) Statement() string { return c.statement }

// StartTime is when the job was submitted.
func (c *JobClient) StartTime() time.Time { return c.job.StartTime() }

// EndTime is when the job ended (zero while running).
func (c *JobClient) EndTime() time.Time { return c.job.EndTime() }

// Plan is the job's physical plan.
func (c *JobClient) Plan() *plan.PhysNode { return c.plan }

// Metrics returns per-operator metrics in graph order.
func (c *JobClient) Metrics() []*runtime.OperatorMetrics { return c.job.Metrics() }

// NodeMetrics returns the metrics of the runtime node that executes a
// physical plan node (nil for nodes fused into edges).
func (c *JobClient) NodeMetrics(p *plan.PhysNode) *runtime.OperatorMetrics {
	if n, ok := c.nodes[p]; ok {
		return n.Metrics()
	}
	return nil
}
