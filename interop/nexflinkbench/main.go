// Command nexflinkbench runs the Nexmark queries on real Apache Flink and
// on Riffle over the same events, alternating, and prints events/s per
// core for both and their ratio (issue 19 §4; docs/benchmarks.md).
//
// Riffle's Nexmark generator writes -events events once, as JSON, into a
// Kafka topic of -partitions partitions (kept while the broker keeps its
// data; see package interop/nexflink). Then, for each query and run,
// Flink runs it at -flink-parallelism through its SQL Gateway (a fresh
// session, the nexmark suite's table options) and Riffle at each of
// -riffle-parallelism in a child process (this program started again with
// -child), both reading the topic through their kafka connector into a
// blackhole sink; the child sets the riffle binary's garbage collector
// heap floor (engine/gctuning). Flink's CPU time is its TaskManager's plus its
// JobManager's over the INSERT, from /proc/PID/stat; Riffle's is the child
// process's whole user + system time. Events per core = events / CPU s.
//
//	go run -tags migrated_fynedo ./interop/nexflinkbench [-events 1000000]
//	    [-queries q0,q1,q2,q5,q7,q8,q14,q21,q22] [-runs 1] [-riffle-parallelism 1,2]
//	    [-flink-parallelism 2] [-partitions 2] [-cpuprofile DIR]
//
// It finds Kafka and Flink as the interop tests do (KAFKA_BOOTSTRAP /
// KAFKA_RUN_DIR, FLINK_GATEWAY / FLINK_RUN_DIR); scripts/bench-nexmark-flink.sh
// (make bench-nexmark-flink) starts private ones.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/gctuning"
	"github.com/riffle-sql/riffle/interop"
	"github.com/riffle-sql/riffle/interop/nexflink"
	"github.com/riffle-sql/riffle/nexmark"
)

var (
	events      = flag.Int64("events", 1_000_000, "events in the topic (every query reads them all)")
	queries     = flag.String("queries", "q0,q1,q2,q5,q7,q8,q14,q21,q22", "queries to run, comma-separated, or all")
	runs        = flag.Int("runs", 1, "runs per query and engine (the table shows the median)")
	riffleP     = flag.String("riffle-parallelism", "1,2", "Riffle's parallelism.default values, comma-separated")
	flinkP      = flag.Int("flink-parallelism", 2, "Flink's parallelism.default")
	partitions  = flag.Int("partitions", 2, "partitions of the topic")
	warmup      = flag.Bool("warmup", true, "run q0 once on Flink before timing (class loading, JIT), not reported")
	cpuprofile  = flag.String("cpuprofile", "", "write a CPU profile of each query's first Riffle run at each parallelism into this folder (riffle-qN-pP.pprof)")
	child       = flag.String("child", "", "internal: run this query on Riffle in this process and print the result")
	parallelism = flag.Int("parallelism", 1, "internal: the child's parallelism")
	bootstrap   = flag.String("bootstrap", "", "internal: the child's broker")
	topicFlag   = flag.String("topic", "", "internal: the child's topic")
)

func main() {
	flag.Parse()
	var err error
	if *child != "" {
		err = runChild()
	} else {
		err = run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "nexflinkbench:", err)
		os.Exit(1)
	}
}

// childReport is what a child prints: the job's counts and wall time.
type childReport struct {
	SourceRows int64  `json:"source_rows"`
	SinkRows   int64  `json:"sink_rows"`
	WallNanos  int64  `json:"wall_ns"`
	Err        string `json:"err,omitempty"`
}

func runChild() error {
	q, ok := nexmark.Find(*child)
	if !ok {
		return fmt.Errorf("unknown query %q", *child)
	}
	// The garbage collector as the riffle binary runs it (main.go): a
	// heap goal of at least 64 MiB, unless GOGC is set. With Go's default
	// GOGC of 100 the small live heap of a stateless query was collected
	// every few MB, and entering the collector's preemption took about a
	// fifth of the child's CPU profile.
	gctuning.SetHeapFloor(gctuning.DefaultHeapFloor)
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	m := nexflink.RunRiffle(context.Background(), q, *bootstrap, *topicFlag, *events, *parallelism)
	rep := childReport{SourceRows: m.SourceRows, SinkRows: m.SinkRows, WallNanos: int64(m.Wall)}
	if m.Err != nil {
		rep.Err = m.Err.Error()
	}
	return json.NewEncoder(os.Stdout).Encode(rep)
}

