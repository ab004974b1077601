package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// dataStreamIdentifier is the connector reading registered DataStreams.
const dataStreamIdentifier = "datastream"

var streamRegistry = struct {
	sync.Mutex
	m    map[string]*streamSource
	next int64
}{m: map[string]*streamSource{}}

// streamSource is a registered input stream with the declared table.
type streamSource struct {
	ds   *DataStream
	mode types.ChangelogMode
	// from maps each physical column to the stream field it reads (-1:
	// none, NULL).
	from []int
	// pk are the indexes of the primary key columns (upsert streams).
	pk []int
	// checkInsert rejects non-INSERT rows (FromDataStream).
	checkInsert bool
}

func registerStream(s *streamSource) string {
	streamRegistry.Lock()
	defer streamRegistry.Unlock()
	streamRegistry.next++
	id := strconv.FormatInt(streamRegistry.next, 10)
	streamRegistry.m[id] = s
	return id
}

func init() { connector.Register(streamFactory{}) }

type streamFactory struct{}

func (streamFactory) Identifier() string { return dataStreamIdentifier }

func (streamFactory) Options() []connector.Option {
	return []connector.Option{{Key: "datastream.id", Required: true, Kind: "string",
		Description: "Internal: the DataStream registered by TableEnvironment.FromDataStream / FromChangelogStream."}}
}

func (f streamFactory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	if err := connector.ValidateOptions(ctx, f.Options()); err != nil {
		return nil, err
	}
	streamRegistry.Lock()
	s, ok := streamRegistry.m[ctx.Options["datastream.id"]]
	streamRegistry.Unlock()
	if !ok {
		return nil, fmt.Errorf("table %s: no DataStream is registered under id '%s' (the datastream connector is created by FromDataStream)", ctx.Table, ctx.Options["datastream.id"])
	}
	return &streamSourceImpl{s: s, schema: ctx.Schema}, nil
}

type streamSourceImpl struct {
	s      *streamSource
	schema *types.Schema
	// arrowCols memoizes arrowColumns by the columns read: every split of
	// a scan opens with the same columns, and the check reads all the
	// records' arrays (64 splits of 367 records made it 47,000 checks a
	// query)
	arrowMu   sync.Mutex
	arrowCols map[string][]int
}

func (s *streamSourceImpl) Bounded() bool { return s.s.ds.bounded }

// EstimatedRowCount implements connector.ReportsStatistics for a
// FromArrow stream: the rows of its records (other streams: unknown).
func (s *streamSourceImpl) EstimatedRowCount(context.Context) (int64, bool) {
	ds := s.s.ds
	if ds.arrow == nil || !ds.bounded {
		return 0, false
	}
	var n int64
	for _, rec := range ds.arrow {
		n += rec.NumRows()
	}
	return n, true
}

// ChangelogMode is the declared mode: an upsert stream ([I,UA,D] with a
// primary key) is normalized by the planner's ChangelogNormalize, as
// Flink's fromChangelogStream is, and its deletes may carry only the key
// (Flink 2.3's ChangelogMode.upsert(): [I,UA,PD]).
func (s *streamSourceImpl) ChangelogMode() types.ChangelogMode {
	if s.s.pk != nil {
		return s.s.mode.WithKeyOnlyDeletes()
	}
	return s.s.mode
}

func (s *streamSourceImpl) ReadableMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{"rowtime": types.TimestampLTZType(3)}
}

type streamSplit struct{}

func (streamSplit) String() string { return "datastream" }

// arrowSplit is a range of a FromArrow table's records, [First, Last).
type arrowSplit struct{ First, Last int }

func (a arrowSplit) String() string { return fmt.Sprintf("records %d to %d", a.First, a.Last-1) }

// maxArrowSplits bounds the splits of a FromArrow table.
const maxArrowSplits = 64

