package cli

import (
	"context"
	"fmt"
	"io"
	"time"
)

// StopGrace is how long `riffle sql` and `riffle gateway` may take to end
// after SIGTERM before ExitWatchdog ends the process: longer than the
// embedded engine's wait for its cancelled jobs (5 s), so an orderly stop
// always comes first.
const StopGrace = 7 * time.Second

// ExitWatchdog calls exit(143) with a message on stderr when the process
// is still running grace after ctx (SIGTERM's context) was cancelled. A
// goroutine blocked in a write that nothing can interrupt (stdout into a
// pipe nobody reads) would otherwise keep the process alive after SIGTERM;
// the jobs themselves were already cancelled with ctx. The returned stop
// disarms it (call it when the command returns).
func ExitWatchdog(ctx context.Context, grace time.Duration, stderr io.Writer, exit func(code int)) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			fmt.Fprintf(stderr, "riffle: still running %v after SIGTERM (blocked writing its output?); exiting\n", grace)
			exit(143)
		}
	}()
	var once bool
	return func() {
		if !once {
			once = true
			close(done)
		}
	}
}
