package runtime

import (
	"context"
	"io"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// SourceSplits is what the task of one source instance knows about the
// splits its reader reads together (connector.MultiSplitReader, e.g. Kafka
// partitions): which split the batch being processed came from, which
// splits are active, and each split's watermark and idleness as the
// chained WatermarkAssigner tracks them (Flink's per-split watermarks).
// It also backs OperatorMetrics.SplitProgress.
//
// Current is read by the task goroutine only; the other fields are safe
// for concurrent use.
type SourceSplits struct {
	current string

	mu       sync.Mutex
	active   []string
	version  int
	idle     time.Duration
	idleSet  bool
	reporter connector.ProgressReporter
	wms      map[string]splitMark

	// set by the source goroutine before it emits a batch
	tag       string
	tagActive []string
}

type splitMark struct {
	wm   int64
	idle bool
}

func newSourceSplits() *SourceSplits { return &SourceSplits{wms: map[string]splitMark{}} }

// Current names the split of the batch being processed ("" when the
// source does not read several splits at once).
func (s *SourceSplits) Current() string {
	if s == nil {
		return ""
	}
	return s.current
}

// Active returns the active splits and a version that changes whenever
// they do.
func (s *SourceSplits) Active() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active, s.version
}

// IdleTimeout is the source's own idle timeout (scan.watermark.idle-timeout);
// ok is false when the table leaves it to table.exec.source.idle-timeout.
func (s *SourceSplits) IdleTimeout() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idle, s.idleSet
}

// SetWatermark records a split's watermark (epoch ms) and idleness.
func (s *SourceSplits) SetWatermark(split string, wm int64, idle bool) {
	s.mu.Lock()
	s.wms[split] = splitMark{wm: wm, idle: idle}
	s.mu.Unlock()
}

