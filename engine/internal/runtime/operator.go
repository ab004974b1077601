// Package runtime executes physical plans: operators over columnar
// batches, tasks (goroutines) connected by bounded channels, watermarks,
// jobs with status, cancellation and per-operator metrics.
//
// An Operator is push-based: its task calls ProcessBatch for each batch
// arriving on one of its inputs, ProcessWatermark when the combined
// watermark of an input advances, and EndInput when an input is
// exhausted (bounded input; in batch mode blocking operators emit their
// results then). Operators emit through their Output. The same operators
// serve batch and streaming: batch mode is bounded input whose watermark
// jumps to +∞ at the end.
package runtime

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/types"
)

// Watermark values are event-time milliseconds since the epoch.
const (
	// MinWatermark is the watermark before any was seen.
	MinWatermark int64 = math.MinInt64
	// MaxWatermark is the watermark at the end of a bounded input.
	MaxWatermark int64 = math.MaxInt64
)

// Output receives what an operator emits.
type Output interface {
	// Emit passes a batch downstream. The batch must not be modified later.
	Emit(b *types.Batch) error
	// EmitWatermark passes a watermark downstream (only increasing values).
	EmitWatermark(wm int64) error
}

// Operator is one step of a pipeline.
type Operator interface {
	// Open prepares the operator; out is where it emits.
	Open(ctx *OpContext, out Output) error
	// ProcessBatch handles a batch arriving on input in (0-based).
	ProcessBatch(in int, b *types.Batch) error
	// ProcessWatermark handles the advance of input in's watermark (the
	// minimum over that input's producers).
	ProcessWatermark(in int, wm int64) error
	// EndInput handles the end of input in.
	EndInput(in int) error
	// Close releases resources; called once, after success or failure.
	Close() error
}

// InputSelector is implemented by multi-input operators that must read
// one input before another (a batch hash join reads its build side first).
type InputSelector interface {
	// NextInput returns the input to read next, or -1 for any.
	NextInput() int
}

// StateReporter is implemented by stateful operators for metrics.
type StateReporter interface {
	// StateSize returns the number of keys and an estimate of bytes held.
	StateSize() (keys int64, bytes int64)
}

// OpContext is what an operator sees of its job.
type OpContext struct {
	// Ctx ends with the attempt (a restart runs a new one); JobCtx with
	// the job (nil in tests driving an operator alone: use Ctx)
	Ctx      context.Context
	JobCtx   context.Context
	Eval     *expr.Ctx
	Metrics  *OperatorMetrics
	Batch    bool // batch runtime mode
	Config   JobConfig
	Subtask  int // index of this parallel instance
	Parallel int // number of parallel instances
	// SetIdle marks this task's output idle (or active again): downstream
	// tasks then ignore its watermarks (table.exec.source.idle-timeout).
	SetIdle func(idle bool)
	// Splits is set for the operators chained to a source: the split of
	// the batch being processed when the source reads several splits at
	// once (per-split watermarks), nil elsewhere.
	Splits *SourceSplits
	// budget fails the job when its operators' state is over
	// JobConfig.MemoryLimit (nil: no limit).
	budget *memoryBudget
	// disk is the job's disk state backend (nil: state in memory);
	// label names this operator instance's store
	disk      *kvstate.Backend
	diskLabel string
}

// OpenKeyedStore opens this operator instance's store in the job's disk
// state backend; ok is false when the job keeps its state in memory (or
// the operator runs alone in a test).
func (c *OpContext) OpenKeyedStore() (s *kvstate.Store, ok bool, err error) {
	if c == nil || c.disk == nil || c.Batch {
		return nil, false, nil
	}
	s, err = c.disk.Open(c.diskLabel)
	return s, err == nil, err
}

