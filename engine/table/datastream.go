package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
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

// ---------------------------------------------------------------- StreamTableEnvironment

// StreamTableEnvironment is a TableEnvironment with the bridge to
// DataStreams (PyFlink's StreamTableEnvironment). Every TableEnvironment
// has the bridge methods; this type exists for programs that mirror
// PyFlink.
type StreamTableEnvironment struct {
	*TableEnvironment
}

// CreateStreamTableEnvironment creates a StreamTableEnvironment
// (PyFlink's StreamTableEnvironment.create): settings may be nil
// (streaming mode), and an optional TableConfig's entries are copied in.
func CreateStreamTableEnvironment(settings *EnvironmentSettings, conf ...*TableConfig) (*StreamTableEnvironment, error) {
	t, err := Create(settings)
	if err != nil {
		return nil, err
	}
	for _, c := range conf {
		if c != nil {
			t.config.AddConfiguration(c.GetConfiguration())
		}
	}
	return &StreamTableEnvironment{t}, nil
}

// ---------------------------------------------------------------- streams to tables

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
}

func (s *streamSourceImpl) Bounded() bool { return s.s.ds.bounded }

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

func (s *streamSourceImpl) Splits(context.Context) ([]connector.Split, error) {
	return []connector.Split{streamSplit{}}, nil
}

