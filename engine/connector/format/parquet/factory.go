// Package parquet implements Flink's 'parquet' format for the filesystem
// connector (Flink's ParquetFileFormatFactory), on Arrow: files are read
// with arrow-go's pqarrow straight into the Arrow columns of Riffle's
// batches and written from them.
//
// Reading (connector.FileDecoder): only the column chunks of the projected
// columns are read; the filters the filesystem source accepted skip whole
// row groups whose statistics (min, max, null count) prove that no row can
// match (the Filter above the scan still runs: the pushdown is never
// exact). Columns are matched by name; a column the file lacks reads as
// NULL, as in Flink. A column stored in a type compatible with the
// declared one is converted (INT32 into BIGINT, INT96 or INT64 timestamps
// of any unit into TIMESTAMP(p), ...); any other mismatch is an error
// naming the file, the column and both types.
//
// Writing (connector.ClosingBatchWriter): one pqarrow FileWriter per part
// file, row groups of 'parquet.block.size' bytes, the footer written by
// Close before the filesystem sink commits the file. The schema follows
// Flink's ParquetSchemaConverter: see docs/parquet.md for the table.
//
// Options (with the 'parquet.' prefix in the table's WITH clause):
//
//	utc-timezone           false    TIMESTAMP values are converted between wall-clock time and
//	                                 the stored instant in UTC (true) or in the process's local
//	                                 zone (false, Flink's default, Hive 0.x-2.x)
//	write.int64.timestamp  false    write TIMESTAMP/TIMESTAMP_LTZ as INT64 with a TIMESTAMP
//	                                 logical type instead of INT96
//	timestamp.time.unit    micros   the unit of INT64 timestamps: millis, micros, nanos
//	compression            SNAPPY   UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW (LZO and
//	                                 Hadoop's LZ4 are an error: arrow-go lacks them)
//	block.size             128 MB   the row group size in bytes (a number, or a size like '64mb')
//	page.size              1 MB     the data page size in bytes
//	dictionary.page.size   1 MB     the dictionary page size limit in bytes
//	enable.dictionary      true     dictionary encoding
//	writer.version         PARQUET_1_0  PARQUET_1_0 or PARQUET_2_0 (data page v2)
//
// Other 'parquet.*' keys are accepted and ignored, as Flink hands them to
// Hadoop's configuration where unknown keys have no effect.
package parquet

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'format' value.
const Identifier = "parquet"

// Option keys (without the "parquet." prefix).
const (
	OptUTCTimezone    = "utc-timezone"
	OptInt64Timestamp = "write.int64.timestamp"
	OptTimeUnit       = "timestamp.time.unit"
	OptCompression    = "compression"
	OptBlockSize      = "block.size"
	OptPageSize       = "page.size"
	OptDictPageSize   = "dictionary.page.size"
	OptDictionary     = "enable.dictionary"
	OptWriterVersion  = "writer.version"
)

func init() { connector.RegisterFormat(Factory{}) }

// Factory is the 'parquet' format factory.
type Factory struct{}

// Identifier returns "parquet".
func (Factory) Identifier() string { return Identifier }

// SupportsFilters is true: the decoder skips row groups by statistics.
func (Factory) SupportsFilters() bool { return true }

var optionList = []connector.Option{
	{Key: OptUTCTimezone, Default: "false", Kind: "bool", Description: "Use UTC (true) or the local time zone (false) to convert between epoch time and TIMESTAMP values (Hive 0.x/1.x/2.x use the local zone, Hive 3.x UTC)."},
	{Key: OptInt64Timestamp, Default: "false", Kind: "bool", Description: "Write timestamps as INT64 with the TIMESTAMP logical type (Spark compatible) instead of INT96."},
	{Key: OptTimeUnit, Default: "micros", Kind: "enum", Values: []string{"millis", "micros", "nanos"}, Description: "The unit of INT64 timestamps (with write.int64.timestamp)."},
	{Key: OptCompression, Default: "SNAPPY", Kind: "enum", Values: []string{"UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4_RAW"}, Description: "The compression codec of written files."},
	{Key: OptBlockSize, Default: "134217728", Kind: "string", Description: "The row group size in bytes."},
	{Key: OptPageSize, Default: "1048576", Kind: "string", Description: "The data page size in bytes."},
	{Key: OptDictPageSize, Default: "1048576", Kind: "string", Description: "The dictionary page size limit in bytes."},
	{Key: OptDictionary, Default: "true", Kind: "bool", Description: "Use dictionary encoding."},
	{Key: OptWriterVersion, Default: "PARQUET_1_0", Kind: "enum", Values: []string{"PARQUET_1_0", "PARQUET_2_0"}, Description: "The Parquet writer version (PARQUET_2_0 writes data page v2)."},
}

// Options lists the parquet.* options (without the prefix).
func (Factory) Options() []connector.Option { return append([]connector.Option(nil), optionList...) }

