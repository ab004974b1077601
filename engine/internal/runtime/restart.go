package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// RestartStrategy decides whether a failed streaming job restarts, and
// after how long (Flink's restart strategies, restart-strategy.type). A
// restarted job resumes from its last complete checkpoint or savepoint
// (or, with none, from where it first started). NextDelay is called once
// per failure, in order, from one goroutine.
type RestartStrategy interface {
	// NextDelay returns the delay before the restart that follows a
	// failure at now; ok false means the job fails for good.
	NextDelay(now time.Time) (delay time.Duration, ok bool)
	// String describes the strategy for messages.
	String() string
}

// FixedDelayRestart restarts at most Attempts times, Delay after each
// failure (restart-strategy.type fixed-delay).
type FixedDelayRestart struct {
	Attempts int
	Delay    time.Duration
	used     int
}

// NextDelay implements RestartStrategy.
func (f *FixedDelayRestart) NextDelay(time.Time) (time.Duration, bool) {
	if f.used >= f.Attempts {
		return 0, false
	}
	f.used++
	return f.Delay, true
}

func (f *FixedDelayRestart) String() string { return "fixed-delay" }

// FailureRateRestart restarts Delay after a failure unless more than
// MaxFailures happened within the last Interval
// (restart-strategy.type failure-rate).
type FailureRateRestart struct {
	MaxFailures int
	Interval    time.Duration
	Delay       time.Duration
	failures    []time.Time
}

// NextDelay implements RestartStrategy.
func (f *FailureRateRestart) NextDelay(now time.Time) (time.Duration, bool) {
	keep := f.failures[:0]
	for _, t := range f.failures {
		if now.Sub(t) < f.Interval {
			keep = append(keep, t)
		}
	}
	f.failures = append(keep, now)
	if len(f.failures) > f.MaxFailures {
		return 0, false
	}
	return f.Delay, true
}

func (f *FailureRateRestart) String() string { return "failure-rate" }

// ExponentialDelayRestart restarts after a backoff that grows with each
// restart in a row (restart-strategy.type exponential-delay, Flink's
// default for a job with checkpoints), as Flink's
// ExponentialDelayRestartBackoffTimeStrategy: the n-th restart in a row
// (n from 0) waits Initial × Multiplier^n, plus or minus up to Jitter (a
// fraction, 0 to 1) of that at random, the result kept between Initial
// and Max. A failure ResetThreshold or more after the previous restart
// began (its failure time plus its delay) starts the backoff over at
// Initial. AttemptsBeforeReset (0: no bound) restarts in a row are
// allowed; the failure after them fails the job.
type ExponentialDelayRestart struct {
	Initial, Max        time.Duration
	Multiplier          float64
	ResetThreshold      time.Duration
	Jitter              float64
	AttemptsBeforeReset int

	// attempt counts the restarts since the last reset; nextRestart is
	// when the last one began (zero before the first failure)
	attempt     int
	nextRestart time.Time
}

// NextDelay implements RestartStrategy.
func (e *ExponentialDelayRestart) NextDelay(now time.Time) (time.Duration, bool) {
	if !e.nextRestart.IsZero() && now.Sub(e.nextRestart) >= e.ResetThreshold {
		e.attempt = 0
	}
	if e.AttemptsBeforeReset > 0 && e.attempt >= e.AttemptsBeforeReset {
		return 0, false
	}
	backoff := float64(e.Initial) * math.Pow(max(e.Multiplier, 1), float64(e.attempt))
	jitter := min(max(e.Jitter, 0), 1)
	if backoff*(1-jitter) >= float64(e.Max) {
		backoff = float64(e.Max) // past Max whatever the jitter (and no overflow)
	} else if jitter > 0 {
		backoff += (rand.Float64()*2 - 1) * jitter * backoff
	}
	d := time.Duration(math.Max(float64(e.Initial), math.Min(backoff, float64(e.Max))))
	e.attempt++
	e.nextRestart = now.Add(d)
	return d, true
}

func (e *ExponentialDelayRestart) String() string { return "exponential-delay" }

// RestartEvent is a failed streaming job's restart, as its restart
// strategy schedules it (JobConfig.OnRestart): the job is RESTARTING
// until Delay has passed, then runs again from its last complete
// checkpoint. Flink logs the same: the failure with its cause and the
// switch to RESTARTING.
type RestartEvent struct {
	JobID, JobName string
	// Attempt numbers the job's restarts from 1 (this one included).
	Attempt int
	// Cause is the failure the job restarts from.
	Cause error
	// Delay is the wait before the restart (the strategy's backoff).
	Delay time.Duration
	// Strategy names the restart strategy: fixed-delay, failure-rate or
	// exponential-delay.
	Strategy string
}

// restart decides, after an attempt ended, whether the job restarts: it
// failed (not cancelled or stopped), the job is streaming with a restart
// strategy that allows it. It then waits the strategy's delay and
// prepares the next attempt from the last checkpoint.
func (e *executor) restart(ctx context.Context) bool {
	j := e.job
	j.mu.Lock()
	failure := j.err
	j.mu.Unlock()
	if failure == nil || e.cfg.Restart == nil || j.coord == nil || j.canceled.Load() || j.stopped.Load() || ctx.Err() != nil {
		return false
	}
	var me *MemoryLimitError
	if errors.As(failure, &me) {
		return false // the same state would fill memory again
	}
	var re *RestoreError
	if errors.As(failure, &re) {
		return false // the same checkpoint would not fit again
	}
	delay, ok := e.cfg.Restart.NextDelay(time.Now())
	if !ok {
		j.mu.Lock()
		if n := j.restarts; n > 0 {
			j.err = fmt.Errorf("%w (restart strategy %s: no restart left after %d)", failure, e.cfg.Restart, n)
		}
		j.mu.Unlock()
		return false
	}
	j.mu.Lock()
	j.lastFailure = failure
	attempt := j.restarts + 1
	j.mu.Unlock()
	j.status.Store(int32(Restarting))
	if e.cfg.OnRestart != nil {
		e.cfg.OnRestart(RestartEvent{JobID: j.ID, JobName: j.Name, Attempt: attempt, Cause: failure, Delay: delay, Strategy: e.cfg.Restart.String()})
	}
	t := time.NewTimer(delay)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
		return false
	}
	if j.stopped.Load() {
		return false // stopped while it waited
	}
	if err := e.prepareRestart(); err != nil {
		j.mu.Lock()
		j.err = fmt.Errorf("%w (restarting failed: %v)", failure, err)
		j.mu.Unlock()
		return false
	}
	j.mu.Lock()
	j.restarts++
	j.err = nil
	j.mu.Unlock()
	j.status.Store(int32(Running))
	return true
}

// prepareRestart sets up a new attempt: new channels, the coordinator
// told to restore the last complete checkpoint (or what the job started
// from).
func (e *executor) prepareRestart() error {
	if err := e.build(); err != nil {
		return err
	}
	c := e.job.coord
	c.unready()
	c.mu.Lock()
	last := c.last
	c.tasks, c.pending, c.committers = nil, nil, nil
	c.finalDue, c.stopping, c.ended = false, false, false
	c.mu.Unlock()
	if last != nil {
		cp, err := LoadCheckpoint(last.Path)
		if err != nil {
			return err
		}
		c.cfg.Restore = cp
	}
	return nil
}
