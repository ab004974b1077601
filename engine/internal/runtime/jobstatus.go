package runtime

import "github.com/riffle-sql/riffle/engine/common"

// JobStatus is the state of a job: the public common.JobStatus (Flink's
// names and ordinals), which Job.Status reports as it is.
type JobStatus = common.JobStatus

// Job states, in Flink's order (common's constants under the runtime's
// short names).
const (
	Created     = common.JobCreated
	Running     = common.JobRunning
	Failing     = common.JobFailing
	Failed      = common.JobFailed
	Cancelling  = common.JobCancelling
	Canceled    = common.JobCanceled
	Finished    = common.JobFinished
	Restarting  = common.JobRestarting
	Suspended   = common.JobSuspended
	Reconciling = common.JobReconciling
)
