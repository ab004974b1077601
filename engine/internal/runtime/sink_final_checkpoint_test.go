package runtime

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// Final checkpoints (Flink's checkpoints after tasks finish): a bounded
// job with periodic checkpoints publishes the end of its input through one
// more checkpoint, taken as soon as every running task waits for it, not
// at the end of input outside any checkpoint. A process that dies after
// that publish and before the job's end is recorded resumes from the
// final checkpoint and writes nothing again.

// copyTree copies directory src to dst (a checkpoint kept aside before the
// finished job deletes its own).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// finalCheckpointRun runs the generator into the committing sink with
// periodic checkpoints never due (an hour apart): the only checkpoint is
// the final one. It returns what was published, the checkpoints completed
// and a copy of the last one.
func finalCheckpointRun(t *testing.T, part opspec.Partitioning, restore *Checkpoint) (map[string][]int64, map[string]int, []CheckpointStats, string) {
	t.Helper()
	st := newCommitStore()
	keep := t.TempDir()
	var mu sync.Mutex
	var done []CheckpointStats
	kept := ""
	cfg := CheckpointConfig{Interval: time.Hour, Dir: t.TempDir(), Restore: restore, OnComplete: func(s CheckpointStats) {
		// called before the tasks waiting for it end, so before the
		// finished job deletes its checkpoints
		dst := filepath.Join(keep, fmt.Sprintf("chk-%d", s.ID))
		if err := copyTree(s.Path, dst); err != nil {
			t.Errorf("keeping checkpoint %d: %v", s.ID, err)
		}
		mu.Lock()
		done = append(done, s)
		kept = dst
		mu.Unlock()
	}}
	job := startCommitJobOver(t, &cpGenerator{}, st, cfg, part)
	waitJob(t, job)
	pub, calls, _ := st.snapshot()
	mu.Lock()
	defer mu.Unlock()
	return pub, calls, done, kept
}

func TestFinalCheckpointCommitsTheEndOfInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		part opspec.Partitioning
	}{{"sink after an exchange", opspec.Hash}, {"sink chained to the source", opspec.Forward}} {
		t.Run(tc.name, func(t *testing.T) {
			pub, calls, done, kept := finalCheckpointRun(t, tc.part, nil)
			if len(done) != 1 || done[0].ID != 1 {
				t.Fatalf("checkpoints completed %+v, want the final one (1) only", done)
			}
			exactlyOnce(t, publishedValues(pub), cpRowsPerInstance)
			for k, vs := range pub {
				// everything went out through checkpoint 1; Commit at the
				// end finds nothing left
				if strings.HasSuffix(k, "/end") && len(vs) > 0 {
					t.Fatalf("%d values published at the end of input, outside the final checkpoint: %v", len(vs), pub)
				}
			}
			for k, n := range calls {
				if n != 1 || !strings.HasSuffix(k, "/1") {
					t.Fatalf("commit calls %v, want one per writer for checkpoint 1", calls)
				}
			}

			// the process dies after the final checkpoint, before the job's
			// end is recorded: resuming from it reads no row again and
			// publishes its committables once more (the same values)
			cp, err := LoadCheckpoint(kept)
			if err != nil {
				t.Fatal(err)
			}
			pub2, calls2, done2, _ := finalCheckpointRun(t, tc.part, cp)
			for k := range pub {
				if strings.HasSuffix(k, "/1") && calls2[k] != 1 {
					t.Fatalf("restored committable %s published %d times by the resumed job (calls %v)", k, calls2[k], calls2)
				}
			}
			if len(done2) != 1 || done2[0].ID != 2 {
				t.Fatalf("the resumed job's checkpoints %+v, want its own final one (2)", done2)
			}
			exactlyOnce(t, publishedValues(pub, pub2), cpRowsPerInstance)
			for k, vs := range pub2 {
				if !strings.HasSuffix(k, "/1") && len(vs) > 0 {
					t.Fatalf("the resumed job wrote rows again: %s %v", k, vs)
				}
			}
		})
	}
}

