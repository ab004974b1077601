package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The machine's own speed-up from one core to two, measured on code that
// shares nothing: the ceiling of issue 19 §2's goal (≥ 1.8× from one
// thread to two) on this machine. A virtual machine's two vCPUs may be
// two hardware threads of one core, or share one core's time with other
// guests; the guest cannot tell (lscpu shows what the hypervisor says).

// calibration is the speed-up of two goroutines over one, each doing the
// same work: throughput with two ÷ throughput with one (2.0 for two
// independent cores).
type calibration struct {
	alu, memory float64
}

func (c calibration) String() string {
	return fmt.Sprintf("%.2f× arithmetic, %.2f× memory streaming", c.alu, c.memory)
}

// calibrate measures the arithmetic loop (a xorshift generator: registers
// only) and a memory stream (a read-modify-write pass over 64 MiB per
// goroutine, beyond the caches) with one goroutine and with two at
// GOMAXPROCS 2, rounds times each, and keeps the best time of each (the
// least disturbed by other work). It takes about rounds × 1.5 s.
func calibrate(rounds int) calibration {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	bufs := [2][]uint64{make([]uint64, 8<<20), make([]uint64, 8<<20)}
	aluWork := func(int) { calibrationSink.Add(xorshift(60_000_000)) }
	memWork := func(g int) { calibrationSink.Add(stream(bufs[g], 6)) }
	best := func(goroutines int, work func(int)) time.Duration {
		var b time.Duration
		for r := 0; r < rounds; r++ {
			start := time.Now()
			var wg sync.WaitGroup
			for g := 0; g < goroutines; g++ {
				wg.Add(1)
				go func() { defer wg.Done(); work(g) }()
			}
			wg.Wait()
			if d := time.Since(start); b == 0 || d < b {
				b = d
			}
		}
		return b
	}
	speedUp := func(work func(int)) float64 {
		one, two := best(1, work), best(2, work)
		return 2 * one.Seconds() / two.Seconds()
	}
	return calibration{alu: speedUp(aluWork), memory: speedUp(memWork)}
}

// calibrationSink keeps the loops' results alive.
var calibrationSink atomic.Uint64

//go:noinline
func xorshift(n int) uint64 {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

//go:noinline
func stream(buf []uint64, passes int) uint64 {
	var s uint64
	for p := 0; p < passes; p++ {
		for i := range buf {
			s += buf[i]
			buf[i] = s
		}
	}
	return s
}