// restoreKeyedStore opens a store holding the state of a checkpoint's
// store directory (DiskStateOperator.RestoreDisk).
func (c *OpContext) restoreKeyedStore(dir string) (*kvstate.Store, error) {
	if c == nil || c.disk == nil {
		return nil, errors.New("the job keeps its state in memory")
	}
	return c.disk.OpenFrom(c.diskLabel, dir)
}

// diskCacheEntries is the bound of an operator's decoded cache.
func (c *OpContext) diskCacheEntries() int {
	if c == nil || c.Config.DiskState == nil {
		return DefaultDiskCacheEntries
	}
	return c.Config.DiskState.cacheEntries()
}

// JobConfig carries the settings operators read.
type JobConfig struct {
	BatchSize        int
	StateTTL         time.Duration
	MiniBatch        bool
	WatermarkEvery   time.Duration
	IdleTimeout      time.Duration
	ChannelCapacity  int
	MaxCollectBuffer int
	// ChannelBytes bounds, in bytes, the batches waiting in one channel
	// between tasks and in a source's hand-off to its task (their
	// inFlightBytes; a larger batch passes alone), besides ChannelCapacity:
	// riffle.exchange.max-bytes-per-channel. 0 means DefaultChannelBytes
	// (1 MiB), a negative value no byte bound.
	ChannelBytes int64
	// MemoryLimit bounds, in bytes, the state the job's operators report
	// (OpContext.ReportState) summed over the job: past it the job fails
	// with a MemoryLimitError. 0 means no limit (riffle.job.memory-limit).
	MemoryLimit int64
	// Clock is the processing-time clock (nil = the system clock). Tests
	// set a ManualClock to make processing-time behaviour deterministic.
	Clock Clock
	// Checkpoint configures checkpoints and the state the job resumes
	// from (streaming jobs only; the zero value takes none).
	Checkpoint CheckpointConfig
	// Restart restarts a failed streaming job from its last checkpoint
	// (nil: a failure ends the job).
	Restart RestartStrategy
	// OnRestart, when set, is called when Restart schedules a restart of
	// the failed job, before the delay (on the job's goroutine: it must
	// not block).
	OnRestart func(RestartEvent)
	// DiskState, when set, keeps the keyed state of the operators that
	// support it (DiskStateOperator) in the disk-backed state backend
	// (state.backend.type 'rocksdb' / 'forst'); nil keeps all state in
	// memory ('hashmap'). Streaming jobs only.
	DiskState *DiskStateConfig
}

// DiskStateConfig configures the disk-backed keyed state backend
// (engine/internal/kvstate, on pebble).
type DiskStateConfig struct {
	// Store is the working directory and memory of the job's stores.
	Store kvstate.Options
	// CacheEntries bounds the decoded keys (groups, join keys) an
	// operator instance keeps in memory between its store and its
	// computation (riffle.state.backend.cache-entries; 0 means
	// DefaultDiskCacheEntries). They are written to the store when the
	// bound is reached and before every checkpoint.
	CacheEntries int
}

// DefaultDiskCacheEntries is DiskStateConfig.CacheEntries' default.
const DefaultDiskCacheEntries = 16384

// cacheEntries is CacheEntries or its default.
func (c *DiskStateConfig) cacheEntries() int {
	if c.CacheEntries > 0 {
		return c.CacheEntries
	}
	return DefaultDiskCacheEntries
}

// clock returns the configured clock or the system clock.
func (c JobConfig) clock() Clock {
	if c.Clock != nil {
		return c.Clock
	}
	return SystemClock{}
}

// ProcessingTimeOperator is implemented by operators with processing-time
// timers (processing-time windows). The task of an operator at the head of
// a chain asks NextProcessingTime after each event and calls
// OnProcessingTime (with the clock's epoch milliseconds) once that time
// is reached.
type ProcessingTimeOperator interface {
	// NextProcessingTime returns the epoch millisecond of the next timer.
	NextProcessingTime() (int64, bool)
	// OnProcessingTime fires the timers due at now (epoch ms).
	OnProcessingTime(now int64) error
}

