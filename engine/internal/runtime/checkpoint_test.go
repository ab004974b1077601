package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// The checkpoint tests run a small keyed job: a generator of (key, value)
// rows in two parallel instances, a hash exchange, a summing operator
// whose state is a map key -> sum (two instances), and a sink keeping the
// last sum emitted per key. Exactly-once state means the final sums after
// a resume equal those of an uninterrupted run; a row read twice or lost
// changes them.

var kvTypes = []*types.DataType{types.BigIntType(), types.BigIntType()}

const (
	cpRowsPerInstance = 400
	cpBatchRows       = 10
	cpKeys            = 7
)

// genValue is the value of row seq of instance inst.
func genValue(inst, seq int) int64 { return int64(inst*100_000 + seq) }

// expectedSums are the sums per key over all rows of both instances.
func expectedSums() map[int64]int64 {
	want := map[int64]int64{}
	for inst := 0; inst < 2; inst++ {
		for seq := 0; seq < cpRowsPerInstance; seq++ {
			want[int64(seq%cpKeys)] += genValue(inst, seq)
		}
	}
	return want
}

// cpGenerator is a resumable source: its position is the next row's seq.
// When pause is set, each instance stops after pauseAt rows until resume
// is closed, answering checkpoint triggers meanwhile.
type cpGenerator struct {
	pauseAt int
	paused  sync.WaitGroup // done once per instance when it first pauses
	once    [2]sync.Once
	resume  chan struct{}
}

func (g *cpGenerator) source() SourceFunc {
	return func(ctx context.Context, inst, _ int, emit func(*types.Batch) error) error {
		sc := SourceCheckpointOf(ctx)
		seq := 0
		if saved := sc.Restored(); saved != nil {
			n, k := binary.Uvarint(saved)
			if k <= 0 {
				return errors.New("bad position")
			}
			seq = int(n)
		}
		position := func() ([]byte, error) { return binary.AppendUvarint(nil, uint64(seq)), nil }
		for seq < cpRowsPerInstance {
			if g.resume != nil && seq == g.pauseAt {
				g.once[inst].Do(g.paused.Done)
			wait:
				for {
					select {
					case <-g.resume:
						break wait
					case <-sc.Triggered():
						if err := sc.Between(position); err != nil {
							return err
						}
					case <-ctx.Done():
						return ctx.Err()
					}
				}
			}
			bb := types.NewBatchBuilder(kvTypes)
			for i := 0; i < cpBatchRows && seq < cpRowsPerInstance; i++ {
				if err := bb.Append(types.Insert, []any{int64(seq % cpKeys), genValue(inst, seq)}); err != nil {
					return err
				}
				seq++
			}
			if err := emit(bb.Build()); err != nil {
				return err
			}
			if err := sc.Between(position); err != nil {
				return err
			}
		}
		return nil
	}
}

// sumOp keeps a sum per key and emits the new sum of each key it updates.
type sumOp struct {
	out  Output
	sums map[int64]int64
}

func (s *sumOp) Open(_ *OpContext, out Output) error {
	s.out, s.sums = out, map[int64]int64{}
	return nil
}

func (s *sumOp) ProcessBatch(_ int, b *types.Batch) error {
	bb := types.NewBatchBuilder(kvTypes)
	for _, r := range b.Rows(kvTypes) {
		k := r.Values[0].(int64)
		s.sums[k] += r.Values[1].(int64)
		if err := bb.Append(types.Insert, []any{k, s.sums[k]}); err != nil {
			return err
		}
	}
	return s.out.Emit(bb.Build())
}

func (s *sumOp) ProcessWatermark(_ int, wm int64) error { return s.out.EmitWatermark(wm) }
func (s *sumOp) EndInput(int) error                     { return nil }
func (s *sumOp) Close() error                           { return nil }
func (s *sumOp) StateSize() (int64, int64)              { return int64(len(s.sums)), int64(16 * len(s.sums)) }

