package gctuning

import (
	"runtime"
	"runtime/debug"
	"testing"
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
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	stop := SetHeapFloor(256 << 20)
	runtime.GC()
	runtime.GC() // the finalizer of the first cycle's sentinel has run
	mu.Lock()
	p := current.percent
	mu.Unlock()
	if p <= 100 {
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
