// Package testwait lets a test wait for something that happens on another
// goroutine or in another process and that it cannot receive on a channel:
// a row reaching a database, a slot becoming active, a tree done loading.
//
// The condition is checked at once and then again at growing intervals
// (1 ms, doubling up to 50 ms) until it holds or the time allowed has
// passed. The time allowed is an upper bound for a failing test, never a
// delay: a condition that holds after 3 ms ends the wait after about 3 ms.
// Tests use this instead of sleeping a fixed time in the hope that the
// thing has happened by then.
package testwait

import (
	"testing"
	"time"
)

// maxPause is the longest pause between two checks of a condition.
const maxPause = 50 * time.Millisecond

// Poll checks cond until it returns true, and reports whether it did
// within the given time (cond is checked once more when the time is up).
// cond runs on the caller's goroutine; it may do work that makes progress
// (run queued UI callbacks, tick a workbench).
func Poll(within time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	pause := time.Millisecond
	for {
		next := time.NewTimer(pause)
		select {
		case <-deadline.C:
			next.Stop()
			return cond()
		case <-next.C:
		}
		if cond() {
			return true
		}
		pause = min(2*pause, maxPause)
	}
}

// Until checks cond until it returns true; if it does not within the
// given time, it fails t (t.Fatalf) with "timed out after <within>
// waiting for <what>". It must be called from the test's goroutine.
func Until(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Poll(within, cond) {
		t.Fatalf("timed out after %v waiting for %s", within, what)
	}
}
