package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// resumeChildEnv names the folder of a child gateway of the resume tests.
const resumeChildEnv = "RIFFLE_GATEWAY_RESUME_CHILD"

// TestResumeChildGateway is the gateway that TestGatewayResumesKilledJob
// runs in a child process: it serves with --resume-jobs' folder
// <dir>/jobs, logs to stderr and writes its address to <dir>/addr.
func TestResumeChildGateway(t *testing.T) {
	dir := os.Getenv(resumeChildEnv)
	if dir == "" {
		t.Skip("the child process of TestGatewayResumesKilledJob")
	}
	cfg := Config{ResumeDir: filepath.Join(dir, "jobs"), PrintOutput: io.Discard,
		Logf: func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }}
	err := ListenAndServe(context.Background(), "127.0.0.1:0", cfg, func(a net.Addr) {
		tmp := filepath.Join(dir, "addr.tmp")
		if err := os.WriteFile(tmp, []byte(a.String()), 0o644); err == nil {
			_ = os.Rename(tmp, filepath.Join(dir, "addr"))
		}
	})
	t.Fatal(err)
}

// startResumeChild starts a child gateway on dir and returns its URL and
// the file its log goes to.
func startResumeChild(t *testing.T, dir string, n int) (*exec.Cmd, string, string) {
	t.Helper()
	_ = os.Remove(filepath.Join(dir, "addr"))
	logPath := filepath.Join(dir, fmt.Sprintf("gateway-%d.log", n))
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestResumeChildGateway$", "-test.v")
	cmd.Env = append(os.Environ(), resumeChildEnv+"="+dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	var addr []byte
	testwait.Until(t, time.Minute, "the child gateway's address", func() bool {
		addr, err = os.ReadFile(filepath.Join(dir, "addr"))
		return err == nil && len(addr) > 0
	})
	return cmd, "http://" + string(addr), logPath
}

// committedRows reads the visible files of a csv filesystem table: its
// values, sorted.
func committedRows(t *testing.T, dir string) []int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var rows []int64
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			continue // in-progress and pending files
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Fields(string(b)) {
			v, err := strconv.ParseInt(line, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q", e.Name(), line)
			}
			rows = append(rows, v)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i] < rows[j] })
	return rows
}

// keptJobs lists the job files of a resume folder.
func keptJobs(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	return m
}

// sequencePrefix reports whether rows are 1..len(rows), each once: what an
// uninterrupted run of the sequence has written by then.
func sequencePrefix(rows []int64) bool {
	for i, v := range rows {
		if v != int64(i+1) {
			return false
		}
	}
	return true
}

