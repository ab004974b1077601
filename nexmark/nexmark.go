// Package nexmark runs the Nexmark benchmark queries (Flink's nexmark
// repository) on Riffle's engine: the in-process 'nexmark' generator
// feeds each query, whose result goes to a blackhole sink, and the run
// reports the events, the wall-clock seconds, the CPU seconds of the
// process (getrusage) and the events per second per core (events divided
// by CPU seconds), as the nexmark suite's "Throughput/Cores" does.
// Options.CheckpointInterval runs each query without and then with
// periodic checkpoints and reports the difference (WriteCheckpointTable).
package nexmark

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	_ "github.com/riffle-sql/riffle/engine/connector/all" // connectors
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Options configure a run.
type Options struct {
	// Queries to run ("q0", ...); empty means all.
	Queries []string
	// Events is the number of generated events per query.
	Events int64
	// Parallelism is parallelism.default (and the number of generators).
	Parallelism int
	// Rate is the generator's first-event.rate (events/s of event time);
	// the benchmark uses 10,000,000.
	Rate int64
	// BaseTime is the event time of the first event (default 2024-01-01).
	BaseTime time.Time
	// Progress, when set, receives a line as each query finishes.
	Progress io.Writer
	// CheckpointInterval, when positive, is the checkpoint mode: each
	// query runs twice, first without checkpoints, then with
	// execution.checkpointing.interval set to it and the checkpoints
	// written under the run's temporary directory; Run returns both
	// results, the second with CheckpointInterval set.
	CheckpointInterval time.Duration
	// Config are more options of the query's environment (key -> value),
	// set after the benchmark's: state.backend.type,
	// riffle.job.memory-limit, ...
	Config map[string]string
	// Source, when set, replaces the generator: a CREATE TABLE statement
	// of a table named datagen with EventColumns (events recorded in a
	// Kafka topic, say); Events is then only the count reported.
	Source string
	// Views, when set, replace ViewsDDL (the same views, written
	// otherwise: quoted, say).
	Views []string
}

// Result is the measurement of one query.
type Result struct {
	Query      string
	Events     int64
	Seconds    float64
	CPUSeconds float64
	StateKeys  int64 // peak total over stateful operators at the end
	StateBytes int64 // peak estimate
	OutputRows int64
	// SourceRows is the number of events the job read: the fewest
	// records any of its source scans emitted (a query reading the
	// events twice scans them twice).
	SourceRows   int64
	Err          error
	EventsPerSec float64
	// EventsPerCoreSec is events / CPU seconds.
	EventsPerCoreSec float64
	// CheckpointInterval is the run's checkpoint interval, 0 for a run
	// without checkpoints; the fields below describe its checkpoints.
	CheckpointInterval time.Duration
	// Checkpoints and FailedCheckpoints count the job's checkpoints.
	Checkpoints, FailedCheckpoints int64
	// LastCheckpoint is the last complete checkpoint (zero without one).
	LastCheckpoint table.CheckpointInfo
	// LargestCheckpointBytes and LongestCheckpoint are the maxima over
	// the checkpoints seen while the job ran (its last complete
	// checkpoint is read every 20 ms).
	LargestCheckpointBytes int64
	LongestCheckpoint      time.Duration
}

// Find returns the query of that name.
func Find(name string) (Query, bool) {
	for _, q := range Queries {
		if q.Name == name {
			return q, true
		}
	}
	return Query{}, false
}

