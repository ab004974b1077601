package table

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/types"
)

// StreamRecord is one element of a DataStream: a row (with its RowKind)
// and, optionally, its event timestamp.
type StreamRecord struct {
	Row *types.Row
	// Timestamp is the record's event time; the zero time means none.
	Timestamp time.Time
}

// DataStream is a stream of rows exchanged with Go code (the Go form of
// PyFlink's DataStream in the StreamTableEnvironment bridge). An input
// stream comes from a channel, a slice or an iterator and is read by a
// table source; it can be consumed by one job. An output stream
// (ToDataStream, ToChangelogStream) delivers a table's rows to Go code
// while its job runs.
type DataStream struct {
	rowType *types.DataType

	// input side
	// arrow, when set, holds the stream's rows as Arrow records whose
	// columns have exactly the Arrow types of the stream's fields
	// (FromArrow): a reader then hands them to the job as batches without
	// converting a value.
	arrow     []arrow.RecordBatch
	records   <-chan StreamRecord
	replay    func(yield func(StreamRecord) bool)
	bounded   bool
	watermark *common.WatermarkStrategy
	used      atomic.Bool

	// output side
	job    *JobClient
	out    chan StreamRecord
	schema *types.Schema
	mode   types.ChangelogMode
	errMu  sync.Mutex
	err    error
	taken  atomic.Bool
}

// NewDataStream wraps a channel of rows as an unbounded stream of the
// given row type (a ROW type: its fields become the columns; any other
// type is one column named f0). The stream ends when the channel is
// closed. Rows carry their RowKind.
func NewDataStream(rows <-chan *types.Row, rowType *types.DataType) *DataStream {
	ch := make(chan StreamRecord)
	go func() {
		defer close(ch)
		for r := range rows {
			ch <- StreamRecord{Row: r}
		}
	}()
	return &DataStream{rowType: rowType, records: ch}
}

// NewDataStreamOfRecords wraps a channel of records with timestamps as an
// unbounded stream of the given row type.
func NewDataStreamOfRecords(records <-chan StreamRecord, rowType *types.DataType) *DataStream {
	return &DataStream{rowType: rowType, records: records}
}

// DataStreamOf is a bounded stream of the given rows (a DataStream from a
// collection); it may be read by several jobs.
func DataStreamOf(rowType *types.DataType, rows ...*types.Row) *DataStream {
	rs := append([]*types.Row(nil), rows...)
	return &DataStream{rowType: rowType, bounded: true, replay: func(yield func(StreamRecord) bool) {
		for _, r := range rs {
			if !yield(StreamRecord{Row: r}) {
				return
			}
		}
	}}
}

// DataStreamFromIterator is a bounded stream read from an iterator each
// time a job reads it (a Go iter.Seq of rows).
func DataStreamFromIterator(rowType *types.DataType, seq func(yield func(*types.Row) bool)) *DataStream {
	return &DataStream{rowType: rowType, bounded: true, replay: func(yield func(StreamRecord) bool) {
		seq(func(r *types.Row) bool { return yield(StreamRecord{Row: r}) })
	}}
}

// AssignTimestampsAndWatermarks returns the stream with timestamps
// extracted by the strategy's assigner and its watermark strategy, used by
// a SOURCE_WATERMARK() watermark declaration (DataStream's
// assign_timestamps_and_watermarks).
func (d *DataStream) AssignTimestampsAndWatermarks(w common.WatermarkStrategy) *DataStream {
	c := &DataStream{rowType: d.rowType, records: d.records, replay: d.replay, bounded: d.bounded, watermark: &w}
	return c
}

// RowType returns the stream's row type.
func (d *DataStream) RowType() *types.DataType { return d.rowType }

// fields are the stream's columns: the ROW fields, or one column f0.
func (d *DataStream) fields() []types.Field {
	if d.rowType == nil {
		return nil
	}
	if d.rowType.Root == types.RowRoot {
		return d.rowType.Fields
	}
	return []types.Field{types.NewField("f0", d.rowType)}
}

// ---------------------------------------------------------------- output side

// Records returns the channel the stream's records arrive on; it is
// closed when the job ends (see Err). Use either Records or Rows, once.
func (d *DataStream) Records() <-chan StreamRecord {
	if d == nil || d.out == nil {
		ch := make(chan StreamRecord)
		close(ch)
		return ch
	}
	d.taken.Store(true)
	return d.out
}

// Rows returns the stream's rows (without timestamps); the channel is
// closed when the job ends (see Err).
func (d *DataStream) Rows() <-chan *types.Row {
	in := d.Records()
	out := make(chan *types.Row)
	go func() {
		defer close(out)
		for r := range in {
			out <- r.Row
		}
	}()
	return out
}

// CollectContext reads the whole stream (it must end) and returns its
// rows, each with its RowKind. It fails with the job's error, and for a
// nil DataStream (the value ToDataStreamContext and its siblings return
// next to an error). When ctx ends first it returns the rows read so far
// with ctx's error and cancels the stream's job, which has no other
// reader (use one of Records, Rows and CollectContext, once). An input
// stream has no rows to read: nil, nil.
func (d *DataStream) CollectContext(ctx context.Context) ([]*types.Row, error) {
	if d == nil {
		return nil, errNilDataStream
	}
	in := d.Records()
	var out []*types.Row
	for {
		if err := ctx.Err(); err != nil {
			d.abandon(in)
			return out, err
		}
		select {
		case r, ok := <-in:
			if !ok {
				return out, d.Err()
			}
			out = append(out, r.Row)
		case <-ctx.Done():
		}
	}
}

// Collect is CollectContext with context.Background(): it waits for the
// stream to end.
func (d *DataStream) Collect() ([]*types.Row, error) {
	return d.CollectContext(context.Background())
}

// abandon cancels the job of an output stream no one will read and
// drains its records, so that the goroutine delivering them ends.
func (d *DataStream) abandon(in <-chan StreamRecord) {
	_ = d.Close()
	go func() {
		for range in {
		}
	}()
}

// Err returns the error that ended an output stream (nil after success;
// an error for a nil DataStream).
func (d *DataStream) Err() error {
	if d == nil {
		return errNilDataStream
	}
	d.errMu.Lock()
	defer d.errMu.Unlock()
	return d.err
}

// JobClient returns the job producing an output stream (nil for input
// streams).
func (d *DataStream) JobClient() *JobClient { return d.job }

// Schema returns the schema of an output stream (its physical columns
// and, for a rowtime, a metadata column), nil for input streams.
func (d *DataStream) Schema() *types.Schema { return d.schema }

// errNilDataStream is reported by the methods of a nil DataStream.
var errNilDataStream = errors.New("nil DataStream (the conversion that should have produced it failed: check its error)")

// Close stops the job of an output stream.
func (d *DataStream) Close() error {
	if d != nil && d.job != nil {
		return d.job.Cancel()
	}
	return nil
}

// ---------------------------------------------------------------- changelog modes

// ChangelogModeAll is the mode with every row kind (PyFlink's
// ChangelogMode.all).
func ChangelogModeAll() types.ChangelogMode { return types.RetractMode }

// ChangelogModeInsertOnly is the mode of insert-only streams (PyFlink's
// ChangelogMode.insert_only).
func ChangelogModeInsertOnly() types.ChangelogMode { return types.InsertOnlyMode }

// ChangelogModeUpsert is the mode of upsert streams: INSERT, UPDATE_AFTER
// and DELETE, keyed by a primary key (PyFlink's ChangelogMode.upsert).
func ChangelogModeUpsert() types.ChangelogMode { return types.UpsertMode }
