package nexflink

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/interop"
	"github.com/riffle-sql/riffle/nexmark"
)

// Measure is one run of one query on one engine.
type Measure struct {
	Engine      string        // "Flink" or "Riffle"
	Query       string        // "q0"
	Parallelism int           // parallelism.default
	Events      int64         // the events in the topic
	SourceRows  int64         // events the job read (-1: unknown)
	SinkRows    int64         // rows into the blackhole sink (-1: unknown)
	Wall        time.Duration // the INSERT statement, submission to end of the job
	CPU         time.Duration // user + system CPU of the engine's processes over the run
	Err         error
}

// PerCore is events per CPU second ("events/s per core"); 0 without CPU time.
func (m Measure) PerCore() float64 {
	if m.CPU <= 0 {
		return 0
	}
	return float64(m.Events) / m.CPU.Seconds()
}

//go:embed udf/CountChar.java
var countCharJava []byte

// Flink runs the queries on a Flink session cluster through its SQL
// Gateway: each run in a fresh session (so the same CREATE statements as
// Riffle's), the job's CPU time read from /proc for the TaskManager and the
// JobManager before and after the INSERT (table.dml-sync: the statement
// returns once the job has ended).
type Flink struct {
	F            interop.Flink
	TMPID, JMPID int
	// Chaining is pipeline.operator-chaining.enabled. With it off every
	// operator is its own vertex, and the job's source and sink vertices
	// give SourceRows and SinkRows (the checks use it; it costs Flink
	// serialization between operators, so the benchmark keeps it on).
	Chaining bool
	jars     []string
	dir      string
}

// NewFlink finds the cluster's processes and compiles q14's count_char
// (udf/CountChar.java) against Flink's jars with javac.
func NewFlink(f interop.Flink) (*Flink, error) {
	run := filepath.Dir(f.ConfDir)
	fl := &Flink{F: f, Chaining: true,
		TMPID: interop.PIDFromFile(filepath.Join(run, "taskmanager.pid")), JMPID: interop.PIDFromFile(filepath.Join(run, "jobmanager.pid"))}
	if fl.TMPID == 0 || fl.JMPID == 0 {
		return nil, fmt.Errorf("nexflink: no TaskManager or JobManager pid in %s (their CPU time is read from /proc)", run)
	}
	dir, err := os.MkdirTemp("", "nexflink-udf-")
	if err != nil {
		return nil, err
	}
	fl.dir = dir
	src := filepath.Join(dir, "src", "CountChar.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(src, countCharJava, 0o644); err != nil {
		return nil, err
	}
	classes := filepath.Join(dir, "classes")
	jar := filepath.Join(dir, "nexmark-udf.jar")
	for _, c := range [][]string{
		{"javac", "-nowarn", "-cp", filepath.Join(f.Home, "lib", "*"), "-d", classes, src},
		{"jar", "cf", jar, "-C", classes, "."},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			fl.Close()
			return nil, fmt.Errorf("nexflink: building count_char for Flink: %s: %w\n%s", c[0], err, out)
		}
	}
	fl.jars = []string{filepath.Join(f.Home, "lib", "flink-sql-connector-kafka-5.0.0-2.2.jar"), jar}
	return fl, nil
}

// Close removes the compiled function.
func (fl *Flink) Close() { os.RemoveAll(fl.dir) }

