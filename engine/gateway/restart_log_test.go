package gateway

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The gateway logs each restart of a session's failed job (job, cause,
// attempt, strategy, delay), as a Flink cluster's JobMaster log does.
func TestGatewayLogsRestarts(t *testing.T) {
	lines := make(chan string, 64)
	g := newTestGateway(t, Config{Logf: func(format string, args ...any) {
		select {
		case lines <- fmt.Sprintf(format, args...):
		default:
		}
	}})
	s := g.openSession(t, nil)
	for _, st := range []string{
		"CREATE TABLE t (s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.s.length' = '3')",
		"CREATE TABLE b (i INT) WITH ('connector' = 'blackhole')",
		"SET 'execution.checkpointing.interval' = '50 ms'",
		"SET 'execution.checkpointing.dir' = '" + t.TempDir() + "'",
		"SET 'restart-strategy.exponential-delay.initial-backoff' = '1 h'",
		"SET 'restart-strategy.exponential-delay.max-backoff' = '1 h'",
		"SET 'table.dml-sync' = 'false'",
	} {
		g.fetchUntilReady(t, s, g.execute(t, s, st))
	}
	id := g.fetchUntilReady(t, s, g.execute(t, s, "INSERT INTO b SELECT CAST(CONCAT('x', s) AS INT) FROM t"))["jobID"].(string)
	want := "job " + id + " (insert-into_default_catalog.default_database.b) failed: "
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l := <-lines:
			if strings.HasPrefix(l, want) {
				if !strings.Contains(l, "cannot cast") || !strings.HasSuffix(l, "; restarting (attempt 1, exponential-delay) in 1h0m0s") {
					t.Fatalf("log line %q", l)
				}
				if st := jobStatus(g.jobRows(t, s), id); st != "RESTARTING" {
					t.Errorf("SHOW JOBS: %q, want RESTARTING", st)
				}
				return
			}
		case <-deadline:
			t.Fatal("no restart logged")
		}
	}
}