// riffle runs q in a child process; CPU is the child's whole CPU time.
func riffle(q nexmark.Query, bs, topic string, p int, profile string) nexflink.Measure {
	m := nexflink.Measure{Engine: "Riffle", Query: q.Name, Parallelism: p, Events: *events, SourceRows: -1, SinkRows: -1}
	self, err := os.Executable()
	if err != nil {
		m.Err = err
		return m
	}
	cmd := exec.Command(self, "-child", q.Name, "-parallelism", strconv.Itoa(p), "-bootstrap", bs,
		"-topic", topic, "-events", strconv.FormatInt(*events, 10), "-cpuprofile", profile)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		m.Err = fmt.Errorf("riffle %s: %w", q.Name, err)
		return m
	}
	var rep childReport
	if err := json.Unmarshal(out, &rep); err != nil {
		m.Err = fmt.Errorf("riffle %s: the child said %q: %w", q.Name, out, err)
		return m
	}
	if rep.Err != "" {
		m.Err = errors.New(rep.Err)
	}
	m.SourceRows, m.SinkRows, m.Wall = rep.SourceRows, rep.SinkRows, time.Duration(rep.WallNanos)
	if m.Err == nil && m.SourceRows != *events {
		m.Err = fmt.Errorf("riffle %s read %d of the %d events", q.Name, m.SourceRows, *events)
	}
	m.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return m
}

