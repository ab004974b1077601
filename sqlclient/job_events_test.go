package sqlclient

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// lockedBuffer is a bytes.Buffer written from the jobs' goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A job that fails and restarts is not silent: riffle sql prints a line
// per restart (job id, attempt, cause, strategy, delay) to stderr, and
// SHOW JOBS shows the job RESTARTING while it waits.
func TestRestartsArePrinted(t *testing.T) {
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	engine, err := openEngine(context.Background(), Options{Mode: ModeStreaming}, out)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	c := newClient(engine, out, errb, FormatTableau)
	script := `CREATE TABLE t (s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.s.length' = '3');
CREATE TABLE b (i INT) WITH ('connector' = 'blackhole');
SET 'execution.checkpointing.interval' = '50 ms';
SET 'execution.checkpointing.dir' = '` + t.TempDir() + `';
SET 'restart-strategy.exponential-delay.initial-backoff' = '1 ms';
SET 'restart-strategy.exponential-delay.max-backoff' = '1 h';
SET 'restart-strategy.exponential-delay.backoff-multiplier' = '1000000';
SET 'restart-strategy.exponential-delay.jitter-factor' = '0';
SET 'table.dml-sync' = 'false';
INSERT INTO b SELECT CAST(CONCAT('x', s) AS INT) FROM t;`
	if !c.runScript(context.Background(), script, "-e") {
		t.Fatalf("script failed: %s", errb.String())
	}
	jobs, err := engine.Jobs(context.Background())
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %v, %v", jobs, err)
	}
	id := jobs[0].ID
	second := "[WARN] Job " + id + " (insert-into_default_catalog.default_database.b) failed: "
	if !testwait.Poll(30*time.Second, func() bool { return strings.Contains(errb.String(), "(attempt 2, exponential-delay) in 16m40s.") }) {
		t.Fatalf("no second restart printed: %q", errb.String())
	}
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], second) || !strings.Contains(lines[0], "cannot cast") ||
		!strings.HasSuffix(lines[0], "; restarting (attempt 1, exponential-delay) in 1ms.") {
		t.Fatalf("stderr lines %q", lines)
	}
	if !c.runScript(context.Background(), "SHOW JOBS", "-e") {
		t.Fatal(errb.String())
	}
	if !strings.Contains(out.String(), "| RESTARTING |") {
		t.Errorf("SHOW JOBS does not show RESTARTING:\n%s", out.String())
	}
	if err := engine.CancelJob(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}
