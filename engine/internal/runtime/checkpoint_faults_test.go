package runtime

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Faults of checkpoint storage (issue 16): a full disk, a directory that
// goes away or cannot be written, a checkpoint damaged on disk. Each gives
// an error naming the file; a failed checkpoint leaves nothing behind
// under a complete checkpoint's name, the job goes on as
// execution.checkpointing.tolerable-failed-checkpoints says, and the
// previous checkpoint can still be restored.

// checkpointNow triggers a checkpoint of j and returns how it ended. The
// jobs of these tests take no periodic checkpoints (no interval: the
// coordinator would trigger one as soon as another ends); the tests
// trigger each.
func checkpointNow(t *testing.T, j *Job) error {
	t.Helper()
	p, err := j.coord.trigger(false, "")
	if err != nil {
		t.Fatalf("trigger: %v", err)
	}
	select {
	case <-p.ended:
	case <-time.After(time.Minute):
		t.Fatal("the checkpoint did not end")
	}
	return <-p.done
}

// checkpointDirs lists a job's checkpoint folder.
func checkpointDirs(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// fullDiskEnv names the checkpoint directory of the child process of
// TestCheckpointOnAFullDisk.
const fullDiskEnv = "RIFFLE_TEST_FULL_DISK_DIR"

// TestCheckpointOnAFullDisk runs TestCheckpointOnAFullDiskChild in a child
// process, where RLIMIT_FSIZE makes every write past a few bytes fail with
// EFBIG as a full disk fails it with ENOSPC (the limit is the process's, so
// it is not set in the test process).
func TestCheckpointOnAFullDisk(t *testing.T) {
	if os.Getenv(fullDiskEnv) != "" {
		t.Skip("in the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointOnAFullDiskChild$", "-test.v")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestCheckpointOnAFullDiskChild") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// setFileSizeLimit sets the soft RLIMIT_FSIZE of the process to n bytes
// (RLIM_INFINITY for -1) and returns the limit it replaced.
func setFileSizeLimit(t *testing.T, n int64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = lim.Max
	if n >= 0 {
		lim.Cur = uint64(n)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointOnAFullDiskChild: with one tolerable failure, a checkpoint
// that cannot be written fails with an error naming the file and the job
// goes on, nothing of it left on disk; the next checkpoint, written once
// there is room, completes; two failures in a row fail the job; the last
// complete checkpoint then resumes the job exactly once.
func TestCheckpointOnAFullDiskChild(t *testing.T) {
	dir := os.Getenv(fullDiskEnv)
	if dir == "" {
		t.Skip("the child of TestCheckpointOnAFullDisk")
	}
	defer setFileSizeLimit(t, -1)
	gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
	gen.paused.Add(2)
	j, err := startSumJob(t, gen, CheckpointConfig{Dir: dir, TolerableFailures: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	jobDir := filepath.Join(dir, j.job.ID)
	if err := checkpointNow(t, j.job); err != nil {
		t.Fatalf("checkpoint 1: %v", err)
	}

	setFileSizeLimit(t, 4) // "the disk is full"
	err = checkpointNow(t, j.job)
	if err == nil || !strings.Contains(err.Error(), "file too large") || !strings.Contains(err.Error(), filepath.Join(jobDir, "chk-2.inprogress")+"/") {
		t.Fatalf("checkpoint 2 on a full disk: %v", err)
	}
	t.Logf("checkpoint 2 on a full disk: %v", err)
	if got := checkpointDirs(t, jobDir); strings.Join(got, " ") != "chk-1" {
		t.Fatalf("after the failed checkpoint the job's folder holds %v, want chk-1 alone", got)
	}
	if st := j.job.Status(); st != Running {
		t.Fatalf("one tolerable failure left the job %s", st)
	}
	if cp, err := LoadCheckpoint(jobDir); err != nil || cp.ID != 1 {
		t.Fatalf("the previous checkpoint: %+v, %v", cp, err)
	}

	setFileSizeLimit(t, -1) // room again
	if err := checkpointNow(t, j.job); err != nil {
		t.Fatalf("checkpoint 3: %v", err)
	}
	if c := j.job.CheckpointCounts(); c.Completed != 2 || c.Failed != 1 {
		t.Fatalf("counts %+v", c)
	}

	setFileSizeLimit(t, 4)
	for id := 4; id <= 5; id++ {
		if err := checkpointNow(t, j.job); err == nil {
			t.Fatalf("checkpoint %d was written on a full disk", id)
		}
	}
	<-j.job.Done()
	setFileSizeLimit(t, -1)
	if err := j.job.Err(); j.job.Status() != Failed || err == nil || !strings.Contains(err.Error(), "file too large") ||
		!strings.Contains(err.Error(), "tolerable-failed-checkpoints is 1") {
		t.Fatalf("after two failures in a row: %s, %v", j.job.Status(), err)
	}
	if got := checkpointDirs(t, jobDir); strings.Join(got, " ") != "chk-3" {
		t.Fatalf("the failed job's folder holds %v, want chk-3 alone", got)
	}
	cp, err := LoadCheckpoint(jobDir)
	if err != nil || cp.ID != 3 {
		t.Fatalf("the last complete checkpoint: %+v, %v", cp, err)
	}
	resumed, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Restore: cp}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, resumed.job)
	equalSums(t, resumed.sums(), expectedSums())
}

// TestCheckpointDirectoryGoneOrReadOnly: a job's checkpoint folder removed
// while it runs is made again by the next checkpoint; one that cannot be
// written fails the checkpoint with an error naming it, and the job,
// allowed one failure, runs on and checkpoints again once it can.
func TestCheckpointDirectoryGoneOrReadOnly(t *testing.T) {
	dir := t.TempDir()
	gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
	gen.paused.Add(2)
	j, err := startSumJob(t, gen, CheckpointConfig{Dir: dir, TolerableFailures: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		j.job.Cancel()
		<-j.job.Done()
	}()
	gen.paused.Wait()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := checkpointNow(t, j.job); err != nil {
		t.Fatalf("checkpoint into a removed folder: %v", err)
	}
	jobDir := filepath.Join(dir, j.job.ID)
	if got := checkpointDirs(t, jobDir); strings.Join(got, " ") != "chk-1" {
		t.Fatalf("the job's folder holds %v", got)
	}

	if os.Geteuid() == 0 {
		t.Log("running as root: folder permissions do not apply, the read-only folder is not tried")
		return
	}
	if err := os.Chmod(jobDir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(jobDir, 0o755)
	err = checkpointNow(t, j.job)
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), filepath.Join(jobDir, "chk-2.inprogress")) {
		t.Fatalf("checkpoint into a read-only folder: %v", err)
	}
	if st := j.job.Status(); st != Running {
		t.Fatalf("one tolerable failure left the job %s", st)
	}
	if err := os.Chmod(jobDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkpointNow(t, j.job); err != nil {
		t.Fatalf("checkpoint 3: %v", err)
	}
	if cp, err := LoadCheckpoint(jobDir); err != nil || cp.ID != 3 {
		t.Fatalf("latest checkpoint: %+v, %v", cp, err)
	}
}

// TestDamagedLatestCheckpoint: resuming from a job's folder takes its
// latest complete checkpoint and ignores one a crash left half-written
// (chk-<n>.inprogress). A damaged latest checkpoint is an error naming the
// file, not a silent fall-back to an older one (whose rows an exactly-once
// sink has committed since); the older one, named, still resumes the job.
func TestDamagedLatestCheckpoint(t *testing.T) {
	dir := t.TempDir()
	gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
	gen.paused.Add(2)
	j, err := startSumJob(t, gen, CheckpointConfig{Dir: dir, Retained: 2, RetainOnCancellation: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	for id := 1; id <= 2; id++ {
		if err := checkpointNow(t, j.job); err != nil {
			t.Fatalf("checkpoint %d: %v", id, err)
		}
	}
	j.job.Cancel()
	<-j.job.Done()
	jobDir := filepath.Join(dir, j.job.ID)

	// a crash while checkpoint 3 was being written
	partial := filepath.Join(jobDir, "chk-3.inprogress")
	if err := os.MkdirAll(partial, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(partial, "x-0.state"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cp, err := LoadCheckpoint(jobDir); err != nil || cp.ID != 2 {
		t.Fatalf("with a half-written checkpoint beside: %+v, %v", cp, err)
	}

	states, _ := filepath.Glob(filepath.Join(jobDir, "chk-2", "*.state"))
	if len(states) == 0 {
		t.Fatal("no state files")
	}
	if err := os.Truncate(states[0], 1); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpoint(jobDir); err == nil || !strings.Contains(err.Error(), "checkpoint file "+states[0]+" is corrupt") {
		t.Fatalf("damaged state file: %v", err)
	}
	meta := filepath.Join(jobDir, "chk-2", "_metadata")
	if err := os.WriteFile(meta, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpoint(jobDir); err == nil || !strings.Contains(err.Error(), "checkpoint "+meta+" is corrupt") {
		t.Fatalf("damaged manifest: %v", err)
	}
	cp, err := LoadCheckpoint(filepath.Join(jobDir, "chk-1"))
	if err != nil || cp.ID != 1 {
		t.Fatalf("the previous checkpoint: %+v, %v", cp, err)
	}
	resumed, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Restore: cp}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, resumed.job)
	equalSums(t, resumed.sums(), expectedSums())
}