// Run runs the selected queries one after another.
func Run(ctx context.Context, opts Options) ([]Result, error) {
	if opts.Events <= 0 {
		opts.Events = 10_000_000
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = 1
	}
	if opts.Rate <= 0 {
		opts.Rate = 10_000_000
	}
	if opts.BaseTime.IsZero() {
		opts.BaseTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	var qs []Query
	if len(opts.Queries) == 0 {
		qs = Queries
	} else {
		for _, name := range opts.Queries {
			q, ok := Find(strings.ToLower(name))
			if !ok {
				return nil, fmt.Errorf("unknown Nexmark query %q (q0-q22 without q6)", name)
			}
			qs = append(qs, q)
		}
	}
	var out []Result
	if opts.CheckpointInterval > 0 {
		for _, q := range qs {
			base := opts
			base.CheckpointInterval = 0
			without := RunQuery(ctx, q, base)
			with := RunQuery(ctx, q, opts)
			out = append(out, without, with)
			if opts.Progress != nil {
				WriteCheckpointTable(opts.Progress, []Result{without, with}, len(out) == 2)
			}
			if ctx.Err() != nil {
				break
			}
		}
		return out, nil
	}
	for _, q := range qs {
		r := RunQuery(ctx, q, opts)
		out = append(out, r)
		if opts.Progress != nil {
			WriteTable(opts.Progress, []Result{r}, len(out) == 1)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return out, nil
}

// ParseCheckpointInterval reads a checkpoint interval as
// execution.checkpointing.interval takes it ("1 s", "500 ms", "1s");
// empty and "0" are 0 (no checkpoint mode); an unparsable value (a
// negative one included) or one under a millisecond is an error.
func ParseCheckpointInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	d, err := config.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid checkpoint interval %q (a duration such as '1 s' or '500 ms')", s)
	}
	if d > 0 && d < time.Millisecond {
		return 0, fmt.Errorf("invalid checkpoint interval %q: less than 1 ms", s)
	}
	return d, nil
}

// Setup creates the generator table, the views and the query's sink in a
// fresh streaming environment; events is the number of events.
func Setup(q Query, opts Options) (*table.TableEnvironment, func(), error) {
	env := table.MustCreate(table.InStreamingMode())
	conf := env.GetConfig()
	conf.Set(config.Parallelism.Key, fmt.Sprint(max(opts.Parallelism, 1)))
	conf.Set(config.LocalTimeZone.Key, "UTC")
	conf.Set(config.DMLSync.Key, "true")
	// the nexmark suite's table configuration (sql-client-defaults.yaml)
	for k, v := range SuiteConfig() {
		conf.Set(k, v)
	}
	for k, v := range opts.Config {
		conf.Set(k, v)
	}
	dir, err := os.MkdirTemp("", "riffle-nexmark-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	if opts.CheckpointInterval > 0 {
		conf.Set(config.CheckpointingInterval.Key, fmt.Sprintf("%d ms", opts.CheckpointInterval.Milliseconds()))
		conf.Set(config.CheckpointingDir.Key, filepath.Join(dir, "checkpoints"))
		// the job's rows are read when it ends: poll its checkpoints
		// meanwhile
		conf.Set(config.DMLSync.Key, "false")
	}
	extra := fmt.Sprintf(",\n  'base-time' = '%d'", opts.BaseTime.UnixMilli())
	stmts := []string{fmt.Sprintf(sourceDDL, opts.Rate, opts.Rate, opts.Events, extra)}
	if opts.Source != "" {
		stmts = []string{opts.Source}
	}
	if opts.Views != nil {
		stmts = append(stmts, opts.Views...)
	} else {
		stmts = append(stmts, viewsDDL...)
	}
	side := filepath.Join(dir, "side_input.csv")
	if err := writeSideInput(side); err != nil {
		cleanup()
		return nil, nil, err
	}
	repl := strings.NewReplacer("${OUTPUT}", filepath.Join(dir, "q10"), "${SIDE_INPUT}", side)
	for _, s := range q.Setup {
		stmts = append(stmts, repl.Replace(s))
	}
	for _, s := range stmts {
		if _, err := env.ExecuteSQL(s); err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("%s: %w\n%s", q.Name, err, s)
		}
	}
	return env, cleanup, nil
}

