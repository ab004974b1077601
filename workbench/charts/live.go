package charts

import (
	"context"
	"image"
	"sync"
	"time"
)

// LiveSource is a result that changes while its query runs.
type LiveSource interface {
	Source
	// Version increases with every change.
	Version() uint64
	// NeedsRefresh reports whether the result changed since version drawn
	// (and is not paused).
	NeedsRefresh(drawn uint64) bool
}

// Frame is one rendering of a live chart.
type Frame struct {
	// Image is the chart, or a message saying why there is none.
	Image *image.RGBA
	// Model is the chart's data (nil when Err is set).
	Model *Model
	// Err says why the settings cannot be drawn (shown in Image too).
	Err error
	// Elapsed is the time spent reading and drawing.
	Elapsed time.Duration
}

// DefaultInterval is the least time between two frames of a live chart:
// four renders a second at most.
const DefaultInterval = 250 * time.Millisecond

// Live renders a result's chart again whenever the result, the settings
// or the size change, at most once per Interval, on its own goroutine
// (Run): the UI goroutine only receives finished images. A UI passes an
// OnFrame that swaps the image in with fyne.Do.
type Live struct {
	src     LiveSource
	onFrame func(Frame)

	mu       sync.Mutex
	settings Settings
	opts     RenderOptions
	dirty    bool
	drawn    uint64
	interval time.Duration

	wake chan struct{}
	bld  Builder
}

// NewLive prepares a live chart of src; onFrame receives every frame, on
// the Live's goroutine.
func NewLive(src LiveSource, s Settings, o RenderOptions, onFrame func(Frame)) *Live {
	return &Live{src: src, onFrame: onFrame, settings: s, opts: o, dirty: true,
		interval: DefaultInterval, wake: make(chan struct{}, 1)}
}

// SetInterval changes the least time between frames (at least 10 ms).
func (l *Live) SetInterval(d time.Duration) {
	l.mu.Lock()
	l.interval = max(d, 10*time.Millisecond)
	l.mu.Unlock()
}

// Settings returns the current settings.
func (l *Live) Settings() Settings {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.settings
}

// SetSettings changes what is drawn; the next frame follows at once.
func (l *Live) SetSettings(s Settings) {
	l.mu.Lock()
	l.settings, l.dirty = s, true
	l.mu.Unlock()
	l.poke()
}

// SetOptions changes the size, DPI or theme; the next frame follows at
// once.
func (l *Live) SetOptions(o RenderOptions) {
	l.mu.Lock()
	changed := o.Width != l.opts.Width || o.Height != l.opts.Height || o.DPI != l.opts.DPI || o.Theme.Background != l.opts.Theme.Background
	l.opts = o
	l.dirty = l.dirty || changed
	l.mu.Unlock()
	if changed {
		l.poke()
	}
}

// Refresh asks for a new frame even if nothing changed.
func (l *Live) Refresh() {
	l.mu.Lock()
	l.dirty = true
	l.mu.Unlock()
	l.poke()
}

func (l *Live) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Run renders frames until ctx is done. Call it on its own goroutine.
func (l *Live) Run(ctx context.Context) {
	l.mu.Lock()
	interval := l.interval
	l.mu.Unlock()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		l.Step()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-l.wake:
		}
		l.mu.Lock()
		if l.interval != interval {
			interval = l.interval
			t.Reset(interval)
		}
		l.mu.Unlock()
	}
}

// Step renders one frame if the result, the settings or the size changed
// since the last one, and reports whether it did. Run calls it; tests may
// call it directly.
func (l *Live) Step() bool {
	l.mu.Lock()
	s, o, dirty, drawn := l.settings, l.opts, l.dirty, l.drawn
	if o.Width <= 0 || o.Height <= 0 {
		l.mu.Unlock()
		return false // not laid out yet; SetOptions will wake us
	}
	l.dirty = false
	l.mu.Unlock()
	if !dirty && !l.src.NeedsRefresh(drawn) {
		return false
	}
	start := time.Now()
	version := l.src.Version()
	f := Frame{}
	m, err := l.bld.Build(l.src, s)
	switch {
	case err != nil:
		f.Err = err
		f.Image, _ = RenderMessage(err.Error(), o)
	case m.Points() == 0:
		f.Model = m
		f.Image, _ = RenderMessage("No rows to chart yet", o)
	default:
		f.Model = m
		f.Image, err = Render(m, o)
		if err != nil {
			f.Err = err
			f.Image, _ = RenderMessage(err.Error(), o)
		}
	}
	if m != nil {
		version = m.Version
	}
	l.mu.Lock()
	l.drawn = version
	l.mu.Unlock()
	f.Elapsed = time.Since(start)
	if l.onFrame != nil && f.Image != nil {
		l.onFrame(f)
	}
	return true
}
