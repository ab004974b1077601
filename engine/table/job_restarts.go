package table

import (
	"time"

	rt "github.com/riffle-sql/riffle/engine/internal/runtime"
)

// JobRestartEvent is a failed streaming job's restart as its restart
// strategy (restart-strategy.type) schedules it: the job is RESTARTING
// for Delay, then runs again from its last complete checkpoint. Flink's
// JobMaster logs the same: the failure and its cause, and the job's
// switch to RESTARTING.
type JobRestartEvent struct {
	JobID, JobName string
	// Attempt numbers the job's restarts from 1, this one included.
	Attempt int
	// Cause is the failure the job restarts from.
	Cause error
	// Delay is the wait before the restart (the strategy's backoff).
	Delay time.Duration
	// Strategy is the restart strategy's name: fixed-delay,
	// failure-rate or exponential-delay.
	Strategy string
}

// OnJobRestart sets f to be called each time a job of this environment
// restarts after a failure, when the restart is scheduled (nil: none).
// f runs on the job's goroutine and must not block; riffle sql prints a
// line per restart from it. Jobs submitted before the call are not
// affected.
func (t *TableEnvironment) OnJobRestart(f func(JobRestartEvent)) {
	t.mu.Lock()
	t.onRestart = f
	t.mu.Unlock()
}

// restartHook is the runtime's OnRestart for a new job: the environment's
// OnJobRestart function, or nil.
func (t *TableEnvironment) restartHook() func(rt.RestartEvent) {
	t.mu.Lock()
	f := t.onRestart
	t.mu.Unlock()
	if f == nil {
		return nil
	}
	return func(e rt.RestartEvent) {
		f(JobRestartEvent{JobID: e.JobID, JobName: e.JobName, Attempt: e.Attempt, Cause: e.Cause, Delay: e.Delay, Strategy: e.Strategy})
	}
}

// RestartCount returns how many times the job restarted after a failure
// (Flink's numRestarts); 0 for a nil JobClient and for a job that never
// failed. A job waiting to restart (RESTARTING) does not count that
// restart yet.
func (c *JobClient) RestartCount() int {
	if c == nil {
		return 0
	}
	n, _ := c.job.Restarts()
	return n
}

// LastFailure returns the last failure the job restarted, or is
// restarting, from (nil when it never restarted; nil for a nil
// JobClient). A job that fails for good reports its failure through Err.
func (c *JobClient) LastFailure() error {
	if c == nil {
		return nil
	}
	_, err := c.job.Restarts()
	return err
}
