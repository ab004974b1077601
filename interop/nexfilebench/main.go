// Command nexfilebench measures Riffle's CPU per Nexmark event over the
// JSON messages of the Kafka benchmark (interop/nexflinkbench) without
// Kafka or Flink: Riffle's generator writes -events events once, as JSON
// lines with the same fields as the Kafka topic's messages, into the
// folder -dir (through the filesystem connector, about 330 bytes per
// event); then each query of -queries reads them back through the
// filesystem connector, format json, into the same datagen table, views
// and blackhole sinks as nexflink.RunRiffle, -runs times, at parallelism
// 1, in this process with the riffle binary's garbage collector heap floor.
// It prints the process's user + system CPU seconds per run; the runs of
// the queries alternate. docs/benchmarks.md uses it to compare the
// queries' per-query work against q0's (issue 19 §4).
//
//	go run -tags migrated_fynedo ./interop/nexfilebench [-dir /tmp/riffle-nexmark-json]
//	    [-events 2000000] [-queries q0,q1,q2,q14,q22] [-runs 3] [-cpuprofile DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/riffle-sql/riffle/engine/gctuning"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/interop"
	"github.com/riffle-sql/riffle/interop/nexflink"
	"github.com/riffle-sql/riffle/nexmark"
)

var (
	dir        = flag.String("dir", filepath.Join(os.TempDir(), "riffle-nexmark-json"), "folder of the JSON events (written when it does not exist)")
	events     = flag.Int64("events", 2_000_000, "events to write (a folder written before keeps its count)")
	queries    = flag.String("queries", "q0,q1,q2,q14,q22", "queries, comma-separated")
	runs       = flag.Int("runs", 3, "runs per query")
	cpuprofile = flag.String("cpuprofile", "", "write a CPU profile of each query's first run into this folder (qN.pprof)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "nexfilebench:", err)
		os.Exit(1)
	}
}

// cpuSeconds is this process's user + system time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// writeEvents writes the events as nexflink writes them into Kafka, one
// JSON object per line.
func writeEvents(ctx context.Context) error {
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		return err
	}
	c := env.GetConfig()
	c.Set("parallelism.default", "1")
	c.Set("table.local-time-zone", "UTC")
	c.Set("table.dml-sync", "true")
	// the four stored columns, without the computed dateTime and watermark
	cols := strings.SplitN(nexmark.EventColumns, ",\n  dateTime AS", 2)[0]
	for _, s := range []string{
		fmt.Sprintf(`CREATE TABLE gen (%s) WITH ('connector' = 'nexmark', 'first-event.rate' = '%d', 'next-event.rate' = '%d',
  'events.num' = '%d', 'person.proportion' = '1', 'auction.proportion' = '3', 'bid.proportion' = '46', 'base-time' = '%d')`,
			nexmark.EventColumns, nexflink.Rate, nexflink.Rate, *events, nexflink.BaseTime.UnixMilli()),
		`CREATE TABLE events (` + cols + `) WITH ('connector' = 'filesystem', 'path' = '` + *dir + `', 'format' = 'json')`,
		`INSERT INTO events SELECT event_type, person, auction, bid FROM gen`,
	} {
		if _, err := env.ExecuteSQLContext(ctx, nexflink.Quoted(s)); err != nil {
			return fmt.Errorf("writing the events: %w", err)
		}
	}
	return nil
}

func run() error {
	ctx := context.Background()
	gctuning.SetHeapFloor(gctuning.DefaultHeapFloor)
	if _, err := os.Stat(*dir); os.IsNotExist(err) {
		if err := writeEvents(ctx); err != nil {
			return err
		}
	}
	var qs []nexmark.Query
	for _, name := range strings.Split(*queries, ",") {
		q, ok := nexmark.Find(strings.ToLower(strings.TrimSpace(name)))
		if !ok {
			return fmt.Errorf("unknown Nexmark query %q", name)
		}
		qs = append(qs, nexflink.QuotedQuery(q))
	}
	var views []string
	for _, v := range nexmark.ViewsDDL() {
		views = append(views, nexflink.Quoted(v))
	}
	src := nexflink.Quoted(`CREATE TABLE datagen (` + nexmark.EventColumns + `) WITH ('connector' = 'filesystem', 'path' = '` +
		*dir + `', 'format' = 'json')`)
	fmt.Printf("%d CPUs, load average %s; events in %s\n", runtime.NumCPU(), interop.LoadAverage(), *dir)
	for r := 0; r < *runs; r++ {
		for _, q := range qs {
			stop := func() {}
			if *cpuprofile != "" && r == 0 {
				f, err := os.Create(filepath.Join(*cpuprofile, q.Name+".pprof"))
				if err != nil {
					return err
				}
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				stop = func() { pprof.StopCPUProfile(); f.Close() }
			}
			c0 := cpuSeconds()
			res := nexmark.RunQuery(ctx, q, nexmark.Options{Events: *events, Parallelism: 1, Rate: nexflink.Rate,
				BaseTime: nexflink.BaseTime, Source: src, Views: views})
			cpu := cpuSeconds() - c0
			stop()
			if res.Err != nil {
				return fmt.Errorf("%s: %w", q.Name, res.Err)
			}
			fmt.Printf("run %d %-4s CPU %.2f s  %.0f ns/event  source rows %d  sink rows %d  load %s\n",
				r+1, q.Name, cpu, cpu*1e9/float64(res.SourceRows), res.SourceRows, res.OutputRows, interop.LoadAverage())
		}
	}
	return nil
}
