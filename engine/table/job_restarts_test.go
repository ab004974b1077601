package table

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A failing job's restarts reach the program: OnJobRestart's event
// (attempt, cause, delay, strategy) when each is scheduled, then the
// JobClient's RestartCount and LastFailure, and Engine.Jobs' RESTARTING
// status with the restart count and last failure.
func TestJobRestartsAreVisible(t *testing.T) {
	env := MustCreate(InStreamingMode())
	events := make(chan JobRestartEvent, 8)
	env.OnJobRestart(func(e JobRestartEvent) { events <- e })
	for _, stmt := range []string{
		`CREATE TABLE t (s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.s.length' = '3')`,
		"SET 'execution.checkpointing.interval' = '50 ms'",
		"SET 'execution.checkpointing.dir' = '" + t.TempDir() + "'",
		"SET 'restart-strategy.type' = 'exponential-delay'",
		"SET 'restart-strategy.exponential-delay.initial-backoff' = '1 ms'",
		"SET 'restart-strategy.exponential-delay.max-backoff' = '1 h'",
		"SET 'restart-strategy.exponential-delay.backoff-multiplier' = '1000000'",
		"SET 'restart-strategy.exponential-delay.jitter-factor' = '0'",
	} {
		if _, err := env.ExecuteSQL(stmt); err != nil {
			t.Fatal(err)
		}
	}
	res, err := env.ExecuteSQL("SELECT CAST(CONCAT('x', s) AS INT) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	jc := res.JobClient()
	defer func() { _ = jc.Cancel(); <-jc.Done() }()
	// first restart after 1 ms, the second after 1000 s: the job waits
	// RESTARTING for the second
	var got []JobRestartEvent
	for len(got) < 2 {
		select {
		case e := <-events:
			got = append(got, e)
		case <-jc.Done():
			t.Fatalf("job ended: %v", jc.Err())
		}
	}
	for i, e := range got {
		if e.JobID != jc.JobID() || e.Attempt != i+1 || e.Strategy != "exponential-delay" || e.Cause == nil || !strings.Contains(e.Cause.Error(), "cannot cast") {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	if got[0].Delay != time.Millisecond || got[1].Delay != 1000*time.Second {
		t.Errorf("delays %v, %v; want 1ms, 1000s", got[0].Delay, got[1].Delay)
	}
	if st := jc.Status(); st != JobRestarting {
		t.Errorf("status %s, want RESTARTING", st)
	}
	if n, err := jc.RestartCount(), jc.LastFailure(); n != 1 || err == nil || !strings.Contains(err.Error(), "cannot cast") {
		t.Errorf("RestartCount %d, LastFailure %v", n, err)
	}
	jobs, err := NewEmbeddedEngine(env).Jobs(context.Background())
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %v, %v", jobs, err)
	}
	if j := jobs[0]; j.Status != "RESTARTING" || j.Restarts != 1 || !strings.Contains(j.LastFailure, "cannot cast") {
		t.Errorf("JobInfo %+v", j)
	}
}

// exponential-delay's options are checked as Flink checks them.
func TestExponentialDelayOptionChecks(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"SET 'restart-strategy.exponential-delay.initial-backoff' = '2 min'", "Initial backoff cannot be higher than maximum backoff"},
		{"SET 'restart-strategy.exponential-delay.jitter-factor' = '1.5'", "Jitter factor must be >= 0 and <= 1"},
	} {
		env := MustCreate(InStreamingMode())
		for _, stmt := range []string{
			`CREATE TABLE t (s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5')`,
			"SET 'execution.checkpointing.interval' = '50 ms'",
			"SET 'execution.checkpointing.dir' = '" + t.TempDir() + "'",
			c.set,
		} {
			if _, err := env.ExecuteSQL(stmt); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := env.ExecuteSQL("SELECT s FROM t"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.set, err, c.want)
		}
	}
}
