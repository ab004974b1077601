package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// TableSource is a legacy table source (PyFlink's TableSource): a
// descriptor of a source table, read with FromTableSource or registered
// with RegisterTableSource.
type TableSource interface {
	// Descriptor returns the table the source reads.
	Descriptor() *TableDescriptor
}

// TableSink is a legacy table sink (PyFlink's TableSink), registered with
// RegisterTableSink.
type TableSink interface {
	// Descriptor returns the table the sink writes.
	Descriptor() *TableDescriptor
	// Overwrite reports whether inserts replace existing data.
	Overwrite() bool
}

// WriteMode says whether a CsvTableSink replaces existing files
// (PyFlink's WriteMode).
type WriteMode int

// Write modes.
const (
	WriteModeNoOverwrite WriteMode = iota
	WriteModeOverwrite
)

func (m WriteMode) String() string { return [...]string{"NO_OVERWRITE", "OVERWRITE"}[m] }

// CsvTableSource reads CSV files (PyFlink's CsvTableSource): a
// filesystem table with the csv format. Options left at their zero value
// keep Flink's defaults: field delimiter ",", line delimiter "\n", no quote
// character, header line read, no comment prefix, strict parsing, empty
// columns as empty strings.
type CsvTableSource struct {
	Path       string
	FieldNames []string
	FieldTypes []*types.DataType
	// FieldDelim is the field delimiter (default ",").
	FieldDelim string
	// LineDelim is the line delimiter; only "\n" (the default) is
	// supported.
	LineDelim string
	// QuoteCharacter encloses fields ("" = none).
	QuoteCharacter string
	// IgnoreFirstLine skips a header line.
	IgnoreFirstLine bool
	// IgnoreComments is a comment prefix; only "#" is supported.
	IgnoreComments string
	// Lenient skips records that do not parse instead of failing.
	Lenient bool
	// EmptyColumnAsNull reads empty columns as NULL.
	EmptyColumnAsNull bool
}

// NewCsvTableSource builds a CSV source with Flink's defaults (PyFlink's
// CsvTableSource(source_path, field_names, field_types)).
func NewCsvTableSource(path string, fieldNames []string, fieldTypes []*types.DataType) *CsvTableSource {
	return &CsvTableSource{Path: path, FieldNames: fieldNames, FieldTypes: fieldTypes}
}

func csvSchema(names []string, ts []*types.DataType) (*Schema, error) {
	if len(names) != len(ts) {
		return nil, fmt.Errorf("%d field names and %d field types", len(names), len(ts))
	}
	b := NewSchemaBuilder()
	for i, n := range names {
		b.Column(n, ts[i])
	}
	return b.Build(), nil
}

// Descriptor implements TableSource.
func (s *CsvTableSource) Descriptor() *TableDescriptor {
	schema, err := csvSchema(s.FieldNames, s.FieldTypes)
	if err != nil {
		return &TableDescriptor{err: err}
	}
	f := ForFormat("csv")
	if s.FieldDelim != "" {
		f.Option("field-delimiter", s.FieldDelim)
	}
	if s.QuoteCharacter != "" {
		f.Option("quote-character", s.QuoteCharacter)
	} else {
		f.Option("disable-quote-character", true)
	}
	if s.IgnoreFirstLine {
		f.Option("ignore-first-line", true)
	}
	if s.IgnoreComments != "" {
		if s.IgnoreComments != "#" {
			return &TableDescriptor{err: fmt.Errorf("CsvTableSource: only the comment prefix '#' is supported, got %q", s.IgnoreComments)}
		}
		f.Option("allow-comments", true)
	}
	if s.Lenient {
		f.Option("ignore-parse-errors", true)
	}
	if s.LineDelim != "" && s.LineDelim != "\n" {
		return &TableDescriptor{err: fmt.Errorf("CsvTableSource: only the line delimiter \"\\n\" is supported, got %q", s.LineDelim)}
	}
	if s.EmptyColumnAsNull {
		f.Option("null-literal", "")
	}
	return ForConnector("filesystem").Schema(schema).Option("path", s.Path).Format(f.Build()).Build()
}