// TestGatewayResumesKilledJob: a gateway with a resume folder runs a
// checkpointed INSERT from a paced sequence into the filesystem sink and
// is killed (SIGKILL) part way; a new gateway on the same folder resumes
// the job from its latest checkpoint in a session the REST API serves, and
// the table ends holding every value once, as after an uninterrupted run.
func TestGatewayResumesKilledJob(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes for seconds")
	}
	const rows = 1000
	dir := t.TempDir()
	out, jobs := filepath.Join(dir, "out"), filepath.Join(dir, "jobs")
	first, url, _ := startResumeChild(t, dir, 1)
	g := &testGateway{url: url, hc: &http.Client{Transport: &http.Transport{}, Timeout: time.Minute}}
	sess := g.openSession(t, map[string]string{"parallelism.default": "1",
		"execution.checkpointing.interval": "100ms", "execution.checkpointing.dir": filepath.Join(dir, "checkpoints")})
	for _, st := range []string{
		fmt.Sprintf(`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '250',
			'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, rows),
		fmt.Sprintf(`CREATE TABLE out_t (v BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, out),
		"INSERT INTO out_t SELECT v FROM gen",
	} {
		g.fetchUntilReady(t, sess, g.execute(t, sess, st))
	}
	testwait.Until(t, time.Minute, "a checkpoint's rows committed and the job kept", func() bool {
		return len(committedRows(t, out)) > 0 && len(keptJobs(jobs)) == 1
	})
	kept := keptJobs(jobs)[0]
	oldJob := strings.TrimSuffix(filepath.Base(kept), ".json")
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	before := committedRows(t, out)
	if len(before) == 0 || len(before) >= rows || !sequencePrefix(before) {
		t.Fatalf("after the kill the table holds %d rows, want a prefix of the sequence shorter than %d", len(before), rows)
	}

	_, url, logPath := startResumeChild(t, dir, 2)
	g = &testGateway{url: url, hc: &http.Client{Transport: &http.Transport{}, Timeout: time.Minute}}
	testwait.Until(t, 2*time.Minute, "the resumed job to write every row and end", func() bool {
		return len(committedRows(t, out)) >= rows && len(keptJobs(jobs)) == 0
	})
	after := committedRows(t, out)
	if len(after) != rows || !sequencePrefix(after) {
		t.Fatalf("after the resumed run the table holds %d rows (each of 1..%d once: %v)", len(after), rows, sequencePrefix(after))
	}
	logText, _ := os.ReadFile(logPath)
	m := regexp.MustCompile(`resumed job ` + oldJob + ` \(.*\) as job ([0-9a-f]+) in session ([0-9a-f-]+) from checkpoint (\d+)`).FindStringSubmatch(string(logText))
	if m == nil {
		t.Fatalf("the log does not say the job was resumed from a checkpoint:\n%s", logText)
	}
	if n, _ := strconv.Atoi(m[3]); n < 1 {
		t.Fatalf("resumed from checkpoint %s", m[3])
	}
	// the resumed session is served, with the recorded configuration
	props := g.mustOK(t, "GET", "/v1/sessions/"+m[2], nil)["properties"].(map[string]any)
	if props["execution.checkpointing.interval"] != "100ms" {
		t.Fatalf("resumed session's properties: %v", props)
	}
	if _, ok := props["execution.state-recovery.path"]; ok {
		t.Fatalf("the resumed session keeps the recovery path: %v", props)
	}
	// SHOW JOBS lists the new job, finished
	res := g.fetchUntilReady(t, m[2], g.execute(t, m[2], "SHOW JOBS"))
	if !strings.Contains(fmt.Sprint(res["results"]), m[1]) || !strings.Contains(fmt.Sprint(res["results"]), "FINISHED") {
		t.Fatalf("SHOW JOBS: %v", res["results"])
	}
}

// TestGatewayStopKeepsJobsForResuming: a gateway with a resume folder that
// stops normally stops its checkpointed INSERT with a savepoint instead of
// cancelling it; the next gateway on the folder resumes it from that
// savepoint and the table ends with every value once.
func TestGatewayStopKeepsJobsForResuming(t *testing.T) {
	const rows = 600
	dir := t.TempDir()
	out, jobs := filepath.Join(dir, "out"), filepath.Join(dir, "jobs")
	logs := &lockedLog{}
	g := newTestGateway(t, Config{ResumeDir: jobs, Logf: logs.logf})
	sess := g.openSession(t, map[string]string{"parallelism.default": "1",
		"execution.checkpointing.interval": "1h", "execution.checkpointing.dir": filepath.Join(dir, "checkpoints")})
	g.fetchUntilReady(t, sess, g.execute(t, sess, fmt.Sprintf(`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen',
		'rows-per-second' = '200', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, rows)))
	g.fetchUntilReady(t, sess, g.execute(t, sess, fmt.Sprintf(`CREATE TABLE out_t (v BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, out)))
	g.fetchUntilReady(t, sess, g.execute(t, sess, "INSERT INTO out_t SELECT v FROM gen"))
	testwait.Until(t, time.Minute, "the job kept", func() bool { return len(keptJobs(jobs)) == 1 })
	testwait.Until(t, time.Minute, "rows in an in-progress file", func() bool {
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), ".") && fi.Size() > 0 {
				return true
			}
		}
		return false
	})
	g.srv.Close()
	before := committedRows(t, out)
	if len(before) == 0 || len(before) >= rows || !sequencePrefix(before) {
		t.Fatalf("after the stop the table holds %d rows, want a prefix of the sequence (log:\n%s)", len(before), logs.String())
	}
	kept := keptJobs(jobs)
	if len(kept) != 1 {
		t.Fatalf("kept jobs after the stop: %v (log:\n%s)", kept, logs.String())
	}
	raw, _ := os.ReadFile(kept[0])
	if !strings.Contains(string(raw), `"savepoint": "`+filepath.Join(jobs, "savepoints")) {
		t.Fatalf("the kept job has no savepoint: %s", raw)
	}

	logs.Reset()
	newTestGateway(t, Config{ResumeDir: jobs, Logf: logs.logf})
	if !strings.Contains(logs.String(), "from savepoint") {
		t.Fatalf("log: %s", logs.String())
	}
	testwait.Until(t, time.Minute, "the resumed job to write every row and end", func() bool {
		return len(committedRows(t, out)) >= rows && len(keptJobs(jobs)) == 0
	})
	if after := committedRows(t, out); len(after) != rows || !sequencePrefix(after) {
		t.Fatalf("after the resumed run the table holds %d rows (each of 1..%d once: %v)", len(after), rows, sequencePrefix(after))
	}
}

