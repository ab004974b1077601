package table

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// The exactly-once filesystem sink: a streaming INSERT from a paced
// datagen sequence into a csv table, stopped (with a savepoint, or
// cancelled between periodic checkpoints) and resumed.

const fsRows = 600

// fsCheckpointEnv is a streaming environment with the sequence gen(v) and
// the csv table out(v) at dir.
func fsCheckpointEnv(t *testing.T, dir string) *TableEnvironment {
	t.Helper()
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"SET 'parallelism.default' = '1'",
		fmt.Sprintf(`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
			'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, fsRows),
		fmt.Sprintf(`CREATE TABLE out_t (v BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, dir))
	return env
}

// fsFiles returns the table's visible rows (sorted) and its hidden files.
func fsFiles(t *testing.T, dir string) (rows []int64, hidden []string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			hidden = append(hidden, e.Name())
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line == "" {
				continue
			}
			v, err := strconv.ParseInt(line, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q", e.Name(), line)
			}
			rows = append(rows, v)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i] < rows[j] })
	return rows, hidden
}

// isPrefix reports whether rows are 1..len(rows), each once.
func isPrefix(rows []int64) bool {
	for i, v := range rows {
		if v != int64(i+1) {
			return false
		}
	}
	return true
}

// hiddenBytes is the size of the table's hidden (in-progress) files.
func hiddenBytes(dir string) int64 {
	ents, _ := os.ReadDir(dir)
	var n int64
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
	}
	return n
}

// Stopped WITH SAVEPOINT half way, the table holds exactly the rows
// before the savepoint; the INSERT resumed from it ends with every value
// once.
func TestFilesystemSinkStopWithSavepointAndResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	env := fsCheckpointEnv(t, dir)
	mustExec(t, env, "SET 'execution.checkpointing.savepoint-dir' = '"+t.TempDir()+"'")
	const insert = "INSERT INTO out_t SELECT v FROM gen"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := env.ExecuteSQLContext(ctx, insert)
	if err != nil {
		t.Fatal(err)
	}
	job := res.JobClient()
	testwait.Until(t, time.Minute, "rows in an in-progress file", func() bool { return hiddenBytes(dir) > 0 })
	if rows, _ := fsFiles(t, dir); len(rows) != 0 {
		t.Fatalf("rows visible before any checkpoint: %v", rows)
	}
	stop, err := env.ExecuteSQL("STOP JOB '" + job.JobID() + "' WITH SAVEPOINT")
	if err != nil {
		t.Fatal(err)
	}
	var path string
	for r, err := range stop.Rows(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		path = r.Values[0].(string)
	}
	if err := job.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	before, hidden := fsFiles(t, dir)
	if len(before) == 0 || len(before) >= fsRows || !isPrefix(before) {
		t.Fatalf("after the savepoint the table holds %d rows %v…, want a prefix of the sequence", len(before), before[:min(len(before), 10)])
	}
	if len(hidden) != 0 {
		t.Fatalf("files left after the stop: %v", hidden)
	}

	mustExec(t, env, "SET 'execution.state-recovery.path' = '"+path+"'")
	resumed, err := env.ExecuteSQLContext(ctx, insert)
	if err != nil {
		t.Fatal(err)
	}
	if err := resumed.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	after, hidden := fsFiles(t, dir)
	if len(after) != fsRows || !isPrefix(after) || len(hidden) != 0 {
		t.Fatalf("after the resumed run: %d rows (every value once: %v), hidden files %v", len(after), isPrefix(after), hidden)
	}
}

