package runtime

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

var processStart = time.Now()

func monoNanos() int64 { return int64(time.Since(processStart)) }

// Collector receives a query's result batches for TableResult.Collect: the
// collect sink pushes into a bounded buffer and the reader pulls with Next.
// The buffer is bounded by batches (capacity) and, when maxBytes > 0, by
// bytes (the sizes of the batches' Arrow buffers, batchBytes): a sink that
// would exceed either bound waits (back-pressuring the job) until the
// reader takes a batch, the job is cancelled or fails. A batch larger than
// maxBytes on its own is admitted when the buffer is empty, so the buffer
// holds at most max(maxBytes, one batch).
type Collector struct {
	ch       chan *types.Batch
	job      *Job
	maxBytes int64

	mu      sync.Mutex
	bytes   int64         // bytes of the batches in ch (and of one being handed over)
	sizes   []int64       // sizes of the batches in ch, in order
	room    chan struct{} // closed and replaced when a batch leaves the buffer
	waiting bool          // a sink is blocked on a full buffer
	full    chan struct{} // closed while a sink is blocked on a full buffer
}

// NewCollector creates a collector buffering up to capacity batches
// (64 when capacity <= 0), without a bound in bytes.
func NewCollector(capacity int) *Collector { return NewBoundedCollector(capacity, 0) }

// NewBoundedCollector creates a collector buffering up to capacity batches
// (64 when capacity <= 0) and up to maxBytes bytes (no byte bound when
// maxBytes <= 0).
func NewBoundedCollector(capacity int, maxBytes int64) *Collector {
	if capacity <= 0 {
		capacity = 64
	}
	return &Collector{ch: make(chan *types.Batch, capacity), maxBytes: maxBytes,
		room: make(chan struct{}), full: make(chan struct{})}
}

// Attach links the collector to the job feeding it.
func (c *Collector) Attach(j *Job) { c.job = j }

// NewSink returns the operator factory of the collect sink.
func (c *Collector) NewSink() Operator { return &collectSink{c: c} }

// MaxBytes returns the byte bound of the buffer (0: none).
func (c *Collector) MaxBytes() int64 { return c.maxBytes }

// Buffered returns the batches and bytes (batchBytes: Arrow buffer sizes)
// the buffer holds now, read by no one yet.
func (c *Collector) Buffered() (batches int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sizes), c.bytes
}

// Full returns a channel that is closed while the collect sink is blocked
// because the buffer is full (by batches or bytes): closed at once when it
// is blocked now, else at the next time it blocks.
func (c *Collector) Full() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.full
}

// setWaiting records that the sink starts (true) or stops (false) waiting
// for room. The caller holds c.mu.
func (c *Collector) setWaitingLocked(w bool) {
	if w == c.waiting {
		return
	}
	c.waiting = w
	if w {
		close(c.full)
	} else {
		c.full = make(chan struct{})
	}
}

// push adds b (of size n bytes) to the buffer, waiting while it is full.
func (c *Collector) push(ctx context.Context, b *types.Batch) error {
	n := int64(0)
	if c.maxBytes > 0 {
		n = batchBytes(b)
	}
	for {
		c.mu.Lock()
		if c.maxBytes <= 0 || len(c.sizes) == 0 || c.bytes+n <= c.maxBytes {
			select {
			case c.ch <- b:
				c.sizes = append(c.sizes, n)
				c.bytes += n
				c.setWaitingLocked(false)
				c.mu.Unlock()
				return nil
			default: // full by batches
			}
		}
		c.setWaitingLocked(true)
		room := c.room
		c.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			c.mu.Lock()
			c.setWaitingLocked(false)
			c.mu.Unlock()
			return ctx.Err()
		}
	}
}

// took accounts for a batch the reader took from ch.
func (c *Collector) took() {
	c.mu.Lock()
	if len(c.sizes) > 0 {
		c.bytes -= c.sizes[0]
		c.sizes = c.sizes[1:]
	}
	close(c.room)
	c.room = make(chan struct{})
	c.mu.Unlock()
}

// receive takes a ready batch, if any.
func (c *Collector) receive() (*types.Batch, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case b := <-c.ch:
		if len(c.sizes) > 0 {
			c.bytes -= c.sizes[0]
			c.sizes = c.sizes[1:]
		}
		close(c.room)
		c.room = make(chan struct{})
		return b, true
	default:
		return nil, false
	}
}