// Run runs query q over the topic at the given parallelism.
func (fl *Flink) Run(ctx context.Context, q nexmark.Query, bootstrap, topic string, events int64, parallelism int) Measure {
	m := Measure{Engine: "Flink", Query: q.Name, Parallelism: parallelism, Events: events, SourceRows: -1, SinkRows: -1}
	props := map[string]string{
		"execution.runtime-mode":             "streaming",
		"table.dml-sync":                     "true",
		"parallelism.default":                strconv.Itoa(parallelism),
		"pipeline.operator-chaining.enabled": strconv.FormatBool(fl.Chaining),
	}
	for k, v := range nexmark.SuiteConfig() {
		props[k] = v
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	e, err := gateway.Connect(cctx, fl.F.Gateway, gateway.RemoteOptions{
		SessionName: "nexflink-" + q.Name, ClusterREST: fl.F.REST, Properties: props})
	cancel()
	if err != nil {
		m.Err = err
		return m
	}
	defer e.Close()
	exec := func(stmt string) error {
		res, err := e.ExecuteSQLContext(ctx, stmt)
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
	stmts := []string{}
	for _, j := range fl.jars {
		stmts = append(stmts, "ADD JAR '"+j+"'")
	}
	stmts = append(stmts, SourceDDL(bootstrap, topic))
	for _, v := range nexmark.ViewsDDL() {
		stmts = append(stmts, Quoted(v))
	}
	q = QuotedQuery(q)
	stmts = append(stmts, q.Setup...)
	for _, s := range stmts {
		if err := exec(s); err != nil {
			m.Err = err
			return m
		}
	}
	started := time.Now()
	tm0, jm0 := interop.ProcessCPU(fl.TMPID), interop.ProcessCPU(fl.JMPID)
	err = exec(q.Insert)
	m.Wall = time.Since(started)
	m.CPU = interop.ProcessCPU(fl.TMPID) - tm0 + interop.ProcessCPU(fl.JMPID) - jm0
	if err != nil {
		m.Err = err
		return m
	}
	if syscall.Kill(fl.TMPID, 0) != nil {
		m.Err = fmt.Errorf("flink: the TaskManager died during %s", q.Name)
		return m
	}
	if !fl.Chaining {
		m.SourceRows, m.SinkRows, m.Err = fl.jobCounts(ctx, "nexmark_"+q.Name, started)
	}
	return m
}

// jobCounts reads, from the cluster's REST API, the latest job writing
// into sink that started after since: the records its source vertices
// wrote (the fewest) and those its last vertex read.
func (fl *Flink) jobCounts(ctx context.Context, sink string, since time.Time) (source, sinkRows int64, err error) {
	var overview struct {
		Jobs []struct {
			JID   string `json:"jid"`
			Name  string `json:"name"`
			State string `json:"state"`
			Start int64  `json:"start-time"`
		} `json:"jobs"`
	}
	if err := getJSON(ctx, fl.F.REST+"/jobs/overview", &overview); err != nil {
		return -1, -1, err
	}
	jid, best := "", int64(0)
	for _, j := range overview.Jobs {
		if strings.HasSuffix(j.Name, "."+sink) && j.Start >= since.UnixMilli()-1000 && j.Start > best {
			jid, best = j.JID, j.Start
		}
	}
	if jid == "" {
		return -1, -1, fmt.Errorf("flink: no job into %s in /jobs/overview", sink)
	}
	var job struct {
		State    string `json:"state"`
		Vertices []struct {
			ID      string `json:"id"`
			Name    string `json:"name"`
			Metrics struct {
				ReadRecords  int64 `json:"read-records"`
				WriteRecords int64 `json:"write-records"`
			} `json:"metrics"`
		} `json:"vertices"`
		Plan struct {
			Nodes []struct {
				ID     string `json:"id"`
				Inputs []struct {
					ID string `json:"id"`
				} `json:"inputs"`
			} `json:"nodes"`
		} `json:"plan"`
	}
	if err := getJSON(ctx, fl.F.REST+"/jobs/"+url.PathEscape(jid), &job); err != nil {
		return -1, -1, err
	}
	if job.State != "FINISHED" {
		return -1, -1, fmt.Errorf("flink: job %s into %s is %s", jid, sink, job.State)
	}
	hasInputs, isInput := map[string]bool{}, map[string]bool{}
	for _, n := range job.Plan.Nodes {
		hasInputs[n.ID] = len(n.Inputs) > 0
		for _, in := range n.Inputs {
			isInput[in.ID] = true
		}
	}
	source, sinkRows = -1, 0
	for _, v := range job.Vertices {
		if !hasInputs[v.ID] && (source < 0 || v.Metrics.WriteRecords < source) {
			source = v.Metrics.WriteRecords
		}
		if !isInput[v.ID] {
			sinkRows += v.Metrics.ReadRecords
		}
	}
	return source, sinkRows, nil
}

func getJSON(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("flink: GET %s: %s", u, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
