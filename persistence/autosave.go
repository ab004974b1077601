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
	pending map[int64]Tab
	first   time.Time // first unsaved edit
	timer   *time.Timer
	closed  bool

	saveMu sync.Mutex // one save at a time, in order
}

// NewAutosaver returns an autosaver for s. delay <= 0 means
// DefaultAutosaveDelay; onError (may be nil) receives failed saves.
func (s *Store) NewAutosaver(delay time.Duration, onError func(error)) *Autosaver {
	if delay <= 0 {
		delay = DefaultAutosaveDelay
	}
	return &Autosaver{store: s, delay: delay, onError: onError, pending: map[int64]Tab{}}
}

// TabChanged records the latest state of an edited tab.
func (a *Autosaver) TabChanged(t Tab) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	now := time.Now()
	if len(a.pending) == 0 {
		a.first = now
	}
	a.pending[t.ID] = t
	wait := min(a.delay, MaxAutosaveDelay-now.Sub(a.first))
	if a.timer == nil {
		a.timer = time.AfterFunc(max(wait, 0), a.fire)
	} else {
		a.timer.Reset(max(wait, 0))
	}
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
	if a.timer != nil {
		a.timer.Stop()
	}
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
	if a.timer != nil {
		a.timer.Stop()
	}
	a.mu.Unlock()
	return err
}
