package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// The committing sink tests write the checkpoint tests' generator into a
// ConnectorSink over a fake CommittingWriter. The writer buffers the
// values it is given; PrepareCommit hands them over as a committable;
// CommitCheckpoint publishes a committable under "<writer>/<checkpoint>"
// (idempotent: publishing it again replaces it with the same values);
// Commit publishes the rest under "<writer>/end".

type commitStore struct {
	mu        sync.Mutex
	published map[string][]int64
	calls     map[string]int // CommitCheckpoint calls per key
	prepares  int
}

func newCommitStore() *commitStore {
	return &commitStore{published: map[string][]int64{}, calls: map[string]int{}}
}

func (st *commitStore) snapshot() (map[string][]int64, map[string]int, int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	p, c := map[string][]int64{}, map[string]int{}
	for k, v := range st.published {
		p[k] = v
	}
	for k, v := range st.calls {
		c[k] = v
	}
	return p, c, st.prepares
}

type fakeCommitSink struct{ st *commitStore }

func (f fakeCommitSink) ChangelogMode(types.ChangelogMode) types.ChangelogMode {
	return types.InsertOnlyMode
}

func (f fakeCommitSink) Open(_ context.Context, _ connector.WriteSpec, index int) (connector.Writer, error) {
	return &fakeCommitWriter{st: f.st, index: index}, nil
}

type fakeCommitWriter struct {
	st    *commitStore
	index int
	buf   []int64
}

func (w *fakeCommitWriter) Write(_ context.Context, b *types.Batch) error {
	for _, r := range b.Rows(kvTypes) {
		w.buf = append(w.buf, r.Values[1].(int64))
	}
	return nil
}

func (w *fakeCommitWriter) PrepareCommit(_ context.Context, id int64) ([]byte, error) {
	data := binary.AppendUvarint(nil, uint64(w.index))
	for _, v := range w.buf {
		data = binary.AppendVarint(data, v)
	}
	w.buf = nil
	w.st.mu.Lock()
	w.st.prepares++
	w.st.mu.Unlock()
	return data, nil
}

func (w *fakeCommitWriter) CommitCheckpoint(_ context.Context, id int64, data []byte) error {
	index, n := binary.Uvarint(data)
	if n <= 0 {
		return errors.New("bad committable")
	}
	data = data[n:]
	var vals []int64
	for len(data) > 0 {
		v, n := binary.Varint(data)
		if n <= 0 {
			return errors.New("bad committable")
		}
		vals = append(vals, v)
		data = data[n:]
	}
	key := fmt.Sprintf("%d/%d", index, id)
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	if old, ok := w.st.published[key]; ok && fmt.Sprint(old) != fmt.Sprint(vals) {
		return fmt.Errorf("%s published again with other values", key)
	}
	w.st.published[key] = vals
	w.st.calls[key]++
	return nil
}

func (w *fakeCommitWriter) Commit() error {
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	w.st.published[fmt.Sprintf("%d/end", w.index)] = w.buf
	w.buf = nil
	return nil
}

func (w *fakeCommitWriter) Abort() { w.buf = nil }

func startCommitJob(t *testing.T, gen *cpGenerator, st *commitStore, cfg CheckpointConfig) *Job {
	t.Helper()
	return startCommitJobOver(t, gen, st, cfg, opspec.Hash)
}

