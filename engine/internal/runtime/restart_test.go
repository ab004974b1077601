package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// exponential-delay as Flink's ExponentialDelayRestartBackoffTimeStrategy
// (1.19+): the backoff starts over when a failure comes ResetThreshold
// after the previous restart began (its failure plus its delay), not
// after the previous failure.
func TestExponentialDelayResetsFromTheRestart(t *testing.T) {
	t0 := time.Unix(1000, 0)
	e := &ExponentialDelayRestart{Initial: time.Second, Max: time.Minute, Multiplier: 2, ResetThreshold: 10 * time.Second}
	var got []time.Duration
	// failures at 0 s (restart at 1 s), 10.5 s: 9.5 s after the restart,
	// under the threshold; 12.5 s + 2 s = 14.5 s restart, then 30 s:
	// 15.5 s after it, the backoff starts over
	for _, at := range []time.Duration{0, 10500 * time.Millisecond, 30 * time.Second} {
		d, ok := e.NextDelay(t0.Add(at))
		if !ok {
			t.Fatalf("refused at %v", at)
		}
		got = append(got, d)
	}
	if fmt.Sprint(got) != "[1s 2s 1s]" {
		t.Fatalf("backoffs %v, want [1s 2s 1s]", got)
	}
}

// With jitter the delay stays between the initial and the maximum
// backoff (Flink clamps the jittered value), and once the backoff is past
// the maximum it is the maximum.
func TestExponentialDelayJitterStaysInBounds(t *testing.T) {
	t0 := time.Unix(1000, 0)
	e := &ExponentialDelayRestart{Initial: time.Second, Max: 5 * time.Second, Multiplier: 2, ResetThreshold: time.Hour, Jitter: 0.5}
	for i := 0; i < 40; i++ {
		d, ok := e.NextDelay(t0.Add(time.Duration(i) * time.Minute))
		if !ok {
			t.Fatal("refused")
		}
		if d < time.Second || d > 5*time.Second {
			t.Fatalf("restart %d waits %v, outside [1s, 5s]", i, d)
		}
		if i >= 4 && d != 5*time.Second { // 16 s × (1 ± 0.5) is past 5 s
			t.Fatalf("restart %d waits %v, want the maximum", i, d)
		}
	}
}

// attempts-before-reset-backoff: that many restarts in a row, then the
// job fails; after the reset threshold the count starts over.
func TestExponentialDelayAttemptsBeforeReset(t *testing.T) {
	t0 := time.Unix(1000, 0)
	e := &ExponentialDelayRestart{Initial: time.Second, Max: time.Minute, Multiplier: 1.5, ResetThreshold: time.Hour, AttemptsBeforeReset: 2}
	var oks []bool
	for i := 0; i < 3; i++ {
		_, ok := e.NextDelay(t0.Add(time.Duration(i) * time.Second))
		oks = append(oks, ok)
	}
	if fmt.Sprint(oks) != "[true true false]" {
		t.Fatalf("restarts allowed %v, want [true true false]", oks)
	}
	if d, ok := e.NextDelay(t0.Add(2 * time.Hour)); !ok || d != time.Second {
		t.Fatalf("after the reset threshold: %v %v, want 1s true", d, ok)
	}
}

// alwaysFailing fails on every batch.
type alwaysFailing struct{ sumOp }

func (*alwaysFailing) ProcessBatch(int, *types.Batch) error {
	return errors.New("injected failure")
}

// A restart is reported when it is scheduled (JobConfig.OnRestart: job,
// attempt, cause, delay, strategy), and while it waits the job is
// RESTARTING with the failure as its last one.
func TestRestartIsReported(t *testing.T) {
	events := make(chan RestartEvent, 4)
	var mu sync.Mutex
	g := &Graph{}
	src := g.AddSource("gen", 1, true, (&cpGenerator{}).source())
	src.Resumable = true
	op := g.AddOperator("fail", 1, func() Operator { return &alwaysFailing{} }, Edge{From: src, Part: opspec.Single})
	g.AddOperator("last", 1, func() Operator { return &lastSink{mu: &mu, last: map[int64]int64{}} }, Edge{From: op, Part: opspec.Single})
	jc := DefaultJobConfig()
	jc.Checkpoint = CheckpointConfig{Interval: time.Millisecond, Dir: t.TempDir()}
	jc.Restart = &FixedDelayRestart{Attempts: 3, Delay: time.Hour}
	jc.OnRestart = func(e RestartEvent) { events <- e }
	job, err := Submit(context.Background(), "failing", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { job.Cancel(); <-job.Done() }()
	var ev RestartEvent
	select {
	case ev = <-events:
	case <-job.Done():
		t.Fatalf("the job ended (%v) without a restart", job.Err())
	}
	if ev.JobID != job.ID || ev.JobName != "failing" || ev.Attempt != 1 || ev.Delay != time.Hour || ev.Strategy != "fixed-delay" ||
		ev.Cause == nil || !strings.Contains(ev.Cause.Error(), "injected failure") {
		t.Fatalf("restart event %+v", ev)
	}
	if st := job.Status(); st != Restarting {
		t.Errorf("status while waiting to restart: %s, want RESTARTING", st)
	}
	if n, last := job.Restarts(); n != 0 || last == nil || !strings.Contains(last.Error(), "injected failure") {
		t.Errorf("Restarts() while waiting = %d, %v; want 0 and the failure", n, last)
	}
	job.Cancel()
	<-job.Done()
	if st := job.Status(); st != Canceled {
		t.Errorf("status after Cancel during the restart delay: %s", st)
	}
}
