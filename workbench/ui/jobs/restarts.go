package jobs

import (
	"strconv"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
)

// Restarted is what the Checkpoint column shows of a job's restarts after
// failures (restart-strategy.type): *table.JobClient (a job of the
// embedded session) implements it; a gateway's job does not.
type Restarted interface {
	// RestartCount is how many times the job restarted.
	RestartCount() int
	// LastFailure is the failure it last restarted, or is restarting,
	// from (nil: none).
	LastFailure() error
}

var _ Restarted = (*table.JobClient)(nil)

// restartCauseWidth is how many characters of the last failure the
// column shows.
const restartCauseWidth = 60

// RestartText is what the Checkpoint column's warning line says of a
// job's restarts: "3 restarts: " and the last failure on one line (at most
// 60 characters), "restarting: …" while the first restart waits; "" for
// a job that never failed.
func RestartText(n int, last error) string {
	if n == 0 && last == nil {
		return ""
	}
	head := "restarting"
	switch {
	case n == 1:
		head = "1 restart"
	case n > 1:
		head = strconv.Itoa(n) + " restarts"
	}
	if last == nil {
		return head
	}
	return head + ": " + monitor.OneLine(last.Error(), restartCauseWidth)
}

// Restarts returns a listed job's restart count and last failure; ok is
// false for a job not listed or one of a gateway.
func (p *Panel) Restarts(id string) (n int, last error, ok bool) {
	c, ok := p.checkpointed(id)
	if !ok {
		return 0, nil, false
	}
	r, ok := c.(Restarted)
	if !ok {
		return 0, nil, false
	}
	return r.RestartCount(), r.LastFailure(), true
}

// warningText joins the Checkpoint column's warnings: the failed
// checkpoints and the restarts ("1 failed · 2 restarts: …").
func warningText(failed, restarts string) string {
	switch {
	case failed == "":
		return restarts
	case restarts == "":
		return failed
	}
	return failed + " · " + restarts
}