// CsvTableSink writes CSV files (PyFlink's CsvTableSink): a filesystem
// table with the csv format. Unlike Flink's CsvTableSink, which writes a
// single file named Path when it runs with one task (NumFiles 1), Path is
// always a directory: the rows go to part files inside it
// ("part-<uuid>-<task>-<n>"), as with Flink's filesystem connector. Read
// them back through a filesystem table or CsvTableSource over that
// directory.
type CsvTableSink struct {
	FieldNames     []string
	FieldTypes     []*types.DataType
	Path           string
	FieldDelimiter string
	// NumFiles is the number of files written (-1: the sink's default
	// parallelism).
	NumFiles  int
	WriteMode WriteMode
}

// NewCsvTableSink builds a CSV sink with Flink's defaults: delimiter ","
// and the default number of files (PyFlink's CsvTableSink(field_names,
// field_types, path)).
func NewCsvTableSink(fieldNames []string, fieldTypes []*types.DataType, path string) *CsvTableSink {
	return &CsvTableSink{FieldNames: fieldNames, FieldTypes: fieldTypes, Path: path, FieldDelimiter: ",", NumFiles: -1}
}

// Descriptor implements TableSink.
func (s *CsvTableSink) Descriptor() *TableDescriptor {
	schema, err := csvSchema(s.FieldNames, s.FieldTypes)
	if err != nil {
		return &TableDescriptor{err: err}
	}
	f := ForFormat("csv")
	if s.FieldDelimiter != "" && s.FieldDelimiter != "," {
		f.Option("field-delimiter", s.FieldDelimiter)
	}
	b := ForConnector("filesystem").Schema(schema).Option("path", s.Path).Format(f.Build())
	if s.NumFiles > 0 {
		b.Option("sink.parallelism", strconv.Itoa(s.NumFiles))
	}
	return b.Build()
}

// Overwrite implements TableSink.
func (s *CsvTableSink) Overwrite() bool { return s.WriteMode == WriteModeOverwrite }

// FromTableSource reads a legacy table source (PyFlink's
// from_table_source).
//
// Deprecated: use FromDescriptor or CREATE TABLE.
func (t *TableEnvironment) FromTableSource(src TableSource) (*Table, error) {
	if src == nil {
		return nil, errorf("nil TableSource")
	}
	return t.FromDescriptor(src.Descriptor())
}

// RegisterTableSource registers a legacy table source as a temporary
// table (PyFlink's register_table_source).
//
// Deprecated: use ExecuteSQL with CREATE TABLE, or CreateTemporaryTable.
func (t *TableEnvironment) RegisterTableSource(name string, src TableSource) error {
	if src == nil {
		return errorf("nil TableSource")
	}
	return t.CreateTemporaryTable(quotePart(name), src.Descriptor())
}

// RegisterTableSink registers a legacy table sink as a temporary table;
// a sink in OVERWRITE mode makes inserts into it overwrite (PyFlink's
// register_table_sink).
//
// Deprecated: use ExecuteSQL with CREATE TABLE, or CreateTemporaryTable.
func (t *TableEnvironment) RegisterTableSink(name string, sink TableSink) error {
	if sink == nil {
		return errorf("nil TableSink")
	}
	if err := t.CreateTemporaryTable(quotePart(name), sink.Descriptor()); err != nil {
		return err
	}
	if sink.Overwrite() {
		id, err := t.qualifyPath(quotePart(name))
		if err != nil {
			return err
		}
		t.mu.Lock()
		if t.overwriteSinks == nil {
			t.overwriteSinks = map[string]bool{}
		}
		t.overwriteSinks[id.String()] = true
		t.mu.Unlock()
	}
	return nil
}

// overwrites reports whether inserts into a table registered with
// RegisterTableSink overwrite.
func (t *TableEnvironment) overwrites(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.overwriteSinks[id]
}

func quotePart(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }
