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

// ExponentialDelayRestart restarts after a backoff that starts at
// Initial and grows by Multiplier per failure up to Max, with ±Jitter
// (a fraction) of randomness; after ResetThreshold without a failure the
// backoff starts over. At most AttemptsBeforeReset restarts happen
// between two resets (restart-strategy.type exponential-delay, Flink's
// default for a job with checkpoints).
type ExponentialDelayRestart struct {
	Initial, Max        time.Duration
	Multiplier          float64
	ResetThreshold      time.Duration
	Jitter              float64
	AttemptsBeforeReset int

	current  time.Duration
	attempts int
	last     time.Time
}

// NextDelay implements RestartStrategy.
func (e *ExponentialDelayRestart) NextDelay(now time.Time) (time.Duration, bool) {
	if e.current == 0 || (!e.last.IsZero() && now.Sub(e.last) >= e.ResetThreshold) {
		e.current, e.attempts = e.Initial, 0
	} else {
		next := time.Duration(math.Min(float64(e.current)*e.Multiplier, float64(e.Max)))
		e.current = next
	}
	e.last = now
	if e.AttemptsBeforeReset > 0 && e.attempts >= e.AttemptsBeforeReset {
		return 0, false
	}
	e.attempts++
	d := e.current
	if e.Jitter > 0 {
		d += time.Duration((rand.Float64()*2 - 1) * e.Jitter * float64(d))
	}
	return max(d, 0), true
}

func (e *ExponentialDelayRestart) String() string { return "exponential-delay" }

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
	j.status.Store(int32(Restarting))
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
	j.lastFailure = failure
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
