package gctuning

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	cases := []struct {
		live, floor uint64
		base, want  int
	}{
		{0, 64 << 20, 100, maxPercent},
		{1 << 20, 64 << 20, 100, maxPercent}, // 6,300 % capped
		{8 << 20, 64 << 20, 100, 700},        // goal 8 + 56 = 64 MiB
		{32 << 20, 64 << 20, 100, 100},       // goal exactly 64 MiB
		{40 << 20, 64 << 20, 100, 100},       // never below the base
		{100 << 20, 64 << 20, 100, 100},      // above the floor: the base
		{16 << 20, 64 << 20, 50, 300},        // a lower base also raised
		{100 << 20, 64 << 20, 300, 300},      // a higher base kept
	}
	for _, c := range cases {
		if got := percentFor(c.live, c.floor, c.base); got != c.want {
			t.Errorf("percentFor(%d MiB, %d MiB, %d) = %d, want %d", c.live>>20, c.floor>>20, c.base, got, c.want)
		}
	}
}

// TestSetHeapFloorRaisesAndRestores checks, through the runtime, that the
// floor raises GOGC while the live heap is small, follows collections, and
// that stop restores the previous percent.
func TestSetHeapFloorRaisesAndRestores(t *testing.T) {
	stop := floorForTest(t, 256<<20)
	if p := settledPercent(); p <= 100 {
		t.Fatalf("with a small live heap and a 256 MiB floor GOGC is %d, want > 100", p)
	}
	stop()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("after stop GOGC is %d, want 100 restored", got)
	}
}

func TestSetHeapFloorLeavesExplicitGOGC(t *testing.T) {
	t.Setenv("GOGC", "150")
	before := debug.SetGCPercent(150)
	defer debug.SetGCPercent(before)
	stop := SetHeapFloor(256 << 20)
	defer stop()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Fatalf("GOGC=150 set by the user became %d", got)
	}
}

// TestBatchJobsRaiseTheFloor checks, through the runtime, that a batch job
// raises GOGC to the batch floor's percent while it runs, that a second
// job keeps it raised after the first ends, that the last end restores the
// heap floor's percent, and that a second call of an end function does
// not end another job.
func TestBatchJobsRaiseTheFloor(t *testing.T) {
	floorForTest(t, 8<<20)
	SetBatchHeapFloor(1 << 30)
	defer SetBatchHeapFloor(DefaultBatchHeapFloor)
	batchFloorGrace = 0 // lowered when the last job ends
	defer func() { batchFloorGrace = time.Second }()
	percent := settledPercent
	live := make([]byte, 16<<20) // above the heap floor: GOGC at its base
	base := percent()
	if base != 100 {
		t.Fatalf("with 16 MiB live and an 8 MiB floor GOGC is %d, want 100", base)
	}
	end1 := BatchJobStarted()
	end2 := BatchJobStarted()
	if p := percent(); p <= 1000 {
		t.Fatalf("with two batch jobs and a 1 GiB batch floor GOGC is %d, want > 1000", p)
	}
	end1()
	end1() // once only: the second job still runs
	if p := percent(); p <= 1000 {
		t.Fatalf("with one batch job left GOGC is %d, want > 1000", p)
	}
	end2()
	if p := percent(); p != 100 {
		t.Fatalf("after the last batch job GOGC is %d, want 100 again", p)
	}
	mu.Lock()
	jobs := batchJobs
	mu.Unlock()
	if jobs != 0 {
		t.Fatalf("%d batch jobs counted after both ended", jobs)
	}
	runtime.KeepAlive(live)
}