// DefaultJobConfig returns sensible defaults.
func DefaultJobConfig() JobConfig {
	return JobConfig{BatchSize: 4096, WatermarkEvery: 200 * time.Millisecond, ChannelCapacity: 16, ChannelBytes: DefaultChannelBytes, MaxCollectBuffer: 64}
}

// OperatorMetrics are counters of one operator (summed over its parallel
// instances), readable while the job runs.
type OperatorMetrics struct {
	ID          int
	Name        string
	RecordsIn   atomic.Int64
	RecordsOut  atomic.Int64
	BatchesIn   atomic.Int64
	Watermark   atomic.Int64
	LateDropped atomic.Int64
	// StateKeys and StateBytes are the state size summed over the parallel
	// instances (keys and an estimate of bytes); StatePeakBytes is the
	// largest StateBytes seen. Operators report through OpContext.ReportState.
	StateKeys      atomic.Int64
	StateBytes     atomic.Int64
	StatePeakBytes atomic.Int64
	// Backpressure counts emits that found the downstream channel full.
	Backpressure atomic.Int64
	// BusyNanos is time spent processing.
	BusyNanos atomic.Int64
	// LookupHits, LookupMisses and LookupLoads count a lookup join's
	// cache hits, cache misses and lookups into the source (Flink's
	// lookup cache metrics hitCount, missCount and loadCount).
	LookupHits, LookupMisses, LookupLoads atomic.Int64
}

// stateOf holds per-instance state sizes behind the totals.
type stateOf struct {
	mu    sync.Mutex
	keys  map[int]int64
	bytes map[int]int64
}

var metricsState sync.Map // *OperatorMetrics -> *stateOf

// SetState records the state size of one parallel instance and updates
// the totals.
func (m *OperatorMetrics) SetState(subtask int, keys, bytes int64) {
	v, _ := metricsState.LoadOrStore(m, &stateOf{keys: map[int]int64{}, bytes: map[int]int64{}})
	st := v.(*stateOf)
	st.mu.Lock()
	st.keys[subtask], st.bytes[subtask] = keys, bytes
	var k, b int64
	for _, x := range st.keys {
		k += x
	}
	for _, x := range st.bytes {
		b += x
	}
	st.mu.Unlock()
	m.StateKeys.Store(k)
	m.StateBytes.Store(b)
	for {
		peak := m.StatePeakBytes.Load()
		if b <= peak || m.StatePeakBytes.CompareAndSwap(peak, b) {
			break
		}
	}
}

// ReportState records this instance's state size in its metrics.
func (c *OpContext) ReportState(keys, bytes int64) {
	if c != nil && c.Metrics != nil {
		c.Metrics.SetState(c.Subtask, keys, bytes)
		if c.budget != nil {
			c.budget.check()
		}
	}
}

func newMetrics(id int, name string) *OperatorMetrics {
	m := &OperatorMetrics{ID: id, Name: name}
	m.Watermark.Store(MinWatermark)
	return m
}

// BaseOperator gives default no-op implementations; embed it.
type BaseOperator struct {
	Ctx *OpContext
	Out Output
}

// Open stores the context and output.
func (b *BaseOperator) Open(ctx *OpContext, out Output) error {
	b.Ctx, b.Out = ctx, out
	return nil
}

// ProcessWatermark forwards the watermark.
func (b *BaseOperator) ProcessWatermark(in int, wm int64) error { return b.Out.EmitWatermark(wm) }

// EndInput does nothing.
func (b *BaseOperator) EndInput(in int) error { return nil }

// Close does nothing.
func (b *BaseOperator) Close() error { return nil }

// Emit forwards a batch (empty batches are dropped); the task's output
// counts the rows in the operator's metrics.
func (b *BaseOperator) Emit(batch *types.Batch) error {
	if batch == nil || batch.Len == 0 {
		return nil
	}
	return b.Out.Emit(batch)
}
