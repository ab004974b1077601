package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
)

// The speed-up mode (-speedup N) measures issue 19 §2, Riffle's speed-up
// from one thread to N, with the runs of both interleaved in one process:
// run i at one thread (GOMAXPROCS 1, parallelism.default 1) and run i at N
// threads (GOMAXPROCS N, parallelism.default N) follow each other, the
// order swapped every pair. On a shared or virtual machine the speed of a
// core drifts by tens of percent over seconds (another tenant, the host's
// memory bandwidth), so two back-to-back processes, one per thread count,
// can compare a fast minute with a slow one; pairs of runs a few
// milliseconds apart see the same machine. DuckDB does not run.
//
// It prints, per query and source, the medians of wall and CPU time at
// each thread count, the speed-up as the ratio of the wall medians and as
// the median of the pairs' ratios, and the CPU at N threads over the CPU
// at one. Every answer is compared between the two thread counts (the
// plain mode compares them with DuckDB's).

// speedupSource is one source's environments at one thread and at N.
type speedupSource struct {
	name     string
	one, par *riffleEnv
}

// speedupLine is one query over one source.
type speedupLine struct {
	query, source string
	rows          int
	one, par      []timing // per run
	ratios        []float64
	problem       string
}

func runSpeedup(w io.Writer, n, runs int, only string, sources []speedupSource, command, loads string) bool {
	return runSpeedupProfiled(w, n, runs, only, sources, command, loads, speedupProfiles{}, nil)
}

// speedupProfiles are where the speed-up mode writes profiles of the
// first query and source it measures (the source named profile, e.g.
// "memory", or the first): after the alternate pairs, runs more runs at
// one thread, then as many at N, each count's runs in their own CPU
// profile (cpu[0] one thread, cpu[1] N) and execution trace; nil files
// are not written.
type speedupProfiles struct {
	source     string
	cpu, trace [2]*os.File
}

func (p speedupProfiles) at(i int) profiling { return profiling{cpu: p.cpu[i], trace: p.trace[i]} }

func (p speedupProfiles) any() bool { return p.at(0).any() || p.at(1).any() }