func run() error {
	k, err := interop.KafkaFromEnv()
	if err != nil {
		return err
	}
	f, err := interop.FlinkFromEnv()
	if err != nil {
		return err
	}
	var qs []nexmark.Query
	if *queries == "all" {
		qs = nexmark.Queries
	} else {
		for _, name := range strings.Split(*queries, ",") {
			q, ok := nexmark.Find(strings.ToLower(strings.TrimSpace(name)))
			if !ok {
				return fmt.Errorf("unknown Nexmark query %q (q0-q22 without q6)", name)
			}
			qs = append(qs, q)
		}
	}
	var ps []int
	for _, s := range strings.Split(*riffleP, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || p < 1 {
			return fmt.Errorf("-riffle-parallelism %q: want positive integers", *riffleP)
		}
		ps = append(ps, p)
	}
	if *runs < 1 || *flinkP < 1 {
		return errors.New("-runs and -flink-parallelism must be positive")
	}
	ctx := context.Background()
	fl, err := nexflink.NewFlink(f)
	if err != nil {
		return err
	}
	defer fl.Close()

	fmt.Printf("machine: %d CPUs, load average %s\n", runtime.NumCPU(), interop.LoadAverage())
	fmt.Printf("kafka %s at %s; flink %s at %s (TaskManager pid %d, JobManager pid %d)\n",
		k.Version, k.Bootstrap, f.Version, f.Gateway, fl.TMPID, fl.JMPID)
	t0 := time.Now()
	topic, created, err := nexflink.EnsureEvents(ctx, k, *events, *partitions)
	if err != nil {
		return err
	}
	if created {
		fmt.Printf("wrote %d events to %s in %.1f s\n", *events, topic, time.Since(t0).Seconds())
	} else {
		fmt.Printf("reading the %d events already in %s\n", *events, topic)
	}
	idle0, idleT := interop.ProcessCPU(fl.TMPID)+interop.ProcessCPU(fl.JMPID), time.Now()
	time.Sleep(5 * time.Second)
	idle := (interop.ProcessCPU(fl.TMPID) + interop.ProcessCPU(fl.JMPID) - idle0).Seconds() / time.Since(idleT).Seconds()
	fmt.Printf("Flink's TaskManager + JobManager idle: %.3f CPU s per s\n", idle)
	if *warmup {
		q0, _ := nexmark.Find("q0")
		m := fl.Run(ctx, q0, k.Bootstrap, topic, *events, *flinkP)
		if m.Err != nil {
			return m.Err
		}
		fmt.Printf("flink warm-up q0: %s\n", line(m))
	}

	type key struct {
		q, engine string
		p         int
	}
	all := map[key][]nexflink.Measure{}
	for _, q := range qs {
		for r := 0; r < *runs; r++ {
			ms := []nexflink.Measure{fl.Run(ctx, q, k.Bootstrap, topic, *events, *flinkP)}
			for _, p := range ps {
				profile := ""
				if *cpuprofile != "" && r == 0 {
					profile = filepath.Join(*cpuprofile, fmt.Sprintf("riffle-%s-p%d.pprof", q.Name, p))
				}
				ms = append(ms, riffle(q, k.Bootstrap, topic, p, profile))
			}
			for _, m := range ms {
				if m.Err != nil {
					fmt.Printf("%s %s p%d run %d: FAILED: %v\n", q.Name, m.Engine, m.Parallelism, r+1, m.Err)
					continue
				}
				fmt.Printf("%s %s p%d run %d: %s (load %s)\n", q.Name, m.Engine, m.Parallelism, r+1, line(m), interop.LoadAverage())
				k := key{q.Name, m.Engine, m.Parallelism}
				all[k] = append(all[k], m)
			}
		}
	}

	fmt.Printf("\n%d events (%d partitions), median of %d runs; Flink %s at parallelism %d; load average after the runs %s\n\n",
		*events, *partitions, *runs, f.Version, *flinkP, interop.LoadAverage())
	fmt.Println("| query | engine | wall s | CPU s | events/s | events/s per core | sink rows | Riffle ÷ Flink per core (goal) |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, q := range qs {
		flink := median(all[key{q.Name, "Flink", *flinkP}])
		rows := []struct {
			name string
			m    *nexflink.Measure
		}{{fmt.Sprintf("Flink p%d", *flinkP), flink}}
		for _, p := range ps {
			rows = append(rows, struct {
				name string
				m    *nexflink.Measure
			}{fmt.Sprintf("Riffle p%d", p), median(all[key{q.Name, "Riffle", p}])})
		}
		for _, r := range rows {
			if r.m == nil {
				fmt.Printf("| %s | %s | failed | | | | | |\n", q.Name, r.name)
				continue
			}
			ratio := ""
			if r.m.Engine == "Riffle" && flink != nil && flink.PerCore() > 0 {
				ratio = fmt.Sprintf("%.2f (≥ %d)", r.m.PerCore()/flink.PerCore(), goal(q.Name))
			}
			sink := "–"
			if r.m.SinkRows >= 0 {
				sink = strconv.FormatInt(r.m.SinkRows, 10)
			}
			fmt.Printf("| %s | %s | %.2f | %.2f | %s | %s | %s | %s |\n", q.Name, r.name, r.m.Wall.Seconds(), r.m.CPU.Seconds(),
				human(float64(r.m.Events)/r.m.Wall.Seconds()), human(r.m.PerCore()), sink, ratio)
		}
	}
	return nil
}

// goal is issue 19's goal for Riffle ÷ Flink per core.
func goal(q string) int {
	switch q {
	case "q0", "q1", "q2", "q14", "q21", "q22":
		return 3
	}
	return 2
}

// median returns the run with the median CPU time, nil without runs.
func median(ms []nexflink.Measure) *nexflink.Measure {
	if len(ms) == 0 {
		return nil
	}
	s := append([]nexflink.Measure(nil), ms...)
	sort.Slice(s, func(i, j int) bool { return s[i].CPU < s[j].CPU })
	return &s[len(s)/2]
}

func line(m nexflink.Measure) string {
	s := fmt.Sprintf("wall %.2f s, CPU %.2f s, %s events/s per core", m.Wall.Seconds(), m.CPU.Seconds(), human(m.PerCore()))
	if m.SourceRows >= 0 {
		s += fmt.Sprintf(", read %d events", m.SourceRows)
	}
	if m.SinkRows >= 0 {
		s += fmt.Sprintf(", %d sink rows", m.SinkRows)
	}
	return s
}

func human(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f M", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.0f k", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
