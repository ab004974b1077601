package sqlclient

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
)

// jobEvents prints what happens to the session's jobs in the background,
// as Flink's JobMaster logs it: a line per restart of a failed job. The
// embedded engine reports restarts (table.TableEnvironment.OnJobRestart);
// a gateway's jobs are the gateway's to log.
type jobEvents struct {
	mu sync.Mutex
	w  io.Writer
}

// setWriter makes the lines go to w (the line editor's terminal in
// interactive mode, which redraws the prompt after them).
func (e *jobEvents) setWriter(w io.Writer) {
	e.mu.Lock()
	e.w = w
	e.mu.Unlock()
}

// restarted prints a restart: the job, the attempt, the cause and the
// delay before it, e.g.
//
//	[WARN] Job 4f0c… (insert-into_…) failed: checkpoint 7: … ; restarting (attempt 3, exponential-delay) in 2.25s.
func (e *jobEvents) restarted(ev table.JobRestartEvent) {
	cause := "unknown failure"
	if ev.Cause != nil {
		cause = strings.TrimSpace(ev.Cause.Error())
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.w == nil {
		return
	}
	fmt.Fprintf(e.w, "[WARN] Job %s (%s) failed: %s; restarting (attempt %d, %s) in %s.\n",
		ev.JobID, ev.JobName, cause, ev.Attempt, ev.Strategy, ev.Delay.Round(time.Millisecond))
}

// watchJobs prints the embedded engine's job events to w.
func (c *client) watchJobs(w io.Writer) {
	emb, ok := c.engine.(*table.EmbeddedEngine)
	if !ok {
		return
	}
	c.events.setWriter(w)
	emb.Environment().OnJobRestart(c.events.restarted)
}