// startCommitJobOver is startCommitJob with the sink's input partitioned
// by part (Forward chains the sink to the source in one task).
func startCommitJobOver(t *testing.T, gen *cpGenerator, st *commitStore, cfg CheckpointConfig, part opspec.Partitioning) *Job {
	t.Helper()
	g := &Graph{}
	src := g.AddSource("gen", 2, true, gen.source())
	src.Resumable = true
	spec := connector.WriteSpec{Names: []string{"k", "v"}, Types: kvTypes}
	g.AddOperator("Sink(table=[t])", 2, func() Operator {
		return &ConnectorSink{Sink: fakeCommitSink{st}, Spec: spec, Table: "t"}
	}, Edge{From: src, Part: part, Keys: []int{0}})
	jc := DefaultJobConfig()
	jc.Checkpoint = cfg
	job, err := Submit(context.Background(), "commits", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// publishedValues counts the values of every published committable.
func publishedValues(pubs ...map[string][]int64) map[int64]int {
	merged := map[string][]int64{}
	for _, p := range pubs {
		for k, v := range p {
			merged[k] = v
		}
	}
	n := map[int64]int{}
	for _, vs := range merged {
		for _, v := range vs {
			n[v]++
		}
	}
	return n
}

// exactlyOnce checks that the published values are those of rows
// [0, upTo) of both generator instances, each once.
func exactlyOnce(t *testing.T, got map[int64]int, upTo int) {
	t.Helper()
	var bad []string
	for inst := 0; inst < 2; inst++ {
		for seq := 0; seq < upTo; seq++ {
			if c := got[genValue(inst, seq)]; c != 1 {
				bad = append(bad, fmt.Sprintf("%d×%d", genValue(inst, seq), c))
			}
		}
	}
	if len(got) != 2*upTo {
		bad = append(bad, fmt.Sprintf("%d values published, want %d", len(got), 2*upTo))
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		if len(bad) > 10 {
			bad = bad[:10]
		}
		t.Fatalf("not exactly once: %s", strings.Join(bad, ", "))
	}
}

// Checkpoints that are prepared but never complete (their directory
// cannot be written) publish nothing; neither does cancelling the job.
func TestCommittingSinkPublishesNothingBeforeCompletion(t *testing.T) {
	dir := t.TempDir()
	gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
	gen.paused.Add(2)
	st := newCommitStore()
	// periodic checkpoints on, never due: they are triggered below
	job := startCommitJob(t, gen, st, CheckpointConfig{Interval: time.Hour, Dir: dir, TolerableFailures: 1 << 30})
	gen.paused.Wait()
	// the job's checkpoint directory replaced by a file: no checkpoint
	// can be written
	jobDir := filepath.Join(dir, job.ID)
	if err := os.Remove(jobDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jobDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for want := 2; want <= 4; want += 2 {
		job.coord.trigger(false, "")
		testwait.Until(t, time.Minute, "a prepared commit per writer", func() bool {
			_, _, prepares := st.snapshot()
			return prepares >= want && job.CheckpointCounts().InProgress == 0
		})
	}
	if pub, _, _ := st.snapshot(); len(pub) != 0 {
		t.Fatalf("published before a checkpoint completed: %v", pub)
	}
	job.Cancel()
	<-job.Done()
	if pub, _, _ := st.snapshot(); len(pub) != 0 {
		t.Fatalf("published after cancelling: %v", pub)
	}
	if c := job.CheckpointCounts(); c.Completed != 0 || c.Failed == 0 {
		t.Fatalf("counts %+v", c)
	}
}

// A savepoint publishes what was written before it; a job resumed from it
// publishes the savepoint's committables once more (idempotently) and the
// rest at the end of input: every row exactly once.
func TestCommittingSinkSavepointAndResume(t *testing.T) {
	gen := &cpGenerator{pauseAt: 100, resume: make(chan struct{})}
	gen.paused.Add(2)
	st := newCommitStore()
	job := startCommitJob(t, gen, st, CheckpointConfig{})
	gen.paused.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sp, err := job.TriggerSavepoint(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first, calls, _ := st.snapshot()
	exactlyOnce(t, publishedValues(first), 100)
	for k, n := range calls {
		if n != 1 || !strings.HasSuffix(k, fmt.Sprintf("/%d", sp.ID)) {
			t.Fatalf("commit calls %v, want one per writer for savepoint %d", calls, sp.ID)
		}
	}
	job.Cancel()
	<-job.Done()
	if after, _, _ := st.snapshot(); len(after) != len(first) {
		t.Fatalf("cancelling published more: %v", after)
	}

	cp, err := LoadCheckpoint(sp.Path)
	if err != nil {
		t.Fatal(err)
	}
	st2 := newCommitStore()
	resumed := startCommitJob(t, &cpGenerator{}, st2, CheckpointConfig{Restore: cp})
	waitJob(t, resumed)
	second, calls2, _ := st2.snapshot()
	for k := range first {
		if calls2[k] != 1 {
			t.Fatalf("restored committable %s published %d times by the resumed job (calls %v)", k, calls2[k], calls2)
		}
	}
	exactlyOnce(t, publishedValues(first, second), cpRowsPerInstance)
}

// Periodic checkpoints while a bounded job runs to its end: the end of
// input publishes what no checkpoint did, each committable once.
func TestCommittingSinkEndOfInputCommitsTheRest(t *testing.T) {
	st := newCommitStore()
	job := startCommitJob(t, &cpGenerator{}, st, CheckpointConfig{Interval: time.Millisecond, Dir: t.TempDir()})
	waitJob(t, job)
	pub, calls, _ := st.snapshot()
	exactlyOnce(t, publishedValues(pub), cpRowsPerInstance)
	for k, n := range calls {
		if n != 1 {
			t.Fatalf("committable %s published %d times", k, n)
		}
	}
}

// A sink's snapshot that does not decode is refused; a writer that does
// not commit on checkpoints saves no state.
func TestConnectorSinkStateRefusals(t *testing.T) {
	s := &ConnectorSink{Sink: fakeCommitSink{newCommitStore()}, Table: "t"}
	if err := s.Open(&OpContext{Ctx: context.Background(), Metrics: &OperatorMetrics{}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.PrepareCommit(1); err != nil {
		t.Fatal(err)
	}
	good, err := s.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, []byte("sum1"), good[:len(good)-1], append(append([]byte(nil), good...), 0)} {
		if err := (&ConnectorSink{}).RestoreState(bad); err == nil {
			t.Fatalf("restored %q", bad)
		}
	}
	plain := &ConnectorSink{w: nopWriter{}}
	plain.opened()
	if b, err := plain.SnapshotState(); b != nil || err != nil {
		t.Fatalf("state of a plain writer: %q %v", b, err)
	}
	if err := plain.RestoreState(good); err == nil || !strings.Contains(err.Error(), "cannot commit them") {
		t.Fatalf("committables for a plain writer: %v", err)
	}
}

type nopWriter struct{}

func (nopWriter) Write(context.Context, *types.Batch) error { return nil }
func (nopWriter) Commit() error                             { return nil }
func (nopWriter) Abort()                                    {}

// A task torn down by a cancelled attempt ends its chain: EndInput then
// is no end of input, and a committing writer publishes nothing.
func TestCommittingSinkEndInputAfterCancel(t *testing.T) {
	st := newCommitStore()
	ctx, cancel := context.WithCancel(context.Background())
	s := &ConnectorSink{Sink: fakeCommitSink{st}, Spec: connector.WriteSpec{Names: []string{"k", "v"}, Types: kvTypes}, Table: "t"}
	if err := s.Open(&OpContext{Ctx: ctx, Metrics: &OperatorMetrics{}}, nil); err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(kvTypes)
	if err := bb.Append(types.Insert, []any{int64(1), int64(2)}); err != nil {
		t.Fatal(err)
	}
	if err := s.ProcessBatch(0, bb.Build()); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := s.EndInput(0); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if pub, _, _ := st.snapshot(); len(pub) != 0 {
		t.Fatalf("published by a cancelled attempt: %v", pub)
	}
}