// With final checkpoints off (execution.checkpointing.checkpoints-after-
// tasks-finish = false) the end of input is published at once by Commit,
// and no checkpoint is taken.
func TestNoFinalCheckpointCommitsAtTheEndOfInput(t *testing.T) {
	st := newCommitStore()
	var completed int
	var mu sync.Mutex
	job := startCommitJob(t, &cpGenerator{}, st, CheckpointConfig{Interval: time.Hour, Dir: t.TempDir(), NoFinalCheckpoint: true,
		OnComplete: func(CheckpointStats) { mu.Lock(); completed++; mu.Unlock() }})
	waitJob(t, job)
	pub, _, _ := st.snapshot()
	exactlyOnce(t, publishedValues(pub), cpRowsPerInstance)
	ends := 0
	for k, vs := range pub {
		if strings.HasSuffix(k, "/end") {
			ends += len(vs)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if completed != 0 || ends != 2*cpRowsPerInstance {
		t.Fatalf("%d checkpoints, %d values published at the end: want 0 and %d", completed, ends, 2*cpRowsPerInstance)
	}
}

// Stop-with-savepoint near the end of the input: the sources emit nothing
// after the savepoint's barrier and no later checkpoint is taken, so the
// stopped job commits nothing a job resumed from the savepoint writes
// again (the rows after the barrier once reached the sinks, and the end of
// input or its final checkpoint committed them).
func TestStopWithSavepointCommitsNothingAfterIt(t *testing.T) {
	for round := 0; round < 10; round++ {
		gen := &cpGenerator{pauseAt: cpRowsPerInstance - 3*cpBatchRows, resume: make(chan struct{})}
		gen.paused.Add(2)
		st := newCommitStore()
		// with final checkpoints on and off (the end of input then
		// commits at once)
		job := startCommitJob(t, gen, st, CheckpointConfig{Interval: time.Hour, Dir: t.TempDir(), NoFinalCheckpoint: round%2 == 1})
		gen.paused.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		type stopped struct {
			sp  CheckpointStats
			err error
		}
		done := make(chan stopped, 1)
		spDir := t.TempDir()
		go func() {
			sp, err := job.StopWithSavepoint(ctx, spDir)
			done <- stopped{sp, err}
		}()
		// the rest of the input (three batches per instance) races the
		// savepoint's barrier
		close(gen.resume)
		r := <-done
		cancel()
		if r.err != nil && strings.Contains(r.err.Error(), "the job ended first") {
			// the input ended and the job finished before the savepoint
			// was triggered: it committed everything, and left no
			// savepoint behind
			waitJob(t, job)
			pub, _, _ := st.snapshot()
			exactlyOnce(t, publishedValues(pub), cpRowsPerInstance)
			if left, _ := os.ReadDir(spDir); len(left) > 0 {
				t.Fatalf("a savepoint refused left %v behind", left)
			}
			continue
		}
		if r.err != nil {
			t.Fatal(r.err)
		}
		if s := job.Status(); s != Finished {
			t.Fatalf("the stopped job is %v, want FINISHED when StopWithSavepoint returns", s)
		}
		first, _, _ := st.snapshot()
		cp, err := LoadCheckpoint(r.sp.Path)
		if err != nil {
			t.Fatal(err)
		}
		st2 := newCommitStore()
		resumed := startCommitJob(t, &cpGenerator{}, st2, CheckpointConfig{Restore: cp})
		waitJob(t, resumed)
		second, _, _ := st2.snapshot()
		// each job's Commit publishes under "<writer>/end": kept apart
		// (a checkpoint's committable published again is the same one)
		for k, v := range second {
			if strings.HasSuffix(k, "/end") {
				delete(second, k)
				second["resumed "+k] = v
			}
		}
		exactlyOnce(t, publishedValues(first, second), cpRowsPerInstance)
	}
}