// lockedLog collects a server's log lines.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.b, format+"\n", args...)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

// TestGatewaySaysWhyAJobIsNotResumed: a kept job whose latest checkpoint
// is corrupt is not resumed (from the beginning it would write its rows
// twice); the log names the file, and the job is forgotten while its
// checkpoints stay. A kept file that does not parse is reported too.
func TestGatewaySaysWhyAJobIsNotResumed(t *testing.T) {
	dir := t.TempDir()
	jobs, cp := filepath.Join(dir, "jobs"), filepath.Join(dir, "checkpoints", "0123abcd")
	if err := os.MkdirAll(filepath.Join(cp, "chk-4"), 0o755); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(cp, "chk-4", "_metadata")
	if err := os.WriteFile(meta, []byte(`{"format":"riffle-checkpoint","vers`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(jobs, 0o700); err != nil {
		t.Fatal(err)
	}
	rec, _ := json.Marshal(resumeRecord{Version: resumeRecordVersion, JobID: "0123abcd", JobName: "insert-into_out", Statement: "INSERT INTO out_t SELECT 1",
		CheckpointDir: cp, Properties: map[string]string{"execution.checkpointing.interval": "1s"}})
	if err := os.WriteFile(filepath.Join(jobs, "0123abcd.json"), rec, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jobs, "broken.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &lockedLog{}
	g := newTestGateway(t, Config{ResumeDir: jobs, Logf: logs.logf})
	text := logs.String()
	if !strings.Contains(text, "job 0123abcd (insert-into_out) not resumed: checkpoint "+meta+" is corrupt") ||
		!strings.Contains(text, "its checkpoints stay in "+cp) {
		t.Fatalf("log: %s", text)
	}
	if !strings.Contains(text, filepath.Join(jobs, "broken.json")+" is corrupt") {
		t.Fatalf("log: %s", text)
	}
	if _, err := os.Stat(filepath.Join(jobs, "0123abcd.json")); !os.IsNotExist(err) {
		t.Fatalf("the job is still kept: %v", err)
	}
	if _, err := os.Stat(meta); err != nil {
		t.Fatalf("its checkpoint went: %v", err)
	}
	if n := g.srv.SessionCount(); n != 0 {
		t.Fatalf("%d sessions opened for a job not resumed", n)
	}
}

// TestGatewayResumesFromTheJobsOwnStartingPoint: a kept job that took no
// checkpoint of its own but was itself started from a savepoint resumes
// from that savepoint, not from the beginning (which would write again the
// rows the savepoint's job had committed). A damaged savepoint there is
// reported by name, and the job is not run from the beginning instead.
func TestGatewayResumesFromTheJobsOwnStartingPoint(t *testing.T) {
	dir := t.TempDir()
	jobs, cp := filepath.Join(dir, "jobs"), filepath.Join(dir, "checkpoints", "4567cdef")
	sp := filepath.Join(dir, "savepoints", "savepoint-0a1b2c-7")
	for _, d := range []string{cp, sp, jobs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	meta := filepath.Join(sp, "_metadata")
	if err := os.WriteFile(meta, []byte(`{"format":"riffle-checkpoint","vers`), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, _ := json.Marshal(resumeRecord{Version: resumeRecordVersion, JobID: "4567cdef", JobName: "insert-into_out", Statement: "INSERT INTO out_t SELECT 1",
		CheckpointDir: cp, RestoredFrom: sp, Properties: map[string]string{"execution.checkpointing.interval": "1s"}})
	if err := os.WriteFile(filepath.Join(jobs, "4567cdef.json"), rec, 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &lockedLog{}
	g := newTestGateway(t, Config{ResumeDir: jobs, Logf: logs.logf})
	text := logs.String()
	if strings.Contains(text, "from the beginning") || !strings.Contains(text, "job 4567cdef (insert-into_out) not resumed: checkpoint "+meta+" is corrupt") {
		t.Fatalf("log: %s", text)
	}
	if n := g.srv.SessionCount(); n != 0 {
		t.Fatalf("%d sessions opened for a job not resumed", n)
	}
}
