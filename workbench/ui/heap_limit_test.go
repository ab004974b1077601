package ui

import (
	"math"
	"sync"
	"testing"
)

// heapRecorder stands in for debug.SetMemoryLimit and the collection: it
// records the limits set.
type heapRecorder struct {
	mu     sync.Mutex
	limits []int64
}

func (r *heapRecorder) set(n int64) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limits = append(r.limits, n)
	return 0
}

// since reports whether limit was set at or after index i.
func (r *heapRecorder) since(i int, limit int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.limits[min(i, len(r.limits)):] {
		if n == limit {
			return true
		}
	}
	return false
}

func (r *heapRecorder) last() (int64, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.limits) == 0 {
		return 0, 0
	}
	return r.limits[len(r.limits)-1], len(r.limits)
}

// An idle workbench sets a memory limit above the Go memory in use once
// its query ended, and lifts it when the next statement is submitted;
// the limit is set again once that one ended.
func TestIdleHeapLimitFollowsQueries(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.IdleHeapLimit = true })
	rec := &heapRecorder{}
	const used = 100 << 20
	h.wb.heap.set, h.wb.heap.settle, h.wb.heap.delay = rec.set, func() int64 { return used }, 0
	h.newTab("SELECT * FROM (VALUES (1), (2)) AS t(n)")
	rt := h.runStatement()
	h.waitDone(rt)
	h.until("the idle limit", func() bool { return h.wb.heap.Limit() != 0 })
	want := int64(used + max(idleHeadroom, used/8))
	if got, _ := rec.last(); got != want || h.wb.heap.Limit() != want {
		t.Fatalf("idle limit %d (recorded %d), want %d", h.wb.heap.Limit(), got, want)
	}
	// The submit lifts the limit at once; the statement may end and the
	// idle limit be set again (the delay is 0) before runStatement returns.
	_, before := rec.last()
	h.runStatement()
	if !rec.since(before, math.MaxInt64) {
		rec.mu.Lock()
		t.Fatalf("a submit did not lift the limit: limits set %v (the first %d before it)", rec.limits, before)
	}
	h.until("the idle limit again", func() bool { return h.wb.heap.Limit() != 0 })
	if got, n := rec.last(); got != want || n < 3 {
		rec.mu.Lock()
		t.Fatalf("limits set %v", rec.limits)
	}
}