// With periodic checkpoints, a cancelled INSERT leaves visible only the
// rows a checkpoint committed (a prefix, no partial file); resumed from
// its retained checkpoint it ends with every value once.
func TestFilesystemSinkCancelBetweenCheckpoints(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cpDir := t.TempDir()
	env := fsCheckpointEnv(t, dir)
	mustExec(t, env,
		"SET 'execution.checkpointing.interval' = '100 ms'",
		"SET 'execution.checkpointing.dir' = '"+cpDir+"'",
		"SET 'execution.checkpointing.externalized-checkpoint-retention' = 'RETAIN_ON_CANCELLATION'")
	const insert = "INSERT INTO out_t SELECT v FROM gen"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := env.ExecuteSQLContext(ctx, insert)
	if err != nil {
		t.Fatal(err)
	}
	job := res.JobClient()
	testwait.Until(t, time.Minute, "rows committed by a checkpoint", func() bool {
		rows, _ := fsFiles(t, dir)
		return len(rows) > 0
	})
	last, ok := job.LastCheckpoint()
	if !ok {
		t.Fatal("no checkpoint")
	}
	if err := job.Cancel(); err != nil {
		t.Fatal(err)
	}
	<-job.Done()
	visible, _ := fsFiles(t, dir)
	if len(visible) >= fsRows || !isPrefix(visible) {
		t.Fatalf("after cancelling: %d rows, a prefix: %v", len(visible), isPrefix(visible))
	}
	// resume from the last retained checkpoint (at least the one seen)
	latest, ok := job.LastCheckpoint()
	if !ok || latest.ID < last.ID {
		t.Fatalf("last checkpoint %+v, earlier %+v", latest, last)
	}
	mustExec(t, env, "SET 'execution.state-recovery.path' = '"+latest.Path+"'")
	resumed, err := env.ExecuteSQLContext(ctx, insert)
	if err != nil {
		t.Fatal(err)
	}
	if err := resumed.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	after, _ := fsFiles(t, dir)
	if len(after) != fsRows || !isPrefix(after) {
		t.Fatalf("after the resumed run: %d rows, every value once: %v", len(after), isPrefix(after))
	}
}

// A partitioned table with the success-file policy: with periodic
// checkpoints every partition written gets its _SUCCESS file, and the
// rows are read back once each.
func TestFilesystemSinkPartitionSuccessFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"SET 'execution.checkpointing.interval' = '50 ms'",
		"SET 'execution.checkpointing.dir' = '"+t.TempDir()+"'",
		`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000',
			'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '300')`,
		fmt.Sprintf(`CREATE TABLE out_p (v BIGINT, p STRING) PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = '%s',
			'format' = 'csv', 'sink.partition-commit.policy.kind' = 'success-file')`, dir))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := env.ExecuteSQLContext(ctx, "INSERT INTO out_p SELECT v, CAST(v % 3 AS STRING) FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	if err := res.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	var all []int64
	for p := 0; p < 3; p++ {
		pdir := filepath.Join(dir, fmt.Sprintf("p=%d", p))
		if _, err := os.Stat(filepath.Join(pdir, "_SUCCESS")); err != nil {
			t.Fatalf("partition %d: %v", p, err)
		}
		rows, hidden := fsFiles(t, pdir)
		if len(hidden) != 1 || hidden[0] != "_SUCCESS" {
			t.Fatalf("partition %d: hidden files %v", p, hidden)
		}
		for _, v := range rows {
			if v%3 != int64(p) {
				t.Fatalf("%d in partition %d", v, p)
			}
		}
		all = append(all, rows...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) != 300 || !isPrefix(all) {
		t.Fatalf("%d rows, every value once: %v", len(all), isPrefix(all))
	}
	// read through the table too: the success files are not data
	out, err := env.ExecuteSQLContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT v) FROM out_p")
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for r, err := range out.Rows(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		last = fmt.Sprint(r.Values)
	}
	if last != "[300 300]" {
		t.Fatalf("read back: %s", last)
	}
}

// A job that fails half way restarts from its last checkpoint in the same
// process (restart-strategy fixed-delay): the files committed before the
// failure stay, the restarted writers name new files, and the table ends
// with every value once.
func TestFilesystemSinkRestartAfterFailure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	env := fsCheckpointEnv(t, dir)
	var failed atomic.Bool
	failOnce := UDF(func(v int64) (int64, error) {
		if v == fsRows/2 && failed.CompareAndSwap(false, true) {
			return 0, errors.New("failing once at the middle")
		}
		return v, nil
	}, WithName("fail_once"))
	if err := env.CreateTemporarySystemFunction("fail_once", failOnce); err != nil {
		t.Fatal(err)
	}
	mustExec(t, env,
		"SET 'execution.checkpointing.interval' = '50 ms'",
		"SET 'execution.checkpointing.dir' = '"+t.TempDir()+"'",
		"SET 'restart-strategy.type' = 'fixed-delay'",
		"SET 'restart-strategy.fixed-delay.attempts' = '1'",
		"SET 'restart-strategy.fixed-delay.delay' = '0 s'")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := env.ExecuteSQLContext(ctx, "INSERT INTO out_t SELECT fail_once(v) FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	if err := res.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if !failed.Load() {
		t.Fatal("the job did not fail")
	}
	rows, _ := fsFiles(t, dir)
	if len(rows) != fsRows || !isPrefix(rows) {
		t.Fatalf("after the restarted run: %d rows, every value once: %v", len(rows), isPrefix(rows))
	}
}
