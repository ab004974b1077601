// Package infer reads a CSV or JSON Lines file and proposes a table for it
// (Parquet and Avro files: from the schema they carry, parquet.go and
// avro.go):
// column names and types (BIGINT, DOUBLE, DECIMAL, BOOLEAN, DATE,
// TIMESTAMP, TIMESTAMP_LTZ, STRING, and ROW/ARRAY for nested JSON), the
// csv or json format options that read it (delimiter, header, invalid
// UTF-8, malformed rows), and a rowtime column with a watermark when the
// file has timestamps. It backs the workbench's File → Open: the user
// reviews Result.CreateTable and registers it.
//
// Inference is checked with the engine's own decoders: every proposed
// type has been read back over the sampled part of the file, and a column
// whose values the decoder rejects falls back to STRING, so the DDL loads
// the file. What could not be inferred cleanly is explained in
// Result.Notes.
package infer

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// DefaultMaxBytes is how much of a file inference reads by default.
const DefaultMaxBytes = 64 << 20

// Options tune inference.
type Options struct {
	// MaxBytes bounds the part of the file that is read (default
	// DefaultMaxBytes). A larger file is sampled from its start.
	MaxBytes int64
}

// Column is one inferred column.
type Column struct {
	Name string
	Type *types.DataType
	// Header is the name as the file has it (before cleaning and
	// de-duplication); "" for files without a header.
	Header string
	// Nulls counts empty (CSV) or null/missing (JSON) values.
	Nulls int64
	// Example is the first non-empty value.
	Example string
	// Note explains a type choice the user may want to know about.
	Note string
	// Metadata, when set, makes the column a metadata column of the
	// connector: name TYPE METADATA FROM 'Metadata' (e.g. the Kafka
	// record's "timestamp"); it reads no field of the data.
	Metadata string
}

// Option is one WITH option of the proposed table.
type Option struct {
	Key, Value string
}

// Rowtime proposes an event-time attribute.
type Rowtime struct {
	// Column is the rowtime column: a physical column, or a computed one
	// (Expr set) added to the table, e.g. ts AS TO_TIMESTAMP_LTZ(time, 3).
	Column string
	Expr   string
	// Source is the column the timestamps come from.
	Source string
	// Delay and Unit are the proposed watermark delay (bounded
	// out-of-orderness), e.g. "5" MINUTE.
	Delay string
	Unit  string
	// Order describes the timestamps in file order: "ascending",
	// "descending" or "out of order".
	Order string
	// MaxLateness is the largest distance, in milliseconds, by which a
	// timestamp follows a later one in the file.
	MaxLateness int64
	Note        string
}

// WatermarkExpr is the watermark expression: Column - INTERVAL 'Delay' Unit.
func (r *Rowtime) WatermarkExpr() string {
	col := sql.QuoteIdentIfNeeded(r.Column)
	unit := r.Unit
	if len(r.Delay) > 2 {
		// INTERVAL '120' SECOND exceeds SECOND(2)
		unit = fmt.Sprintf("%s(%d)", r.Unit, len(r.Delay))
		ms := map[string]int64{"SECOND": 1000, "MINUTE": 60_000, "HOUR": 3_600_000, "DAY": 86_400_000}[r.Unit]
		if n, err := strconv.ParseInt(r.Delay, 10, 64); err == nil && len(r.Delay) > 3 && ms > 0 && n < math.MaxInt64/ms {
			// Flink takes no day-time literal with a leading precision above 3
			return fmt.Sprintf("%s - (%s)", col, sql.Format(sql.DayTimeInterval(n*ms)))
		}
	}
	return fmt.Sprintf("%s - INTERVAL '%s' %s", col, r.Delay, unit)
}

// Result is the proposal for one file.
type Result struct {
	Path string
	// Format is "csv", "json", "parquet" or "avro".
	Format string
	// Name is a table name derived from the file name.
	Name    string
	Columns []Column
	// Options are the WITH options, 'connector' first.
	Options []Option
	// Header reports a CSV header row; Delimiter is the CSV delimiter.
	Header    bool
	Delimiter byte
	// Records is the number of data records read; Complete whether that
	// was the whole file.
	Records  int64
	Complete bool
	// Skipped counts records the proposed options skip (malformed rows).
	Skipped int64
	// Rowtime is nil when the file has no usable timestamps.
	Rowtime *Rowtime
	// Notes tell the user what inference found and changed.
	Notes []string
	// PrimaryKey names the columns of a PRIMARY KEY … NOT ENFORCED clause
	// (none for files; a Kafka topic read as an upsert table sets it).
	PrimaryKey []string

	// data holds the sample of JSONObjects (nil for a file).
	data []byte
}