// setCurrent is called by the task before it processes a tagged batch.
func (s *SourceSplits) setCurrent(split string, active []string) {
	s.current = split
	if active == nil {
		return
	}
	s.mu.Lock()
	if !sameStrings(s.active, active) {
		s.active = append([]string(nil), active...)
		s.version++
	}
	s.mu.Unlock()
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Progress is the reader's progress with the watermarks and idleness of
// the WatermarkAssigner (math.MinInt64 without one).
func (s *SourceSplits) Progress() []connector.SplitProgress {
	s.mu.Lock()
	rep := s.reporter
	s.mu.Unlock()
	if rep == nil {
		return nil
	}
	out := rep.Progress()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range out {
		if m, ok := s.wms[out[i].Split]; ok {
			out[i].Watermark, out[i].Idle = m.wm, m.idle
		} else {
			out[i].Watermark = math.MinInt64
		}
	}
	return out
}

// splitRegistry holds the SourceSplits of each instance of a source node.
type splitRegistry struct {
	mu    sync.Mutex
	byInt map[int]*SourceSplits
}

var metricsSplits sync.Map // *OperatorMetrics -> *splitRegistry

func (m *OperatorMetrics) addSplits(subtask int, s *SourceSplits) {
	v, _ := metricsSplits.LoadOrStore(m, &splitRegistry{byInt: map[int]*SourceSplits{}})
	r := v.(*splitRegistry)
	r.mu.Lock()
	r.byInt[subtask] = s
	r.mu.Unlock()
}

// SplitProgress reports where each split of a source node stands (offset,
// log end, watermark, idleness), over all its parallel instances, sorted
// by split name: the per-partition progress of a Kafka source. It is nil
// for operators that are not sources of a connector.ProgressReporter.
func (m *OperatorMetrics) SplitProgress() []connector.SplitProgress {
	v, ok := metricsSplits.Load(m)
	if !ok {
		return nil
	}
	r := v.(*splitRegistry)
	r.mu.Lock()
	all := make([]*SourceSplits, 0, len(r.byInt))
	for _, s := range r.byInt {
		all = append(all, s)
	}
	r.mu.Unlock()
	var out []connector.SplitProgress
	for _, s := range all {
		out = append(out, s.Progress()...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Split < out[j].Split })
	return out
}

// sharedSplits is what the parallel instances of a batch job's source
// share (Flink's split enumerator handing splits to readers on request):
// the split list, made once for all of them (a CSV file's byte ranges
// need a read of the whole file), and the index of the next split to
// read. Each instance takes the next split when it is done with its last,
// so a slower instance (another query on its core, garbage collection)
// reads fewer splits rather than making the whole job wait for it, as a
// fixed split-per-instance assignment does.
type sharedSplits struct {
	once   sync.Once
	splits []connector.Split
	err    error
	next   atomic.Int64
}

type sharedSplitsKey struct{}

// sharedSplitsFrom returns the sharedSplits the task put in a batch
// source's context (nil in streaming jobs and with checkpoints, whose
// sources read fixed splits).
func sharedSplitsFrom(ctx context.Context) *sharedSplits {
	s, _ := ctx.Value(sharedSplitsKey{}).(*sharedSplits)
	return s
}

// list returns src's splits, listed by the first instance that asks.
func (s *sharedSplits) list(ctx context.Context, src connector.Source) ([]connector.Split, error) {
	s.once.Do(func() { s.splits, s.err = src.Splits(ctx) })
	return s.splits, s.err
}

// take returns the index of the next split no instance has taken.
func (s *sharedSplits) take() int { return int(s.next.Add(1) - 1) }

type sourceSplitsKey struct{}

// sourceSplitsFrom returns the SourceSplits the task put in a source's
// context (nil outside a source task).
func sourceSplitsFrom(ctx context.Context) *SourceSplits {
	s, _ := ctx.Value(sourceSplitsKey{}).(*SourceSplits)
	return s
}

// readInstance reads a MultiSplitSource: one reader for the instance's
// splits, each batch tagged with its split for per-split watermarks.
func readInstance(ctx context.Context, src connector.Source, ms connector.MultiSplitSource, splits []connector.Split, inst, par int,
	spec connector.ReadSpec, emit func(*types.Batch) error, onSkip func(int64)) error {
	r, err := ms.OpenInstance(ctx, splits, inst, par, spec)
	if err != nil {
		return err
	}
	defer r.Close()
	return readMulti(ctx, src, r, emit, onSkip, nil)
}

// readMulti reads a MultiSplitSource instance's reader r to its end,
// tagging each batch with its split; between, when set, is called after
// each batch (a checkpoint's chance to go out).
func readMulti(ctx context.Context, src connector.Source, r connector.Reader, emit func(*types.Batch) error, onSkip func(int64), between func() error) error {
	st := sourceSplitsFrom(ctx)
	if st != nil {
		st.mu.Lock()
		if pr, ok := r.(connector.ProgressReporter); ok {
			st.reporter = pr
		}
		if it, ok := src.(connector.IdleTimeoutSource); ok {
			st.idle, st.idleSet = it.WatermarkIdleTimeout()
		}
		st.mu.Unlock()
	}
	msr, _ := r.(connector.MultiSplitReader)
	if w, ok := r.(connector.WakeableReader); ok && between != nil {
		stop := wakeOnTrigger(ctx, w)
		defer stop()
	}
	for {
		b, err := r.Next(ctx)
		if err == nil && b == nil {
			// woken for a checkpoint
			if between != nil {
				if err := between(); err != nil {
					return err
				}
			}
			continue
		}
		if err != nil {
			if err == io.EOF {
				if sc, ok := r.(connector.SkipCounter); ok && onSkip != nil {
					onSkip(sc.SkippedRows())
				}
				return nil
			}
			return err
		}
		if st != nil && msr != nil {
			st.tag, st.tagActive = msr.BatchSplit(), msr.ActiveSplits()
		}
		if err := emit(b); err != nil {
			return err
		}
		if between != nil {
			if err := between(); err != nil {
				return err
			}
		}
	}
}
