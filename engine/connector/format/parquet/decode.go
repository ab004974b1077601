package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// CreateDecoder checks the columns and options. The decoder is a
// connector.FileDecoder: the filesystem connector opens files with
// NewFileReader.
func (Factory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	if err := checkColumns(ctx); err != nil {
		return nil, err
	}
	allNames, allTypes := ctx.AllNames, ctx.AllTypes
	if allNames == nil {
		allNames, allTypes = ctx.Names, ctx.Types
	}
	return &Decoder{Opts: o, Names: ctx.Names, Types: ctx.Types, AllNames: allNames, AllTypes: allTypes}, nil
}

// Decoder reads Parquet files into batches of the columns Names/Types
// (the projection); AllNames/AllTypes are all stored columns of the table,
// which filters may name.
type Decoder struct {
	Opts     Options
	Names    []string
	Types    []*types.DataType
	AllNames []string
	AllTypes []*types.DataType
}

// NewReader reads a Parquet file from a stream by buffering it whole
// (Parquet's footer comes last); the filesystem connector uses
// NewFileReader instead.
func (d *Decoder) NewReader(r io.Reader, name string, maxRows int) connector.BatchReader {
	data, err := io.ReadAll(r)
	if err != nil {
		return &errReader{fmt.Errorf("parquet file %s: %w", name, err)}
	}
	br, err := d.NewFileReader(bytes.NewReader(data), int64(len(data)), name, maxRows, nil)
	if err != nil {
		return &errReader{err}
	}
	return br
}

type errReader struct{ err error }

func (e *errReader) Next() (*types.Batch, error) { return nil, e.err }
func (e *errReader) SkippedRows() int64          { return 0 }

// NewFileReader opens one Parquet file of size bytes. Only the column
// chunks of the projected columns are read, and only in the row groups
// that filters (predicates over AllNames, by name) do not rule out. A file
// that is not Parquet, is truncated or corrupt, or stores a column in an
// incompatible type is an error naming the file.
func (d *Decoder) NewFileReader(f io.ReaderAt, size int64, name string, maxRows int, filters []*connector.Predicate) (connector.BatchReader, error) {
	return d.newFileReader(f, size, name, maxRows, filters, 0, -1)
}

// FileBlocks returns the number of row groups of a file: the filesystem
// connector splits a file of several row groups into one split per row
// group, read in parallel.
func (d *Decoder) FileBlocks(f io.ReaderAt, size int64, name string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("parquet file %s: corrupt file: %v", name, r)
		}
	}()
	pf, err := file.NewParquetReader(io.NewSectionReader(f, 0, size))
	if err != nil {
		return 0, fmt.Errorf("parquet file %s: not a readable Parquet file: %v", name, err)
	}
	return pf.NumRowGroups(), nil
}

// NewFileBlockReader is NewFileReader for row groups [first, last) only.
func (d *Decoder) NewFileBlockReader(f io.ReaderAt, size int64, name string, maxRows int, filters []*connector.Predicate, first, last int) (connector.BatchReader, error) {
	return d.newFileReader(f, size, name, maxRows, filters, first, last)
}

