// Command kafkabench measures how fast Riffle and real Apache Flink read a
// Kafka topic: a one-partition topic of small JSON records and one of the
// same records in Avro, each read to its end into a 'blackhole' sink with
//
//	INSERT INTO sink SELECT * FROM src
//
// where src is a 'kafka' table with 'scan.startup.mode' = 'earliest-offset'
// and 'scan.bounded.mode' = 'latest-offset' (so the job ends), parallelism 1
// on both engines, in the same run against the same broker.
//
// It prints, per engine and format: wall time, records/s, the CPU time the
// engine spent (user + system) and records per CPU second, which is
// "records/s per core". Riffle's CPU time is that of a child process that
// runs only the query (this program started again with -child); Flink's is
// the CPU time its TaskManager process used during the job, read from
// /proc (the JobManager's and the broker's are printed beside it). Before
// timing, each engine reads each topic once with
//
//	SELECT COUNT(*), SUM(id), SUM(amount) FROM src
//
// and both must agree with the records produced.
//
// scripts/bench-kafka.sh (make bench-kafka) starts a broker and a private
// Flink cluster and runs this program; alone it finds them as the interop
// tests do (KAFKA_BOOTSTRAP / KAFKA_RUN_DIR, FLINK_GATEWAY / FLINK_RUN_DIR).
// Topics are created and filled once (named by format and record count) and
// reused while the broker keeps its data.
//
//	go run -tags migrated_fynedo ./interop/kafkabench [-records 10000000] [-formats json,avro]
//	    [-runs 3] [-engines riffle,flink] [-mode streaming|batch] [-cpuprofile cpu.pprof] [-memprofile mem.pprof]
//
// Riffle's child inherits the environment: GOGC=400 shows what the garbage
// collector costs (see docs/kafka-testing.md).
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/interop"
)

var (
	records    = flag.Int("records", 10_000_000, "records per topic")
	formats    = flag.String("formats", "json,avro", "value formats to measure (json, avro)")
	runs       = flag.Int("runs", 3, "timed runs per engine and format (the table shows the median and the best)")
	engines    = flag.String("engines", "riffle,flink", "engines to measure")
	mode       = flag.String("mode", "streaming", "execution.runtime-mode of both engines: streaming or batch")
	verify     = flag.Bool("verify", true, "check COUNT(*), SUM(id), SUM(amount) on each engine before timing")
	cpuprofile = flag.String("cpuprofile", "", "write a CPU profile of Riffle's first timed run of the first format to this file")
	memprofile = flag.String("memprofile", "", "write an allocation profile of Riffle's first timed run of the first format to this file")
	// The child's flags.
	child      = flag.String("child", "", "internal: run one Riffle query in this process: 'blackhole' or 'verify'")
	bootstrap  = flag.String("bootstrap", "", "internal: the broker (child)")
	topicFlag  = flag.String("topic", "", "internal: the topic (child)")
	formatFlag = flag.String("format", "", "internal: the format (child)")
)

// The table both engines read; TIMESTAMP(3) is Avro's timestamp-millis.
const columns = "id BIGINT, name STRING, amount DOUBLE, ts TIMESTAMP(3)"

