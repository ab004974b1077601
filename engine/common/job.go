package common

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// ErrCanceled is the error of a job that was cancelled ("job was
// cancelled"). The engine's cancelled jobs end with it and table.ErrCanceled
// names it, so errors.Is(err, ErrCanceled) holds for a cancelled job,
// embedded or through a gateway.
var ErrCanceled = errors.New("job was cancelled")

// JobStatus is the state of a job (PyFlink's JobStatus), with Flink's
// names (String) and ordinals (org.apache.flink.api.common.JobStatus). It
// is Riffle's only job-status type: table.JobStatus is an alias of it, and
// the runtime's jobs report it.
//
// A Riffle job goes CREATED → RUNNING → FINISHED, CANCELED or FAILED; the
// other states (FAILING, CANCELLING, RESTARTING, SUSPENDED, RECONCILING)
// are Flink's, kept for PyFlink's enum and for jobs on a Flink cluster.
type JobStatus int32

// Job states, in Flink's order (PyFlink's JobStatus members).
const (
	// JobCreated: the job was created and no task has started.
	JobCreated JobStatus = iota
	// JobRunning: some tasks are scheduled or running.
	JobRunning
	// JobFailing: the job failed and waits for its tasks to stop.
	JobFailing
	// JobFailed: the job failed with a non-recoverable task failure.
	JobFailed
	// JobCancelling: the job is being cancelled.
	JobCancelling
	// JobCanceled: the job was cancelled.
	JobCanceled
	// JobFinished: all tasks finished successfully.
	JobFinished
	// JobRestarting: the job is being reset and restarted.
	JobRestarting
	// JobSuspended: the job was suspended; its state is kept for a later
	// resumption (locally but not globally terminal).
	JobSuspended
	// JobReconciling: the job is being reconciled after a failover of the
	// coordinator.
	JobReconciling
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
	return s == JobFinished || s == JobCanceled || s == JobFailed
}

// IsTerminalState reports the globally terminal states and SUSPENDED
// (Flink's isTerminalState).
func (s JobStatus) IsTerminalState() bool { return s.IsGloballyTerminalState() || s == JobSuspended }

// IsTerminal is IsTerminalState: FINISHED, CANCELED, FAILED or SUSPENDED
// (a Riffle job ends in one of the first three).
func (s JobStatus) IsTerminal() bool { return s.IsTerminalState() }

// JobStatusOf returns s.
//
// Deprecated: the conversion is the identity (the runtime's jobs report a
// JobStatus); use the value as it is.
func JobStatusOf(s JobStatus) JobStatus { return s }

// JobID identifies a job: 32 hexadecimal digits (PyFlink's JobID).
type JobID string

// String returns the hexadecimal id.
func (id JobID) String() string { return string(id) }

// ParseJobID checks a 32-hex-digit job id.
func ParseJobID(s string) (JobID, error) {
	if len(s) != 32 {
		return "", fmt.Errorf("a job id has 32 hexadecimal digits, got %q", s)
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return "", fmt.Errorf("a job id has 32 hexadecimal digits, got %q", s)
		}
	}
	return JobID(s), nil
}

// JobExecutionResult is the result of a finished job (PyFlink's
// JobExecutionResult): its id, net run time and accumulator results.
type JobExecutionResult struct {
	jobID        JobID
	netRuntime   time.Duration
	accumulators map[string]any
}

// NewJobExecutionResult builds a result.
func NewJobExecutionResult(id JobID, netRuntime time.Duration, accumulators map[string]any) *JobExecutionResult {
	acc := map[string]any{}
	for k, v := range accumulators {
		acc[k] = v
	}
	return &JobExecutionResult{jobID: id, netRuntime: netRuntime, accumulators: acc}
}

// JobID returns the job's id (PyFlink's get_job_id).
func (r *JobExecutionResult) JobID() JobID { return r.jobID }

// NetRuntime returns the job's run time, without pre-flight steps.
func (r *JobExecutionResult) NetRuntime() time.Duration { return r.netRuntime }

// AccumulatorResult returns an accumulator's value, or nil (PyFlink's
// get_accumulator_result).
func (r *JobExecutionResult) AccumulatorResult(name string) any { return r.accumulators[name] }

// AllAccumulatorResults returns a copy of all accumulator values
// (PyFlink's get_all_accumulator_results).
func (r *JobExecutionResult) AllAccumulatorResults() map[string]any {
	out := map[string]any{}
	for k, v := range r.accumulators {
		out[k] = v
	}
	return out
}

// String renders "JobExecutionResult{jobID=..., netRuntime=... ms, accumulators=[...]}".
func (r *JobExecutionResult) String() string {
	keys := make([]string, 0, len(r.accumulators))
	for k := range r.accumulators {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return fmt.Sprintf("JobExecutionResult{jobID=%s, netRuntime=%d ms, accumulators=%v}", r.jobID, r.netRuntime.Milliseconds(), keys)
}

// ErrFutureCanceled is the error of a cancelled CompletableFuture (a
// cancelled job fails with table.ErrCanceled instead).
var ErrFutureCanceled = errors.New("the future was cancelled")

// CompletableFuture is the result of an asynchronous operation (PyFlink's
// CompletableFuture). Exactly one of Complete, CompleteExceptionally and
// Cancel takes effect. It belongs to the compatibility layer (JobClient's
// *Async methods return it): Go code waits with a context instead, e.g.
// JobClient.Wait(ctx).
type CompletableFuture[T any] struct {
	once   sync.Once
	done   chan struct{}
	value  T
	err    error
	cancel bool
	onStop func()
}

// NewCompletableFuture returns an incomplete future; onCancel (may be nil)
// is called when the future is cancelled.
func NewCompletableFuture[T any](onCancel func()) *CompletableFuture[T] {
	return &CompletableFuture[T]{done: make(chan struct{}), onStop: onCancel}
}

// Go runs f in a goroutine and completes the future with its result.
func Go[T any](f func() (T, error), onCancel func()) *CompletableFuture[T] {
	fut := NewCompletableFuture[T](onCancel)
	go func() {
		v, err := f()
		if err != nil {
			fut.CompleteExceptionally(err)
			return
		}
		fut.Complete(v)
	}()
	return fut
}

// Complete sets the result; it reports whether it took effect.
func (f *CompletableFuture[T]) Complete(v T) bool {
	ok := false
	f.once.Do(func() { f.value, ok = v, true; close(f.done) })
	return ok
}

// CompleteExceptionally sets a failure; it reports whether it took effect.
func (f *CompletableFuture[T]) CompleteExceptionally(err error) bool {
	ok := false
	f.once.Do(func() { f.err, ok = err, true; close(f.done) })
	return ok
}

// Cancel cancels the future (and the operation, when it supports it) and
// reports whether it took effect (PyFlink's cancel).
func (f *CompletableFuture[T]) Cancel() bool {
	ok := false
	f.once.Do(func() {
		f.err, f.cancel, ok = ErrFutureCanceled, true, true
		close(f.done)
	})
	if ok && f.onStop != nil {
		f.onStop()
	}
	return ok
}

// Cancelled reports whether the future was cancelled (PyFlink's
// cancelled).
func (f *CompletableFuture[T]) Cancelled() bool {
	select {
	case <-f.done:
		return f.cancel
	default:
		return false
	}
}

// Done reports whether the future completed in any way (PyFlink's done).
func (f *CompletableFuture[T]) Done() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// Exception returns the failure of a completed future, or nil (PyFlink's
// exception); it blocks until completion.
func (f *CompletableFuture[T]) Exception() error {
	<-f.done
	return f.err
}

// Result blocks until completion (or ctx is done) and returns the value
// or the failure (PyFlink's result).
func (f *CompletableFuture[T]) Result(ctx context.Context) (T, error) {
	select {
	case <-f.done:
		return f.value, f.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
