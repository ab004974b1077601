package connector

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/types"
)

// FormatContext is what a format factory sees.
type FormatContext struct {
	// Table is the fully qualified table name, for error messages.
	Table string
	// Names and Types are the columns the format reads or writes, in order
	// (for decoding: the projected physical columns).
	Names []string
	Types []*types.DataType
	// AllNames are all physical columns of the table in declaration order
	// (a CSV decoder maps file fields to them by position).
	AllNames []string
	AllTypes []*types.DataType
	// Projection maps output column i to AllNames index Projection[i].
	Projection []int
	// Options are the format's options with the "<format>." prefix removed
	// (e.g. "field-delimiter" for 'csv.field-delimiter').
	Options map[string]string
	Config  *config.Configuration
	// Uses, when set, says for each column of Names how the job reads it
	// (see FieldUse; nil entries are columns nobody reads). A decoder may
	// leave NULL what nobody reads where skipping it changes no result
	// and no error (the json format: nullable CHAR/VARCHAR values, which
	// any JSON value converts to). Nil: every column is read whole.
	Uses []*FieldUse
}

// FormatFactory creates decoders and encoders for one 'format' value.
type FormatFactory interface {
	Identifier() string
	// Options lists the format's options without the prefix.
	Options() []Option
	CreateDecoder(ctx *FormatContext) (Decoder, error)
	CreateEncoder(ctx *FormatContext) (Encoder, error)
}

// LineBreakFormat is implemented by a text format whose records end at
// line breaks except where certain bytes (a quote or escape character)
// let a field hold one. A source may read such a file in byte ranges cut
// at line breaks only when the file holds none of those bytes.
type LineBreakFormat interface {
	// FieldLineBreakBytes returns, for the format's options (without the
	// prefix), the bytes whose presence in a file may put a line break
	// inside a field; an empty result means every line break ends a
	// record.
	FieldLineBreakBytes(opts map[string]string) ([]byte, error)
}

// Decoder turns a byte stream into batches.
type Decoder interface {
	// NewReader reads one stream. name is the file name used in
	// DataErrors. maxRows bounds the rows per batch.
	NewReader(r io.Reader, name string, maxRows int) BatchReader
}

// BatchReader yields the batches of one stream; Next returns io.EOF at the end.
type BatchReader interface {
	Next() (*types.Batch, error)
	// SkippedRows counts rows skipped by an ignore-parse-errors option.
	SkippedRows() int64
}

// RowFilter is a run-time hint given to a scan by the operator that reads
// it (the batch Calc's WHERE condition, when the Calc reads the scan
// directly): a reader may drop the rows the filter does not keep before it
// builds its other columns (late materialization). It is no filter
// push-down: the planner does not know of it, EXPLAIN does not show it,
// and the Calc still evaluates its condition on the rows the reader yields,
// so a reader that ignores the hint stays correct.
type RowFilter interface {
	// Columns marks, by output column position of the scan (ReadSpec
	// order), the columns the filter reads; positions past its length are
	// not read.
	Columns() []bool
	// Keep returns the positions of b's rows the filter keeps, ascending,
	// or all = true when it keeps every row. b holds b.Len rows and at
	// least the columns Columns marks (the others may be nil). On an
	// error the reader keeps every row (the operator above reports it).
	Keep(b *types.Batch) (sel []int32, all bool, err error)
}

// RowFilterReader is a BatchReader that can apply a RowFilter.
// SetRowFilter, called before the first Next, reports whether the reader
// will use it (false: it reads every row as before).
type RowFilterReader interface {
	SetRowFilter(f RowFilter) bool
}

// Encoder turns batches into a byte stream.
type Encoder interface {
	NewWriter(w io.Writer) BatchWriter
}

// BatchWriter writes batches to one stream. Flush writes buffered bytes
// through; it does not close the underlying writer.
type BatchWriter interface {
	Write(b *types.Batch) error
	Flush() error
}

var formats = map[string]FormatFactory{}

// RegisterFormat makes a format available under its identifier.
func RegisterFormat(f FormatFactory) {
	regMu.Lock()
	defer regMu.Unlock()
	formats[f.Identifier()] = f
}

// LookupFormat finds a format by identifier; the error lists known formats.
func LookupFormat(id string) (FormatFactory, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	f, ok := formats[id]
	if !ok {
		var ids []string
		for k := range formats {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		return nil, fmt.Errorf("could not find any format factory for identifier '%s'; available formats are: %s", id, strings.Join(ids, ", "))
	}
	return f, nil
}

// DeclaredOptions lists the options connector id declares (its factory's
// Options), nil when no connector is registered under id. Editors and
// completers offer them in a WITH clause.
func DeclaredOptions(id string) []Option {
	f, ok := Lookup(id)
	if !ok {
		return nil
	}
	return f.Options()
}

// DeclaredFormatOptions lists the options format id declares, each key with the
// "<format>." prefix it takes in a table's WITH clause ('csv.ignore-parse-errors'),
// nil when no format is registered under id.
func DeclaredFormatOptions(id string) []Option {
	f, err := LookupFormat(id)
	if err != nil {
		return nil
	}
	var out []Option
	for _, o := range f.Options() {
		o.Key = id + "." + o.Key
		out = append(out, o)
	}
	return out
}

// FormatIdentifiers lists registered formats, sorted.
func FormatIdentifiers() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	var ids []string
	for k := range formats {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	return ids
}

// FormatOptions extracts the options of format id from table options:
// keys "id.x" become "x".
func FormatOptions(tableOptions map[string]string, id string) map[string]string {
	out := map[string]string{}
	for k, v := range tableOptions {
		if strings.HasPrefix(k, id+".") {
			out[strings.TrimPrefix(k, id+".")] = v
		}
	}
	return out
}

// FileDecoder is implemented by a Decoder whose files need random access
// (Parquet keeps its schema and row-group index in a footer). The
// filesystem connector calls NewFileReader instead of NewReader for such
// formats. Filters are the predicates the source accepted (see
// FilterSource), in the table's physical column indexes; a reader may use
// them to skip data but must not drop rows that satisfy them.
type FileDecoder interface {
	NewFileReader(f io.ReaderAt, size int64, name string, maxRows int, filters []*Predicate) (BatchReader, error)
}

// FilterFormat is implemented by a FormatFactory whose FileDecoder can use
// filters (row-group statistics): the filesystem source then offers them
// through FilterSource, never as exact.
type FilterFormat interface {
	SupportsFilters() bool
}

// ClosingBatchWriter is implemented by a BatchWriter that must finish a
// file when it is complete (Parquet writes its footer): the filesystem
// sink calls Close once after the last Write and Flush of a file, before
// the file is committed. Close does not close the underlying writer.
type ClosingBatchWriter interface {
	BatchWriter
	Close() error
}