// Next returns the next batch; io.EOF after the job finished and every
// batch was read; the job's error if it failed or was cancelled.
func (c *Collector) Next(ctx context.Context) (*types.Batch, error) {
	if b, ok := c.receive(); ok {
		return b, nil
	}
	select {
	case b := <-c.ch:
		c.took()
		return b, nil
	case <-c.job.Done():
		if b, ok := c.receive(); ok {
			return b, nil
		}
		if err := c.job.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type collectSink struct {
	BaseOperator
	c *Collector
	// with periodic checkpoints, rows reach the collector only once a
	// checkpoint after them completes (sink_collect_commit.go)
	held heldResults
}

func (s *collectSink) ProcessBatch(_ int, b *types.Batch) error {
	if b.Len == 0 {
		return nil
	}
	s.Ctx.Metrics.RecordsOut.Add(int64(b.Len))
	if s.Ctx.Config.Checkpoint.Interval > 0 {
		s.held.add(b)
		return nil
	}
	return s.c.push(s.Ctx.Ctx, b)
}

func (s *collectSink) ProcessWatermark(int, int64) error { return nil }

// ConnectorSink writes its input to a connector.Sink: one Writer per
// parallel instance, committed at the end of input and aborted otherwise
// (and on checkpoints when the writer is a connector.CommittingWriter:
// sink_commit.go).
// It enforces NOT NULL columns (table.exec.sink.not-null-enforcer = ERROR,
// or DROP to drop such rows).
type ConnectorSink struct {
	BaseOperator
	Sink      connector.Sink
	Spec      connector.WriteSpec
	Table     string
	DropNulls bool
	w         connector.Writer
	committed bool
	commits   sinkCommits // sink_commit.go
	// finalCommit: the end of input is committed through the job's final
	// checkpoint (CommitAtFinalCheckpoint), not by EndInput
	finalCommit bool
}

// Open implements Operator.
func (s *ConnectorSink) Open(ctx *OpContext, out Output) error {
	s.BaseOperator.Open(ctx, out)
	spec := s.Spec
	spec.Writers = ctx.Parallel
	w, err := s.Sink.Open(ctx.Ctx, spec, ctx.Subtask)
	if err != nil {
		return err
	}
	s.w = w
	s.opened()
	return nil
}

// ProcessBatch implements Operator.
func (s *ConnectorSink) ProcessBatch(_ int, b *types.Batch) error {
	for c, t := range s.Spec.Types {
		if t.Nullable || b.Cols[c].NullN() == 0 {
			continue
		}
		if !s.DropNulls {
			return fmt.Errorf("Column '%s' is NOT NULL, however, a null value is being written into it. You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop such records silently.", s.Spec.Names[c])
		}
		var keep []int32
		for i := 0; i < b.Len; i++ {
			if !b.Cols[c].IsNull(i) {
				keep = append(keep, int32(i))
			}
		}
		b = TakeRows(b, keep)
	}
	if b.Len == 0 {
		return nil
	}
	s.Ctx.Metrics.RecordsOut.Add(int64(b.Len))
	return s.write(b)
}

// ProcessWatermark implements Operator.
func (s *ConnectorSink) ProcessWatermark(int, int64) error { return nil }

// EndInput commits the written data, unless the job's final checkpoint
// will (FinishCommit then ends the write).
func (s *ConnectorSink) EndInput(int) error {
	if s.finalCommit {
		return nil
	}
	return s.commitAll()
}

// Close aborts uncommitted data.
func (s *ConnectorSink) Close() error {
	s.abort()
	return nil
}

// ConnectorSource returns a SourceFunc reading a connector source: its
// splits are spread over the parallel instances, each reading its splits
// in order. onSkip is told of rows skipped by ignore-parse-errors.
func ConnectorSource(src connector.Source, spec connector.ReadSpec, onSkip func(int64)) SourceFunc {
	return func(ctx context.Context, inst, par int, emit func(*types.Batch) error) error {
		// each instance changes its own copy of the spec (its row filter)
		spec := spec
		var splits []connector.Split
		var err error
		if sh := sharedSplitsFrom(ctx); sh != nil {
			splits, err = sh.list(ctx, src)
		} else {
			splits, err = src.Splits(ctx)
		}
		if err != nil {
			return err
		}
		if f, ok := spec.RowFilter.(*scanRowFilter); ok {
			// an instance reads its splits one after the other, with a
			// filter of its own (evaluators are not shared)
			spec.RowFilter = f.clone()
		}
		if sc := SourceCheckpointOf(ctx); sc != nil {
			// a checkpointed read counts the rows it yields: every row
			spec.RowFilter = nil
			if ms, ok := src.(connector.MultiSplitSource); ok {
				return readInstanceResumable(ctx, sc, src, ms, splits, inst, par, spec, emit, onSkip)
			}
			return readSplitsResumable(ctx, sc, src, splits, inst, par, spec, emit, onSkip)
		}
		if ms, ok := src.(connector.MultiSplitSource); ok {
			// unbounded splits (Kafka partitions) are read together
			return readInstance(ctx, src, ms, splits, inst, par, spec, emit, onSkip)
		}
		if sh := sharedSplitsFrom(ctx); sh != nil {
			// a batch job: each instance takes the next split not yet
			// taken, until none is left
			for i := sh.take(); i < len(splits); i = sh.take() {
				if err := readSplit(ctx, src, splits[i], spec, emit, onSkip); err != nil {
					return err
				}
			}
			return nil
		}
		for i := inst; i < len(splits); i += par {
			if err := readSplit(ctx, src, splits[i], spec, emit, onSkip); err != nil {
				return err
			}
		}
		return nil
	}
}

func readSplit(ctx context.Context, src connector.Source, split connector.Split, spec connector.ReadSpec, emit func(*types.Batch) error, onSkip func(int64)) error {
	r, err := src.Open(ctx, split, spec)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		b, err := r.Next(ctx)
		if err == io.EOF {
			if sc, ok := r.(connector.SkipCounter); ok && onSkip != nil {
				onSkip(sc.SkippedRows())
			}
			return nil
		}
		if err != nil {
			return err
		}
		if err := emit(b); err != nil {
			return err
		}
	}
}

// ValuesSource emits fixed batches (VALUES, FromElements) from instance 0.
func ValuesSource(batches []*types.Batch) SourceFunc {
	return func(ctx context.Context, inst, par int, emit func(*types.Batch) error) error {
		if inst != 0 {
			return nil
		}
		// its position: the number of batches emitted (one uvarint)
		sc := SourceCheckpointOf(ctx)
		from := 0
		if saved := sc.Restored(); saved != nil {
			n, k := binary.Uvarint(saved)
			if k <= 0 || k != len(saved) || n > uint64(len(batches)) {
				return &RestoreError{Err: fmt.Errorf("saved position of VALUES is corrupt")}
			}
			from = int(n)
		}
		for i := from; i < len(batches); i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := emit(batches[i]); err != nil {
				return err
			}
			if err := sc.Between(func() ([]byte, error) { return binary.AppendUvarint(nil, uint64(i+1)), nil }); err != nil {
				return err
			}
		}
		return nil
	}
}
