package cli

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// lockedBuffer is a strings.Builder safe for the watchdog's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestExitWatchdog(t *testing.T) {
	t.Run("fires grace after the cancellation", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var stderr lockedBuffer
			codes := make(chan int, 1)
			stop := ExitWatchdog(ctx, StopGrace, &stderr, func(code int) { codes <- code })
			defer stop()
			time.Sleep(time.Hour) // no SIGTERM: nothing happens (fake clock)
			synctest.Wait()
			if len(codes) != 0 {
				t.Fatal("exited without a cancellation")
			}
			cancel()
			time.Sleep(StopGrace - time.Millisecond)
			synctest.Wait()
			if len(codes) != 0 {
				t.Fatal("exited before the grace period")
			}
			time.Sleep(time.Millisecond)
			synctest.Wait()
			if len(codes) != 1 || <-codes != 143 {
				t.Fatal("did not exit with 143 at the end of the grace period")
			}
			if !strings.Contains(stderr.String(), "after SIGTERM") {
				t.Errorf("stderr = %q", stderr.String())
			}
		})
	})
	t.Run("stopped in time", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			codes := make(chan int, 1)
			stop := ExitWatchdog(ctx, StopGrace, &lockedBuffer{}, func(code int) { codes <- code })
			cancel()
			time.Sleep(StopGrace / 2)
			stop()
			stop() // twice is fine
			time.Sleep(StopGrace)
			synctest.Wait()
			if len(codes) != 0 {
				t.Fatal("exited although the command returned within the grace period")
			}
		})
	})
}