func (s *sumOp) SnapshotState() ([]byte, error) {
	keys := make([]int64, 0, len(s.sums))
	for k := range s.sums {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	b := []byte("sum1")
	for _, k := range keys {
		b = binary.AppendVarint(b, k)
		b = binary.AppendVarint(b, s.sums[k])
	}
	return b, nil
}

func (s *sumOp) RestoreState(b []byte) error {
	if !strings.HasPrefix(string(b), "sum1") {
		return errors.New("not a sum state")
	}
	b = b[4:]
	for len(b) > 0 {
		k, n := binary.Varint(b)
		if n <= 0 {
			return errors.New("truncated key")
		}
		b = b[n:]
		v, n := binary.Varint(b)
		if n <= 0 {
			return errors.New("truncated sum")
		}
		b = b[n:]
		s.sums[k] = v
	}
	return nil
}

// lastSink records the last sum emitted per key.
type lastSink struct {
	mu   *sync.Mutex
	last map[int64]int64
}

func (s *lastSink) Open(*OpContext, Output) error { return nil }
func (s *lastSink) ProcessBatch(_ int, b *types.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range b.Rows(kvTypes) {
		s.last[r.Values[0].(int64)] = r.Values[1].(int64)
	}
	return nil
}
func (s *lastSink) ProcessWatermark(int, int64) error { return nil }
func (s *lastSink) EndInput(int) error                { return nil }
func (s *lastSink) Close() error                      { return nil }

// sumJob is the test job and what its sink saw.
type sumJob struct {
	job  *Job
	mu   sync.Mutex
	last map[int64]int64
}

func (j *sumJob) sums() map[int64]int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := map[int64]int64{}
	for k, v := range j.last {
		out[k] = v
	}
	return out
}

func startSumJob(t *testing.T, gen *cpGenerator, cfg CheckpointConfig, stateless bool) (*sumJob, error) {
	return startSumJobWith(t, gen, cfg, func() Operator {
		if stateless {
			// an operator that holds state it cannot save
			return &unsavedState{}
		}
		return &sumOp{}
	}, nil)
}

func startSumJobWith(t *testing.T, gen *cpGenerator, cfg CheckpointConfig, newSum func() Operator, restart RestartStrategy) (*sumJob, error) {
	t.Helper()
	sj := &sumJob{last: map[int64]int64{}}
	g := &Graph{}
	src := g.AddSource("gen", 2, true, gen.source())
	src.Resumable = true
	sum := g.AddOperator("sum", 2, newSum, Edge{From: src, Part: opspec.Hash, Keys: []int{0}})
	g.AddOperator("last", 1, func() Operator { return &lastSink{mu: &sj.mu, last: sj.last} }, Edge{From: sum, Part: opspec.Single})
	jc := DefaultJobConfig()
	jc.Checkpoint = cfg
	jc.Restart = restart
	job, err := Submit(context.Background(), "sums", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	sj.job = job
	return sj, err
}

// unsavedState is a stateful operator without CheckpointedOperator.
type unsavedState struct{ inner sumOp }

func (u *unsavedState) Open(c *OpContext, out Output) error       { return u.inner.Open(c, out) }
func (u *unsavedState) ProcessBatch(in int, b *types.Batch) error { return u.inner.ProcessBatch(in, b) }
func (u *unsavedState) ProcessWatermark(in int, wm int64) error {
	return u.inner.ProcessWatermark(in, wm)
}
func (u *unsavedState) EndInput(in int) error     { return nil }
func (u *unsavedState) Close() error              { return nil }
func (u *unsavedState) StateSize() (int64, int64) { return u.inner.StateSize() }

func waitJob(t *testing.T, j *Job) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := j.Wait(ctx); err != nil {
		t.Fatalf("job: %v", err)
	}
}

func equalSums(t *testing.T, got, want map[int64]int64) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sums per key:\n got %v\nwant %v", got, want)
	}
}

// TestSavepointResumeIsExactlyOnce stops a job with a savepoint half way
// and resumes it: the sums equal an uninterrupted run's.
func TestSavepointResumeIsExactlyOnce(t *testing.T) {
	want := expectedSums()

	// uninterrupted
	full, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, full.job)
	equalSums(t, full.sums(), want)

	// paused half way, savepoint, cancel
	gen := &cpGenerator{pauseAt: 200, resume: make(chan struct{})}
	gen.paused.Add(2)
	first, err := startSumJob(t, gen, CheckpointConfig{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sp, err := first.job.TriggerSavepoint(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	first.job.Cancel()
	if !strings.HasPrefix(filepath.Base(sp.Path), "savepoint-"+first.job.ID[:6]+"-") || !sp.Savepoint || sp.Size == 0 {
		t.Fatalf("savepoint stats %+v", sp)
	}
	if _, err := os.Stat(filepath.Join(sp.Path, "_metadata")); err != nil {
		t.Fatal(err)
	}

	// resumed
	cp, err := LoadCheckpoint(sp.Path)
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Restore: cp}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, resumed.job)
	equalSums(t, resumed.sums(), want)
}

// TestPeriodicCheckpointsRetainAndResume takes checkpoints every few
// milliseconds while the generator is paused, keeps the last two, and
// resumes from the job's checkpoint directory (its latest checkpoint).
func TestPeriodicCheckpointsRetainAndResume(t *testing.T) {
	dir := t.TempDir()
	gen := &cpGenerator{pauseAt: 120, resume: make(chan struct{})}
	gen.paused.Add(2)
	var mu sync.Mutex
	var completed []int64
	four := make(chan struct{})
	cfg := CheckpointConfig{Interval: time.Millisecond, Dir: dir, Retained: 2, RetainOnCancellation: true, OnComplete: func(s CheckpointStats) {
		mu.Lock()
		defer mu.Unlock()
		completed = append(completed, s.ID)
		if len(completed) == 4 {
			close(four)
		}
	}}
	first, err := startSumJob(t, gen, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	<-four
	first.job.Cancel()
	<-first.job.Done()
	entries, err := os.ReadDir(filepath.Join(dir, first.job.ID))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 2 {
		t.Fatalf("retained checkpoints %v, want 2", names)
	}
	if c := first.job.CheckpointCounts(); c.Completed < 4 || c.Failed != 0 {
		t.Fatalf("counts %+v", c)
	}
	cp, err := LoadCheckpoint(filepath.Join(dir, first.job.ID))
	if err != nil {
		t.Fatal(err)
	}
	last, _ := first.job.LastCheckpoint()
	if cp.ID != last.ID || cp.Path != last.Path {
		t.Fatalf("loaded checkpoint %d at %s, the last complete is %d at %s", cp.ID, cp.Path, last.ID, last.Path)
	}
	resumed, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Restore: cp}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, resumed.job)
	equalSums(t, resumed.sums(), expectedSums())
}

// TestCheckpointRefusals: what cannot be checkpointed or resumed is
// refused at submission, with the reason.
func TestCheckpointRefusals(t *testing.T) {
	_, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Interval: time.Second, Dir: t.TempDir()}, true)
	if err == nil || !strings.Contains(err.Error(), "operator sum cannot save its state") {
		t.Fatalf("stateful operator without snapshots: %v", err)
	}
	_, err = startSumJob(t, &cpGenerator{}, CheckpointConfig{Interval: time.Second}, false)
	if err == nil || !strings.Contains(err.Error(), "execution.checkpointing.dir") {
		t.Fatalf("no directory: %v", err)
	}
	g := &Graph{}
	src := g.AddSource("plain", 1, true, func(context.Context, int, int, func(*types.Batch) error) error { return nil })
	g.AddOperator("sum", 1, func() Operator { return &sumOp{} }, Edge{From: src, Part: opspec.Forward})
	jc := DefaultJobConfig()
	jc.Checkpoint = CheckpointConfig{Interval: time.Second, Dir: t.TempDir()}
	if _, err := Submit(context.Background(), "x", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false); err == nil ||
		!strings.Contains(err.Error(), "source plain cannot save its read position") {
		t.Fatalf("non-resumable source: %v", err)
	}
}