// RunQuery runs one query and measures it.
func RunQuery(ctx context.Context, q Query, opts Options) Result {
	r := Result{Query: q.Name, Events: opts.Events}
	env, cleanup, err := Setup(q, opts)
	if err != nil {
		r.Err = err
		return r
	}
	defer cleanup()
	cpu0 := cpuTime()
	t0 := time.Now()
	res, err := env.ExecuteSQLContext(ctx, q.Insert)
	if err == nil && opts.CheckpointInterval > 0 {
		r.CheckpointInterval = opts.CheckpointInterval
		err = watchCheckpoints(ctx, res.GetJobClient(), &r)
	}
	r.Seconds = time.Since(t0).Seconds()
	r.CPUSeconds = (cpuTime() - cpu0).Seconds()
	if err != nil {
		r.Err = err
		return r
	}
	if jc := res.GetJobClient(); jc != nil {
		for _, m := range jc.Metrics() {
			r.StateKeys += m.StateKeys
			r.StateBytes += m.StatePeakBytes
			if strings.HasPrefix(m.Name, "Sink(") {
				r.OutputRows += m.RecordsOut
			}
			if strings.HasPrefix(m.Name, "TableSourceScan(") && (r.SourceRows == 0 || m.RecordsOut < r.SourceRows) {
				r.SourceRows = m.RecordsOut
			}
		}
	}
	if r.Seconds > 0 {
		r.EventsPerSec = float64(r.Events) / r.Seconds
	}
	if r.CPUSeconds > 0 {
		r.EventsPerCoreSec = float64(r.Events) / r.CPUSeconds
	}
	return r
}

// watchCheckpoints waits for the job to end, reading its last complete
// checkpoint every 20 ms into r's maxima, then its totals; the job is
// cancelled when ctx ends first.
func watchCheckpoints(ctx context.Context, jc *table.JobClient, r *Result) error {
	if jc == nil {
		return fmt.Errorf("%s: the INSERT started no job", r.Query)
	}
	see := func() {
		if c, ok := jc.LastCheckpoint(); ok {
			r.LastCheckpoint = c
			r.LargestCheckpointBytes = max(r.LargestCheckpointBytes, c.Size)
			r.LongestCheckpoint = max(r.LongestCheckpoint, c.Duration())
		}
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-jc.Done():
			done = true
		case <-ctx.Done():
			jc.Cancel()
			<-jc.Done()
			return ctx.Err()
		case <-tick.C:
		}
		see()
	}
	n := jc.CheckpointCounts()
	r.Checkpoints, r.FailedCheckpoints = n.Completed, n.Failed
	return jc.Wait(ctx)
}

// WriteCheckpointTable prints the results of the checkpoint mode: each
// run with checkpoints follows its run without, whose events/s it is
// compared: overhead is 1 - (events/s with) / (events/s without), CPU +
// the added CPU seconds over those without; the header when header is set.
func WriteCheckpointTable(w io.Writer, rs []Result, header bool) {
	const format = "%-6s %-11s %12s %9s %9s %11s %9s %8s %11s %21s %21s\n"
	if header {
		fmt.Fprintf(w, format, "query", "checkpoints", "events", "seconds", "CPU s", "events/s", "overhead", "CPU +",
			"completed", "last (size, time)", "largest, longest")
	}
	var base *Result
	for i := range rs {
		r := &rs[i]
		mode := "none"
		if r.CheckpointInterval > 0 {
			mode = "every " + r.CheckpointInterval.String()
		}
		if r.Err != nil {
			fmt.Fprintf(w, "%-6s %-11s %12d  FAILED: %s\n", r.Query, mode, r.Events, firstLine(r.Err.Error()))
			continue
		}
		if r.CheckpointInterval == 0 {
			base = r
			fmt.Fprintf(w, format, r.Query, mode, fmt.Sprint(r.Events), fmt.Sprintf("%.2f", r.Seconds),
				fmt.Sprintf("%.2f", r.CPUSeconds), human(r.EventsPerSec), "", "", "", "", "")
			continue
		}
		overhead, cpu := "", ""
		if base != nil && base.Query == r.Query && base.Err == nil && base.EventsPerSec > 0 && base.CPUSeconds > 0 {
			overhead = fmt.Sprintf("%.1f %%", 100*(1-r.EventsPerSec/base.EventsPerSec))
			cpu = fmt.Sprintf("%.1f %%", 100*(r.CPUSeconds/base.CPUSeconds-1))
		}
		completed := fmt.Sprint(r.Checkpoints)
		if r.FailedCheckpoints > 0 {
			completed += fmt.Sprintf(" (%d failed)", r.FailedCheckpoints)
		}
		last, most := "–", "–"
		if r.LastCheckpoint.ID > 0 {
			last = fmt.Sprintf("%s, %s", bytesString(r.LastCheckpoint.Size), durationString(r.LastCheckpoint.Duration()))
			if inc := r.LastCheckpoint.IncrementalSize; inc < r.LastCheckpoint.Size {
				// an incremental checkpoint: what it added
				last = fmt.Sprintf("%s (+%s), %s", bytesString(r.LastCheckpoint.Size), bytesString(inc), durationString(r.LastCheckpoint.Duration()))
			}
			most = fmt.Sprintf("%s, %s", bytesString(r.LargestCheckpointBytes), durationString(r.LongestCheckpoint))
		}
		fmt.Fprintf(w, format, r.Query, mode, fmt.Sprint(r.Events), fmt.Sprintf("%.2f", r.Seconds),
			fmt.Sprintf("%.2f", r.CPUSeconds), human(r.EventsPerSec), overhead, cpu, completed, last, most)
	}
}