func main() {
	flag.Parse()
	if *child != "" {
		if err := runChild(); err != nil {
			fmt.Fprintln(os.Stderr, "kafkabench child:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "kafkabench:", err)
		os.Exit(1)
	}
}

// result is one timed run.
type result struct {
	wall, cpu time.Duration // wall time of the query; CPU time of the engine's process
	jmCPU     time.Duration // Flink's JobManager
	brokerCPU time.Duration
}

func run() error {
	k, err := interop.KafkaFromEnv()
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, e := range strings.Split(*engines, ",") {
		want[strings.TrimSpace(e)] = true
	}
	var f interop.Flink
	var fl *flinkRunner
	if want["flink"] {
		if f, err = interop.FlinkFromEnv(); err != nil {
			return err
		}
		if fl, err = newFlinkRunner(f); err != nil {
			return err
		}
		defer fl.close()
	}
	brokerPID := interop.PIDFromFile(filepath.Join(k.RunDir, "kafka.pid"))
	printMachine(k, f, fl)

	ctx := context.Background()
	type row struct {
		engine, format string
		res            []result
	}
	var table []row
	for i, format := range strings.Split(*formats, ",") {
		format = strings.TrimSpace(format)
		topic := fmt.Sprintf("riffle-bench-%s-%d", format, *records)
		t0 := time.Now()
		sums, created, err := ensureTopic(ctx, k, topic, format, *records)
		if err != nil {
			return err
		}
		if created {
			fmt.Printf("produced %d %s records to %s in %.1f s (%.0f MB)\n", *records, format, topic,
				time.Since(t0).Seconds(), float64(sums.bytes)/1e6)
		}
		if want["riffle"] {
			if *verify {
				got, err := riffleVerify(k.Bootstrap, topic, format)
				if err != nil {
					return err
				}
				if got != sums.String() {
					return fmt.Errorf("riffle read %s as %s, want %s", topic, got, sums)
				}
				fmt.Printf("riffle %s: %s ✓\n", format, got)
			}
			var rs []result
			for r := 0; r < *runs; r++ {
				var prof []string
				if r == 0 && i == 0 {
					prof = profileFlags()
				}
				b0 := interop.ProcessCPU(brokerPID)
				res, err := riffleBlackhole(k.Bootstrap, topic, format, prof)
				if err != nil {
					return err
				}
				res.brokerCPU = interop.ProcessCPU(brokerPID) - b0
				rs = append(rs, res)
				fmt.Printf("riffle %s run %d: %s\n", format, r+1, res.line(*records))
			}
			table = append(table, row{"Riffle", format, rs})
		}
		if fl != nil {
			if *verify {
				got, err := fl.verify(ctx, k.Bootstrap, topic, format)
				if err != nil {
					return err
				}
				if got != sums.String() {
					return fmt.Errorf("flink read %s as %s, want %s", topic, got, sums)
				}
				fmt.Printf("flink %s: %s ✓\n", format, got)
			}
			var rs []result
			for r := 0; r < *runs; r++ {
				b0 := interop.ProcessCPU(brokerPID)
				res, err := fl.blackhole(ctx, k.Bootstrap, topic, format)
				if err != nil {
					return err
				}
				res.brokerCPU = interop.ProcessCPU(brokerPID) - b0
				rs = append(rs, res)
				fmt.Printf("flink %s run %d: %s\n", format, r+1, res.line(*records))
			}
			table = append(table, row{"Flink", format, rs})
		}
	}

	fmt.Printf("\n%d records per topic, 1 partition, %s mode, parallelism 1; median (best) of %d runs\n", *records, *mode, *runs)
	fmt.Printf("load average after the runs: %s\n\n", interop.LoadAverage())
	fmt.Println("| engine | format | wall s | records/s | CPU s | records/s per core | broker CPU s |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	perCore := map[string]map[string]float64{}
	for _, r := range table {
		wall := durations(r.res, func(x result) time.Duration { return x.wall })
		cpu := durations(r.res, func(x result) time.Duration { return x.cpu })
		brk := durations(r.res, func(x result) time.Duration { return x.brokerCPU })
		n := float64(*records)
		fmt.Printf("| %s | %s | %.2f (%.2f) | %s (%s) | %.2f (%.2f) | %s (%s) | %.2f |\n", r.engine, r.format,
			median(wall).Seconds(), wall[0].Seconds(), rate(n, median(wall)), rate(n, wall[0]),
			median(cpu).Seconds(), cpu[0].Seconds(), rate(n, median(cpu)), rate(n, cpu[0]), median(brk).Seconds())
		if perCore[r.format] == nil {
			perCore[r.format] = map[string]float64{}
		}
		perCore[r.format][r.engine] = n / median(cpu).Seconds()
	}
	for _, format := range strings.Split(*formats, ",") {
		p := perCore[strings.TrimSpace(format)]
		if p["Riffle"] > 0 && p["Flink"] > 0 {
			fmt.Printf("\n%s: Riffle / Flink per core = %.2f (goal ≥ 2)", format, p["Riffle"]/p["Flink"])
		}
	}
	fmt.Println()
	return nil
}

func (r result) line(n int) string {
	s := fmt.Sprintf("wall %.2f s (%s records/s), CPU %.2f s (%s records/s per core), broker CPU %.2f s",
		r.wall.Seconds(), rate(float64(n), r.wall), r.cpu.Seconds(), rate(float64(n), r.cpu), r.brokerCPU.Seconds())
	if r.jmCPU > 0 {
		s += fmt.Sprintf(", JobManager CPU %.2f s", r.jmCPU.Seconds())
	}
	return s
}

func rate(n float64, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	v := n / d.Seconds()
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f M", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.0f k", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// durations returns the runs' values sorted ascending.
func durations(rs []result, get func(result) time.Duration) []time.Duration {
	out := make([]time.Duration, len(rs))
	for i, r := range rs {
		out[i] = get(r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[len(ds)/2]
}

func printMachine(k interop.Kafka, f interop.Flink, fl *flinkRunner) {
	fmt.Printf("machine: %d CPUs (GOMAXPROCS %d), load average %s\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), interop.LoadAverage())
	fmt.Printf("kafka %s at %s\n", k.Version, k.Bootstrap)
	if fl != nil {
		fmt.Printf("flink %s at %s (TaskManager pid %d)\n", f.Version, f.Gateway, fl.tmPID)
	}
}

// --- data ---

// sums are what a reader of a topic must find: the record count and the
// sums of id and amount, and the bytes of the values produced.
type sums struct {
	count, sumID int64
	sumAmount    float64
	bytes        int64
}

// String is how both engines' verify query prints (count, SUM(id), SUM(amount)).
func (s sums) String() string {
	return fmt.Sprintf("%d, %d, %s", s.count, s.sumID, strconv.FormatFloat(s.sumAmount, 'f', 2, 64))
}

// expected returns the sums of records 0..n-1 (see record).
func expected(n int) sums {
	var s sums
	for i := 0; i < n; i++ {
		s.count++
		s.sumID += int64(i)
		s.sumAmount += amountOf(i)
	}
	return s
}

// Record i: id i, name "user-<i mod 10000>", amount (i mod 100000) / 4
// (exact in binary, so every sum is exact), ts 2024-05-06 00:00:00 UTC plus
// i milliseconds.
func amountOf(i int) float64 { return float64(i%100000) / 4 }

var tsBase = time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)

// appendJSON appends record i as Flink's json format reads it:
// {"id":1,"name":"user-1","amount":0.25,"ts":"2024-05-06 00:00:00.001"}.
func appendJSON(b []byte, i int) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"name":"user-`...)
	b = strconv.AppendInt(b, int64(i%10000), 10)
	b = append(b, `","amount":`...)
	b = strconv.AppendFloat(b, amountOf(i), 'f', -1, 64)
	b = append(b, `,"ts":"`...)
	b = tsBase.Add(time.Duration(i)*time.Millisecond).AppendFormat(b, "2006-01-02 15:04:05.000")
	return append(b, `"}`...)
}

// appendAvro appends record i in Avro's binary encoding under the schema
// Flink's avro format derives from the table's (nullable) columns: a record
// of unions ["null", long], ["null", string], ["null", double],
// ["null", {long, timestamp-millis}]; each field is branch 1 (zig-zag 2).
func appendAvro(b []byte, i int) []byte {
	b = append(b, 2)
	b = binary.AppendVarint(b, int64(i))
	name := "user-" + strconv.Itoa(i%10000)
	b = append(b, 2)
	b = binary.AppendVarint(b, int64(len(name)))
	b = append(b, name...)
	b = append(b, 2)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(amountOf(i)))
	b = append(b, 2)
	return binary.AppendVarint(b, tsBase.Add(time.Duration(i)*time.Millisecond).UnixMilli())
}

// ensureTopic makes topic hold exactly n records of format: a topic of that
// name with n records is kept; otherwise it is (re)created and filled.
func ensureTopic(ctx context.Context, k interop.Kafka, topic, format string, n int) (sums, bool, error) {
	want := expected(n)
	c, err := k.Client()
	if err != nil {
		return want, false, err
	}
	defer c.Close()
	adm := kadm.NewClient(c)
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err == nil {
		if o, ok := ends.Lookup(topic, 0); ok && o.Err == nil && o.Offset == int64(n) && len(ends[topic]) == 1 {
			return want, false, nil
		}
		if _, exists := ends[topic]; exists {
			if err := k.DeleteTopic(ctx, topic); err == nil {
				// Deletion is asynchronous on the broker: wait until the name is free.
				for i := 0; i < 100; i++ {
					if err = k.CreateTopic(ctx, topic, 1, nil); err == nil {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				if err != nil {
					return want, false, err
				}
				goto produce
			}
		}
	}
	if err := k.CreateTopic(ctx, topic, 1, nil); err != nil {
		return want, false, err
	}
produce:
	p, err := k.Client(kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerBatchMaxBytes(1<<20), kgo.ProducerLinger(5*time.Millisecond),
		kgo.MaxBufferedRecords(1<<20), kgo.ProducerBatchCompression(kgo.NoCompression()))
	if err != nil {
		return want, false, err
	}
	defer p.Close()
	var perr error
	errc := make(chan error, 1)
	var bytes int64
	enc := appendJSON
	if format == "avro" {
		enc = appendAvro
	} else if format != "json" {
		return want, false, fmt.Errorf("format %q: want json or avro", format)
	}
	buf := make([]byte, 0, 1<<20)
	for i := 0; i < n; i++ {
		if len(buf)+128 > cap(buf) {
			buf = make([]byte, 0, 1<<20)
		}
		start := len(buf)
		buf = enc(buf, i)
		v := buf[start:len(buf):len(buf)]
		bytes += int64(len(v))
		p.Produce(ctx, &kgo.Record{Value: v}, func(_ *kgo.Record, err error) {
			if err != nil {
				select {
				case errc <- err:
				default:
				}
			}
		})
	}
	if err := p.Flush(ctx); err != nil {
		return want, false, err
	}
	select {
	case perr = <-errc:
	default:
	}
	if perr != nil {
		return want, false, fmt.Errorf("produce to %s: %w", topic, perr)
	}
	want.bytes = bytes
	return want, true, nil
}

// --- Riffle ---

// riffleBlackhole runs the blackhole query in a child process and returns
// the child's own wall time of the query and the process's CPU time.
func riffleBlackhole(bootstrap, topic, format string, profile []string) (result, error) {
	out, st, err := runSelf("blackhole", bootstrap, topic, format, profile)
	if err != nil {
		return result{}, err
	}
	var rep childReport
	if err := json.Unmarshal(out, &rep); err != nil {
		return result{}, fmt.Errorf("child said %q: %w", out, err)
	}
	return result{wall: time.Duration(rep.WallNanos), cpu: st.UserTime() + st.SystemTime()}, nil
}

func riffleVerify(bootstrap, topic, format string) (string, error) {
	out, _, err := runSelf("verify", bootstrap, topic, format, nil)
	if err != nil {
		return "", err
	}
	var rep childReport
	if err := json.Unmarshal(out, &rep); err != nil {
		return "", fmt.Errorf("child said %q: %w", out, err)
	}
	return rep.Row, nil
}

// profileFlags are the child's flags for the profiles asked for.
func profileFlags() []string {
	var out []string
	if *cpuprofile != "" {
		out = append(out, "-cpuprofile", *cpuprofile)
	}
	if *memprofile != "" {
		out = append(out, "-memprofile", *memprofile)
	}
	return out
}

func runSelf(what, bootstrap, topic, format string, profile []string) ([]byte, *os.ProcessState, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	args := []string{"-child", what, "-bootstrap", bootstrap, "-topic", topic, "-format", format, "-mode", *mode}
	args = append(args, profile...)
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("riffle %s on %s: %w", what, topic, err)
	}
	return out, cmd.ProcessState, nil
}

type childReport struct {
	WallNanos int64  `json:"wall_ns"`
	Row       string `json:"row,omitempty"`
}

func kafkaWith(bootstrap, topic, format string) string {
	return fmt.Sprintf(`WITH (
  'connector' = 'kafka',
  'topic' = '%s',
  'properties.bootstrap.servers' = '%s',
  'properties.group.id' = 'riffle-bench',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = '%s'
)`, topic, bootstrap, format)
}

func runChild() error {
	settings := table.InStreamingMode()
	if *mode == "batch" || *child == "verify" {
		settings = table.InBatchMode()
	}
	env, err := table.Create(settings)
	if err != nil {
		return err
	}
	env.GetConfig().Set("parallelism.default", "1")
	ddl := []string{
		"CREATE TABLE src (" + columns + ") " + kafkaWith(*bootstrap, *topicFlag, *formatFlag),
		"CREATE TABLE sink (" + columns + ") WITH ('connector' = 'blackhole')",
	}
	for _, d := range ddl {
		if _, err := env.ExecuteSQL(d); err != nil {
			return err
		}
	}
	if *child == "verify" {
		res, err := env.ExecuteSQL("SELECT COUNT(*), SUM(id), SUM(amount) FROM src")
		if err != nil {
			return err
		}
		it, err := res.Collect()
		if err != nil {
			return err
		}
		defer it.Close()
		var row string
		for it.Next() {
			v := it.Row().Values
			row = fmt.Sprintf("%v, %v, %s", v[0], v[1], strconv.FormatFloat(toFloat(v[2]), 'f', 2, 64))
		}
		if err := it.Err(); err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(childReport{Row: row})
	}
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
	if *memprofile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	t0 := time.Now()
	res, err := env.ExecuteSQL("INSERT INTO sink SELECT * FROM src")
	if err != nil {
		return err
	}
	if err := res.Wait(0); err != nil {
		return err
	}
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	return json.NewEncoder(os.Stdout).Encode(childReport{WallNanos: int64(time.Since(t0))})
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	}
	f, _ := strconv.ParseFloat(fmt.Sprint(v), 64)
	return f
}

// --- Flink ---

type flinkRunner struct {
	f            interop.Flink
	tmPID, jmPID int
	e            *gateway.RemoteEngine
}

func newFlinkRunner(f interop.Flink) (*flinkRunner, error) {
	run := filepath.Dir(f.ConfDir)
	r := &flinkRunner{f: f, tmPID: interop.PIDFromFile(filepath.Join(run, "taskmanager.pid")), jmPID: interop.PIDFromFile(filepath.Join(run, "jobmanager.pid"))}
	if r.tmPID == 0 {
		return nil, fmt.Errorf("flink: no TaskManager pid in %s (the CPU time is read from /proc)", run)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e, err := gateway.Connect(ctx, f.Gateway, gateway.RemoteOptions{
		SessionName: "kafkabench", ClusterREST: f.REST,
		Properties: map[string]string{"execution.runtime-mode": *mode, "table.dml-sync": "true", "parallelism.default": "1"},
	})
	if err != nil {
		return nil, err
	}
	r.e = e
	for _, jar := range []string{"flink-sql-connector-kafka-5.0.0-2.2.jar", "flink-sql-avro-2.3.0.jar"} {
		if err := r.exec(ctx, "ADD JAR '"+filepath.Join(f.Home, "lib", jar)+"'"); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *flinkRunner) close() { _ = r.e.Close() }

func (r *flinkRunner) exec(ctx context.Context, stmt string) error {
	res, err := r.e.ExecuteSQLContext(ctx, stmt)
	if err != nil {
		return fmt.Errorf("flink: %s: %w", strings.SplitN(stmt, "\n", 2)[0], err)
	}
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
	}
	return it.Err()
}

func (r *flinkRunner) tables(ctx context.Context, bootstrap, topic, format string) error {
	for _, s := range []string{
		"DROP TEMPORARY TABLE IF EXISTS src",
		"DROP TEMPORARY TABLE IF EXISTS sink",
		"CREATE TEMPORARY TABLE src (" + columns + ") " + kafkaWith(bootstrap, topic, format),
		"CREATE TEMPORARY TABLE sink (" + columns + ") WITH ('connector' = 'blackhole')",
	} {
		if err := r.exec(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

func (r *flinkRunner) verify(ctx context.Context, bootstrap, topic, format string) (string, error) {
	if err := r.tables(ctx, bootstrap, topic, format); err != nil {
		return "", err
	}
	if err := r.exec(ctx, "SET 'execution.runtime-mode' = 'batch'"); err != nil {
		return "", err
	}
	defer r.exec(ctx, "SET 'execution.runtime-mode' = '"+*mode+"'")
	res, err := r.e.ExecuteSQLContext(ctx, "SELECT COUNT(*), SUM(id), SUM(amount) FROM src")
	if err != nil {
		return "", err
	}
	it, err := res.Collect()
	if err != nil {
		return "", err
	}
	defer it.Close()
	var row string
	for it.Next() {
		v := it.Row().Values
		row = fmt.Sprintf("%v, %v, %s", v[0], v[1], strconv.FormatFloat(toFloat(v[2]), 'f', 2, 64))
	}
	return row, it.Err()
}

func (r *flinkRunner) blackhole(ctx context.Context, bootstrap, topic, format string) (result, error) {
	if err := r.tables(ctx, bootstrap, topic, format); err != nil {
		return result{}, err
	}
	tm0, jm0 := interop.ProcessCPU(r.tmPID), interop.ProcessCPU(r.jmPID)
	t0 := time.Now()
	// table.dml-sync: the statement returns once the job has finished.
	if err := r.exec(ctx, "INSERT INTO sink SELECT * FROM src"); err != nil {
		return result{}, err
	}
	wall := time.Since(t0)
	if !alive(r.tmPID) {
		return result{}, errors.New("flink: the TaskManager died during the run")
	}
	return result{wall: wall, cpu: interop.ProcessCPU(r.tmPID) - tm0, jmCPU: interop.ProcessCPU(r.jmPID) - jm0}, nil
}

// --- processes ---

func alive(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }
