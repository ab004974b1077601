package runtime

import (
	"sort"
	"sync"
	"time"
)

// Clock tells processing time (PROCTIME(), processing-time windows, idle
// source detection, replay pacing).
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// At returns a channel receiving once the clock reaches t, and a
	// function that releases the timer early.
	At(t time.Time) (<-chan time.Time, func())
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }

// At implements Clock.
func (SystemClock) At(t time.Time) (<-chan time.Time, func()) {
	tm := time.NewTimer(time.Until(t))
	return tm.C, func() { tm.Stop() }
}

// ManualClock is a Clock that moves only when told to (tests).
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []manualTimer
}

type manualTimer struct {
	at time.Time
	ch chan time.Time
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t} }

// Now implements Clock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// At implements Clock.
func (c *ManualClock) At(t time.Time) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if !t.After(c.now) {
		ch <- c.now
		return ch, func() {}
	}
	c.timers = append(c.timers, manualTimer{at: t, ch: ch})
	return ch, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, tm := range c.timers {
			if tm.ch == ch {
				c.timers = append(c.timers[:i], c.timers[i+1:]...)
				return
			}
		}
	}
}

// Advance moves the clock forward by d, firing due timers in time order.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	var due, rest []manualTimer
	for _, tm := range c.timers {
		if !tm.at.After(now) {
			due = append(due, tm)
		} else {
			rest = append(rest, tm)
		}
	}
	c.timers = rest
	c.mu.Unlock()
	sort.Slice(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, tm := range due {
		tm.ch <- now
	}
}