func durationString(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

// WriteTable prints results as an aligned table (with the header when
// header is set); rows printed by separate calls line up.
func WriteTable(w io.Writer, rs []Result, header bool) {
	const format = "%-6s %12s %9s %9s %11s %18s %12s %13s\n"
	if header {
		fmt.Fprintf(w, format, "query", "events", "seconds", "CPU s", "events/s", "events/s per core", "output rows", "state (peak)")
	}
	for _, r := range rs {
		if r.Err != nil {
			fmt.Fprintf(w, "%-6s %12d  FAILED: %s\n", r.Query, r.Events, firstLine(r.Err.Error()))
			continue
		}
		fmt.Fprintf(w, format, r.Query, fmt.Sprint(r.Events), fmt.Sprintf("%.2f", r.Seconds), fmt.Sprintf("%.2f", r.CPUSeconds),
			human(r.EventsPerSec), human(r.EventsPerCoreSec), fmt.Sprint(r.OutputRows), bytesString(r.StateBytes))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
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

func bytesString(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// writeSideInput writes q13's side input: keys 0..9999 with a value, as
// the nexmark repository's SideInputGenerator does.
func writeSideInput(path string) error {
	var b strings.Builder
	for k := 0; k < 10_000; k++ {
		fmt.Fprintf(&b, "%d,%d\n", k, k)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func init() {
	// q14's count_char: the number of occurrences of a character in a
	// string (com.github.nexmark.flink.udf.CountChar).
	table.RegisterGoFunction("com.github.nexmark.flink.udf.CountChar", &expr.Function{
		Name: "count_char", MinArgs: 2, MaxArgs: 2, Category: "User-defined",
		Signatures: []string{"count_char(STRING, STRING) -> BIGINT"},
		Infer: func(c *expr.InferCtx) (*types.DataType, error) {
			for _, a := range c.Args {
				if !a.IsString() && a.Root != types.Null {
					return nil, fmt.Errorf("count_char expects two strings")
				}
			}
			return types.BigIntType().NotNull(), nil
		},
		Build: func([]*types.DataType, *types.DataType) (expr.Kernel, error) { return countChar, nil },
	})
}

// countChar counts, per row, the occurrences of the first character of
// the second argument in the first.
func countChar(_ *expr.Ctx, args []*expr.Vec, n int) (*expr.Vec, error) {
	out := make([]int64, n)
	s, c := args[0], args[1]
	var ch byte
	constChar := c.Const
	if constChar {
		if str, ok := c.Val.(string); ok && len(str) > 0 {
			ch = str[0]
		}
	}
	if s.Const {
		str, _ := s.Val.(string)
		for i := range out {
			out[i] = int64(strings.Count(str, string(ch)))
		}
		return expr.ArrVec(vector.FromValues(types.ToArrow(types.BigIntType()), out, nil, 0), types.BigIntType().NotNull()), nil
	}
	offs, data := vector.StringData(s.Arr)
	var coffs []int32
	var cdata []byte
	if !constChar {
		coffs, cdata = vector.StringData(c.Arr)
	}
	for i := 0; i < n; i++ {
		if !constChar {
			if coffs[i+1] == coffs[i] {
				continue
			}
			ch = cdata[coffs[i]]
		}
		cnt := int64(0)
		for _, x := range data[offs[i]:offs[i+1]] {
			if x == ch {
				cnt++
			}
		}
		out[i] = cnt
	}
	return expr.ArrVec(vector.FromValues(types.ToArrow(types.BigIntType()), out, nil, 0), types.BigIntType().NotNull()), nil
}