// Splits is one split, except for a FromArrow table whose records can be
// read as they are (arrowReader): up to maxArrowSplits ranges of
// consecutive records with about as many rows each, so that the parallel
// instances of its scan share the records (read in order at parallelism 1).
func (s *streamSourceImpl) Splits(context.Context) ([]connector.Split, error) {
	ds := s.s.ds
	if ds.arrow == nil || len(ds.arrow) < 2 || s.s.pk != nil || !s.s.checkInsert || ds.watermark != nil || !ds.bounded {
		return []connector.Split{streamSplit{}}, nil
	}
	var total int64
	for _, r := range ds.arrow {
		total += r.NumRows()
	}
	n := int64(min(len(ds.arrow), maxArrowSplits))
	var out []connector.Split
	first, rows := 0, int64(0)
	for i, r := range ds.arrow {
		rows += r.NumRows()
		// close the range once it holds its share of the rows
		if rows*n >= total*int64(len(out)+1) || i == len(ds.arrow)-1 {
			out = append(out, arrowSplit{First: first, Last: i + 1})
			first = i + 1
		}
	}
	return out, nil
}

func (s *streamSourceImpl) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	ds := s.s.ds
	if r := s.arrowReader(spec); r != nil {
		if a, ok := split.(arrowSplit); ok {
			r.recs = r.recs[a.First:a.Last]
		}
		return r, nil
	}
	if a, ok := split.(arrowSplit); ok && a.First > 0 {
		// the records are converted row by row (arrowReader declined this
		// read): the first split reads them all
		return &arrowRecordReader{}, nil
	}
	r := &streamReader{s: s.s, spec: spec, phys: s.schema.Physical()}
	if ds.replay != nil {
		ch := make(chan StreamRecord)
		rctx, cancel := context.WithCancel(ctx)
		r.stop = cancel
		go func() {
			defer close(ch)
			ds.replay(func(rec StreamRecord) bool {
				select {
				case ch <- rec:
					return true
				case <-rctx.Done():
					return false
				}
			})
		}()
		r.in = ch
	} else {
		if !ds.used.CompareAndSwap(false, true) {
			return nil, errors.New("this DataStream is already being read by another job: a channel-backed DataStream can be consumed once")
		}
		r.in = ds.records
	}
	return r, nil
}

type streamReader struct {
	s    *streamSource
	spec connector.ReadSpec
	phys []types.Column
	in   <-chan StreamRecord
	stop func()
	done bool
}

// maxBatch bounds the rows per emitted batch.
const maxBatch = 1024

