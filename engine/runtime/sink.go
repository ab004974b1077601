package runtime

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

var processStart = time.Now()

func monoNanos() int64 { return int64(time.Since(processStart)) }

// Collector receives a query's result batches for TableResult.Collect: the
// collect sink pushes into a bounded channel (back-pressuring the job when
// the reader is slow) and the reader pulls with Next.
type Collector struct {
	ch  chan *types.Batch
	job *Job
}

// NewCollector creates a collector buffering up to capacity batches.
func NewCollector(capacity int) *Collector {
	if capacity <= 0 {
		capacity = 64
	}
	return &Collector{ch: make(chan *types.Batch, capacity)}
}

// Attach links the collector to the job feeding it.
func (c *Collector) Attach(j *Job) { c.job = j }

// NewSink returns the operator factory of the collect sink.
func (c *Collector) NewSink() Operator { return &collectSink{ch: c.ch} }

// Next returns the next batch; io.EOF after the job finished and every
// batch was read; the job's error if it failed or was cancelled.
func (c *Collector) Next(ctx context.Context) (*types.Batch, error) {
	select {
	case b := <-c.ch:
		return b, nil
	default:
	}
	select {
	case b := <-c.ch:
		return b, nil
	case <-c.job.Done():
		select {
		case b := <-c.ch:
			return b, nil
		default:
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
	ch chan *types.Batch
}

func (s *collectSink) ProcessBatch(_ int, b *types.Batch) error {
	if b.Len == 0 {
		return nil
	}
	s.Ctx.Metrics.RecordsOut.Add(int64(b.Len))
	select {
	case s.ch <- b:
		return nil
	case <-s.Ctx.Ctx.Done():
		return s.Ctx.Ctx.Err()
	}
}

func (s *collectSink) ProcessWatermark(int, int64) error { return nil }

// ConnectorSink writes its input to a connector.Sink: one Writer per
// parallel instance, committed at the end of input and aborted otherwise.
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
}

// Open implements Operator.
func (s *ConnectorSink) Open(ctx *OpContext, out Output) error {
	s.BaseOperator.Open(ctx, out)
	w, err := s.Sink.Open(ctx.Ctx, s.Spec, ctx.Subtask)
	if err != nil {
		return err
	}
	s.w = w
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
	return s.w.Write(s.Ctx.Ctx, b)
}

// ProcessWatermark implements Operator.
func (s *ConnectorSink) ProcessWatermark(int, int64) error { return nil }

// EndInput commits the written data.
func (s *ConnectorSink) EndInput(int) error {
	if s.w == nil || s.committed {
		return nil
	}
	s.committed = true
	return s.w.Commit()
}

// Close aborts uncommitted data.
func (s *ConnectorSink) Close() error {
	if s.w != nil && !s.committed {
		s.w.Abort()
	}
	return nil
}

// ConnectorSource returns a SourceFunc reading a connector source: its
// splits are spread over the parallel instances, each reading its splits
// in order. onSkip is told of rows skipped by ignore-parse-errors.
func ConnectorSource(src connector.Source, spec connector.ReadSpec, onSkip func(int64)) SourceFunc {
	return func(ctx context.Context, inst, par int, emit func(*types.Batch) error) error {
		splits, err := src.Splits(ctx)
		if err != nil {
			return err
		}
		if ms, ok := src.(connector.MultiSplitSource); ok {
			// unbounded splits (Kafka partitions) are read together
			return readInstance(ctx, src, ms, splits, inst, par, spec, emit, onSkip)
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
		for _, b := range batches {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := emit(b); err != nil {
				return err
			}
		}
		return nil
	}
}
