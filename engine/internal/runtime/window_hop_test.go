package runtime

import (
	"slices"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// A HOP window with a slide longer than its size leaves gaps: a row (or
// slice) gets only the windows that contain it, as Flink's
// SlidingWindowAssigner assigns them.
func TestHopWindowsWithGaps(t *testing.T) {
	s := opspec.WindowSpec{Kind: opspec.HopWindow, Size: 10_000, Slide: 20_000}
	for _, c := range []struct {
		ts   int64
		want [][2]int64
	}{
		{1_000, [][2]int64{{0, 10_000}}},
		{9_999, [][2]int64{{0, 10_000}}},
		{10_000, nil}, // in the gap [10 s, 20 s)
		{12_000, nil},
		{25_000, [][2]int64{{20_000, 30_000}}},
		{-5_000, nil}, // the gap [-10 s, 0)
	} {
		if got := s.WindowsOf(c.ts, nil); !slices.Equal(got, c.want) {
			t.Errorf("windowsOf(%d) = %v, want %v", c.ts, got, c.want)
		}
	}
	// slices are gcd(size, slide) = 10 s long: the slice [0, 10 s) makes
	// the window [0, 10 s); the slice [10 s, 20 s) makes none
	if got := s.WindowEndsOfSlice(10_000, nil); !slices.Equal(got, []int64{10_000}) {
		t.Errorf("windowEndsOfSlice(10 s) = %v", got)
	}
	if got := s.WindowEndsOfSlice(20_000, nil); len(got) != 0 {
		t.Errorf("windowEndsOfSlice(20 s) = %v, want none", got)
	}
	// overlapping windows are unchanged: size 10 s, slide 4 s
	o := opspec.WindowSpec{Kind: opspec.HopWindow, Size: 10_000, Slide: 4_000}
	want := [][2]int64{{-4_000, 6_000}, {0, 10_000}, {4_000, 14_000}}
	if got := o.WindowsOf(5_000, nil); !slices.Equal(got, want) {
		t.Errorf("windowsOf(5 s) = %v, want %v", got, want)
	}
}
