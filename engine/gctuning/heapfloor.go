// Package gctuning tunes Go's garbage collector for a query engine.
//
// A batch query that streams a large file through a small live heap (a
// CSV scan into a GROUP BY keeps a few MB live) allocates its column
// batches at hundreds of MB per second. With the default GOGC of 100 the
// collector's goal is twice the live heap, at least 4 MB, so it runs
// every few MB of allocation: dozens of cycles per second, each of which
// preempts the running operators to scan their stacks. Measured on the
// 3 M-row flights CSV (bench/, one thread, GROUP BY origin): 24.6 % of
// the CPU profile was spent entering asynchronous preemption, and raising
// GOGC to 800 cut the query's CPU by 16 %.
//
// SetHeapFloor keeps the collector's goal at least a given size, in the
// way a JVM's young generation does: while the live heap is smaller than
// the floor, GOGC is raised so that the goal is about the floor; once the
// live heap is larger, GOGC is back at its default and memory use is what
// it would be without the floor. The extra memory is therefore bounded by
// the floor.
package gctuning

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// DefaultHeapFloor is the floor the riffle binary sets: 64 MiB.
const DefaultHeapFloor = 64 << 20

// maxPercent caps the raised GOGC (a live heap of 64 MiB / 20 = 3.2 MiB
// or less gets 2,000 %).
const maxPercent = 2000

var (
	mu      sync.Mutex
	current *tuner
)

type tuner struct {
	floor   uint64
	base    int // the GOGC percent without the floor
	percent int
	stopped atomic.Bool
	sample  []metrics.Sample
}

// sentinel is an object whose finalizer runs after each collection; it
// is larger than the tiny-allocator size so that it is freed on its own.
type sentinel struct{ _ [32]byte }

// SetHeapFloor keeps the garbage collector's heap goal at least floor
// bytes (see the package comment) until the returned stop function is
// called, which restores the GOGC percent that was in force. It does
// nothing (and stop does nothing) when floor ≤ 0 or when the GOGC
// environment variable is set: an explicit GOGC is the user's choice.
// A second call replaces the first one's floor.
func SetHeapFloor(floor int64) (stop func()) {
	if floor <= 0 || os.Getenv("GOGC") != "" {
		return func() {}
	}
	mu.Lock()
	defer mu.Unlock()
	base := 100
	if current != nil {
		current.stopped.Store(true)
		base = current.base
	} else {
		base = debug.SetGCPercent(100)
		debug.SetGCPercent(base)
	}
	if base <= 0 {
		return func() {} // GC off: nothing to tune
	}
	t := &tuner{floor: uint64(floor), base: base, percent: base,
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	current = t
	t.adjustLocked()
	t.arm()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		if t.stopped.Swap(true) {
			return
		}
		if current == t {
			current = nil
		}
		debug.SetGCPercent(t.base)
	}
}

func (t *tuner) arm() {
	s := new(sentinel)
	runtime.SetFinalizer(s, func(*sentinel) {
		if t.stopped.Load() {
			return
		}
		t.adjust()
		t.arm()
	})
}

// adjustLocked sets GOGC from the live heap measured by the last
// collection; mu is held.
func (t *tuner) adjustLocked() {
	metrics.Read(t.sample)
	live := uint64(0)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	p := percentFor(live, t.floor, t.base)
	// Only a change of more than an eighth is worth a call.
	if d := p - t.percent; d*8 > t.percent || -d*8 > t.percent {
		if !t.stopped.Load() {
			debug.SetGCPercent(p)
			t.percent = p
		}
	}
}

func (t *tuner) adjust() {
	mu.Lock()
	defer mu.Unlock()
	t.adjustLocked()
}

// percentFor is the GOGC percent that makes the heap goal live ×
// (1 + percent/100) about floor when live < floor, and base otherwise.
func percentFor(live, floor uint64, base int) int {
	if live == 0 {
		return maxPercent
	}
	if live >= floor {
		return base
	}
	p := int((floor - live) * 100 / live)
	return min(max(p, base), maxPercent)
}

// StopHeapFloor stops the floor set last, if any, and restores the GOGC
// percent that was in force before it (for a caller that sets its own
// garbage collection policy afterwards).
func StopHeapFloor() {
	mu.Lock()
	t := current
	if t == nil || t.stopped.Swap(true) {
		mu.Unlock()
		return
	}
	current = nil
	mu.Unlock()
	debug.SetGCPercent(t.base)
}