func (r *Result) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// Option returns the value of an option.
func (r *Result) Option(key string) (string, bool) {
	for _, o := range r.Options {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

func (r *Result) setOption(key, value string) {
	for i, o := range r.Options {
		if o.Key == key {
			r.Options[i].Value = value
			return
		}
	}
	r.Options = append(r.Options, Option{key, value})
}

// ErrUnsupported is wrapped by errors for files inference cannot read.
var ErrUnsupported = errors.New("unsupported file")

// File infers a table for a CSV, JSON Lines, Parquet or Avro file, chosen
// by extension (.csv, .tsv, .txt → CSV; .json, .jsonl, .ndjson → JSON
// Lines; .parquet → Parquet; .avro → Avro container file) or, for other
// names, by the first bytes (PAR1 → Parquet, Obj\x01 → Avro, '{' → JSON
// Lines, else CSV).
func File(path string, opts Options) (*Result, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory: open one of its files (a table over a directory is created in the table designer)", path)
	}
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".csv", ".tsv", ".txt", ".tab":
		return CSV(abs, opts)
	case ".json", ".jsonl", ".ndjson":
		return JSONLines(abs, opts)
	case ".parquet", ".pq":
		return Parquet(abs, opts)
	case ".avro":
		return Avro(abs, opts)
	case ".orc", ".xlsx", ".xls", ".gz", ".zip":
		return nil, fmt.Errorf("%w: %s files cannot be opened yet; Riffle reads CSV, JSON Lines, Parquet and Avro", ErrUnsupported, strings.ToUpper(strings.TrimPrefix(filepath.Ext(abs), ".")))
	}
	head, _, err := readHead(abs, 4096)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasPrefix(string(head), "PAR1"):
		return Parquet(abs, opts)
	case strings.HasPrefix(string(head), "Obj\x01"):
		return Avro(abs, opts)
	}
	if strings.HasPrefix(strings.TrimLeft(string(head), " \t\r\n\ufeff"), "{") {
		return JSONLines(abs, opts)
	}
	return CSV(abs, opts)
}

// readHead reads up to n bytes of a file; all reports that they are the
// whole file.
func readHead(path string, n int64) (head []byte, all bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	buf := make([]byte, n+1)
	m := 0
	for m < len(buf) {
		k, err := f.Read(buf[m:])
		m += k
		if err != nil {
			break
		}
	}
	if int64(m) > n {
		return buf[:n], false, nil
	}
	return buf[:m], true, nil
}

// TableName derives a table name from a file name: the base name without
// extension, with characters other than letters, digits and '_' replaced
// by '_' (flights-2001-01-01_14.csv → flights_2001_01_01_14).
func TableName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var b strings.Builder
	for _, r := range base {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := strings.Trim(b.String(), "_")
	for strings.Contains(name, "__") {
		name = strings.ReplaceAll(name, "__", "_")
	}
	if name == "" {
		return "data"
	}
	if r := []rune(name)[0]; unicode.IsDigit(r) {
		name = "t_" + name
	}
	return name
}

// CreateTable renders the proposal as CREATE TABLE (in the formatter's
// style). With rowtime, the rowtime column (computed when needed) and its
// watermark are included.
func (r *Result) CreateTable(name string, rowtime bool) string {
	if name == "" {
		name = r.Name
	}
	var parts []string
	for _, c := range r.Columns {
		col := sql.QuoteIdentIfNeeded(c.Name) + " " + c.Type.String()
		if c.Metadata != "" {
			col += " METADATA FROM " + quote(c.Metadata)
		}
		parts = append(parts, col)
	}
	if rt := r.Rowtime; rowtime && rt != nil {
		if rt.Expr != "" {
			parts = append(parts, sql.QuoteIdentIfNeeded(rt.Column)+" AS "+rt.Expr)
		}
		parts = append(parts, "WATERMARK FOR "+sql.QuoteIdentIfNeeded(rt.Column)+" AS "+rt.WatermarkExpr())
	}
	if len(r.PrimaryKey) > 0 {
		var pk []string
		for _, c := range r.PrimaryKey {
			pk = append(pk, sql.QuoteIdentIfNeeded(c))
		}
		parts = append(parts, "PRIMARY KEY ("+strings.Join(pk, ", ")+") NOT ENFORCED")
	}
	var opts []string
	for _, o := range r.Options {
		opts = append(opts, quote(o.Key)+" = "+quote(o.Value))
	}
	text := "CREATE TABLE " + sql.QuoteIdentIfNeeded(name) + " (\n  " + strings.Join(parts, ",\n  ") +
		"\n) WITH (\n  " + strings.Join(opts, ",\n  ") + "\n)"
	if out, err := sql.FormatSQL(text); err == nil {
		return strings.TrimSuffix(out, ";\n")
	}
	return text
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