// takeSavepoint runs the paused job and returns its savepoint's directory.
func takeSavepoint(t *testing.T) string {
	t.Helper()
	gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
	gen.paused.Add(2)
	j, err := startSumJob(t, gen, CheckpointConfig{}, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	sp, err := j.job.TriggerSavepoint(context.Background(), t.TempDir())
	j.job.Cancel()
	if err != nil {
		t.Fatal(err)
	}
	return sp.Path
}

// TestCorruptCheckpoints: a damaged checkpoint gives an error naming the
// file; nothing is restored from it.
func TestCorruptCheckpoints(t *testing.T) {
	path := takeSavepoint(t)
	states, _ := filepath.Glob(filepath.Join(path, "*.state"))
	if len(states) == 0 {
		t.Fatal("no state files")
	}
	raw, _ := os.ReadFile(states[0])
	raw[len(raw)-1] ^= 0xff
	if err := os.WriteFile(states[0], raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), states[0]+" is corrupt: CRC-32C") {
		t.Fatalf("flipped byte: %v", err)
	}
	if err := os.WriteFile(states[0], raw[:len(raw)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "bytes, the manifest says") {
		t.Fatalf("truncated file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(path, "_metadata"), []byte(`{"format":"riffle-checkpoint","version":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "_metadata is corrupt") {
		t.Fatalf("truncated manifest: %v", err)
	}
	if err := os.WriteFile(filepath.Join(path, "_metadata"), []byte(`{"format":"riffle-checkpoint","version":9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "format version 9; this Riffle reads version 2") {
		t.Fatalf("newer version: %v", err)
	}
	empty := t.TempDir()
	if _, err := LoadCheckpoint(empty); err == nil || !strings.Contains(err.Error(), "no checkpoint at "+empty) {
		t.Fatalf("empty directory: %v", err)
	}
	if _, err := LoadCheckpoint(filepath.Join(empty, "missing")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing directory: %v", err)
	}
}

// TestResumeChecksTheJob: a checkpoint of another job shape is refused
// unless its extra state may be dropped.
func TestResumeChecksTheJob(t *testing.T) {
	cp, err := LoadCheckpoint(takeSavepoint(t))
	if err != nil {
		t.Fatal(err)
	}
	// the same job with the sum operator renamed: its state is unclaimed
	build := func(cfg CheckpointConfig) error {
		sj := &sumJob{last: map[int64]int64{}}
		g := &Graph{}
		src := g.AddSource("gen", 2, true, (&cpGenerator{}).source())
		src.Resumable = true
		sum := g.AddOperator("sum2", 2, func() Operator { return &sumOp{} }, Edge{From: src, Part: opspec.Hash, Keys: []int{0}})
		g.AddOperator("last", 1, func() Operator { return &lastSink{mu: &sj.mu, last: sj.last} }, Edge{From: sum, Part: opspec.Single})
		jc := DefaultJobConfig()
		jc.Checkpoint = cfg
		j, err := Submit(context.Background(), "sums", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
		if err == nil {
			waitJob(t, j)
		}
		return err
	}
	if err := build(CheckpointConfig{Restore: cp}); err == nil || !strings.Contains(err.Error(), "holds state of operators this job does not have: sum (") ||
		!strings.Contains(err.Error(), "execution.state-recovery.ignore-unclaimed-state") {
		t.Fatalf("unclaimed state: %v", err)
	}
	if err := build(CheckpointConfig{Restore: cp, IgnoreUnclaimedState: true}); err != nil {
		t.Fatalf("unclaimed state ignored: %v", err)
	}
}

// TestCheckpointWriteFailureFailsTheJob: a checkpoint directory that
// cannot be made is refused at submission; a checkpoint that cannot be
// written later fails, and with no tolerable failures the job fails with
// the cause.
func TestCheckpointWriteFailureFailsTheJob(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Interval: time.Millisecond, Dir: filepath.Join(blocker, "cp")}, false)
	if err == nil || !strings.Contains(err.Error(), "checkpoint directory "+filepath.Join(blocker, "cp")+" (execution.checkpointing.dir)") ||
		!strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("submission: %v", err)
	}

	// the job's directory replaced by a file while it runs
	dir := t.TempDir()
	gen := &cpGenerator{pauseAt: 50, resume: make(chan struct{})}
	gen.paused.Add(2)
	j, err := startSumJob(t, gen, CheckpointConfig{Interval: time.Hour, Dir: dir}, false)
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	jobDir := filepath.Join(dir, j.job.ID)
	if err := os.Remove(jobDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jobDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := j.job.TriggerSavepoint(context.Background(), jobDir); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("savepoint into a file: %v", err)
	}
	if st := j.job.Status(); st != Running {
		t.Fatalf("a failed savepoint left the job %s", st)
	}
	j.job.coord.trigger(false, "")
	<-j.job.Done()
	err = j.job.Err()
	if err == nil || !strings.Contains(err.Error(), "not a directory") || !strings.Contains(err.Error(), "tolerable-failed-checkpoints is 0") {
		t.Fatalf("job error: %v", err)
	}
}

// badRestore is a sumOp whose state never fits.
type badRestore struct{ sumOp }

func (b *badRestore) RestoreState([]byte) error {
	return errors.New("the snapshot is of another shape")
}

// TestRestoreFailureIsNotRestarted: a checkpoint that does not fit the
// job fails it at once, whatever the restart strategy: restarting from the
// same checkpoint cannot help.
func TestRestoreFailureIsNotRestarted(t *testing.T) {
	cp, err := LoadCheckpoint(takeSavepoint(t))
	if err != nil {
		t.Fatal(err)
	}
	j, err := startSumJobWith(t, &cpGenerator{}, CheckpointConfig{Restore: cp}, func() Operator { return &badRestore{} }, &FixedDelayRestart{Attempts: 5})
	if err != nil {
		t.Fatal(err)
	}
	<-j.job.Done()
	var re *RestoreError
	if err := j.job.Err(); !errors.As(err, &re) || !strings.Contains(err.Error(), "the snapshot is of another shape") {
		t.Fatalf("job error: %v", err)
	}
	if n, _ := j.job.Restarts(); n != 0 {
		t.Fatalf("restarted %d times", n)
	}
}

// TestCheckpointsWhileTasksFinish takes checkpoints every millisecond
// while a bounded job runs to its end: tasks that finished acknowledge
// later checkpoints as finished, the job ends, and its sums are right.
func TestCheckpointsWhileTasksFinish(t *testing.T) {
	for _, mode := range []CheckpointingMode{ExactlyOnce, AtLeastOnce} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			j, err := startSumJob(t, &cpGenerator{}, CheckpointConfig{Interval: time.Millisecond, Mode: mode, Dir: dir}, false)
			if err != nil {
				t.Fatal(err)
			}
			waitJob(t, j.job)
			equalSums(t, j.sums(), expectedSums())
			if c := j.job.CheckpointCounts(); c.Failed != 0 || c.InProgress != 0 {
				t.Fatalf("counts %+v", c)
			}
			// a finished job's checkpoints are deleted
			if _, err := os.Stat(filepath.Join(dir, j.job.ID)); !os.IsNotExist(err) {
				t.Fatalf("checkpoints of the finished job: %v", err)
			}
		})
	}
}

// failingSum fails once, at the first row of instance 0's seq failAt,
// when armed.
type failingSum struct {
	sumOp
	armed *atomic.Bool
}

func (f *failingSum) ProcessBatch(in int, b *types.Batch) error {
	if f.armed.Load() {
		for _, r := range b.Rows(kvTypes) {
			if r.Values[1].(int64) == genValue(0, 250) && f.armed.CompareAndSwap(true, false) {
				return errors.New("injected failure")
			}
		}
	}
	return f.sumOp.ProcessBatch(in, b)
}

// TestRestartFromLastCheckpoint: a job that fails after a checkpoint
// restarts from it (fixed-delay, one attempt) and ends with the sums of
// an uninterrupted run; a second failure with no attempt left fails it.
func TestRestartFromLastCheckpoint(t *testing.T) {
	gen := &cpGenerator{pauseAt: 200, resume: make(chan struct{})}
	gen.paused.Add(2)
	var armed atomic.Bool
	checkpointed := make(chan struct{})
	var once sync.Once
	cfg := CheckpointConfig{Interval: time.Millisecond, Dir: t.TempDir(), OnComplete: func(CheckpointStats) { once.Do(func() { close(checkpointed) }) }}
	j, err := startSumJobWith(t, gen, cfg, func() Operator { return &failingSum{armed: &armed} }, &FixedDelayRestart{Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	gen.paused.Wait()
	<-checkpointed
	armed.Store(true)
	close(gen.resume)
	waitJob(t, j.job)
	equalSums(t, j.sums(), expectedSums())
	if n, last := j.job.Restarts(); n != 1 || last == nil || !strings.Contains(last.Error(), "injected failure") {
		t.Fatalf("restarts %d, last failure %v", n, last)
	}
	if st := j.job.Status(); st != Finished {
		t.Fatalf("status %s", st)
	}

	// no attempt left: the job fails with the cause
	armed.Store(true)
	j2, err := startSumJobWith(t, &cpGenerator{}, CheckpointConfig{Interval: time.Millisecond, Dir: t.TempDir()},
		func() Operator { return &failingSum{armed: &armed} }, &FixedDelayRestart{Attempts: 0})
	if err != nil {
		t.Fatal(err)
	}
	<-j2.job.Done()
	if err := j2.job.Err(); err == nil || !strings.Contains(err.Error(), "injected failure") || j2.job.Status() != Failed {
		t.Fatalf("second job: %v, %s", err, j2.job.Status())
	}
}

func TestRestartStrategies(t *testing.T) {
	now := time.Unix(1000, 0)
	f := &FixedDelayRestart{Attempts: 2, Delay: time.Second}
	for i, want := range []bool{true, true, false} {
		if d, ok := f.NextDelay(now); ok != want || (ok && d != time.Second) {
			t.Fatalf("fixed-delay failure %d: %v %v", i, d, ok)
		}
	}
	r := &FailureRateRestart{MaxFailures: 2, Interval: time.Minute, Delay: 3 * time.Second}
	for i, at := range []time.Duration{0, 10 * time.Second, 90 * time.Second, 100 * time.Second} {
		if d, ok := r.NextDelay(now.Add(at)); !ok || d != 3*time.Second {
			t.Fatalf("failure-rate failure %d at %v: %v %v", i, at, d, ok)
		}
	}
	if _, ok := r.NextDelay(now.Add(110 * time.Second)); ok {
		t.Fatal("failure-rate: a third failure within a minute restarted")
	}
	e := &ExponentialDelayRestart{Initial: time.Second, Max: 5 * time.Second, Multiplier: 2, ResetThreshold: time.Hour}
	var got []time.Duration
	for i := 0; i < 5; i++ {
		d, ok := e.NextDelay(now.Add(time.Duration(i) * time.Minute))
		if !ok {
			t.Fatal("exponential-delay refused")
		}
		got = append(got, d)
	}
	if fmt.Sprint(got) != "[1s 2s 4s 5s 5s]" {
		t.Fatalf("exponential-delay backoffs %v", got)
	}
	if d, _ := e.NextDelay(now.Add(3 * time.Hour)); d != time.Second {
		t.Fatalf("exponential-delay after the reset threshold: %v", d)
	}
}

// idleSource is a connector source of one split whose reader emits a few
// batches and then waits for data that never comes, as an idle Kafka
// partition does; it wakes for checkpoints (connector.WakeableReader).
type idleSource struct{}

type idleSplit struct{}

func (idleSplit) String() string { return "idle-0" }

func (idleSource) Bounded() bool                      { return false }
func (idleSource) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }
func (idleSource) Splits(context.Context) ([]connector.Split, error) {
	return []connector.Split{idleSplit{}}, nil
}
func (idleSource) Open(ctx context.Context, _ connector.Split, _ connector.ReadSpec) (connector.Reader, error) {
	return &idleReader{wake: make(chan struct{}, 1)}, nil
}
func (s idleSource) OpenAt(ctx context.Context, sp connector.Split, spec connector.ReadSpec, pos []byte) (connector.Reader, error) {
	r := &idleReader{wake: make(chan struct{}, 1)}
	n, k := binary.Uvarint(pos)
	if k <= 0 {
		return nil, errors.New("bad position")
	}
	r.sent = int(n)
	return r, nil
}

type idleReader struct {
	sent int
	wake chan struct{}
}

func (r *idleReader) Next(ctx context.Context) (*types.Batch, error) {
	if r.sent < 3 {
		r.sent++
		bb := types.NewBatchBuilder(kvTypes)
		if err := bb.Append(types.Insert, []any{int64(r.sent), int64(r.sent)}); err != nil {
			return nil, err
		}
		return bb.Build(), nil
	}
	select {
	case <-r.wake:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
func (r *idleReader) Close() error { return nil }
func (r *idleReader) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}
func (r *idleReader) Position() ([]byte, error) {
	return binary.AppendUvarint(nil, uint64(r.sent)), nil
}

// TestSavepointOfAnIdleSource: a savepoint completes while the source
// waits for data, and holds the source's position.
func TestSavepointOfAnIdleSource(t *testing.T) {
	sj := &sumJob{last: map[int64]int64{}}
	g := &Graph{}
	src := g.AddSource("idle", 1, false, ConnectorSource(idleSource{}, connector.ReadSpec{}, nil))
	src.Resumable = IsResumable(idleSource{})
	sum := g.AddOperator("sum", 1, func() Operator { return &sumOp{} }, Edge{From: src, Part: opspec.Hash, Keys: []int{0}})
	g.AddOperator("last", 1, func() Operator { return &lastSink{mu: &sj.mu, last: sj.last} }, Edge{From: sum, Part: opspec.Single})
	job, err := Submit(context.Background(), "idle", g, DefaultJobConfig(), &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer job.Cancel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// the first savepoint may come before the three rows; take them until
	// one holds all three
	for {
		sp, err := job.TriggerSavepoint(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		cp, err := LoadCheckpoint(sp.Path)
		if err != nil {
			t.Fatal(err)
		}
		st, ok := cp.state(operatorUIDs(g)[src], 0)
		if !ok {
			t.Fatalf("no source state: %+v", cp.Operators)
		}
		_, _, pos, err := decodeSourcePosition(st.state)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := binary.Uvarint(pos); n == 3 {
			break
		}
	}
}

// TestCollectedResultsAreExactlyOnceAcrossRestarts: with periodic
// checkpoints a query's collected rows are handed over only once a
// checkpoint after them completes, so a failure and a restart from the
// last checkpoint show the reader each change once: the same rows, in
// the same order per key, as an uninterrupted run.
func TestCollectedResultsAreExactlyOnceAcrossRestarts(t *testing.T) {
	run := func(fail bool) map[int64][]int64 {
		gen := &cpGenerator{pauseAt: 200, resume: make(chan struct{})}
		gen.paused.Add(2)
		var armed atomic.Bool
		checkpointed := make(chan struct{})
		var once sync.Once
		g := &Graph{}
		src := g.AddSource("gen", 2, true, gen.source())
		src.Resumable = true
		sum := g.AddOperator("sum", 2, func() Operator { return &failingSum{armed: &armed} }, Edge{From: src, Part: opspec.Hash, Keys: []int{0}})
		coll := NewBoundedCollector(16, 0)
		g.AddOperator("collect", 1, coll.NewSink, Edge{From: sum, Part: opspec.Single})
		jc := DefaultJobConfig()
		jc.Checkpoint = CheckpointConfig{Interval: time.Millisecond, Dir: t.TempDir(), OnComplete: func(CheckpointStats) { once.Do(func() { close(checkpointed) }) }}
		jc.Restart = &FixedDelayRestart{Attempts: 1}
		job, err := Submit(context.Background(), "collect", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
		if err != nil {
			t.Fatal(err)
		}
		coll.Attach(job)
		got := map[int64][]int64{}
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for {
				b, err := coll.Next(ctx)
				if err != nil {
					if errors.Is(err, io.EOF) {
						err = nil
					}
					done <- err
					return
				}
				for _, r := range b.Rows(kvTypes) {
					k := r.Values[0].(int64)
					got[k] = append(got[k], r.Values[1].(int64))
				}
			}
		}()
		gen.paused.Wait()
		<-checkpointed
		armed.Store(fail)
		close(gen.resume)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n, _ := job.Restarts(); fail && n != 1 {
			t.Fatalf("restarts %d", n)
		}
		return got
	}
	got := run(true)
	// each change once: per key the running sums never fall (a replayed
	// row would show an older sum again), one row per input row, and the
	// last sum of each key is the total
	rows := 0
	last := map[int64]int64{}
	for k, v := range got {
		rows += len(v)
		for i := 1; i < len(v); i++ {
			if v[i] < v[i-1] {
				t.Fatalf("key %d: sum %d after %d: a change seen twice", k, v[i], v[i-1])
			}
		}
		last[k] = v[len(v)-1]
	}
	if rows != 2*cpRowsPerInstance {
		t.Fatalf("%d rows collected, want one per input row (%d)", rows, 2*cpRowsPerInstance)
	}
	equalSums(t, last, expectedSums())
}

// TestCheckpointSpacing: checkpoints are triggered an interval apart, and
// no sooner than the minimum pause after the previous one completed.
func TestCheckpointSpacing(t *testing.T) {
	for _, c := range []struct {
		name              string
		interval, pause   time.Duration
		wantGap, wantRest time.Duration
	}{
		{"interval", 20 * time.Millisecond, 0, 20 * time.Millisecond, 0},
		{"min-pause", time.Millisecond, 30 * time.Millisecond, 0, 30 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
			gen.paused.Add(2)
			var mu sync.Mutex
			var stats []CheckpointStats
			four := make(chan struct{})
			cfg := CheckpointConfig{Interval: c.interval, MinPause: c.pause, Dir: t.TempDir(), OnComplete: func(s CheckpointStats) {
				mu.Lock()
				defer mu.Unlock()
				if stats = append(stats, s); len(stats) == 4 {
					close(four)
				}
			}}
			j, err := startSumJob(t, gen, cfg, false)
			if err != nil {
				t.Fatal(err)
			}
			<-four
			j.job.Cancel()
			<-j.job.Done()
			mu.Lock()
			defer mu.Unlock()
			for i := 1; i < 4; i++ {
				if gap := stats[i].Triggered.Sub(stats[i-1].Triggered); gap < c.wantGap {
					t.Errorf("checkpoint %d triggered %v after checkpoint %d, interval %v", stats[i].ID, gap, stats[i-1].ID, c.interval)
				}
				if rest := stats[i].Triggered.Sub(stats[i-1].Completed); rest < c.wantRest {
					t.Errorf("checkpoint %d triggered %v after checkpoint %d completed, min-pause %v", stats[i].ID, rest, stats[i-1].ID, c.pause)
				}
			}
		})
	}
}

// TestCollectSinkDropsHeldRowsWhenItsTaskIsTornDown: when a failure
// elsewhere ends the attempt, a source task ends its chain, and a collect
// sink chained into it gets EndInput. What it holds then is not the end of
// the input: it must not reach the reader, or the restarted job's rows
// would show twice.
func TestCollectSinkDropsHeldRowsWhenItsTaskIsTornDown(t *testing.T) {
	const rows = 400
	var pause1, pause2 sync.Once
	atSavepoint, atFailure := make(chan struct{}), make(chan struct{})
	resume := make(chan struct{})
	// one instance: rows 0..199, wait, 200..299, wait (first run only), the rest
	gen := func(ctx context.Context, _, _ int, emit func(*types.Batch) error) error {
		sc := SourceCheckpointOf(ctx)
		seq := 0
		if saved := sc.Restored(); saved != nil {
			n, _ := binary.Uvarint(saved)
			seq = int(n)
		}
		position := func() ([]byte, error) { return binary.AppendUvarint(nil, uint64(seq)), nil }
		wait := func(reached chan struct{}, until <-chan struct{}) error {
			close(reached)
			for {
				select {
				case <-until:
					return nil
				case <-sc.Triggered():
					if err := sc.Between(position); err != nil {
						return err
					}
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}
		for seq < rows {
			var err error
			if seq == 200 {
				pause1.Do(func() { err = wait(atSavepoint, resume) })
			}
			if seq == 300 {
				pause2.Do(func() { err = wait(atFailure, nil) })
			}
			if err != nil {
				return err
			}
			bb := types.NewBatchBuilder(kvTypes)
			for i := 0; i < cpBatchRows; i++ {
				if err := bb.Append(types.Insert, []any{int64(seq % cpKeys), int64(seq)}); err != nil {
					return err
				}
				seq++
			}
			if err := emit(bb.Build()); err != nil {
				return err
			}
			if err := sc.Between(position); err != nil {
				return err
			}
		}
		return nil
	}
	// another source that fails once when told to
	fail := make(chan struct{})
	var failed atomic.Bool
	failing := func(ctx context.Context, _, _ int, _ func(*types.Batch) error) error {
		sc := SourceCheckpointOf(ctx)
		for {
			select {
			case <-fail:
				if failed.CompareAndSwap(false, true) {
					return errors.New("injected failure")
				}
				return nil
			case <-sc.Triggered():
				if err := sc.Between(func() ([]byte, error) { return []byte{1}, nil }); err != nil {
					return err
				}
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	g := &Graph{}
	src := g.AddSource("gen", 1, true, gen)
	src.Resumable = true
	sum := g.AddOperator("sum", 1, func() Operator { return &sumOp{} }, Edge{From: src, Part: opspec.Forward})
	coll := NewBoundedCollector(64, 0)
	g.AddOperator("collect", 1, coll.NewSink, Edge{From: sum, Part: opspec.Forward})
	other := g.AddSource("failing", 1, false, failing)
	other.Resumable = true
	g.AddOperator("discard", 1, func() Operator { return &lastSink{mu: &sync.Mutex{}, last: map[int64]int64{}} }, Edge{From: other, Part: opspec.Forward})
	jc := DefaultJobConfig()
	// periodic checkpoints on (the sink holds rows) but never due here
	jc.Checkpoint = CheckpointConfig{Interval: time.Hour, Dir: t.TempDir()}
	jc.Restart = &FixedDelayRestart{Attempts: 1}
	job, err := Submit(context.Background(), "torn-down", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer job.Cancel()
	coll.Attach(job)
	n := 0
	done := make(chan error, 1)
	go func() {
		for {
			b, err := coll.Next(context.Background())
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				done <- err
				return
			}
			n += b.Len
		}
	}()
	<-atSavepoint
	if _, err := job.TriggerSavepoint(context.Background(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	close(resume)
	<-atFailure // rows 200..299 are held by the sink
	close(fail)
	<-job.Done()
	if n, _ := job.Restarts(); n != 1 {
		t.Fatalf("restarts %d", n)
	}
	job.Cancel()
	<-done
	if n != rows {
		t.Fatalf("%d rows collected, want one per input row (%d)", n, rows)
	}
}
