package ui

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The Go heap of an idle workbench (issue 19 §5). With GOGC's default a
// heap may grow to twice what is live before it is collected, and the
// pages a finished query's garbage took stay with the process: after a
// 1 M-row result arrived the heap held ~155 MB for ~95 MB live. Once no
// query, job or statement has run for heapSettleDelay, the workbench
// collects, returns the free pages to the OS and sets a soft memory limit
// (debug.SetMemoryLimit) a little above what Go then uses, so the idle
// UI's garbage cannot grow the heap back; as soon as a query, job or
// statement starts the limit is lifted (back to GOMEMLIMIT's, by default
// none), so loading rows collects no more often than GOGC says. A user's
// GOMEMLIMIT turns this off.

const (
	// heapSettleDelay is how long the workbench stays idle before the
	// limit is set (short queries in a row do not force a collection each).
	heapSettleDelay = 2 * time.Second
	// idleHeadroom is the least room the limit leaves above the memory in
	// use: the idle UI allocates ~0.1 MB/s, scrolling a grid a few MB/s,
	// and a collection of a 1 M-row result's heap (~80 MB live) takes
	// ~15 ms of CPU on a background goroutine.
	idleHeadroom = 16 << 20
)

// heapLimit is the idle memory limit's state.
type heapLimit struct {
	off   bool  // a user's GOMEMLIMIT is kept
	base  int64 // the limit when busy (GOMEMLIMIT's, or none)
	delay time.Duration

	// UI goroutine
	idleSince time.Time // zero while busy
	settling  bool      // a limit is set or being set

	mu  sync.Mutex
	gen int64 // bumped when busy again: a settle of an older gen does nothing
	// set is debug.SetMemoryLimit; tests record instead. settle is
	// heapSettle; tests replace it. limit is the idle limit last set (0:
	// none).
	set    func(int64) int64
	settle func() int64
	limit  int64
}

func newHeapLimit() *heapLimit {
	h := &heapLimit{delay: heapSettleDelay, set: debug.SetMemoryLimit, settle: heapSettle}
	h.off = os.Getenv("GOMEMLIMIT") != ""
	h.base = math.MaxInt64
	return h
}

// tick sets the limit once the workbench has been idle for the delay and
// lifts it when busy (UI goroutine, from Tick).
func (h *heapLimit) tick(busy bool, now time.Time) {
	if h == nil || h.off {
		return
	}
	if busy {
		h.idleSince = time.Time{}
		if h.settling {
			h.settling = false
			h.mu.Lock()
			h.gen++
			h.limit = 0
			h.set(h.base)
			h.mu.Unlock()
		}
		return
	}
	if h.idleSince.IsZero() {
		h.idleSince = now
	}
	if h.settling || now.Sub(h.idleSince) < h.delay {
		return
	}
	h.settling = true
	h.mu.Lock()
	gen := h.gen
	h.mu.Unlock()
	go func() {
		used := h.settle()
		limit := used + max(idleHeadroom, used/8)
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.gen == gen {
			h.limit = limit
			h.set(limit)
		}
	}()
}

// Limit is the idle limit in force (bytes; 0 while none is).
func (h *heapLimit) Limit() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.limit
}

// heapSettle collects, returns the free heap pages to the OS and reports
// the memory Go then uses (bytes: what SetMemoryLimit counts, the Go
// runtime's total less what it released).
func heapSettle() int64 {
	debug.FreeOSMemory()
	return goMemoryInUse()
}

// goMemoryInUse is the memory the Go runtime maps and has not released
// (bytes), from runtime/metrics.
func goMemoryInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
}

// busyForHeap reports a query, job or statement running or queued.
func (wb *Workbench) busyForHeap() bool {
	if wb.runningJobs() > 0 {
		return true
	}
	wb.mu.Lock()
	defer wb.mu.Unlock()
	return len(wb.runCancels) > 0
}