// runSpeedupProfiled is runSpeedup with profiles of the first query and,
// when calib is not nil, the machine's own speed-up measured before the
// runs (-calibrate) in the report's first paragraph.
func runSpeedupProfiled(w io.Writer, n, runs int, only string, sources []speedupSource, command, loads string, prof speedupProfiles, calib *calibration) bool {
	ok := true
	profiled := !prof.any()
	if loads == "" {
		loads = "none"
	}
	var lines []*speedupLine
	before := loadAverage()
	for _, q := range queries {
		if only != "" && !strings.Contains(q.name, only) {
			continue
		}
		for _, s := range sources {
			l := &speedupLine{query: q.name, source: s.name}
			lines = append(lines, l)
			if err := l.measure(q, s, n, runs); err != nil {
				ok = false
				l.problem = firstLine(err)
				fmt.Fprintf(os.Stderr, "%s, %s: %s\n", q.name, s.name, l.problem)
				continue
			}
			fmt.Fprintf(os.Stderr, "%-16s %-7s 1 thread %10s  %d threads %10s  %.2f×\n", q.name, s.name,
				ms(medianOf(l.one, wallOf)), n, ms(medianOf(l.par, wallOf)), medianFloat(l.ratios))
			mb1, gc1 := perRun(l.one)
			mbn, gcn := perRun(l.par)
			fmt.Fprintf(os.Stderr, "%-24s CPU (sys) 1 thread %s (%s)  %d threads %s (%s); per run: %.0f MB, %.1f GCs at 1 thread, %.0f MB, %.1f GCs at %d\n", "",
				ms(medianOf(l.one, cpuOf)), ms(medianOf(l.one, sysOf)), n, ms(medianOf(l.par, cpuOf)), ms(medianOf(l.par, sysOf)),
				mb1, gc1, mbn, gcn, n)
			if !profiled && (prof.source == "" || prof.source == s.name) {
				profiled = true
				runtime.GOMAXPROCS(1)
				if _, err := measure(runs, s.one.run(q.sql), prof.at(0)); err != nil {
					fmt.Fprintf(os.Stderr, "profiling %s, %s at 1 thread: %s\n", q.name, s.name, firstLine(err))
				}
				runtime.GOMAXPROCS(speedupProcs(n))
				if _, err := measure(runs, s.par.run(q.sql), prof.at(1)); err != nil {
					fmt.Fprintf(os.Stderr, "profiling %s, %s at %d threads: %s\n", q.name, s.name, n, firstLine(err))
				}
			}
		}
	}
	machine := ""
	if calib != nil {
		machine = fmt.Sprintf("; this machine's own speed-up from one core to two: %s", calib)
	}
	fmt.Fprintf(w, "`%s`: Riffle alone, 1 thread (GOMAXPROCS 1, `parallelism.default` 1) and %d threads (GOMAXPROCS %d, `parallelism.default` %d) in alternate runs of one process, %d pairs; %d cores; loading into memory: %s%s; load average before %s, after %s.\n\n",
		command, n, speedupProcs(n), n, runs, runtime.NumCPU(), loads, machine, before, loadAverage())
	fmt.Fprintf(w, "| query | source | rows | wall, 1 thread | wall, %d threads | speed-up (medians) | speed-up (median of pairs) | CPU, 1 thread | CPU, %d threads | CPU %d / 1 | answers |\n", n, n, n)
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	var cheaper []string
	for _, l := range lines {
		if l.problem != "" {
			fmt.Fprintf(w, "| %s | %s | | | | | | | | | %s |\n", l.query, l.source, l.problem)
			continue
		}
		w1, wn := medianOf(l.one, wallOf), medianOf(l.par, wallOf)
		c1, cn := medianOf(l.one, cpuOf), medianOf(l.par, cpuOf)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2f× | %.2f× | %s | %s | %.2f | same at both |\n",
			l.query, l.source, thousands(l.rows), ms(w1), ms(wn), float64(w1)/float64(wn), medianFloat(l.ratios),
			ms(c1), ms(cn), float64(cn)/float64(c1))
		if float64(cn) < cheaperCPU*float64(c1) {
			cheaper = append(cheaper, l.query+" ("+l.source+")")
		}
	}
	fmt.Fprintf(w, "\nWall and CPU: medians of each thread count's runs (CPU is the process's user + system over one run). Speed-up (medians): the ratio of the two wall medians; (median of pairs): the median of each pair's own ratio, one-thread wall ÷ %d-thread wall, the runs of a pair a few milliseconds apart, so the least moved by the machine's drift. CPU %d / 1: the CPU medians' ratio; 1.00 = the %d threads did no more work than one, above = work the parallel plan adds or the cores slowing each other (-speedup-procs 1 runs the %d-thread plan on one core to tell them apart), below 0.9 = the machine, not the engine.\n", n, n, n, n)
	if len(cheaper) > 0 {
		fmt.Fprintf(w, "\n**Not a measure of the engine**: at %d threads the same work took less than %.1f× the CPU of one thread on %d of %d lines (%s). More threads never do less work, so the one-thread runs ran on a slower machine: on a virtual machine whose memory the host takes back when idle, one core alone reads memory far slower than two (docs/benchmarks.md, \"The machine on the afternoon of 3 December\"). The speed-ups above overstate Riffle's.\n",
			n, cheaperCPU, len(cheaper), len(lines), strings.Join(cheaper, ", "))
	}
	fmt.Fprint(w, busyMachineNote(calib))
	runtime.GOMAXPROCS(n)
	return ok
}

// busyALU is the machine's own arithmetic speed-up from one core to two
// (-calibrate) below which the report says another process shared the
// cores: on a quiet machine here it is 1.96–2.07×; a report run beside a
// `go test` measured 1.00×, and its speed-ups 0.97–1.09×.
const busyALU = 1.8

