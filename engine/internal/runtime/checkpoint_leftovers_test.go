package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A process killed while it took or deleted a checkpoint leaves
// chk-<n>.inprogress and chk-<n>.discarded directories; a job resuming
// from that job's checkpoints removes them, and keeps the retained
// checkpoints and an in-progress directory a live process is writing.
func TestResumeRemovesCheckpointLeftovers(t *testing.T) {
	dir := t.TempDir()
	gen := &cpGenerator{pauseAt: 120, resume: make(chan struct{})}
	gen.paused.Add(2)
	var once sync.Once
	two := make(chan struct{})
	var n int
	var mu sync.Mutex
	cfg := CheckpointConfig{Interval: time.Millisecond, Dir: dir, Retained: 2, RetainOnCancellation: true, OnComplete: func(CheckpointStats) {
		mu.Lock()
		defer mu.Unlock()
		if n++; n == 2 {
			once.Do(func() { close(two) })
		}
	}}
	first, err := startSumJob(t, gen, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	<-two
	first.job.Cancel()
	<-first.job.Done()
	jobDir := filepath.Join(dir, first.job.ID)
	retained := listDir(t, jobDir)
	if len(retained) != 2 {
		t.Fatalf("retained %v", retained)
	}
	// what kill -9 leaves: a checkpoint half written, one half deleted
	for _, d := range []string{"chk-900.inprogress", "chk-1.discarded"} {
		if err := os.MkdirAll(filepath.Join(jobDir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(jobDir, d, "x.state"), []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// a checkpoint another live process is writing right now
	live := filepath.Join(jobDir, "chk-901.inprogress")
	if err := os.MkdirAll(live, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, free := tryLockDir(live)
	if !free {
		t.Fatal("cannot lock a fresh directory")
	}
	defer unlock()

	cp, err := LoadCheckpoint(jobDir)
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Restore: cp}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, resumed.job)
	equalSums(t, resumed.sums(), expectedSums())
	want := append(slices.Clone(retained), "chk-901.inprogress")
	slices.Sort(want)
	if got := listDir(t, jobDir); !slices.Equal(got, want) {
		t.Fatalf("after resuming: %v, want %v (the retained checkpoints and the live one)", got, want)
	}
	unlock()
	// once its writer is gone, the next resume removes it
	if got := RemoveCheckpointLeftovers(jobDir); !slices.Equal(got, []string{live}) {
		t.Fatalf("removed %v, want %v", got, []string{live})
	}
	if got := listDir(t, jobDir); !slices.Equal(got, retained) {
		t.Fatalf("left %v, want %v", got, retained)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// A job submitted with checkpoints removes the <job id>.discarded folders
// under the checkpoint directory (a killed process was deleting a
// finished job's checkpoints) and nothing else there.
func TestSubmitRemovesDiscardedJobDirs(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"old.discarded/chk-1", "other-job/chk-3"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	job := startCommitJob(t, &cpGenerator{}, newCommitStore(), CheckpointConfig{Interval: time.Hour, Dir: dir})
	waitJob(t, job)
	if got := listDir(t, dir); !slices.Equal(got, []string{"other-job"}) {
		t.Fatalf("the checkpoint directory holds %v, want [other-job]", got)
	}
}

// A checkpoint or savepoint folder that never completed is refused even
// when named explicitly: its files may be partial.
func TestLoadCheckpointRefusesIncomplete(t *testing.T) {
	for _, name := range []string{"chk-5.inprogress", "savepoint-ab12cd-7.inprogress", "chk-4.discarded"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "_metadata"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{dir, filepath.Join(dir, "_metadata")} {
			if _, err := LoadCheckpoint(p); err == nil || !strings.Contains(err.Error(), "is not complete") {
				t.Fatalf("LoadCheckpoint(%s): %v", p, err)
			}
		}
	}
}
