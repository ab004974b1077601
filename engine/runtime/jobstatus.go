package runtime

import "fmt"

// JobStatus is the state of a job, with Flink's names (String) and
// Flink's ordinals (org.apache.flink.api.common.JobStatus, PyFlink's
// JobStatus). It is Riffle's only job-status type: table.JobStatus and
// common.JobStatus are aliases of it.
//
// A Riffle job goes CREATED → RUNNING → FINISHED, CANCELED or FAILED; the
// other states (FAILING, CANCELLING, RESTARTING, SUSPENDED, RECONCILING)
// are Flink's, kept for PyFlink's enum and for jobs on a Flink cluster.
type JobStatus int32

// Job states, in Flink's order.
const (
	// Created: the job was created and no task has started.
	Created JobStatus = iota
	// Running: some tasks are scheduled or running.
	Running
	// Failing: the job failed and waits for its tasks to stop.
	Failing
	// Failed: the job failed with a non-recoverable task failure.
	Failed
	// Cancelling: the job is being cancelled.
	Cancelling
	// Canceled: the job was cancelled.
	Canceled
	// Finished: all tasks finished successfully.
	Finished
	// Restarting: the job is being reset and restarted.
	Restarting
	// Suspended: the job was suspended; its state is kept for a later
	// resumption (locally but not globally terminal).
	Suspended
	// Reconciling: the job is being reconciled after a failover of the
	// coordinator.
	Reconciling
)

var jobStatusNames = [...]string{"CREATED", "RUNNING", "FAILING", "FAILED", "CANCELLING", "CANCELED", "FINISHED", "RESTARTING", "SUSPENDED", "RECONCILING"}

// String returns Flink's name, e.g. "RUNNING", or "JobStatus(n)" for a
// value outside the enum.
func (s JobStatus) String() string {
	if s >= 0 && int(s) < len(jobStatusNames) {
		return jobStatusNames[s]
	}
	return fmt.Sprintf("JobStatus(%d)", int(s))
}

// IsGloballyTerminalState reports FINISHED, CANCELED and FAILED: states
// after which the job never runs again (Flink's isGloballyTerminalState).
func (s JobStatus) IsGloballyTerminalState() bool {
	return s == Finished || s == Canceled || s == Failed
}

// IsTerminalState reports the globally terminal states and SUSPENDED
// (Flink's isTerminalState).
func (s JobStatus) IsTerminalState() bool { return s.IsGloballyTerminalState() || s == Suspended }

// IsTerminal is IsTerminalState: FINISHED, CANCELED, FAILED or SUSPENDED
// (a Riffle job ends in one of the first three).
func (s JobStatus) IsTerminal() bool { return s.IsTerminalState() }