// newFileReader reads row groups [first, last) (last < 0: to the end).
func (d *Decoder) newFileReader(f io.ReaderAt, size int64, name string, maxRows int, filters []*connector.Predicate, first, last int) (br connector.BatchReader, err error) {
	if maxRows <= 0 {
		maxRows = 8192
	}
	defer func() {
		if r := recover(); r != nil {
			br, err = nil, fmt.Errorf("parquet file %s: corrupt file: %v", name, r)
		}
	}()
	pf, err := file.NewParquetReader(io.NewSectionReader(f, 0, size))
	if err != nil {
		return nil, fmt.Errorf("parquet file %s: not a readable Parquet file: %v", name, err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(maxRows)}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("parquet file %s: %v", name, err)
	}
	r := &FileReader{d: d, name: name, opts: d.Opts, max: maxRows, pf: pf, statCols: map[string]statColumn{}}
	top := make([]arrow.Field, len(fr.Manifest.Fields))
	for i, f := range fr.Manifest.Fields {
		top[i] = *f.Field
	}
	// Leaves of the projected columns.
	var leaves []int
	seen := map[int]bool{}
	r.src = make([]string, len(d.Names))
	for i, n := range d.Names {
		j := fieldIndex(top, n)
		if j < 0 {
			continue // not in the file: NULL
		}
		r.src[i] = top[j].Name
		if f := &fr.Manifest.Fields[j]; f.IsLeaf() && pf.MetaData().Schema.Column(f.ColIndex).PhysicalType() == pq.Types.Int96 {
			continue // read by an int96Column (int96.go), once the row groups are known
		}
		if d.directColumn(pf, &fr.Manifest.Fields[j], i, nil) != nil {
			continue // read by a byteArrayColumn (bytearray.go) or fixedColumn (fixed.go)
		}
		if !seen[j] {
			seen[j] = true
			leaves = appendLeaves(leaves, &fr.Manifest.Fields[j])
		}
	}
	// Filterable columns: top-level leaves.
	for k, n := range d.AllNames {
		if j := fieldIndex(top, n); j >= 0 && fr.Manifest.Fields[j].IsLeaf() {
			r.statCols[n] = statColumn{leaf: fr.Manifest.Fields[j].ColIndex, t: d.AllTypes[k]}
		}
	}
	// Row groups the filters leave.
	md := pf.MetaData()
	if last < 0 || last > pf.NumRowGroups() {
		last = pf.NumRowGroups()
	}
	for g := first; g < last; g++ {
		rg := md.RowGroup(g)
		keep := true
		for _, p := range filters {
			if !r.mayMatch(p, rg) {
				keep = false
				break
			}
		}
		if keep {
			r.groups = append(r.groups, g)
			r.left += rg.NumRows()
		} else {
			r.skipped++
		}
	}
	r.int96 = make([]*int96Column, len(d.Names))
	r.direct = make([]directColumn, len(d.Names))
	for i := range d.Names {
		if r.src[i] == "" {
			continue
		}
		f := &fr.Manifest.Fields[fieldIndex(top, r.src[i])]
		if !f.IsLeaf() {
			continue
		}
		if c := d.directColumn(pf, f, i, r.groups); c != nil {
			r.direct[i] = c
			continue
		}
		if c := md.Schema.Column(f.ColIndex); c.PhysicalType() == pq.Types.Int96 {
			empty := array.MakeArrayOfNull(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Nanosecond}, 0)
			if _, err := fromFile(empty, d.Types[i], d.Opts, d.Names[i]); err != nil {
				return nil, fmt.Errorf("parquet file %s: column '%s' is stored as Parquet INT96 (a timestamp), which cannot be read as %s", name, d.Names[i], d.Types[i])
			}
			r.int96[i] = &int96Column{pf: pf, leaf: f.ColIndex, maxDef: c.MaxDefinitionLevel(), groups: r.groups}
		}
	}
	if len(r.groups) == 0 || len(leaves) == 0 {
		return r, nil // nothing to read, only the row count, or INT96 columns
	}
	rr, err := fr.GetRecordReader(context.Background(), leaves, r.groups)
	if err != nil {
		return nil, fmt.Errorf("parquet file %s: %v", name, err)
	}
	r.rr = rr
	// Check the stored types against the declared ones before any data.
	sc := rr.Schema()
	r.pos = make([]int, len(d.Names))
	for i := range d.Names {
		r.pos[i] = -1
		if r.src[i] == "" || r.int96[i] != nil || r.direct[i] != nil {
			continue
		}
		idx := sc.FieldIndices(r.src[i])
		if len(idx) == 0 {
			continue
		}
		r.pos[i] = idx[0]
		empty := array.MakeArrayOfNull(memory.DefaultAllocator, sc.Field(idx[0]).Type, 0)
		if _, err := fromFile(empty, d.Types[i], d.Opts, d.Names[i]); err != nil {
			var te *typeError
			if j := fieldIndex(top, r.src[i]); errors.As(err, &te) && te.path == d.Names[i] && fr.Manifest.Fields[j].IsLeaf() {
				c := md.Schema.Column(fr.Manifest.Fields[j].ColIndex)
				return nil, fmt.Errorf("parquet file %s: column '%s' is stored as Parquet %s %s (Arrow %s), which cannot be read as %s",
					name, d.Names[i], c.PhysicalType(), c.LogicalType(), te.got, te.want)
			}
			return nil, r.wrap(err)
		}
	}
	return r, nil
}

func appendLeaves(dst []int, f *pqarrow.SchemaField) []int {
	if f.IsLeaf() {
		return append(dst, f.ColIndex)
	}
	for i := range f.Children {
		dst = appendLeaves(dst, &f.Children[i])
	}
	return dst
}

// FileReader reads the batches of one Parquet file.
type FileReader struct {
	d        *Decoder
	name     string
	opts     Options
	max      int
	pf       *file.Reader
	rr       pqarrow.RecordReader
	src      []string // stored column of each projected column, "" if absent
	pos      []int    // its index in the record reader's schema, -1 if absent
	statCols map[string]statColumn
	int96    []*int96Column // reader of each projected top-level INT96 column
	direct   []directColumn // reader of each projected top-level column read without pqarrow
	groups   []int          // row groups read
	skipped  int            // row groups skipped by statistics
	left     int64          // rows left (column-less reading)
	err      error
}

// RowGroups reports how many row groups the reader reads and how many
// the filters let it skip.
func (r *FileReader) RowGroups() (read, skipped int) { return len(r.groups), r.skipped }

func (r *FileReader) wrap(err error) error {
	return fmt.Errorf("parquet file %s: %w", r.name, err)
}

