package main

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"syscall"
	"time"
)

// runner runs one query on one engine and reads its whole result; it
// returns the number of rows and, with answer set, the rows as canonical
// text, sorted.
type runner func(answer bool) (rows int, sorted []string, err error)

// timing is the median of the timed runs of one query on one engine: wall
// time, and the process's CPU time (user + system of every thread: the
// engine's work and Go's garbage collector). On a machine shared with
// other work the CPU time is steadier than wall time, which includes
// waiting for a core.
type timing struct {
	wall, cpu time.Duration
	// sys is the system part of cpu; alloc the bytes the process
	// allocated on the heap and gcs the garbage collections it completed
	// during the run (set by the speed-up mode's timeRun only).
	sys   time.Duration
	alloc uint64
	gcs   uint32
}

// measure runs f runs times (after the caller's warm-up run) and returns
// the medians. The garbage of earlier runs is collected first, so that one
// engine's answers are not marked during another's runs. The runs are
// written to prof's CPU profile and execution trace, where set.
func measure(runs int, f runner, prof profiling) (timing, error) {
	runtime.GC()
	if prof.cpu != nil {
		if err := pprof.StartCPUProfile(prof.cpu); err == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if prof.trace != nil {
		if err := trace.Start(prof.trace); err == nil {
			defer trace.Stop()
		}
	}
	ws := make([]time.Duration, runs)
	cs := make([]time.Duration, runs)
	for i := range ws {
		c0 := cpuTime()
		start := time.Now()
		// a region per run: the trace's runs for a timeline (go tool trace)
		region := trace.StartRegion(context.Background(), "run")
		_, _, err := f(false)
		region.End()
		if err != nil {
			return timing{}, err
		}
		ws[i] = time.Since(start)
		cs[i] = cpuTime() - c0
	}
	return timing{wall: median(ws), cpu: median(cs)}, nil
}

// profiling is where measure writes a CPU profile and an execution trace
// of its runs; nil files are not written.
type profiling struct{ cpu, trace *os.File }

func (p profiling) any() bool { return p.cpu != nil || p.trace != nil }

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	return ds[len(ds)/2]
}

// cpuTime is the process's user + system time so far.
func cpuTime() time.Duration {
	user, sys := cpuTimes()
	return user + sys
}

// cpuTimes is the process's user time and system time so far.
func cpuTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
