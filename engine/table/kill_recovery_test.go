package table

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Kill -9 recovery (issue 16): a streaming INSERT from a paced, bounded
// datagen sequence through a tumbling-window aggregate and a join with a
// csv dimension table into the exactly-once filesystem sink runs in a
// child process that is killed (SIGKILL) at random moments and started
// again from the latest complete checkpoint. Once a last run finishes, the
// committed output equals an uninterrupted run's: no row lost, none twice.

// killSpec tells the child process what to run.
type killSpec struct {
	Dims, Out, Checkpoints, Resume   string
	Rows, RowsPerSecond, Parallelism int
	// StateDir, when set, runs the job with the disk state backend
	// (state.backend.type 'rocksdb', incremental checkpoints), its working
	// files there
	StateDir string
}

const killChildEnv = "RIFFLE_KILL_RECOVERY_CHILD"

// killPipeline creates the tables and returns the INSERT.
func killPipeline(t *testing.T, env *TableEnvironment, s killSpec) string {
	t.Helper()
	mustExec(t, env,
		fmt.Sprintf("SET 'parallelism.default' = '%d'", max(s.Parallelism, 1)),
		fmt.Sprintf(`CREATE TABLE gen (v BIGINT, ts AS TO_TIMESTAMP_LTZ(v * 10, 3), WATERMARK FOR ts AS ts)
			WITH ('connector' = 'datagen', 'rows-per-second' = '%d',
			'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, s.RowsPerSecond, s.Rows),
		fmt.Sprintf(`CREATE TABLE dims (id BIGINT, name STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, s.Dims),
		fmt.Sprintf(`CREATE TABLE out_t (w STRING, k BIGINT, n BIGINT, total BIGINT, name STRING)
			WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, s.Out))
	return `INSERT INTO out_t
SELECT CAST(a.window_start AS STRING), a.k, a.n, a.total, d.name
FROM (SELECT window_start, window_end, v % 7 AS k, COUNT(*) AS n, SUM(v) AS total
      FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '1' SECOND))
      GROUP BY window_start, window_end, v % 7) AS a
JOIN dims AS d ON a.k = d.id`
}

// TestKillRecoveryChild is the child process; it runs only when started by
// TestKillRecovery.
func TestKillRecoveryChild(t *testing.T) {
	raw := os.Getenv(killChildEnv)
	if raw == "" {
		t.Skip("the child process of TestKillRecovery")
	}
	var s killSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"SET 'table.local-time-zone' = 'UTC'",
		"SET 'execution.checkpointing.interval' = '40 ms'",
		"SET 'execution.checkpointing.dir' = '"+s.Checkpoints+"'",
		"SET 'execution.checkpointing.num-retained' = '2'",
		"SET 'restart-strategy.type' = 'none'")
	if s.Resume != "" {
		mustExec(t, env, "SET 'execution.state-recovery.path' = '"+s.Resume+"'")
	}
	if s.StateDir != "" {
		mustExec(t, env,
			"SET 'state.backend.type' = 'rocksdb'",
			"SET 'state.backend.rocksdb.localdir' = '"+s.StateDir+"'",
			"SET 'execution.checkpointing.incremental' = 'true'",
			"SET 'riffle.state.backend.cache-entries' = '2'")
	}
	insert := killPipeline(t, env, s)
	res, err := env.ExecuteSQL(insert)
	if err != nil {
		t.Fatal(err)
	}
	// the job's checkpoints are under <checkpoints>/<job id> (made at
	// submission, deleted when the job finishes)
	fmt.Println("RUNNING " + res.JobClient().JobID())
	// CHECKPOINTED tells the parent that this run completed a checkpoint
	// of its own (the job's coordinator has no listener: its last
	// checkpoint is read until it has one)
	jc := res.JobClient()
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-jc.Done():
				return
			case <-tick.C:
			}
			if _, ok := jc.LastCheckpoint(); ok {
				fmt.Println("CHECKPOINTED")
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := jc.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	fmt.Println("FINISHED")
}

// latestCheckpoint is the complete checkpoint written last under dir
// (any job's), "" when there is none.
func latestCheckpoint(t *testing.T, dir string) string {
	t.Helper()
	metas, _ := filepath.Glob(filepath.Join(dir, "*", "chk-*", "_metadata"))
	best, bestT := "", time.Time{}
	for _, m := range metas {
		if strings.Contains(m, ".inprogress") || strings.Contains(m, ".discarded") {
			continue
		}
		fi, err := os.Stat(m)
		if err != nil {
			continue // pruned meanwhile
		}
		if fi.ModTime().After(bestT) {
			best, bestT = filepath.Dir(m), fi.ModTime()
		}
	}
	return best
}

// visibleRows returns the lines of the table's visible files, sorted.
func visibleRows(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var rows []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line != "" {
				rows = append(rows, line)
			}
		}
	}
	sort.Strings(rows)
	return rows
}

// runChild starts the child process and waits until its job runs; it
// returns the process, its job's id ("" when the child ended before its
// job ran), a channel closed once the run has completed a checkpoint of
// its own (or has exited) and a channel that receives its exit (its
// error).
func runChild(t *testing.T, s killSpec) (*exec.Cmd, string, <-chan struct{}, <-chan error) {
	t.Helper()
	raw, _ := json.Marshal(s)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillRecoveryChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), killChildEnv+"="+string(raw))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	running, checkpointed := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	var log strings.Builder
	var jobID string
	go func() {
		sc := bufio.NewScanner(out)
		seen, saved := false, false
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if id, ok := strings.CutPrefix(sc.Text(), "RUNNING "); !seen && ok {
				seen, jobID = true, id
				close(running)
			}
			if !saved && sc.Text() == "CHECKPOINTED" {
				saved = true
				close(checkpointed)
			}
		}
		if !saved {
			close(checkpointed)
		}
		err := cmd.Wait()
		if err != nil && !strings.Contains(err.Error(), "killed") {
			err = fmt.Errorf("%v\n%s%s", err, log.String(), stderr.String())
		}
		if !seen {
			close(running)
		}
		done <- err
	}()
	<-running
	return cmd, jobID, checkpointed, done
}

func TestKillRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills child processes")
	}
	// parallelism 2 adds hash exchanges, so barriers align across inputs
	for _, par := range []int{1, 2} {
		t.Run(fmt.Sprintf("parallelism-%d", par), func(t *testing.T) { killRecovery(t, par, false) })
	}
}

// TestKillRecoveryDiskState is TestKillRecovery with the disk state
// backend: the join keeps its rows in its store, checkpoints are
// incremental.
func TestKillRecoveryDiskState(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills child processes")
	}
	killRecovery(t, 2, true)
}

func killRecovery(t *testing.T, parallelism int, disk bool) {
	dir := t.TempDir()
	dims := filepath.Join(dir, "dims")
	if err := os.MkdirAll(dims, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for id := 0; id < 7; id++ {
		fmt.Fprintf(&b, "%d,name-%d\n", id, id)
	}
	if err := os.WriteFile(filepath.Join(dims, "dims.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// 3 s of data at full pace: the kills (50–400 ms into each run) come
	// before the end
	spec := killSpec{Dims: dims, Rows: 6000, RowsPerSecond: 2000, Parallelism: parallelism}

	// the uninterrupted run, in this process
	spec.Out = filepath.Join(dir, "reference")
	env := MustCreate(InStreamingMode())
	mustExec(t, env, "SET 'table.local-time-zone' = 'UTC'")
	res, err := env.ExecuteSQL(killPipeline(t, env, spec))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := res.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	want := visibleRows(t, spec.Out)
	if len(want) < 30*7 {
		t.Fatalf("the reference run wrote %d rows", len(want))
	}

	// killed and resumed
	spec.Out = filepath.Join(dir, "out")
	spec.Checkpoints = filepath.Join(dir, "checkpoints")
	if disk {
		spec.StateDir = filepath.Join(dir, "state")
	}
	const kills = 12
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 16))
	resumedFrom := map[string]bool{}
	finished := false
	killed := 0
	for k := 0; k < kills && !finished; k++ {
		spec.Resume = latestCheckpoint(t, spec.Checkpoints)
		if spec.Resume != "" {
			resumedFrom[spec.Resume] = true
		}
		cmd, jobID, checkpointed, done := runChild(t, spec)
		// the fault: a kill at a random moment of the run, counted from its
		// start in even runs, so that a run may die before its first
		// checkpoint; from its first checkpoint in odd runs, so that
		// however slow the machine (checkpoints of a loaded machine may
		// take longer than a whole run's 50–400 ms) half the kills leave a
		// newer checkpoint for the next run to resume from
		if k%2 == 1 {
			<-checkpointed
		}
		delay := time.Duration(50+rng.IntN(350)) * time.Millisecond
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: %v", k, err)
			}
			// the job is done: its output is final
			t.Logf("run %d finished before its kill at %v", k, delay)
			finished = true
			continue
		case <-time.After(delay):
		}
		killed++
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-done
		// whatever is visible now was committed by a checkpoint: a subset
		// of the final output, each row once
		if got := visibleRows(t, spec.Out); !subset(got, want) {
			t.Fatalf("after kill %d the visible rows are not part of the uninterrupted output:\n%s", k, strings.Join(got, "\n"))
		}
		// a job killed after it finished (its final checkpoint published
		// the rest, its checkpoints are deleted) but before its process
		// exited is done, as a Flink job whose end is recorded is not
		// recovered: resuming an earlier job's checkpoint would write the
		// tail again
		if jobID != "" {
			if _, err := os.Stat(filepath.Join(spec.Checkpoints, jobID)); os.IsNotExist(err) {
				t.Logf("run %d finished before its kill at %v took effect", k, delay)
				finished = true
			}
		}
	}
	if !finished {
		spec.Resume = latestCheckpoint(t, spec.Checkpoints)
		_, _, _, done := runChild(t, spec)
		if err := <-done; err != nil {
			t.Fatalf("last run: %v", err)
		}
	}
	got := visibleRows(t, spec.Out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after %d kills the output has %d rows, the uninterrupted run %d:\n got %v\nwant %v", killed, len(got), len(want), got, want)
	}
	t.Logf("%d kills, resumed from %d distinct checkpoints, %d rows as the uninterrupted run", killed, len(resumedFrom), len(got))
	if disk {
		// the killed runs' checkpoints are left: they hold the stores
		if dbs, _ := filepath.Glob(filepath.Join(spec.Checkpoints, "*", "chk-*", "*.db")); len(dbs) == 0 {
			t.Fatalf("the checkpoints hold no store: the disk backend was not used")
		}
	}
	if killed < kills/2 || len(resumedFrom) < 2 {
		t.Fatalf("only %d kills and %d checkpoints resumed from: the test did not exercise recovery", killed, len(resumedFrom))
	}
}

// subset reports whether every line of got is in want, counted.
func subset(got, want []string) bool {
	n := map[string]int{}
	for _, w := range want {
		n[w]++
	}
	for _, g := range got {
		if n[g]--; n[g] < 0 {
			return false
		}
	}
	return true
}