func (r *streamReader) Next(ctx context.Context) (*types.Batch, error) {
	if r.done {
		return nil, io.EOF
	}
	ts := make([]*types.DataType, 0, len(r.spec.Columns)+len(r.spec.Metadata))
	for _, c := range r.spec.Columns {
		ts = append(ts, r.phys[c].Type)
	}
	for range r.spec.Metadata {
		ts = append(ts, types.TimestampLTZType(3))
	}
	bb := types.NewBatchBuilder(ts)
	for bb.Len() < maxBatch {
		var rec StreamRecord
		var ok bool
		if bb.Len() == 0 {
			select {
			case rec, ok = <-r.in:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		} else {
			select {
			case rec, ok = <-r.in:
			default:
				return bb.Build(), nil
			}
		}
		if !ok {
			r.done = true
			if bb.Len() == 0 {
				return nil, io.EOF
			}
			return bb.Build(), nil
		}
		if err := r.append(bb, rec); err != nil {
			return nil, err
		}
	}
	return bb.Build(), nil
}

// append converts one record into the requested columns. In an upsert
// stream a -U row is left out (the ChangelogNormalize above the scan
// retracts the previous row of the key itself).
func (r *streamReader) append(bb *types.BatchBuilder, rec StreamRecord) error {
	row := rec.Row
	if row == nil {
		return errors.New("DataStream: nil row")
	}
	if r.s.checkInsert && row.Kind != types.Insert {
		return fmt.Errorf("Error during input conversion from external DataStream API to internal Table API data structures. Make sure that the provided data types that configure the converters are correctly declared in the schema. Affected record:\n%s\nFromDataStream accepts insert-only streams: use FromChangelogStream for rows of kind %s", row, row.Kind)
	}
	if !r.s.mode.Contains(row.Kind) && r.s.mode != types.UpsertMode {
		return fmt.Errorf("DataStream row %s has kind %s, which the declared changelog mode [%s] does not contain", row, row.Kind, r.s.mode)
	}
	full := make([]any, len(r.phys))
	for i, c := range r.phys {
		src := r.s.from[i]
		if src < 0 || src >= len(row.Values) {
			continue
		}
		v, err := convertValue(row.Values[src], c.Type)
		if err != nil {
			return fmt.Errorf("DataStream row %s, column %s: %w", row, c.Name, err)
		}
		if v == nil && !c.Type.Nullable {
			return fmt.Errorf("DataStream row %s: column %s is NOT NULL but the value is null", row, c.Name)
		}
		full[i] = v
	}
	var ts any
	if !rec.Timestamp.IsZero() {
		ts = rec.Timestamp.UTC()
	} else if w := r.s.ds.watermark; w != nil && w.TimestampAssigner() != nil {
		ms := w.TimestampAssigner().ExtractTimestamp(row, -1)
		ts = time.UnixMilli(ms).UTC()
	}
	emit := func(kind types.RowKind, vals []any) error {
		out := make([]any, 0, len(r.spec.Columns)+len(r.spec.Metadata))
		for _, c := range r.spec.Columns {
			out = append(out, vals[c])
		}
		for range r.spec.Metadata {
			out = append(out, ts)
		}
		return bb.Append(kind, out)
	}
	if r.s.pk != nil && row.Kind == types.UpdateBefore {
		return nil
	}
	return emit(row.Kind, full)
}

// arrowReader reads a FromArrow stream's records as they are, when the
// requested columns map one to one onto record columns of the same Arrow
// type (and NOT NULL columns hold no nulls); nil otherwise.
func (s *streamSourceImpl) arrowReader(spec connector.ReadSpec) *arrowRecordReader {
	ds := s.s.ds
	if ds.arrow == nil || s.s.pk != nil || !s.s.checkInsert || ds.watermark != nil || len(spec.Metadata) > 0 {
		return nil
	}
	key := fmt.Sprint(spec.Columns)
	s.arrowMu.Lock()
	defer s.arrowMu.Unlock()
	idx, ok := s.arrowCols[key]
	if !ok {
		idx = s.arrowColumns(spec.Columns)
		if s.arrowCols == nil {
			s.arrowCols = map[string][]int{}
		}
		s.arrowCols[key] = idx
	}
	if idx == nil {
		return nil
	}
	return &arrowRecordReader{recs: ds.arrow, idx: idx}
}

// arrowColumns returns, for each physical column in columns, the record
// column holding it, or nil when some record's array cannot be handed to
// the job as it is (another Arrow type, an offset, NULLs in a NOT NULL
// column, a column the stream does not have).
func (s *streamSourceImpl) arrowColumns(columns []int) []int {
	ds, phys := s.s.ds, s.schema.Physical()
	idx := make([]int, len(columns))
	for i, c := range columns {
		src := s.s.from[c]
		if src < 0 {
			return nil
		}
		want := types.ToArrow(phys[c].Type)
		for _, rec := range ds.arrow {
			col := rec.Column(src)
			// Riffle's kernels read buffers from offset 0: sliced arrays
			// (rec.NewSlice) take the row path
			if !arrow.TypeEqual(col.DataType(), want) || col.Data().Offset() != 0 || (!phys[c].Type.Nullable && col.NullN() > 0) {
				return nil
			}
		}
		idx[i] = src
	}
	return idx
}

// arrowRecordReader emits Arrow records as insert-only batches, sharing
// their arrays (Arrow arrays are immutable).
type arrowRecordReader struct {
	recs []arrow.RecordBatch
	idx  []int
	next int
}

func (r *arrowRecordReader) Next(ctx context.Context) (*types.Batch, error) {
	for r.next < len(r.recs) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := r.recs[r.next]
		r.next++
		if rec.NumRows() == 0 {
			continue
		}
		cols := make([]arrow.Array, len(r.idx))
		for i, c := range r.idx {
			cols[i] = rec.Column(c)
		}
		return types.NewBatch(cols, nil, int(rec.NumRows())), nil
	}
	return nil, io.EOF
}

func (r *arrowRecordReader) Close() error { return nil }

func (r *streamReader) Close() error {
	if r.stop != nil {
		r.stop()
	}
	return nil
}