// TestBatchFloorGrace checks that the batch floor stays for the grace
// after the last batch job ends, that a job started within the grace
// keeps it past the first grace's end, and that the last grace lowers it.
func TestBatchFloorGrace(t *testing.T) {
	floorForTest(t, 8<<20)
	var timers []func()
	afterFunc = func(_ time.Duration, f func()) { timers = append(timers, f) }
	defer func() { afterFunc = func(d time.Duration, f func()) { time.AfterFunc(d, f) } }()
	raised := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return batchRaised
	}
	BatchJobStarted()()
	if !raised() || len(timers) != 1 {
		t.Fatalf("after the job: raised %v, %d timers, want raised until the grace's end", raised(), len(timers))
	}
	end := BatchJobStarted() // within the grace
	timers[0]()              // the first grace ends while the second job runs
	if !raised() {
		t.Fatal("the first grace's end lowered the floor of a running batch job")
	}
	end()
	timers[0]() // a stale grace: the second job's is still running
	if !raised() {
		t.Fatal("the first grace's end lowered the floor in the second job's grace")
	}
	timers[1]()
	if raised() {
		t.Fatal("the floor is raised after the last grace ended")
	}
}

func TestHeldAboveFloor(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		held, live, floor uint64
		want              bool
	}{
		{500 * mib, 10 * mib, 64 * mib, true},   // a batch floor's heap, little live
		{90 * mib, 10 * mib, 64 * mib, false},   // within 32 MiB of the floor
		{300 * mib, 150 * mib, 64 * mib, false}, // a held result: twice live
		{400 * mib, 150 * mib, 64 * mib, true},
	}
	for _, c := range cases {
		if got := heldAboveFloor(c.held, c.live, c.floor); got != c.want {
			t.Errorf("heldAboveFloor(%d, %d, %d MiB) = %v", c.held/mib, c.live/mib, c.floor/mib, got)
		}
	}
	// the runtime's figures: at least the live heap is held
	if held, live := heapHeld(); held == 0 || held < live {
		t.Errorf("heapHeld() = %d held, %d live", held, live)
	}
}

// floorForTest sets GOGC to 100, with no GOGC variable, and a heap floor
// of floor bytes, all undone when the test ends; it returns the floor's
// stop function.
func floorForTest(t *testing.T, floor int64) (stop func()) {
	t.Helper()
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	stop = SetHeapFloor(floor)
	t.Cleanup(func() {
		stop()
		debug.SetGCPercent(before)
	})
	return stop
}

// settledPercent collects twice, so that the first cycle's sentinel
// finalizer has adjusted GOGC, and returns the tuner's percent.
func settledPercent() int {
	runtime.GC()
	runtime.GC()
	mu.Lock()
	defer mu.Unlock()
	return current.percent
}

// TestBatchJobsConcurrently starts and ends batch jobs from many
// goroutines while collections run the tuner's finalizer, the graces end
// on goroutines of their own and the batch floor changes (run it with
// -race): once every job and grace has ended no job is counted, the floor
// is lowered, and GOGC is the heap floor's percent again.
func TestBatchJobsConcurrently(t *testing.T) {
	floorForTest(t, 8<<20)
	defer SetBatchHeapFloor(DefaultBatchHeapFloor)
	var graces sync.WaitGroup
	mu.Lock()
	afterFunc = func(_ time.Duration, f func()) { graces.Go(f) } // called with mu held
	mu.Unlock()
	defer func() { afterFunc = func(d time.Duration, f func()) { time.AfterFunc(d, f) } }()
	live := make([]byte, 16<<20) // above the heap floor: GOGC at its base
	var jobs sync.WaitGroup
	for g := range 16 {
		jobs.Go(func() {
			for i := range 200 {
				end := BatchJobStarted()
				if i%50 == 0 {
					runtime.GC() // the finalizer adjusts while jobs run
				}
				if i%7 == g%7 {
					SetBatchHeapFloor(int64(256+i) << 20)
				}
				end()
				end() // once only
			}
		})
	}
	jobs.Wait()
	graces.Wait()
	mu.Lock()
	n, raised := batchJobs, batchRaised
	mu.Unlock()
	if n != 0 || raised {
		t.Fatalf("after every job and grace ended: %d jobs counted, floor raised %v", n, raised)
	}
	if p := settledPercent(); p != 100 {
		t.Fatalf("after every batch job ended GOGC is %d, want 100 (16 MiB live, 8 MiB floor)", p)
	}
	runtime.KeepAlive(live)
}
