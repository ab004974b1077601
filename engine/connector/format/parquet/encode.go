package parquet

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// CreateEncoder checks the columns and options; its writers write one
// Parquet file each.
func (Factory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	if err := checkColumns(ctx); err != nil {
		return nil, err
	}
	return &Encoder{Opts: o, Names: ctx.Names, Types: ctx.Types, schema: writeSchema(ctx.Names, ctx.Types, o)}, nil
}

// Encoder writes Parquet files of the columns Names/Types.
type Encoder struct {
	Opts   Options
	Names  []string
	Types  []*types.DataType
	schema *arrow.Schema
}

// writerProps are the Parquet and Arrow writer properties of the options.
func (e *Encoder) writerProps() (*pq.WriterProperties, pqarrow.ArrowWriterProperties) {
	o := e.Opts
	props := []pq.WriterProperty{
		pq.WithCompression(o.Compression),
		pq.WithDataPageSize(o.PageSize),
		pq.WithDictionaryDefault(o.Dictionary),
		pq.WithDictionaryPageSizeLimit(o.DictPageSize),
		// Logical types of format 2.6 (nanosecond timestamps); the data
		// page version is writer.version's.
		pq.WithVersion(pq.V2_LATEST),
		pq.WithCreatedBy("riffle (arrow-go parquet)"),
		// pqarrow's default of 64 Mi rows per row group; the byte size
		// (block.size) rolls row groups first.
		pq.WithMaxRowGroupLength(64 << 20),
	}
	if o.DataPageV2 {
		props = append(props, pq.WithDataPageVersion(pq.DataPageV2))
	}
	aprops := []pqarrow.WriterOption{}
	if !o.Int64Timestamp {
		aprops = append(aprops, pqarrow.WithDeprecatedInt96Timestamps(true))
	}
	arrowProps := pqarrow.NewArrowWriterProperties(aprops...)
	// FIXED_LEN_BYTE_ARRAY columns (decimals) are never dictionary-encoded,
	// as parquet-mr's v1 writer does: Flink's vectorized reader fails on a
	// dictionary-encoded decimal ("PlainBinaryDictionary ... decodeToInt").
	if sc, err := pqarrow.ToParquet(e.schema, pq.NewWriterProperties(props...), arrowProps); err == nil {
		for i := 0; i < sc.NumColumns(); i++ {
			if c := sc.Column(i); c.PhysicalType() == pq.Types.FixedLenByteArray {
				props = append(props, pq.WithDictionaryPath(c.ColumnPath(), false))
			}
		}
	}
	return pq.NewWriterProperties(props...), arrowProps
}

// NewWriter starts a Parquet file on w. The writer implements
// connector.ClosingBatchWriter: Close writes the footer; without it the
// file is incomplete.
func (e *Encoder) NewWriter(w io.Writer) connector.BatchWriter {
	return &Writer{e: e, w: w}
}

// Writer writes one Parquet file. Rows are buffered into the current row
// group until it reaches 'parquet.block.size' bytes.
type Writer struct {
	e        *Encoder
	w        io.Writer
	fw       *pqarrow.FileWriter
	err      error
	closed   bool
	buffered int64 // Arrow bytes in the current row group
	roll     bool  // start a row group at the next write
}

func (w *Writer) start() error {
	if w.fw != nil || w.err != nil {
		return w.err
	}
	props, aprops := w.e.writerProps()
	// pqarrow closes a writer that is an io.Closer: hide Close.
	fw, err := pqarrow.NewFileWriter(w.e.schema, struct{ io.Writer }{w.w}, props, aprops)
	if err != nil {
		w.err = fmt.Errorf("parquet: cannot start a file: %w", err)
		return w.err
	}
	w.fw = fw
	return nil
}

// Write buffers a batch of the encoder's columns.
func (w *Writer) Write(b *types.Batch) (err error) {
	if w.closed {
		return fmt.Errorf("parquet: write after close")
	}
	if err := w.start(); err != nil {
		return err
	}
	if b.Len == 0 {
		return nil
	}
	if len(b.Cols) != len(w.e.Types) {
		return fmt.Errorf("parquet: a batch of %d columns for a file of %d", len(b.Cols), len(w.e.Types))
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parquet: writing failed: %v", r)
			w.err = err
		}
	}()
	cols := make([]arrow.Array, len(b.Cols))
	for i, c := range b.Cols {
		t := w.e.Types[i]
		if !t.Nullable && c.NullN() > 0 {
			return fmt.Errorf("parquet: column '%s' is NOT NULL but a row has NULL", w.e.Names[i])
		}
		cc, err := toWrite(c, t, w.e.Opts)
		if err != nil {
			return fmt.Errorf("parquet: column '%s': %w", w.e.Names[i], err)
		}
		cols[i] = cc
	}
	if w.roll {
		w.roll, w.buffered = false, 0
		if err := w.fw.NewBufferedRowGroupChecked(); err != nil {
			w.err = fmt.Errorf("parquet: %w", err)
			return w.err
		}
	}
	rec := array.NewRecordBatch(w.e.schema, cols, int64(b.Len))
	defer rec.Release()
	if err := w.fw.WriteBuffered(rec); err != nil {
		w.err = fmt.Errorf("parquet: %w", err)
		return w.err
	}
	// The row group's size is estimated by the Arrow bytes buffered into
	// it (parquet-mr compares block.size with its buffered size too).
	for _, c := range cols {
		w.buffered += dataSize(c.Data())
	}
	// The next write starts a new row group (not now: Close would write
	// an empty one).
	w.roll = w.buffered >= w.e.Opts.BlockSize
	return nil
}

// Flush does nothing: a row group is written whole when it is full or
// the file closes.
func (w *Writer) Flush() error { return w.err }

// Close writes the last row group and the footer. It does not close the
// underlying writer.
func (w *Writer) Close() (err error) {
	if w.closed {
		return w.err
	}
	if err := w.start(); err != nil {
		return err
	}
	w.closed = true
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parquet: closing the file failed: %v", r)
		}
	}()
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("parquet: closing the file failed: %w", err)
	}
	return nil
}

// dataSize is the byte size of an array's buffers, children included.
func dataSize(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataSize(c)
	}
	return n
}
