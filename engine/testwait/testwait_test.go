package testwait

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// A condition made true by another goroutine ends the wait; the checks
// counted show the wait polled rather than returning at once.
func TestPollSeesAnotherGoroutinesChange(t *testing.T) {
	var flag atomic.Bool
	var checks atomic.Int32
	release := make(chan struct{})
	go func() {
		<-release
		flag.Store(true)
	}()
	ok := Poll(time.Minute, func() bool {
		if checks.Add(1) == 3 {
			close(release)
		}
		return flag.Load()
	})
	if !ok || checks.Load() < 4 {
		t.Fatalf("Poll = %v after %d checks", ok, checks.Load())
	}
}

// A condition that never holds: Poll reports false once the time allowed
// has passed, having checked it more than once and a last time at the end.
func TestPollGivesUp(t *testing.T) {
	checks := 0
	if Poll(20*time.Millisecond, func() bool { checks++; return false }) {
		t.Fatal("Poll reported a condition that never held")
	}
	if checks < 2 {
		t.Fatalf("%d checks", checks)
	}
}

// A condition that holds at first is checked once.
func TestPollTrueAtOnce(t *testing.T) {
	checks := 0
	if !Poll(time.Minute, func() bool { checks++; return true }) || checks != 1 {
		t.Fatalf("%d checks", checks)
	}
}

type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
}

// Until fails the test naming what it waited for.
func TestUntilFailsNamingTheEvent(t *testing.T) {
	f := &fatalRecorder{TB: t}
	Until(f, time.Millisecond, "the row", func() bool { return false })
	if f.msg != "timed out after 1ms waiting for the row" {
		t.Fatalf("message %q", f.msg)
	}
	f.msg = ""
	Until(f, time.Minute, "the row", func() bool { return true })
	if f.msg != "" {
		t.Fatal("failed on a condition that held")
	}
}
