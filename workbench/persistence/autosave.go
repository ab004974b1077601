package persistence

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Autosave delays.
const (
	// DefaultAutosaveDelay is how long after the last edit a tab is saved.
	DefaultAutosaveDelay = time.Second
	// MaxAutosaveDelay bounds the wait while edits keep coming: a tab edited
	// without pause is still saved at least this often.
	MaxAutosaveDelay = 2 * time.Second
)

// Autosaver saves tab edits in the background: a tab is written Delay
// after its last edit, and at the latest MaxAutosaveDelay after its first
// unsaved edit, so at most the last two seconds of typing are lost to a
// crash. Flush and Close write what is pending at once. It is safe for
// concurrent use (the UI goroutine calls TabChanged; the timer saves).
type Autosaver struct {
	store   *Store
	delay   time.Duration
	onError func(error)

	mu      sync.Mutex
	clock   Clock
	pending map[int64]Tab
	first   time.Time     // first unsaved edit
	timer   chan struct{} // closed to release the armed timer; nil when none
	stop    func()        // releases the armed timer's clock timer
	closed  bool

	saveMu sync.Mutex // one save at a time, in order
}

// Clock is the time source of an Autosaver. Now is the current time; At
// returns a channel that receives once the clock reaches t, and a function
// that releases the timer early (the tests step a manual clock).
type Clock interface {
	Now() time.Time
	At(t time.Time) (<-chan time.Time, func())
}

// wallClock is the default Clock: the system's time.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) At(t time.Time) (<-chan time.Time, func()) {
	tm := time.NewTimer(time.Until(t))
	return tm.C, func() { tm.Stop() }
}

// NewAutosaver returns an autosaver for s on the system clock. delay <= 0
// means DefaultAutosaveDelay; onError (may be nil) receives failed saves.
func (s *Store) NewAutosaver(delay time.Duration, onError func(error)) *Autosaver {
	if delay <= 0 {
		delay = DefaultAutosaveDelay
	}
	return &Autosaver{store: s, delay: delay, onError: onError, clock: wallClock{}, pending: map[int64]Tab{}}
}

// SetClock makes the autosaver measure its delays on c instead of the
// system clock (tests step a manual clock). Call it before the first
// TabChanged; a nil c means the system clock.
func (a *Autosaver) SetClock(c Clock) {
	if c == nil {
		c = wallClock{}
	}
	a.mu.Lock()
	a.clock = c
	a.mu.Unlock()
}

// arm replaces the armed timer by one that saves at t. a.mu is held.
func (a *Autosaver) arm(t time.Time) {
	a.disarm()
	release := make(chan struct{})
	due, stop := a.clock.At(t)
	a.timer, a.stop = release, stop
	go func() {
		select {
		case <-due:
			a.fire()
		case <-release:
		}
	}()
}

// disarm releases the armed timer, if any. a.mu is held.
func (a *Autosaver) disarm() {
	if a.timer != nil {
		a.stop()
		close(a.timer)
		a.timer, a.stop = nil, nil
	}
}

// TabChanged records the latest state of an edited tab.
func (a *Autosaver) TabChanged(t Tab) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	now := a.clock.Now()
	if len(a.pending) == 0 {
		a.first = now
	}
	a.pending[t.ID] = t
	wait := min(a.delay, MaxAutosaveDelay-now.Sub(a.first))
	a.arm(now.Add(max(wait, 0)))
}

// Forget drops a pending edit of a tab (call it when the tab is closed).
func (a *Autosaver) Forget(id int64) {
	a.mu.Lock()
	delete(a.pending, id)
	a.mu.Unlock()
}

// Pending reports whether edits wait to be saved.
func (a *Autosaver) Pending() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.pending) > 0
}

func (a *Autosaver) fire() {
	if err := a.Flush(context.Background()); err != nil && a.onError != nil {
		a.onError(err)
	}
}

// Flush saves the pending edits now. Tabs that were closed meanwhile are
// not re-created.
func (a *Autosaver) Flush(ctx context.Context) error {
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	a.mu.Lock()
	batch := a.pending
	a.pending = map[int64]Tab{}
	a.disarm()
	a.mu.Unlock()
	var errs []error
	for _, t := range batch {
		if err := a.store.UpdateTab(ctx, t); err != nil && !errors.Is(err, ErrNoTab) {
			errs = append(errs, err)
			a.mu.Lock()
			if _, newer := a.pending[t.ID]; !newer {
				a.pending[t.ID] = t // keep it for the next try
			}
			a.mu.Unlock()
		}
	}
	return errors.Join(errs...)
}

// Close flushes and stops the autosaver; later edits are ignored.
func (a *Autosaver) Close(ctx context.Context) error {
	err := a.Flush(ctx)
	a.mu.Lock()
	a.closed = true
	a.disarm()
	a.mu.Unlock()
	return err
}