// Next returns the next batch, io.EOF at the end.
func (r *FileReader) Next() (b *types.Batch, err error) {
	if r.err != nil {
		return nil, r.err
	}
	defer func() {
		if rec := recover(); rec != nil {
			b, err = nil, fmt.Errorf("parquet file %s: corrupt file: %v", r.name, rec)
			r.err = err
		}
	}()
	if r.rr == nil {
		if r.left <= 0 {
			return nil, io.EOF
		}
		n := int64(r.max)
		if n > r.left {
			n = r.left
		}
		r.left -= n
		cols := make([]arrow.Array, len(r.d.Names))
		for i, t := range r.d.Types {
			if r.int96[i] != nil {
				c, err := r.readInt96(i, int(n))
				if err != nil {
					return nil, err
				}
				cols[i] = c
				continue
			}
			if r.direct[i] != nil {
				c, err := r.readBytes(i, int(n))
				if err != nil {
					return nil, err
				}
				cols[i] = c
				continue
			}
			cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, types.ToArrow(t), int(n))
		}
		return types.NewBatch(cols, nil, int(n)), nil
	}
	if !r.rr.Next() {
		if err := r.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			r.err = fmt.Errorf("parquet file %s: %v", r.name, err)
			return nil, r.err
		}
		return nil, io.EOF
	}
	rec := r.rr.RecordBatch()
	// The record reader releases its record on the next call; the batch
	// keeps the columns.
	rec.Retain()
	n := int(rec.NumRows())
	cols := make([]arrow.Array, len(r.d.Names))
	for i, t := range r.d.Types {
		if r.int96[i] != nil {
			c, err := r.readInt96(i, n)
			if err != nil {
				return nil, err
			}
			cols[i] = c
			continue
		}
		if r.direct[i] != nil {
			c, err := r.readBytes(i, n)
			if err != nil {
				return nil, err
			}
			cols[i] = c
			continue
		}
		if r.pos[i] < 0 {
			cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, types.ToArrow(t), n)
			continue
		}
		c, err := fromFile(rec.Column(r.pos[i]), t, r.opts, r.d.Names[i])
		if err != nil {
			r.err = r.wrap(err)
			return nil, r.err
		}
		cols[i] = c
	}
	return types.NewBatch(cols, nil, n), nil
}

// readInt96 reads n values of projected column i from its INT96 column.
func (r *FileReader) readInt96(i, n int) (arrow.Array, error) {
	raw, err := r.int96[i].read(n)
	if err != nil {
		r.err = fmt.Errorf("parquet file %s: column '%s': %v", r.name, r.d.Names[i], err)
		return nil, r.err
	}
	c, err := fromFile(raw, r.d.Types[i], r.opts, r.d.Names[i])
	if err != nil {
		r.err = r.wrap(err)
		return nil, r.err
	}
	return c, nil
}

// readBytes reads n values of projected column i from its direct reader.
func (r *FileReader) readBytes(i, n int) (arrow.Array, error) {
	raw, err := r.direct[i].read(n)
	if err != nil {
		r.err = fmt.Errorf("parquet file %s: column '%s': %v", r.name, r.d.Names[i], err)
		return nil, r.err
	}
	c, err := fromFile(raw, r.d.Types[i], r.opts, r.d.Names[i])
	if err != nil {
		r.err = r.wrap(err)
		return nil, r.err
	}
	return c, nil
}

// directColumn returns the reader of projected column i, stored as
// top-level leaf f, when it is read without pqarrow (bytearray.go,
// fixed.go) and its type converts to the declared one; nil otherwise (an
// incompatible type is reported through pqarrow's reading).
func (d *Decoder) directColumn(pf *file.Reader, f *pqarrow.SchemaField, i int, groups []int) directColumn {
	if t := directBytes(pf, f, d.Types[i]); t != nil {
		c := pf.MetaData().Schema.Column(f.ColIndex)
		return &byteArrayColumn{pf: pf, leaf: f.ColIndex, maxDef: c.MaxDefinitionLevel(), groups: groups, t: t}
	}
	c, t := newDirectColumn(pf, f, groups)
	if c == nil {
		return nil
	}
	empty := array.MakeArrayOfNull(memory.DefaultAllocator, t, 0)
	if _, err := fromFile(empty, d.Types[i], d.Opts, d.Names[i]); err != nil {
		return nil
	}
	return c
}

// directBytes returns the Arrow type (String or Binary) a top-level,
// non-repeated BYTE_ARRAY leaf f is read as by a byteArrayColumn when the
// declared type is a string or bytes type, nil when pqarrow reads it.
func directBytes(pf *file.Reader, f *pqarrow.SchemaField, want *types.DataType) arrow.DataType {
	if !f.IsLeaf() || f.Field == nil {
		return nil
	}
	switch want.Root {
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
	default:
		return nil
	}
	c := pf.MetaData().Schema.Column(f.ColIndex)
	if c.PhysicalType() != pq.Types.ByteArray || c.MaxRepetitionLevel() != 0 {
		return nil
	}
	switch f.Field.Type.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		return arrow.BinaryTypes.String
	case arrow.BINARY, arrow.LARGE_BINARY:
		return arrow.BinaryTypes.Binary
	}
	return nil
}

// SkippedRows is 0: the format has no ignore-parse-errors option.
func (r *FileReader) SkippedRows() int64 { return 0 }

// Close releases the file's reader.
func (r *FileReader) Close() error {
	if r.rr != nil {
		r.rr.Release()
		r.rr = nil
	}
	return nil
}