func (s *streamSourceImpl) Open(ctx context.Context, _ connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	ds := s.s.ds
	if r := s.arrowReader(spec); r != nil {
		return r, nil
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
func (s *streamSourceImpl) arrowReader(spec connector.ReadSpec) connector.Reader {
	ds, phys := s.s.ds, s.schema.Physical()
	if ds.arrow == nil || s.s.pk != nil || !s.s.checkInsert || ds.watermark != nil || len(spec.Metadata) > 0 {
		return nil
	}
	idx := make([]int, len(spec.Columns))
	for i, c := range spec.Columns {
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
	return &arrowRecordReader{recs: ds.arrow, idx: idx}
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

// streamTable builds the inline table of a stream with an optional
// declared schema.
func (t *TableEnvironment) streamTable(ds *DataStream, schema *Schema, mode types.ChangelogMode, checkInsert bool) (*Table, error) {
	if ds == nil {
		return nil, errors.New("nil DataStream")
	}
	if ds.records == nil && ds.replay == nil {
		return nil, errors.New("this DataStream is an output stream; it cannot be read again")
	}
	fields := ds.fields()
	if len(fields) == 0 {
		return nil, errors.New("the DataStream has no row type")
	}
	for _, f := range fields {
		if err := checkDataType(f.Type); err != nil {
			return nil, fmt.Errorf("DataStream field %s: %w", f.Name, err)
		}
	}
	b := NewSchemaBuilder()
	if schema == nil || schema.PhysicalColumnCount() == 0 {
		for _, f := range fields {
			b.Column(f.Name, f.Type)
		}
	}
	if schema != nil {
		b.FromSchema(withSourceWatermark(schema, ds))
	}
	s := b.Build()
	rs, err := t.resolveSchema(s)
	if err != nil {
		return nil, err
	}
	src := &streamSource{ds: ds, mode: mode, checkInsert: checkInsert}
	byName := map[string]int{}
	for i, f := range fields {
		byName[f.Name] = i
	}
	for _, c := range rs.Physical() {
		i, ok := byName[c.Name]
		if !ok {
			return nil, fmt.Errorf("Unable to find a field named '%s' in the physical data type derived from the given type information for schema declaration. Make sure that the type information is not a generic raw type. Currently available fields are: [%s]", c.Name, fieldNames(fields))
		}
		src.from = append(src.from, i)
	}
	for _, c := range rs.Columns {
		if c.Kind == types.MetadataColumn {
			key := c.MetadataKey
			if key == "" {
				key = c.Name
			}
			if key != "rowtime" {
				return nil, fmt.Errorf("Invalid metadata key '%s' in column '%s': a DataStream offers the metadata key 'rowtime' only", key, c.Name)
			}
		}
	}
	if mode.Contains(types.UpdateAfter) && !mode.Contains(types.UpdateBefore) {
		if rs.PrimaryKey == nil {
			return nil, errors.New("An upsert changelog mode requires a primary key in the schema")
		}
		phys := rs.Physical()
		for _, k := range rs.PrimaryKey.Columns {
			for i, c := range phys {
				if c.Name == k {
					src.pk = append(src.pk, i)
				}
			}
		}
	}
	id := registerStream(src)
	tbl := &catalog.Table{TableSchema: rs, TableOptions: map[string]string{"connector": dataStreamIdentifier, "datastream.id": id}}
	oid := catalog.ObjectIdentifier{Catalog: t.CurrentCatalog(), Database: t.CurrentDatabase(), Object: "*anonymous_datastream_source$" + id + "*"}
	n, err := binder.ScanTable(t.bindContext(), oid, tbl)
	if err != nil {
		return nil, err
	}
	return &Table{env: t, node: n}, nil
}

func fieldNames(fs []types.Field) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// withSourceWatermark replaces a SOURCE_WATERMARK() watermark by the
// stream's watermark strategy: the rowtime minus the out-of-orderness
// bound (the rowtime itself without a strategy).
func withSourceWatermark(s *Schema, ds *DataStream) *Schema {
	out := *s
	out.Watermarks = nil
	for _, w := range s.Watermarks {
		x, err := sql.ParseExpr(w.Expr)
		if err == nil {
			if f, ok := x.(*sql.FuncCall); ok && len(f.Name.Parts) == 1 && strings.EqualFold(f.Name.Parts[0].Name, "SOURCE_WATERMARK") && len(f.Args) == 0 {
				expr := sql.QuoteIdent(w.Column)
				if ds.watermark != nil && ds.watermark.MaxOutOfOrderness() > 0 {
					expr += " - " + sql.Format(durationLit(ds.watermark.MaxOutOfOrderness()))
				}
				w.Expr = expr
			}
		}
		out.Watermarks = append(out.Watermarks, w)
	}
	return &out
}

// FromDataStream reads an insert-only DataStream as a table (PyFlink's
// from_data_stream). Without a schema the stream's fields are the
// columns. A schema may declare all physical columns (mapped by name,
// possibly reordered and with other types, to which values are
// converted), or only computed columns, metadata columns and a watermark,
// the physical columns then being derived at the front. The record
// timestamp is the metadata column with key "rowtime" (TIMESTAMP_LTZ(3)),
// and the watermark SOURCE_WATERMARK() follows the stream's watermark
// strategy. Rows of a kind other than INSERT fail the job.
func (t *TableEnvironment) FromDataStream(ds *DataStream, schema ...*Schema) (*Table, error) {
	var s *Schema
	if len(schema) > 0 {
		s = schema[0]
	}
	return t.streamTable(ds, s, types.InsertOnlyMode, true)
}

// FromChangelogStream reads a DataStream of rows of every RowKind as a
// table, evaluating each row's kind (PyFlink's from_changelog_stream). The
// default mode accepts all kinds; an upsert mode (ChangelogModeUpsert)
// needs a primary key in the schema, and its updates are turned into
// retractions of the previous row per key. A row whose kind the mode does
// not contain fails the job.
func (t *TableEnvironment) FromChangelogStream(ds *DataStream, schema *Schema, mode ...types.ChangelogMode) (*Table, error) {
	m := types.RetractMode
	if len(mode) > 0 {
		m = mode[0]
	}
	return t.streamTable(ds, schema, m, false)
}

// FromDataStreamWithFields reads an insert-only DataStream with a field
// mapping of expressions (PyFlink's from_data_stream with fields): by
// name, when the expressions reference the stream's fields (they may
// reorder, project and rename them with As), or by position (renaming
// them in order). Col(name).Rowtime() declares the record timestamp as the
// rowtime attribute (replacing the field of that name, or appended), with
// the stream's watermarks; Col(name).Proctime() appends a processing-time
// attribute.
func (t *TableEnvironment) FromDataStreamWithFields(ds *DataStream, fields ...Expression) (*Table, error) {
	if ds == nil {
		return nil, errors.New("nil DataStream")
	}
	sf := ds.fields()
	byName := map[string]int{}
	for i, f := range sf {
		byName[f.Name] = i
	}
	byPosition := true
	for _, f := range fields {
		if err := f.Err(); err != nil {
			return nil, err
		}
		base := f
		if f.x.kind == kindTimeAttr {
			base = f.x.args[0]
		}
		if id, ok := base.x.node.(*sql.Identifier); ok && len(id.Parts) == 1 {
			if _, ok := byName[id.Parts[0].Name]; ok && f.x.kind != kindTimeAttr {
				byPosition = false
			}
		}
	}
	b := NewSchemaBuilder()
	var rowtime, proctime string
	var proj []Expression
	pos := 0
	for _, f := range fields {
		base, prop := f, ""
		if f.x.kind == kindTimeAttr {
			base, prop = f.x.args[0], f.x.prop
		}
		id, ok := base.x.node.(*sql.Identifier)
		if !ok || len(id.Parts) != 1 {
			return nil, fmt.Errorf("field mappings accept column references, not %s", f)
		}
		name := id.Parts[0].Name
		out := name
		if len(f.x.names) == 1 {
			out = f.x.names[0]
		} else if len(base.x.names) == 1 {
			out = base.x.names[0]
		}
		switch prop {
		case "rowtime":
			rowtime = out
			if i, ok := byName[name]; ok && !byPosition {
				_ = i
			}
			continue
		case "proctime":
			proctime = out
			continue
		}
		src := name
		if byPosition {
			if pos >= len(sf) {
				return nil, fmt.Errorf("the field mapping has more fields than the stream (%d)", len(sf))
			}
			src = sf[pos].Name
			out = name
			if len(f.x.names) == 1 {
				out = f.x.names[0]
			}
			pos++
		} else if _, ok := byName[src]; !ok {
			return nil, fmt.Errorf("Cannot resolve field [%s], input field list:[%s]", src, fieldNames(sf))
		}
		proj = append(proj, Col(src).As(out))
	}
	for _, f := range sf {
		b.Column(f.Name, f.Type)
	}
	if rowtime != "" {
		b.ColumnByMetadata("$rowtime", types.TimestampLTZType(3), "rowtime", true)
		b.Watermark("$rowtime", "SOURCE_WATERMARK()")
	}
	tbl, err := t.streamTable(ds, b.Build(), types.InsertOnlyMode, true)
	if err != nil {
		return nil, err
	}
	if rowtime != "" {
		proj = append(proj, Col("$rowtime").As(rowtime))
	}
	if proctime != "" {
		proj = append(proj, Call("PROCTIME").As(proctime))
	}
	out := tbl.Select(proj...)
	return out, out.err
}

// CreateTemporaryViewFromDataStream registers a DataStream as a temporary
// view (PyFlink's create_temporary_view with a DataStream): with a
// *Schema as FromDataStream does, with Expressions as
// FromDataStreamWithFields does, or with nothing.
func (t *TableEnvironment) CreateTemporaryViewFromDataStream(path string, ds *DataStream, fieldsOrSchema ...any) error {
	var tbl *Table
	var err error
	switch {
	case len(fieldsOrSchema) == 0:
		tbl, err = t.FromDataStream(ds)
	default:
		if s, ok := fieldsOrSchema[0].(*Schema); ok && len(fieldsOrSchema) == 1 {
			tbl, err = t.FromDataStream(ds, s)
			break
		}
		var fs []Expression
		for _, f := range fieldsOrSchema {
			switch x := f.(type) {
			case Expression:
				fs = append(fs, x)
			case string:
				fs = append(fs, Exprs(x)...)
			default:
				return fmt.Errorf("CreateTemporaryViewFromDataStream takes a *Schema or Expressions, got %T", f)
			}
		}
		tbl, err = t.FromDataStreamWithFields(ds, fs...)
	}
	if err != nil {
		return err
	}
	return t.CreateTemporaryView(path, tbl)
}
