package table

import (
	"context"
	"errors"
	"io"
	"iter"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// ResultKind says whether a result has rows to show (PyFlink's ResultKind).
type ResultKind int

// Result kinds.
const (
	// Success is a statement without content (DDL, SET, USE...).
	Success ResultKind = iota
	// SuccessWithContent is a result with rows (queries, SHOW, DESCRIBE,
	// EXPLAIN, and the job result of INSERT).
	SuccessWithContent
)

func (k ResultKind) String() string {
	if k == Success {
		return "SUCCESS"
	}
	return "SUCCESS_WITH_CONTENT"
}

// TableSchema lists the column names and types of a table or result
// (PyFlink's TableSchema). It is immutable.
type TableSchema struct {
	names []string
	types []*types.DataType
}

// NewTableSchema builds a schema from names and types of equal length
// (PyFlink's TableSchema(field_names, data_types)).
func NewTableSchema(names []string, ts []*types.DataType) *TableSchema {
	return &TableSchema{names: names, types: ts}
}

// TableSchemaBuilder builds a TableSchema field by field (PyFlink's
// TableSchema.Builder).
type TableSchemaBuilder struct{ s TableSchema }

// NewTableSchemaBuilder starts an empty schema (PyFlink's
// TableSchema.builder).
func NewTableSchemaBuilder() *TableSchemaBuilder { return &TableSchemaBuilder{} }

// Field appends a field; call order is field order (PyFlink's field).
func (b *TableSchemaBuilder) Field(name string, t *types.DataType) *TableSchemaBuilder {
	b.s.names = append(b.s.names, name)
	b.s.types = append(b.s.types, t)
	return b
}

// Build returns the schema (PyFlink's build).
func (b *TableSchemaBuilder) Build() *TableSchema {
	return NewTableSchema(append([]string(nil), b.s.names...), append([]*types.DataType(nil), b.s.types...))
}

// Copy returns a deep copy (PyFlink's copy).
func (s *TableSchema) Copy() *TableSchema {
	ts := make([]*types.DataType, len(s.types))
	for i, t := range s.types {
		ts[i] = t.Copy()
	}
	return NewTableSchema(append([]string(nil), s.names...), ts)
}

// FieldNames returns the column names (PyFlink's get_field_names).
func (s *TableSchema) FieldNames() []string { return append([]string(nil), s.names...) }

// FieldDataTypes returns the column types (PyFlink's
// get_field_data_types).
func (s *TableSchema) FieldDataTypes() []*types.DataType {
	return append([]*types.DataType(nil), s.types...)
}

// FieldCount returns the number of columns (PyFlink's
// get_field_count).
func (s *TableSchema) FieldCount() int { return len(s.names) }

// FieldName returns column i's name; false when i is out of range
// (PyFlink's get_field_name).
func (s *TableSchema) FieldName(i int) (string, bool) {
	if i < 0 || i >= len(s.names) {
		return "", false
	}
	return s.names[i], true
}

// FieldDataType returns the type of the named column; false when there
// is none (PyFlink's get_field_data_type with a name).
func (s *TableSchema) FieldDataType(name string) (*types.DataType, bool) {
	for i, n := range s.names {
		if n == name {
			return s.types[i], true
		}
	}
	return nil, false
}

// FieldDataTypeAt returns the type of column i; false when i is out of
// range (PyFlink's get_field_data_type with an index).
func (s *TableSchema) FieldDataTypeAt(i int) (*types.DataType, bool) {
	if i < 0 || i >= len(s.types) {
		return nil, false
	}
	return s.types[i], true
}

// ToRowDataType returns the schema as a ROW type (PyFlink's
// to_row_data_type).
func (s *TableSchema) ToRowDataType() *types.DataType {
	fields := make([]types.Field, len(s.names))
	for i, n := range s.names {
		fields[i] = types.NewField(n, s.types[i])
	}
	return types.RowType(fields...).NotNull()
}

// String renders "root\n |-- name: TYPE" as Flink's TableSchema does.
func (s *TableSchema) String() string {
	out := "root\n"
	for i, n := range s.names {
		out += " |-- " + n + ": " + s.types[i].String() + "\n"
	}
	return out
}

// TableResult is the result of executing a statement (PyFlink's
// TableResult). For queries the rows stream in while the job runs; read
// them once, with Rows(ctx) (a range loop; stopping early cancels the
// job), CollectContext (an iterator to close) or PrintContext. Collect
// and Print are their PyFlink-shaped forms without a context.
type TableResult struct {
	kind      ResultKind
	schema    *TableSchema
	static    []*types.Row
	collector *runtime.Collector
	job       *JobClient
	// query marks a SELECT result (printed with an op column in streaming).
	query     bool
	streaming bool
	zone      *time.Location
	maxWidth  int
	// message is the SQL Client line for statements without rows.
	message string

	mu        sync.Mutex
	collected bool
	// pending is a batch read by WaitContext before CollectContext.
	pending *types.Batch
	ended   bool
	// converters is the number of goroutines RowIterator.Next converts
	// batches to rows on: the query's parallelism.default, at most
	// GOMAXPROCS (1: on Next's own goroutine)
	converters int
}

// ResultBuffer is the buffer that holds a query's rows until they are
// read. Its bounds are 64 batches and twice collect-sink.batch-size.max
// bytes; when it is full the job's collect sink blocks.
type ResultBuffer interface {
	// Buffered returns the batches and bytes (Arrow buffer sizes) the
	// buffer holds now, read by no one yet.
	Buffered() (batches int, bytes int64)
	// MaxBytes returns the byte bound of the buffer (0: none).
	MaxBytes() int64
	// Full returns a channel that is closed while the collect sink is
	// blocked because the buffer is full: at once when it is blocked now,
	// else the next time it blocks.
	Full() <-chan struct{}
}

// ResultBuffer returns the buffer that holds a query's rows until they are
// read, or nil for a result that is not a query's (and for a nil
// *TableResult).
func (r *TableResult) ResultBuffer() ResultBuffer {
	if r == nil || r.collector == nil {
		return nil
	}
	return r.collector
}

// okResult is the result of DDL and other statements without rows:
// one column "result" with "OK".
func okResult() *TableResult {
	return &TableResult{kind: Success, schema: NewTableSchema([]string{"result"}, []*types.DataType{types.StringType()}),
		static: []*types.Row{types.NewRow("OK")}, message: "[INFO] Execute statement succeeded."}
}

// ResultKind returns SUCCESS for DDL and USE and SUCCESS_WITH_CONTENT
// for everything else, DML, queries, SHOW, DESCRIBE and EXPLAIN included
// (PyFlink's get_result_kind).
// A nil *TableResult (returned next to an error) reports SUCCESS.
func (r *TableResult) ResultKind() ResultKind {
	if r == nil {
		return Success
	}
	return r.kind
}

// Schema returns the result's columns (PyFlink's
// get_table_schema): "result" STRING for DDL, USE and EXPLAIN, one STRING
// column for SHOW, one BIGINT column per sink for INSERT, the selected
// columns for a query. A nil *TableResult has an empty schema.
func (r *TableResult) Schema() *TableSchema {
	if r == nil {
		return NewTableSchema(nil, nil)
	}
	return r.schema
}

// JobClient returns the job of a query or INSERT, nil for statements
// that run no job (PyFlink's get_job_client) and for a nil *TableResult.
func (r *TableResult) JobClient() *JobClient {
	if r == nil {
		return nil
	}
	return r.job
}

// IsQuery reports a SELECT result (its rows carry changelog RowKinds).
func (r *TableResult) IsQuery() bool { return r != nil && r.query }

// Message is the line the SQL Client prints for a statement without rows
// ("[INFO] Execute statement succeeded."); "" for a nil *TableResult.
func (r *TableResult) Message() string {
	if r == nil {
		return ""
	}
	return r.message
}

// errNilResult is reported by the methods of a nil *TableResult, the
// value ExecuteSQL and Execute return next to an error.
var errNilResult = errors.New("nil TableResult (the statement that should have produced it failed: check its error)")

// WaitContext blocks until the result is ready or ctx ends (PyFlink's
// wait): for a query until its first row is available (or the job ended),
// for an INSERT until the job ends; other results are ready at once. It
// returns the job's error, or ctx's error when ctx ends first (the job
// keeps running).
func (r *TableResult) WaitContext(ctx context.Context) error {
	if r == nil {
		return errNilResult
	}
	if r.job == nil {
		return nil
	}
	if r.collector == nil {
		return r.job.Wait(ctx)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending != nil || r.ended || r.collected {
		return nil
	}
	for {
		b, err := r.collector.Next(ctx)
		if err == io.EOF {
			r.ended = true
			return nil
		}
		if err != nil {
			return err
		}
		if b.Len > 0 {
			r.pending = b
			return nil
		}
	}
}

// takePending returns the batch Wait read ahead, if any.
func (r *TableResult) takePending() *types.Batch {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.pending
	r.pending = nil
	return b
}

// ErrAlreadyCollected is returned when a result's rows are read twice.
var ErrAlreadyCollected = errors.New("the result of a query can only be collected once")

// CollectContext returns an iterator over the rows (PyFlink's collect).
// For a query it follows the running job: rows arrive as they are
// produced, each with its RowKind, and the job does not finish before they
// are consumed; closing the iterator cancels an unfinished job, and once
// ctx ends Next returns false (Err: ctx's error) when it would read the
// next batch, whether it waits for rows or they are already there. For an
// INSERT it yields -1 per sink. A query's rows can be read once:
// CollectContext, Rows and PrintContext are mutually exclusive
// (ErrAlreadyCollected).
func (r *TableResult) CollectContext(ctx context.Context) (*RowIterator, error) {
	if r == nil {
		return nil, errNilResult
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.collected && r.collector != nil {
		return nil, ErrAlreadyCollected
	}
	r.collected = true
	it := &RowIterator{res: r, ctx: ctx}
	if r.collector == nil {
		it.static = r.static
	} else {
		// the rows' names: the iterator's own, so that a row's Names
		// written in place cannot change the result's schema
		it.names = append([]string(nil), r.schema.names...)
	}
	return it, nil
}

// RowIterator iterates a result's rows:
//
//	it, _ := res.CollectContext(ctx)
//	defer it.Close()
//	for it.Next() { row := it.Row() ... }
//	if err := it.Err(); err != nil { ... }
type RowIterator struct {
	res    *TableResult
	ctx    context.Context
	static []*types.Row
	pos    int
	batch  *types.Batch
	// bpos is the number of batch's rows Next has passed: the current row
	// is batch's row bpos-1
	bpos int
	// vals is batch's block of values (types.RowConverter.ValueBlock)
	// once converted: by Row or Values, or ahead by conversion; rows are
	// batch's rows over it, made by the batch's first Row. spare is a
	// block no row refers to, for the next batch's values (one converter)
	vals  []any
	rows  []types.Row
	spare []any
	conv  *types.RowConverter
	// names is the Names of every row Row makes: a copy of the schema's
	names []string
	// wantRows is set by the first Row of a query's result: a reader that
	// only counts rows (or reads NextBatch) never pays for converting
	// them to Go values; one that reads them has the following batches
	// converted ahead, on several goroutines when converters > 1
	wantRows bool
	// conversion converts batches on several goroutines (converters > 1);
	// only Next's goroutine uses the field, Close (which may run on
	// another) finds it through published
	conversion *rowConversion
	published  atomic.Pointer[rowConversion]
	// end is the length of batch once Next may step through its rows
	// without leaving the batch (after its values when a conversion
	// runs), else 0: Next's fast path tests bpos < end and closed alone
	end int
	// row is a static result's current row (a query's rows are made with
	// their batch, in rows)
	row  *types.Row
	err  error
	done bool
	// closed is set by Close, which may run on another goroutine than Next
	closed atomic.Bool
}

// Next advances to the next row; it returns false at the end or on error
// (see Err), and for a nil iterator (CollectContext's value next to an
// error). For a query it does not convert the row to Go values: Row does,
// a batch at a time, so a reader that only counts rows does not pay for
// it.
func (it *RowIterator) Next() bool {
	// the common case first, without a call or a loop: another row of
	// the batch at hand (its values converted when a conversion runs
	// ahead)
	if it != nil && it.bpos < it.end && !it.closed.Load() {
		it.bpos++
		return true
	}
	return it.advance()
}

// advance is Next past the end of the batch at hand: the next batch of
// a query's result (converted when a conversion runs), the next row of a
// static result, or false at the end.
func (it *RowIterator) advance() bool {
	if it == nil || it.done || it.closed.Load() {
		return false
	}
	if it.res.collector == nil {
		if it.pos >= len(it.static) {
			it.done = true
			return false
		}
		// a copy: a change to the row does not reach the result, read
		// again by a later Collect or Print
		r := *it.static[it.pos]
		r.Values = append([]any(nil), r.Values...)
		r.Names = append([]string(nil), r.Names...)
		it.row = &r
		it.pos++
		return true
	}
	if it.conversion != nil || (it.wantRows && it.res.converters > 1) {
		return it.nextConverted()
	}
	for it.batch == nil || it.bpos >= it.batch.Len {
		if it.ctxEnded() {
			return false
		}
		if p := it.res.takePending(); p != nil {
			it.leaveBatch()
			it.batch, it.bpos, it.end = p, 0, p.Len
			continue
		}
		b, err := it.res.collector.Next(it.ctx)
		if err == io.EOF {
			it.done = true
			return false
		}
		if err != nil {
			it.err, it.done = err, true
			return false
		}
		it.leaveBatch()
		it.batch, it.bpos, it.end = b, 0, b.Len
	}
	it.bpos++
	it.row = nil
	return true
}

// leaveBatch forgets the current batch's values and rows; a block of
// values no row refers to is kept for the next batch (one converter) or
// given back to the converters.
func (it *RowIterator) leaveBatch() {
	if it.vals != nil && it.rows == nil {
		if it.conversion != nil {
			it.conversion.recycle(it.vals)
		} else {
			it.spare = it.vals
		}
	}
	it.vals, it.rows = nil, nil
}

// ctxEnded reports whether the iterator's context has ended, and if so
// ends the iteration with the context's error: rows already handed out
// stay valid, no further batch is read (as database/sql's Rows after its
// context ends, even when the rest of the result is already buffered).
func (it *RowIterator) ctxEnded() bool {
	if it.ctx == nil {
		return false
	}
	if err := it.ctx.Err(); err != nil {
		it.err, it.done = err, true
		return true
	}
	return false
}

// nextConverted is Next for a result converted ahead on several
// goroutines (rowConversion), once Row has been called: the rest of the
// current batch first, then the converted batches in the collector's
// order.
func (it *RowIterator) nextConverted() bool {
	for it.vals == nil || it.bpos >= it.batch.Len {
		if it.ctxEnded() {
			return false
		}
		if it.conversion == nil {
			it.conversion = startRowConversion(it, it.res.converters)
			it.published.Store(it.conversion)
			// a Close that looked before the conversion was published
			// has set closed: stop it here
			if it.closed.Load() {
				it.conversion.cancel()
			}
		}
		b, vals, err := it.conversion.next(it.ctx)
		if err == io.EOF {
			it.done = true
			return false
		}
		if err != nil {
			if it.closed.Load() && it.ctx.Err() == nil && errors.Is(err, context.Canceled) {
				// Close (from another goroutine) stopped the converters,
				// not the caller's context: report the job's cancellation,
				// as a Next waiting on one converter does
				err = ErrCanceled
			}
			it.err, it.done = err, true
			return false
		}
		it.leaveBatch()
		it.batch, it.bpos, it.vals, it.end = b, 0, vals, b.Len
		if vals == nil {
			it.end = 0
		}
	}
	it.bpos++
	it.row = nil
	return true
}

// NextBatch returns the next batch of rows (query results only; static
// results come as one batch), io.EOF at the end. Use either Next or
// NextBatch on one iterator, not both.
func (it *RowIterator) NextBatch(ctx context.Context) (*types.Batch, error) {
	if it == nil {
		return nil, errNilIterator
	}
	if it.res.collector == nil {
		if it.pos >= len(it.static) {
			return nil, io.EOF
		}
		bb := types.NewBatchBuilder(it.res.schema.types)
		for _, r := range it.static[it.pos:] {
			if err := bb.AppendRow(r); err != nil {
				return nil, err
			}
		}
		it.pos = len(it.static)
		return bb.Build(), nil
	}
	if p := it.res.takePending(); p != nil {
		return p, nil
	}
	return it.res.collector.Next(ctx)
}

// Row returns the current row (nil before the first Next and for a nil
// iterator).
//
// A query's rows are converted from the result's Arrow batches here, a
// whole batch at the first Row of the batch (one type switch per column,
// one allocation for its rows); the first call also has the following
// batches converted ahead of Next. Calling Row again for the same row
// returns the same *types.Row. A reader that copies each row's values
// elsewhere allocates less with Values.
//
// A row is the caller's to change: its Values, Kind and Names (through
// SetFieldNames) belong to it alone. The rows of one query result share
// one Names slice, as the rows a Flink converter makes share their
// name-to-position map: write a row's names with SetFieldNames, not into
// Names in place. The result's Schema is never shared with them.
func (it *RowIterator) Row() *types.Row {
	if it == nil {
		return nil
	}
	if it.batch != nil && it.bpos > 0 {
		// a query's row: made with its batch's rows, not kept in it.row,
		// so that Next need not clear it
		if it.rows == nil {
			it.rows = types.BlockRows(it.batch, it.batchValues(), it.names)
		}
		return &it.rows[it.bpos-1]
	}
	return it.row
}

// Values appends the current row's values to dst[:0] and returns the
// slice: one Go value per column, in the schema's order, the values Row's
// Values holds (nil for NULL); an empty slice before the first Next and
// for a nil iterator. Its RowKind is Kind's.
//
// Unlike Row it makes no *types.Row: a reader that passes the same dst
// for every row (database/sql's Scan habit) allocates nothing per row
// but the values' own boxes, and the blocks the values are converted
// into are reused from batch to batch instead of allocated: 56 + 16 ×
// columns bytes a row less to allocate and zero than Row's. The values
// themselves stay valid after Next. dst must not be (part of) a Row's
// Values: Values would write this row's values over that row's.
func (it *RowIterator) Values(dst []any) []any {
	dst = dst[:0]
	if it == nil {
		return dst
	}
	if it.row != nil && it.batch == nil {
		// a static result's row
		return append(dst, it.row.Values...)
	}
	if it.batch == nil || it.bpos == 0 {
		return dst
	}
	k := len(it.batch.Cols)
	vals := it.vals
	if vals == nil {
		vals = it.batchValues()
	}
	row := vals[(it.bpos-1)*k : it.bpos*k]
	if cap(dst) < k {
		return append(dst, row...)
	}
	// a few values: stored one by one, cheaper than append's bulk copy
	// (a call and its write barrier pass) for the usual handful
	dst = dst[:k]
	for i, v := range row {
		dst[i] = v
	}
	return dst
}

// Kind returns the current row's RowKind (INSERT before the first Next
// and for a nil iterator): Row's Kind, without making the row.
func (it *RowIterator) Kind() types.RowKind {
	switch {
	case it == nil:
		return types.Insert
	case it.row != nil:
		return it.row.Kind
	case it.batch != nil && it.bpos > 0:
		return it.batch.Kind(it.bpos - 1)
	}
	return types.Insert
}

// batchValues returns the current batch's block of values, converting
// the batch the first time; it has the following batches converted ahead
// of Next from then on.
func (it *RowIterator) batchValues() []any {
	if it.vals == nil {
		it.wantRows = true
		if it.conv == nil {
			it.conv = types.NewRowConverter(it.res.schema.types)
		}
		it.vals = it.conv.ValueBlock(it.batch, it.spare)
		it.spare = nil
	}
	return it.vals
}

// Err returns the error that ended iteration (the job's failure), if any;
// for a nil iterator an error saying so.
func (it *RowIterator) Err() error {
	if it == nil {
		return errNilIterator
	}
	return it.err
}

var errNilIterator = errors.New("nil RowIterator (Collect failed: check its error)")

// Close stops reading; an unfinished query job is cancelled (PyFlink's
// CloseableIterator.close). It may be called from another goroutine to
// stop a Next that waits for rows: that Next then returns false, and Err
// says the job was cancelled (ErrCanceled; nil when Next saw the Close
// before it waited), whatever the number of converters.
func (it *RowIterator) Close() error {
	if it == nil {
		return nil
	}
	it.closed.Store(true)
	if c := it.published.Load(); c != nil {
		c.cancel()
	}
	if it.res.job != nil && !it.res.job.Status().IsTerminal() {
		return it.res.job.Cancel()
	}
	return nil
}

// Rows yields the result's rows as they arrive, each with its RowKind
// (the iterator form of CollectContext). An error (the job's failure,
// ctx's end, ErrAlreadyCollected) is yielded once, with a nil row, and
// ends the sequence. Stopping early cancels an unfinished query job.
//
//	for row, err := range res.Rows(ctx) {
//		if err != nil { ... }
//		...
//	}
func (r *TableResult) Rows(ctx context.Context) iter.Seq2[*types.Row, error] {
	return func(yield func(*types.Row, error) bool) {
		it, err := r.CollectContext(ctx)
		if err != nil {
			yield(nil, err)
			return
		}
		defer it.Close()
		for it.Next() {
			if !yield(it.Row(), nil) {
				return
			}
		}
		if err := it.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// PrintContext writes the result to w in Flink's tableau layout (PyFlink's
// TableResult.print); for a query it consumes the rows as CollectContext
// does, until the job ends or ctx does.
func (r *TableResult) PrintContext(ctx context.Context, w io.Writer) error {
	it, err := r.CollectContext(ctx)
	if err != nil {
		return err
	}
	defer it.Close()
	return PrintTableau(w, r.schema, it, r.tableauOptions())
}

// tableauOptions are the options PrintTo prints with.
func (r *TableResult) tableauOptions() TableauOptions {
	width := r.maxWidth
	if !r.query {
		// Flink's client sizes non-query results (SHOW, DESCRIBE) to their
		// content without a maximum
		width = math.MaxInt32
	}
	// and print NULL (DESCRIBE's key, extras, watermark) as an empty cell
	return TableauOptions{Streaming: r.query && r.streaming, MaxColumnWidth: width, Zone: r.zone, NullAsEmpty: !r.query}
}
