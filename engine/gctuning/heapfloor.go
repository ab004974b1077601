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
//
// A batch job raises the floor while it runs (BatchJobStarted, called by
// the engine's runtime for every batch job; the batch floor is
// DefaultBatchHeapFloor unless SetBatchHeapFloor changed it): its
// operators allocate their whole input and output at once, and with a
// small live heap a 64 MiB goal still means a collection every few tens
// of MB. Measured on the 3 M-row flights CSV (bench -speedup 2 -mem=false,
// ROW_NUMBER OVER, 531 MB allocated a run): 6.9 collections a run at one
// thread and 8.5 at two under the 64 MiB floor, 3.0 under 256 MiB and
// 1.2 under 512 MiB, and the two threads' speed-up 1.76x, 1.82x and
// 1.87x: at two threads the collector takes its share from a core the
// query needs. A second after the last batch job has ended the floor is
// back, and the heap the raised floor let grow is returned to the
// operating system.
package gctuning

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultHeapFloor is the floor the riffle binary sets: 64 MiB.
const DefaultHeapFloor = 64 << 20

// DefaultBatchHeapFloor is the floor while a batch job runs (see the
// package comment): 512 MiB. As with any floor, GOGC is raised at most to
// maxPercent, so the goal reaches 512 MiB only once about 24 MiB are live.
const DefaultBatchHeapFloor = 512 << 20

// maxPercent caps the raised GOGC: a goal is at most 21 times the live
// heap, so a live heap of about 3 MiB (64 MiB / 21) or less gets 2,000 %.
const maxPercent = 2000

var (
	mu      sync.Mutex
	current *tuner
	// batchFloor is the floor while batchRaised: from the start of a
	// batch job to batchFloorGrace after the end of the last one; batchJobs
	// counts the running batch jobs and batchGen the times their count fell
	// to zero (all under mu)
	batchFloor  uint64 = DefaultBatchHeapFloor
	batchJobs   int
	batchRaised bool
	batchGen    uint64
)

// batchFloorGrace is how long the batch floor stays after the last batch
// job ends: a script of batch statements, or a benchmark's runs, does not
// lower and raise it between one job and the next.
var batchFloorGrace = time.Second

// afterFunc is time.AfterFunc (a test calls the function itself).
var afterFunc = func(d time.Duration, f func()) { time.AfterFunc(d, f) }

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
	p := percentFor(live, t.floorLocked(), t.base)
	// Only a change of more than an eighth is worth a call.
	if d := p - t.percent; d*8 > t.percent || -d*8 > t.percent {
		if !t.stopped.Load() {
			debug.SetGCPercent(p)
			t.percent = p
		}
	}
}

// floorLocked is the floor in force: the batch floor while a batch job
// runs, if it is higher; mu is held.
func (t *tuner) floorLocked() uint64 {
	if batchRaised {
		return max(t.floor, batchFloor)
	}
	return t.floor
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

// SetBatchHeapFloor sets the floor in force while a batch job runs, in
// bytes (DefaultBatchHeapFloor unless set); 0 or a value at most the heap
// floor leaves batch jobs the heap floor. It takes effect at the tuner's
// next adjustment (the next collection, or the next batch job's start),
// running jobs included, and only while SetHeapFloor's floor is in force.
func SetBatchHeapFloor(floor int64) {
	mu.Lock()
	defer mu.Unlock()
	batchFloor = uint64(max(floor, 0))
}

// BatchJobStarted raises the heap floor to the batch floor (see
// SetBatchHeapFloor) until every batch job started has called the
// function it returns, once, when it ends (later calls do nothing), and
// batchFloorGrace (one second) more: then the heap floor is back, and
// the collector's next cycles and the runtime's scavenger return the
// heap it no longer needs to the operating system. Without a floor set by
// SetHeapFloor it only counts the jobs.
func BatchJobStarted() (ended func()) {
	mu.Lock()
	batchJobs++
	if !batchRaised {
		batchRaised = true
		if current != nil {
			current.adjustLocked()
		}
	}
	mu.Unlock()
	var once sync.Once
	return func() { once.Do(batchJobEnded) }
}

// batchJobEnded ends one batch job's raise of the floor: the last one
// lowers it after batchFloorGrace unless another batch job has started.
func batchJobEnded() {
	mu.Lock()
	defer mu.Unlock()
	if batchJobs--; batchJobs > 0 {
		return
	}
	batchGen++
	gen := batchGen
	if batchFloorGrace <= 0 {
		lowerBatchFloorLocked()
		return
	}
	afterFunc(batchFloorGrace, func() {
		mu.Lock()
		defer mu.Unlock()
		if gen == batchGen && batchJobs == 0 {
			lowerBatchFloorLocked()
		}
	})
}

// lowerBatchFloorLocked puts the heap floor back in force; mu is held.
// When the raised floor let the heap grow past what the heap floor allows,
// the free heap is returned to the operating system at once
// (debug.FreeOSMemory, a collection, on a goroutine of its own): an idle
// process would otherwise keep it until its next collection, up to two
// minutes later.
func lowerBatchFloorLocked() {
	batchRaised = false
	t := current
	if t == nil {
		return
	}
	t.adjustLocked()
	if batchFloor <= t.floor {
		return // the floor was not raised
	}
	if held, live := heapHeld(); heldAboveFloor(held, live, t.floor) {
		go debug.FreeOSMemory()
	}
}

// heldAboveFloor reports whether held bytes of heap are more than 32 MiB
// above both floor and twice live: the most a goal under floor lets the
// heap reach.
func heldAboveFloor(held, live, floor uint64) bool {
	return held > max(floor, 2*live)+32<<20
}

// heapHeld returns the bytes of heap the runtime holds from the operating
// system (objects, free spans not yet returned, and unused space in
// spans) and the live heap the last collection measured.
func heapHeld() (held, live uint64) {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	var v [4]uint64
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	return v[0] + v[1] + v[2], v[3]
}
