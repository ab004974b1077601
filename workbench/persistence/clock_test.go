package persistence

import (
	"slices"
	"sync"
	"time"
)

// manualClock is a Clock that moves only when the test advances it.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []manualTimer
}

type manualTimer struct {
	at time.Time
	ch chan time.Time
}

func newManualClock(t time.Time) *manualClock { return &manualClock{now: t} }

// Now implements Clock.
func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// At implements Clock: the channel receives once Advance reaches t (at
// once when t is not in the future).
func (c *manualClock) At(t time.Time) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if !t.After(c.now) {
		ch <- c.now
		return ch, func() {}
	}
	c.timers = append(c.timers, manualTimer{at: t, ch: ch})
	release := func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.timers = slices.DeleteFunc(c.timers, func(tm manualTimer) bool { return tm.ch == ch })
	}
	return ch, release
}

// Advance moves the clock forward by d and fires the timers that came
// due, earliest first.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	var due []manualTimer
	c.timers = slices.DeleteFunc(c.timers, func(tm manualTimer) bool {
		if !tm.at.After(now) {
			due = append(due, tm)
			return true
		}
		return false
	})
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b manualTimer) int { return a.at.Compare(b.at) })
	for _, tm := range due {
		tm.ch <- now
	}
}