// busyMachineNote is the report's note when the calibration found the
// second core busy (nil calib: not measured, no note).
func busyMachineNote(calib *calibration) string {
	if calib == nil || calib.alu >= busyALU {
		return ""
	}
	return fmt.Sprintf("\n**Not a measure of the engine**: this machine's own arithmetic speed-up from one core to two was %.2f× (under %.1f×) when the report began: another process was using a core, so the speed-ups above measure the sharing, not Riffle. Run the report with nothing else running (docs/benchmarks.md, \"One harness\": the bench lock).\n", calib.alu, busyALU)
}

// cheaperCPU is the CPU ratio (N threads over one) below which the
// report says the one-thread runs were slowed by the machine: the plan
// at N threads does the one-thread plan's work and more, so on a steady
// machine the ratio is at least about 1 (0.96–1.05 on quiet runs here).
const cheaperCPU = 0.9

// measure compares the answers at both thread counts, then times runs
// pairs, each pair's thread counts in alternate order.
func (l *speedupLine) measure(q query, s speedupSource, n, runs int) error {
	runtime.GOMAXPROCS(1)
	rows, one, err := s.one.run(q.sql)(true)
	if err != nil {
		return fmt.Errorf("1 thread: %w", err)
	}
	runtime.GOMAXPROCS(speedupProcs(n))
	_, par, err := s.par.run(q.sql)(true)
	if err != nil {
		return fmt.Errorf("%d threads: %w", n, err)
	}
	if d := firstDiff(par, one, "1 thread"); d != "" {
		return fmt.Errorf("%d threads answer differently: %s", n, d)
	}
	l.rows = rows
	one, par = nil, nil
	runtime.GC()
	for i := 0; i < runs; i++ {
		var t1, tn timing
		for k := 0; k < 2; k++ {
			if (i+k)%2 == 0 {
				runtime.GOMAXPROCS(1)
				if t1, err = timeRun(s.one.run(q.sql)); err != nil {
					return err
				}
			} else {
				runtime.GOMAXPROCS(speedupProcs(n))
				if tn, err = timeRun(s.par.run(q.sql)); err != nil {
					return err
				}
			}
		}
		l.one, l.par = append(l.one, t1), append(l.par, tn)
		l.ratios = append(l.ratios, float64(t1.wall)/float64(tn.wall))
	}
	return nil
}

// parProcs, when above 0, is the GOMAXPROCS of the N-thread runs in
// place of N (-speedup-procs): at 1, the N readers and workers share one
// core, which shows the CPU that parallelism itself adds (more splits,
// more allocation, exchanges) without the cores' contention.
var parProcs int

func speedupProcs(n int) int {
	if parProcs > 0 {
		return parProcs
	}
	return n
}

// timeRun is one timed run: wall time, the process's CPU time (and its
// system part), the bytes allocated and the garbage collections completed.
func timeRun(f runner) (timing, error) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	u0, s0 := cpuTimes()
	start := time.Now()
	if _, _, err := f(false); err != nil {
		return timing{}, err
	}
	wall := time.Since(start)
	u1, s1 := cpuTimes()
	runtime.ReadMemStats(&m1)
	return timing{wall: wall, cpu: u1 + s1 - u0 - s0, sys: s1 - s0,
		alloc: m1.TotalAlloc - m0.TotalAlloc, gcs: m1.NumGC - m0.NumGC}, nil
}

func sysOf(t timing) time.Duration { return t.sys }

// perRun is the mean of the bytes allocated (MB) and of the collections
// of the runs ts.
func perRun(ts []timing) (mb, gcs float64) {
	for _, t := range ts {
		mb += float64(t.alloc) / 1e6
		gcs += float64(t.gcs)
	}
	return mb / float64(len(ts)), gcs / float64(len(ts))
}

func wallOf(t timing) time.Duration { return t.wall }
func cpuOf(t timing) time.Duration  { return t.cpu }

func medianOf(ts []timing, pick func(timing) time.Duration) time.Duration {
	ds := make([]time.Duration, len(ts))
	for i, t := range ts {
		ds[i] = pick(t)
	}
	return median(ds)
}

func medianFloat(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