// Options are the parsed format options.
type Options struct {
	UTC            bool
	Int64Timestamp bool
	TimeUnit       arrow.TimeUnit
	Compression    compress.Compression
	BlockSize      int64
	PageSize       int64
	DictPageSize   int64
	Dictionary     bool
	DataPageV2     bool
}

// ParseOptions reads the format options (keys without the prefix).
func ParseOptions(m map[string]string) (Options, error) {
	o := Options{TimeUnit: arrow.Microsecond, Compression: compress.Codecs.Snappy, BlockSize: 128 << 20,
		PageSize: 1 << 20, DictPageSize: 1 << 20, Dictionary: true}
	boolOpt := func(k string, dst *bool) error {
		v, ok := m[k]
		if !ok {
			return nil
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("'parquet.%s' must be true or false, but was: %s", k, v)
		}
		*dst = b
		return nil
	}
	sizeOpt := func(k string, dst *int64) error {
		v, ok := m[k]
		if !ok {
			return nil
		}
		n, err := parseSize(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("'parquet.%s' must be a positive number of bytes, but was: %s", k, v)
		}
		*dst = n
		return nil
	}
	for _, err := range []error{boolOpt(OptUTCTimezone, &o.UTC), boolOpt(OptInt64Timestamp, &o.Int64Timestamp),
		boolOpt(OptDictionary, &o.Dictionary), sizeOpt(OptBlockSize, &o.BlockSize), sizeOpt(OptPageSize, &o.PageSize),
		sizeOpt(OptDictPageSize, &o.DictPageSize)} {
		if err != nil {
			return o, err
		}
	}
	if v, ok := m[OptTimeUnit]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "millis":
			o.TimeUnit = arrow.Millisecond
		case "micros":
			o.TimeUnit = arrow.Microsecond
		case "nanos":
			o.TimeUnit = arrow.Nanosecond
		default:
			return o, fmt.Errorf("'parquet.%s' must be one of millis, micros, nanos, but was: %s", OptTimeUnit, v)
		}
	}
	if v, ok := m[OptCompression]; ok {
		switch strings.ToUpper(strings.TrimSpace(v)) {
		case "UNCOMPRESSED", "NONE":
			o.Compression = compress.Codecs.Uncompressed
		case "SNAPPY":
			o.Compression = compress.Codecs.Snappy
		case "GZIP":
			o.Compression = compress.Codecs.Gzip
		case "BROTLI":
			o.Compression = compress.Codecs.Brotli
		case "ZSTD":
			o.Compression = compress.Codecs.Zstd
		case "LZ4_RAW":
			o.Compression = compress.Codecs.Lz4Raw
		case "LZO", "LZ4":
			return o, fmt.Errorf("'parquet.%s' = '%s' is not supported by Riffle (no %s codec in arrow-go); use UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD or LZ4_RAW", OptCompression, v, strings.ToUpper(v))
		default:
			return o, fmt.Errorf("'parquet.%s' must be one of UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW, but was: %s", OptCompression, v)
		}
	}
	if v, ok := m[OptWriterVersion]; ok {
		switch strings.ToUpper(strings.TrimSpace(v)) {
		case "PARQUET_1_0", "V1":
			o.DataPageV2 = false
		case "PARQUET_2_0", "V2":
			o.DataPageV2 = true
		default:
			return o, fmt.Errorf("'parquet.%s' must be PARQUET_1_0 or PARQUET_2_0, but was: %s", OptWriterVersion, v)
		}
	}
	return o, nil
}

// parseSize reads a byte count: a plain number (Hadoop's style) or a
// number with a unit b, kb, mb, gb (binary multiples, Flink's MemorySize).
func parseSize(s string) (int64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	switch strings.TrimSpace(s[i:]) {
	case "", "b", "bytes":
		return n, nil
	case "k", "kb":
		return n << 10, nil
	case "m", "mb":
		return n << 20, nil
	case "g", "gb":
		return n << 30, nil
	}
	return 0, fmt.Errorf("invalid size unit in %q", s)
}

// checkType fails for the types the format cannot store (Flink's
// ParquetSchemaConverter rejects the same: intervals, RAW, NULL, ...).
func checkType(name string, t *types.DataType) error {
	switch t.Root {
	case types.Boolean, types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double,
		types.DecimalRoot, types.Char, types.VarChar, types.Binary, types.VarBinary, types.DateRoot, types.TimeRoot,
		types.TimestampRoot, types.TimestampLTZRoot:
		return nil
	case types.ArrayRoot, types.MultisetRoot:
		return checkType(name, t.Elem)
	case types.MapRoot:
		if err := checkType(name, t.Key); err != nil {
			return err
		}
		return checkType(name, t.Value)
	case types.RowRoot:
		for _, f := range t.Fields {
			if err := checkType(name+"."+f.Name, f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("the parquet format does not support type %s (column '%s')", t, name)
}

func checkColumns(ctx *connector.FormatContext) error {
	for i, t := range ctx.Types {
		if err := checkType(ctx.Names[i], t); err != nil {
			return err
		}
	}
	return nil
}
