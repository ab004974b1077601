package runtime

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestRadixSortBits checks radixSortBits against a stable comparison
// sort by the key bits, on the paths it takes: empty, one value, the
// insertion sort of small buckets, least significant digit passes, and the
// most significant digit split of large arrays (with buckets of every
// size, one bucket holding nearly all values, all values one key, keys
// wider than two digits and the full 64 bits). The low bits below the key
// hold each value's position, so equal keys must keep arrival order.
func TestRadixSortBits(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	type gen func(i int) uint64 // the key of value i
	uniform := func(width uint) gen {
		return func(int) uint64 { return r.Uint64() & (1<<width - 1) }
	}
	// the OVER's keys: a leading rank of 229 values, then 12 bits
	overLike := func(int) uint64 { return uint64(r.Intn(229))<<12 | uint64(r.Intn(2804)) }
	constant := func(int) uint64 { return 0x5a5 }
	// 95 % of the values share the top 11 bits of a 20-bit key
	skewed := func(int) uint64 {
		if r.Intn(20) != 0 {
			return 0x3f<<9 | uint64(r.Intn(512))
		}
		return uint64(r.Intn(1 << 20))
	}
	// a few distinct keys: long runs of ties
	fewKeys := func(int) uint64 { return uint64(r.Intn(3)) << 17 }
	cases := []struct {
		name  string
		n     int
		width uint
		key   gen
	}{
		{"empty", 0, 20, uniform(20)},
		{"one value", 1, 20, uniform(20)},
		{"two values", 2, 20, uniform(20)},
		{"insertion", radixInsertionRows, 20, uniform(20)},
		{"small lsd", 1000, 20, uniform(20)},
		{"leaf size", 1 << 16, 20, uniform(20)},
		{"msd over-like", 300_000, 20, overLike},
		{"msd one key", 200_000, 20, constant},
		{"msd skewed", 300_000, 20, skewed},
		{"msd few keys", 200_000, 19, fewKeys},
		{"msd wide", 200_000, 40, uniform(40)},
		{"msd one digit", 200_000, 11, uniform(11)},
		{"msd 12 bits", 200_000, 12, uniform(12)},
	}
	for _, tc := range cases {
		posBits := uint(max(1, bitsLen(tc.n-1)))
		vals := make([]uint64, tc.n)
		for i := range vals {
			vals[i] = tc.key(i)<<posBits | uint64(i)
		}
		want := slices.Clone(vals)
		slices.SortStableFunc(want, func(a, b uint64) int { return cmp.Compare(a>>posBits, b>>posBits) })
		got := radixSortBits(slices.Clone(vals), posBits, tc.width)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %s", tc.name, firstDiff(got, want))
		}
	}
	// the full 64 bits (no positions): a stable sort of plain values
	for _, n := range []int{100, 5000, 150_000} {
		vals := make([]uint64, n)
		for i := range vals {
			vals[i] = r.Uint64() >> uint(r.Intn(3)*20)
		}
		want := slices.Clone(vals)
		slices.Sort(want)
		if got := radixSortBits(slices.Clone(vals), 0, 64); !slices.Equal(got, want) {
			t.Errorf("64 bits, %d values: %s", n, firstDiff(got, want))
		}
	}
}

// bitsLen is bits.Len for an int (0 for n <= 0).
func bitsLen(n int) int {
	l := 0
	for ; n > 0; n >>= 1 {
		l++
	}
	return l
}

func firstDiff(got, want []uint64) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d values, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("position %d holds %#x, want %#x", i, got[i], want[i])
		}
	}
	return "equal"
}

// BenchmarkRadixSortBits sorts 1.5 Mi words packed as one OVER instance's
// (a partition rank of 229 values, a 12-bit order key, 21 bits of
// position): "one" alone, "two" two such sorts on two goroutines at once
// (the two instances at parallelism 2; cpu-ns/op is both's CPU).
func BenchmarkRadixSortBits(b *testing.B) {
	const n = 3 << 19
	r := rand.New(rand.NewSource(9))
	src := make([]uint64, n)
	for i := range src {
		src[i] = (uint64(r.Intn(229))<<12|uint64(r.Intn(2804)))<<21 | uint64(i)
	}
	work := [2][]uint64{make([]uint64, n), make([]uint64, n)}
	b.Run("one", func(b *testing.B) {
		measureCPU(b, func() {
			copy(work[0], src)
			radixSortBits(work[0], 21, 20)
		})
	})
	b.Run("two", func(b *testing.B) {
		measureCPU(b, func() {
			done := make(chan struct{})
			for g := range 2 {
				go func() {
					copy(work[g], src)
					radixSortBits(work[g], 21, 20)
					done <- struct{}{}
				}()
			}
			<-done
			<-done
		})
	})
}
