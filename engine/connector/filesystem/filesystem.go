// Package filesystem implements Flink's 'filesystem' connector: a source
// that reads a file or a directory of files with a format (csv, json, ...)
// and a sink that writes a directory of part files.
//
// Options (Flink's FileSystemConnectorOptions):
//
//	path                                   required  a file or a directory (a "file://" URI or a local path)
//	format                                 required  the format identifier, e.g. 'csv' or 'json'; its
//	                                                  options follow with the format's prefix ('csv.*')
//	source.path.regex-pattern              none      read only files whose absolute path matches (whole match)
//	source.monitor-interval                none      in streaming mode, list the path again at this interval
//	                                                  and read the new files: the source is unbounded
//	                                                  (monitor.go)
//	partition.default-name                 __DEFAULT_PARTITION__  the directory value of a NULL or empty
//	                                                  partition value
//	sink.rolling-policy.file-size          128MB     roll to a new part file when a file reaches this size
//	sink.rolling-policy.rollover-interval  30 min    roll when a part file has been open this long
//	sink.rolling-policy.inactivity-interval 30 min   roll when a part file has not been written this long
//	sink.rolling-policy.check-interval     1 min     how often the two time-based policies are checked
//	sink.partition-commit.policy.kind      none      'success-file': committing a partition writes a success file
//	sink.partition-commit.trigger          process-time  the only trigger (partitions commit with their files)
//	sink.partition-commit.delay            0 s       0 only
//	sink.partition-commit.success-file.name _SUCCESS the success file's name
//	sink.parallelism                       none      the writer count the runtime should use (Sink.Parallelism)
//
// Formats that need random access (connector.FileDecoder: parquet) open
// each file through NewFileReader; a format that skips data by filters
// (connector.FilterFormat) makes the source a FilteringSource, which hands
// the pushed filters to the reader (row groups skipped by statistics; the
// Filter still runs). A format whose writer must finish a file
// (connector.ClosingBatchWriter: Parquet's footer) is closed before the
// file is committed.
//
// Reading: a directory is listed recursively; files and directories whose
// names start with '.' or '_' are skipped (Flink's DefaultFileFilter), and
// each file is one split, in path order (a Parquet file of several row
// groups: one split per row group). Metadata columns file.path,
// file.name, file.size and file.modification-time are available (Flink's
// FileSystemTableSource metadata).
//
// Partitioned tables (Context.PartitionKeys, from PARTITIONED BY) keep
// their partition columns in Hive-style directories "k1=v1/k2=v2/" below
// the path, as Flink does: the files hold the other columns only. Reading
// takes partition values from the directory names (files at another
// depth are ignored); writing puts each row into its partition's directory
// (values rendered as Java's toString, escaped like Hive, NULL or empty as
// partition.default-name). INSERT OVERWRITE then replaces only the
// partitions written (or the static PARTITION (k='v') one).
//
// Writing: the path is always a directory, as in Flink (writing to
// 'out.csv' creates a directory named out.csv holding part files; a regular
// file at the path is an error). Each writer writes hidden in-progress files
// ".part-<uuid>-<writer>-<n>.inprogress" and Commit renames them to
// "part-<uuid>-<writer>-<n>"; Abort deletes them, so nothing is visible
// before the job succeeds. INSERT OVERWRITE deletes the files that were in
// the directory when the sink opened, on commit. The sink is insert-only.
// With checkpoints, the writer is a connector.CommittingWriter: files roll
// on every checkpoint and are renamed when it completes
// (filesystem_sink_commit.go).
//
// Checkpoints (position.go): a file's reader saves the byte offset and line
// of its next unread line (csv, json, raw and the changelog JSON formats)
// or the rows it has read (parquet, avro: resumed by skipping them), with
// the file's size, modification time and a checksum of its first 4 KiB; a
// reader resumed there refuses a file that was truncated or changed since.
// A monitored path's reader saves the files it has read and the position
// in the current one.
package filesystem

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'connector' value of this connector.
const Identifier = "filesystem"

// Option keys.
const (
	OptPath               = "path"
	OptFormat             = "format"
	OptRegexPattern       = "source.path.regex-pattern"
	OptMonitorInterval    = "source.monitor-interval"
	OptDefaultPartition   = "partition.default-name"
	OptRollingFileSize    = "sink.rolling-policy.file-size"
	OptRolloverInterval   = "sink.rolling-policy.rollover-interval"
	OptRollingCheck       = "sink.rolling-policy.check-interval"
	OptSinkParallelism    = "sink.parallelism"
	DefaultRollingSize    = 128 << 20
	DefaultRolloverPeriod = 30 * time.Minute
)

// BatchRows is the number of rows per batch the source produces.
const BatchRows = 8192

func init() { connector.Register(Factory{}) }

// Factory creates filesystem sources and sinks.
type Factory struct{}

// Identifier returns "filesystem".
func (Factory) Identifier() string { return Identifier }

// Options lists the connector's options (the format declares its own).
func (Factory) Options() []connector.Option {
	return append([]connector.Option{
		{Key: OptPath, Required: true, Kind: "string", Description: "The path of a file or a directory."},
		{Key: OptFormat, Required: true, Kind: "string", Description: "The format of the files, e.g. 'csv' or 'json'."},
		{Key: OptRegexPattern, Kind: "string", Description: "Read only the files whose absolute path matches this regular expression."},
		{Key: OptMonitorInterval, Kind: "duration", Description: "In streaming mode, list the path again at this interval and read each new file once; unset, the path is read once and the source is bounded."},
		{Key: OptDefaultPartition, Default: "__DEFAULT_PARTITION__", Kind: "string", Description: "The partition name used when a dynamic partition value is null or empty."},
		{Key: OptRollingFileSize, Default: "128MB", Kind: "string", Description: "The maximum part file size before rolling."},
		{Key: OptRolloverInterval, Default: "30 min", Kind: "duration", Description: "The maximum time a part file stays open before rolling."},
		{Key: OptRollingCheck, Default: "1 min", Kind: "duration", Description: "The interval of checking time based rolling policies."},
		{Key: OptSinkParallelism, Kind: "int", Description: "The parallelism of the sink."},
	}, commitOptions()...)
}

// settings are the parsed options shared by source and sink.
type settings struct {
	table     string
	path      string
	format    connector.FormatFactory
	formatID  string
	fmtOpts   map[string]string
	regex     *regexp.Regexp
	monitor   time.Duration
	rollSize  int64
	rollAfter time.Duration
	sinkPar   int // sink.parallelism, 0 when unset
	commit    commitSettings
	names     []string
	types     []*types.DataType
	config    *config.Configuration

	partKeys    []string          // PARTITIONED BY columns
	partIdx     []int             // their physical indexes
	isPart      []bool            // per physical column
	dataIdx     []int             // physical indexes of the stored columns
	dataNames   []string          // names of the stored columns
	dataTypes   []*types.DataType // types of the stored columns
	defaultPart string
}

func parse(ctx *connector.Context) (*settings, error) {
	fid := ctx.Options[OptFormat]
	if err := connector.ValidateOptions(ctx, Factory{}.Options(), fid); err != nil {
		return nil, err
	}
	f, err := connector.LookupFormat(fid)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", ctx.Table, err)
	}
	p, err := localPath(ctx.Options[OptPath])
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", ctx.Table, err)
	}
	s := &settings{table: ctx.Table, path: p, format: f, formatID: fid, fmtOpts: connector.FormatOptions(ctx.Options, fid),
		rollSize: DefaultRollingSize, rollAfter: DefaultRolloverPeriod, names: ctx.PhysicalNames(), types: ctx.PhysicalTypes(), config: ctx.Config}
	s.defaultPart = "__DEFAULT_PARTITION__"
	if v, ok := ctx.Options[OptDefaultPartition]; ok {
		s.defaultPart = v
	}
	s.isPart = make([]bool, len(s.names))
	for _, k := range ctx.PartitionKeys {
		idx := -1
		for i, n := range s.names {
			if n == k {
				idx = i
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("table %s: partition column '%s' is not a physical column", ctx.Table, k)
		}
		if !supportedPartitionType(s.types[idx]) {
			return nil, fmt.Errorf("table %s: partition column '%s' has type %s, which the filesystem connector cannot store in a path", ctx.Table, k, s.types[idx])
		}
		s.partKeys = append(s.partKeys, k)
		s.partIdx = append(s.partIdx, idx)
		s.isPart[idx] = true
	}
	for i := range s.names {
		if !s.isPart[i] {
			s.dataIdx = append(s.dataIdx, i)
			s.dataNames = append(s.dataNames, s.names[i])
			s.dataTypes = append(s.dataTypes, s.types[i])
		}
	}
	if len(s.partKeys) > 0 && len(s.dataIdx) == 0 {
		return nil, fmt.Errorf("table %s: every column is a partition column; the files would have no content", ctx.Table)
	}
	if v, ok := ctx.Options[OptRegexPattern]; ok {
		re, err := regexp.Compile("^(?:" + v + ")$")
		if err != nil {
			return nil, fmt.Errorf("table %s: invalid '%s': %v", ctx.Table, OptRegexPattern, err)
		}
		s.regex = re
	}
	if v, ok := ctx.Options[OptMonitorInterval]; ok {
		d, err := config.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("table %s: '%s' must be a positive duration, but was: %s", ctx.Table, OptMonitorInterval, v)
		}
		s.monitor = d
	}
	if v, ok := ctx.Options[OptRollingFileSize]; ok {
		n, err := config.ParseMemorySize(v)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("table %s: invalid '%s': %s", ctx.Table, OptRollingFileSize, v)
		}
		s.rollSize = n
	}
	if v, ok := ctx.Options[OptRolloverInterval]; ok {
		d, err := config.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("table %s: invalid '%s': %s", ctx.Table, OptRolloverInterval, v)
		}
		s.rollAfter = d
	}
	if v, ok := ctx.Options[OptSinkParallelism]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("table %s: '%s' must be a positive integer, but was: %s", ctx.Table, OptSinkParallelism, v)
		}
		s.sinkPar = n
	}
	if v, ok := ctx.Options[OptRollingCheck]; ok {
		if _, err := config.ParseDuration(v); err != nil {
			return nil, fmt.Errorf("table %s: invalid '%s': %s", ctx.Table, OptRollingCheck, v)
		}
	}
	if err := parseCommitOptions(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

// localPath accepts a local path or a file:// URI.
func localPath(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("option 'path' is empty")
	}
	if strings.HasPrefix(p, "file://") {
		p = strings.TrimPrefix(p, "file://")
		if p == "" || p[0] != '/' {
			return "", fmt.Errorf("invalid file URI path 'file://%s'", p)
		}
	} else if i := strings.Index(p, "://"); i > 0 && !strings.ContainsAny(p[:i], `/\`) {
		return "", fmt.Errorf("file system scheme '%s' is not supported (only local paths and file:// URIs)", p[:i])
	}
	return filepath.Clean(p), nil
}

// CreateSource creates a source reading the table's path.
func (Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	s, err := parse(ctx)
	if err != nil {
		return nil, err
	}
	if ctx.Config.IsBatch() {
		// monitoring is a streaming feature: batch mode lists the files once
		s.monitor = 0
	}
	// Validate the format's options and the column types now, not at Open.
	if _, err := s.format.CreateDecoder(&connector.FormatContext{Table: s.table, Names: s.dataNames, Types: s.dataTypes,
		AllNames: s.dataNames, AllTypes: s.dataTypes, Options: s.fmtOpts, Config: s.config}); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	src := &Source{s: s}
	if ff, ok := s.format.(connector.FilterFormat); ok && ff.SupportsFilters() {
		return &FilteringSource{Source: src}, nil
	}
	return src, nil
}

// Source reads the files of a path; every file is one split.
type Source struct {
	s *settings
	// keep, when set by PrunePartitions, selects the partitions to read.
	keep func(values map[string]any) bool
	// filters are the pushed filters a FileDecoder may skip data with.
	filters []*connector.Predicate
}

// FilteringSource is the source of a table whose format skips data by
// filters (parquet's row-group statistics, connector.FilterFormat): it
// implements connector.FilterSource as Flink's FileSystemTableSource does,
// taking every filter and evaluating none exactly, so the Filter above the
// scan still runs.
type FilteringSource struct{ *Source }

// ApplyFilters keeps the filters over stored columns for the format's
// reader (partition columns are pruned by directory instead) and answers
// false (not exact) for each.
func (src *FilteringSource) ApplyFilters(filters []*connector.Predicate) []bool {
	src.filters = nil
	for _, p := range filters {
		if !src.onPartition(p) {
			src.filters = append(src.filters, p)
		}
	}
	return make([]bool, len(filters))
}

// onPartition reports whether p reads a partition column.
func (src *Source) onPartition(p *connector.Predicate) bool {
	switch p.Op {
	case connector.OpAnd, connector.OpOr, connector.OpNot:
		for _, a := range p.Args {
			if src.onPartition(a) {
				return true
			}
		}
		return false
	}
	return p.Column >= 0 && p.Column < len(src.s.isPart) && src.s.isPart[p.Column]
}

// Bounded is true when the files are listed once; with
// source.monitor-interval in streaming mode the source is unbounded
// (monitor.go).
func (src *Source) Bounded() bool { return src.s.monitor <= 0 }

// ChangelogMode is insert-only, or the decoding mode of a changelog
// format (debezium-json, canal-json, maxwell-json: one change event per
// line), as Flink's FileSystemTableSource takes its format's mode.
func (src *Source) ChangelogMode() types.ChangelogMode {
	if cf, ok := src.s.format.(connector.ChangelogFormat); ok {
		return cf.DecodingChangelogMode()
	}
	return types.InsertOnlyMode
}

// ReadableMetadata lists the metadata keys of each file.
func (src *Source) ReadableMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{
		"file.path":              types.StringType().NotNull(),
		"file.name":              types.StringType().NotNull(),
		"file.size":              types.BigIntType().NotNull(),
		"file.modification-time": types.TimestampLTZType(3).NotNull(),
	}
}

// FileSplit is one file to read, or one block of it.
type FileSplit struct {
	Path    string
	Size    int64
	ModTime time.Time
	// Partition holds the k=v values of a partitioned table's file.
	Partition map[string]string
	// Blocks > 0 when the file is split by its blocks (Parquet row
	// groups): the split reads block Block of Blocks.
	Block, Blocks int
	// End > 0 when a CSV file is split by byte ranges (byte_ranges.go):
	// the split reads the lines that start in [Start, End).
	Start, End int64
	// rangeIndex is the range's index among the file's ranges; guard,
	// shared by them, says which hold a quote (a CSV file's; nil for
	// JSON, which needs none).
	rangeIndex int
	ranges     int // the number of the file's ranges
	guard      *rangeGuard
	// listed is the file as listed (nil when the split was made from a
	// checkpoint's position): a byte range's reader opens the path again,
	// and a path renamed over in between is another file (errFileReplaced)
	listed os.FileInfo
}

// String names the split (its path, and its block when split).
func (f *FileSplit) String() string {
	if f.Blocks > 0 {
		return fmt.Sprintf("%s [row group %d of %d]", f.Path, f.Block+1, f.Blocks)
	}
	if f.End > 0 {
		return fmt.Sprintf("%s [bytes %d to %d]", f.Path, f.Start, f.End)
	}
	return f.Path
}

// blockDecoder is implemented by a FileDecoder whose files are made of
// independently readable blocks (Parquet's row groups, see
// engine/connector/format/parquet): a file of several blocks becomes one
// split per block, so that parallel readers share a large file.
type blockDecoder interface {
	FileBlocks(f io.ReaderAt, size int64, name string) (int, error)
	NewFileBlockReader(f io.ReaderAt, size int64, name string, maxRows int, filters []*connector.Predicate, first, last int) (connector.BatchReader, error)
}

// splitBlocks replaces each file of several blocks by one split per block
// (formats with a blockDecoder). A file whose blocks cannot be counted
// stays whole: reading it reports the error.
func (src *Source) splitBlocks(ctx context.Context, files []connector.Split) []connector.Split {
	s := src.s
	dec, err := s.format.CreateDecoder(&connector.FormatContext{Table: s.table, Names: s.dataNames, Types: s.dataTypes,
		AllNames: s.dataNames, AllTypes: s.dataTypes, Options: s.fmtOpts, Config: s.config})
	if err != nil {
		return files
	}
	bd, ok := dec.(blockDecoder)
	if !ok {
		return files
	}
	var out []connector.Split
	for _, sp := range files {
		fs := sp.(*FileSplit)
		n := 0
		if f, err := openRead(ctx, fs.Path); err == nil {
			n, _ = bd.FileBlocks(f, fs.Size, fs.Path)
			f.Close()
		}
		if n <= 1 {
			out = append(out, fs)
			continue
		}
		for b := 0; b < n; b++ {
			c := *fs
			c.Block, c.Blocks = b, n
			out = append(out, &c)
		}
	}
	return out
}

// Splits lists the files under the path, sorted, skipping hidden names
// (with monitoring: one split that reads the files as they appear).
func (src *Source) Splits(ctx context.Context) ([]connector.Split, error) {
	if src.s.monitor > 0 {
		return []connector.Split{&MonitorSplit{Path: src.s.path, Interval: src.s.monitor}}, nil
	}
	return src.listSplits(ctx)
}

func (src *Source) listSplits(ctx context.Context) ([]connector.Split, error) {
	files, err := listFiles(src.s.path, src.s.regex)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", src.s.table, err)
	}
	var out []connector.Split
	for _, f := range files {
		if len(src.s.partKeys) > 0 {
			spec, ok := partitionSpec(src.s.path, f.Path, src.s.partKeys)
			if !ok {
				continue // not in a partition directory
			}
			if src.keep != nil {
				keep, err := src.keepPartition(spec)
				if err != nil {
					return nil, fmt.Errorf("table %s: %s: %w", src.s.table, f.Path, err)
				}
				if !keep {
					continue
				}
			}
			f.Partition = spec
		}
		out = append(out, f)
	}
	return src.splitRanges(src.splitBlocks(ctx, out)), nil
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") }

func listFiles(root string, re *regexp.Regexp) ([]*FileSplit, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		return a
	}
	if !st.IsDir() {
		if re != nil && !re.MatchString(abs(root)) {
			return nil, nil
		}
		return []*FileSplit{{Path: root, Size: st.Size(), ModTime: st.ModTime(), listed: st}}, nil
	}
	// WalkDir does not follow a root that is a symbolic link (it lists
	// the link alone, so the table read nothing); with a trailing
	// separator the link resolves, and the files keep paths under root
	walk := root
	if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		walk = root + string(filepath.Separator)
	}
	var out []*FileSplit
	err = filepath.WalkDir(walk, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == walk {
			return nil
		}
		if hidden(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		if re != nil && !re.MatchString(abs(p)) {
			return nil
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if info, err = os.Stat(p); err != nil || info.IsDir() {
				return nil
			}
		}
		out = append(out, &FileSplit{Path: p, Size: info.Size(), ModTime: info.ModTime(), listed: info})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// Open starts reading one file. spec.Limit > 0 stops the reader after that
// many rows (a hint; 0, the zero value, means no limit).
func (src *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	if m, ok := split.(*MonitorSplit); ok {
		return src.openMonitor(m, spec), nil
	}
	fsplit, ok := split.(*FileSplit)
	if !ok {
		return nil, fmt.Errorf("filesystem: unexpected split %T", split)
	}
	return src.openFile(ctx, fsplit, spec, nil)
}

// openFile opens a file split at its start (pos nil) or at a checkpoint's
// position (position.go).
func (src *Source) openFile(ctx context.Context, fsplit *FileSplit, spec connector.ReadSpec, pos *filePosition) (connector.Reader, error) {
	s := src.s
	proj := spec.Columns
	if proj == nil {
		proj = make([]int, len(s.types))
		for i := range proj {
			proj[i] = i
		}
	}
	// The format decodes the stored columns among proj; partition columns
	// come from the directory names.
	dataPos := make([]int, len(s.types)) // physical index -> index among stored columns
	for i, p := range s.dataIdx {
		dataPos[p] = i
	}
	fctx := &connector.FormatContext{Table: s.table, AllNames: s.dataNames, AllTypes: s.dataTypes, Projection: []int{},
		Names: []string{}, Types: []*types.DataType{}, Options: s.fmtOpts, Config: s.config}
	var assemble []colSource
	for _, p := range proj {
		if p < 0 || p >= len(s.types) {
			return nil, fmt.Errorf("filesystem: column index %d out of range", p)
		}
		if s.isPart[p] {
			v, err := partitionValue(fsplit.Partition[s.names[p]], s.types[p], s.defaultPart)
			if err != nil {
				return nil, &connector.DataError{File: fsplit.Path, Field: s.names[p], Msg: err.Error()}
			}
			assemble = append(assemble, colSource{decoded: -1, t: s.types[p], value: v})
			continue
		}
		assemble = append(assemble, colSource{decoded: len(fctx.Projection), t: s.types[p]})
		fctx.Projection = append(fctx.Projection, dataPos[p])
		fctx.Names = append(fctx.Names, s.names[p])
		fctx.Types = append(fctx.Types, s.types[p])
	}
	dec, err := s.format.CreateDecoder(fctx)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	meta := src.ReadableMetadata()
	for _, k := range spec.Metadata {
		if _, ok := meta[k]; !ok {
			return nil, fmt.Errorf("table %s: unknown metadata key '%s'", s.table, k)
		}
	}
	f, err := openRead(ctx, fsplit.Path)
	if err != nil {
		return nil, err
	}
	if err := sameFileAsListed(f, fsplit); err != nil {
		f.Close()
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	var resume *resumeAt
	if pos != nil {
		if resume, err = src.checkPosition(f, fsplit, dec, pos); err != nil {
			f.Close()
			return nil, err
		}
	}
	stopWatch := watchRead(ctx, f)
	var br connector.BatchReader
	rangeFrom := int64(0)
	var releaseRange func()
	var mapping []byte
	var rangeDec resumableDecoder
	var hold *rangeHold
	if resume != nil && resume.dec != nil && fsplit.End > 0 {
		// a byte range resumed: the rest of its own lines, not the rest
		// of the file (the later ranges' readers read theirs)
		br, rangeFrom, err = resumedRange(ctx, f, fsplit, resume.dec, BatchRows, pos.Offset, pos.Line)
		if err != nil {
			stopWatch()
			f.Close()
			return nil, fmt.Errorf("table %s: %w", s.table, err)
		}
		rangeDec = resume.dec
	} else if resume != nil && resume.dec != nil {
		br = resume.dec.NewReaderAt(f, fsplit.Path, BatchRows, pos.Offset, pos.Line)
	} else if fd, ok := dec.(connector.FileDecoder); ok {
		// Random access (Parquet's footer): the reader reads what it needs.
		st, err := f.Stat()
		if err != nil {
			stopWatch()
			f.Close()
			return nil, err
		}
		if bd, ok := dec.(blockDecoder); ok && fsplit.Blocks > 0 {
			br, err = bd.NewFileBlockReader(f, st.Size(), fsplit.Path, BatchRows, src.filters, fsplit.Block, fsplit.Block+1)
		} else {
			br, err = fd.NewFileReader(f, st.Size(), fsplit.Path, BatchRows, src.filters)
		}
		if err != nil {
			stopWatch()
			f.Close()
			return nil, fmt.Errorf("table %s: %w", s.table, cancelled(ctx, err))
		}
	} else if rd, ok := dec.(resumableDecoder); ok && fsplit.End > 0 && pos == nil {
		// a byte range of the file: its lines, read as from a checkpoint's
		// offset (no header, no byte order mark after offset 0)
		rangeDec = rd
		if spec.Limit > 0 {
			// a few rows: the first range's reader reads them from the
			// start of the file, as one reader (the rows of the first
			// lines, and no error from a line it does not reach); the
			// other ranges give none
			if fsplit.rangeIndex == 0 {
				br = dec.NewReader(f, fsplit.Path, BatchRows)
			} else {
				br = (&rangeLines{from: max(fsplit.Start, 1)}).reader(rd, fsplit.Path, BatchRows)
			}
		} else {
			lines, h, err := holdSection(f, fsplit)
			if err == nil && h == nil {
				lines, err = rangeSection(ctx, f, fsplit)
			}
			if err != nil {
				stopWatch()
				f.Close()
				return nil, fmt.Errorf("table %s: %w", s.table, err)
			}
			br = lines.reader(rd, fsplit.Path, BatchRows)
			if h != nil {
				// the range's check waits for its parse (byte_ranges_hold.go)
				if tr, ok := br.(stopTracker); ok {
					h.track = tr.TrackStopBytes(fsplit.guard.stops)
				}
				hold = h
			}
			rangeFrom, releaseRange, mapping = lines.from, lines.release, lines.mapping
		}
	} else {
		br = dec.NewReader(f, fsplit.Path, BatchRows)
	}
	r := &fileReader{f: f, stopWatch: stopWatch, split: fsplit, br: br, meta: spec.Metadata,
		limit: spec.Limit, hasLimit: spec.Limit > 0, rangeFrom: rangeFrom, releaseRange: releaseRange, mapping: mapping,
		rangeDec: rangeDec, hold: hold, table: s.table}
	if lc, ok := dec.(loneCRDecoder); ok {
		r.loneCR = lc.LoneCREndsLine()
	}
	if resume != nil {
		r.read, r.head = pos.Rows, resume.head
		if resume.dec == nil {
			r.skip = pos.Rows
		}
	}
	if len(s.partKeys) > 0 {
		r.assemble = assemble
	}
	if spec.RowFilter != nil && r.assemble == nil && len(spec.Metadata) == 0 && !r.hasLimit && resume == nil {
		// the decoded columns are the scan's columns: the reader may drop
		// the rows the Calc above would (connector.RowFilter)
		if fr, ok := br.(connector.RowFilterReader); ok && fr.SetRowFilter(spec.RowFilter) {
			r.rowFilter = spec.RowFilter
		}
	}
	return r, nil
}

// colSource says where an output column comes from: a decoded column or
// a constant partition value.
type colSource struct {
	decoded int // index among decoded columns; -1 for a partition value
	t       *types.DataType
	value   any
}

// fileReader reads one file; it implements connector.Reader and
// connector.SkipCounter.
type fileReader struct {
	assemble []colSource
	f        *os.File
	// stopWatch ends the watch that interrupts a waiting read when the
	// context of Open is done (cancel.go).
	stopWatch func() bool
	split     *FileSplit
	br        connector.BatchReader
	meta      []string
	limit     int64
	hasLimit  bool
	read      int64
	closed    bool
	// skip is the number of rows still to drop before the first batch of a
	// reader resumed by skipping rows (position.go).
	skip int64
	// head is the checksum of the file's first bytes, once Position has
	// computed it (position.go).
	head *fileHead
	// rangeFrom is the offset of a byte range's first line (byte_ranges.go)
	rangeFrom int64
	// releaseRange, when set, gives the byte range's buffer back at Close
	releaseRange func()
	// rangeDec is the decoder of a byte range's reader, which reads the
	// ranges before it again on a data error (earlierRangeError); rowFilter
	// is the row filter its reader took, loneCR whether its lines end at a
	// lone CR too (fileLine).
	rangeDec  resumableDecoder
	rowFilter connector.RowFilter
	loneCR    bool
	// mapping: the mapped bytes br reads (a byte range's, byte_ranges.go)
	mapping []byte
	// hold: a byte range whose check the first Next makes
	// (byte_ranges_hold.go)
	hold *rangeHold
	// table names the table in the errors of that check, as Open's do
	table string
}

func (r *fileReader) Next(ctx context.Context) (*types.Batch, error) {
	if (r.mapping == nil && r.hold == nil) || r.closed {
		return r.next(ctx)
	}
	// a held range's first Next may map its bytes anew (resolveHold):
	// a fault is the mapping's that r.mapping holds then
	var b *types.Batch
	err := mappedReadOf(r.split.Path, &r.mapping, func() (err error) {
		b, err = r.next(ctx)
		return err
	})
	return b, err
}

func (r *fileReader) next(ctx context.Context) (*types.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.closed {
		return nil, io.EOF
	}
	if r.hasLimit && r.read >= r.limit {
		return nil, io.EOF
	}
	if r.hold != nil {
		if err := r.resolveHold(ctx); err != nil {
			// the checks the old path makes at Open: its errors
			r.replaceReader(errReader{fmt.Errorf("table %s: %w", r.table, err)})
		}
	}
	b, err := r.br.Next()
	for err == nil && r.skip > 0 {
		// Resumed by skipping rows: drop those read before the checkpoint.
		if int64(b.Len) > r.skip {
			b, r.skip = b.Slice(int(r.skip), b.Len), 0
			break
		}
		r.skip -= int64(b.Len)
		b, err = r.br.Next()
	}
	if err != nil {
		err = fileLine(err, r.f, r.rangeFrom, r.loneCR)
		var de *connector.DataError
		if r.rangeDec != nil && r.split.rangeIndex > 0 && errors.As(err, &de) {
			if first := earlierRangeError(ctx, r.f, r.split, r.openRange, r.loneCR); first != nil {
				err = first
			}
		}
		return nil, cancelled(ctx, err)
	}
	if r.hasLimit && r.read+int64(b.Len) > r.limit {
		b = b.Slice(0, int(r.limit-r.read))
	}
	r.read += int64(b.Len)
	if r.assemble != nil {
		cols := make([]arrowArray, len(r.assemble))
		for i, a := range r.assemble {
			if a.decoded >= 0 {
				cols[i] = b.Cols[a.decoded]
			} else {
				cols[i] = constantColumn(a.t, a.value, b.Len)
			}
		}
		b = types.NewBatch(cols, b.Kinds, b.Len)
	}
	if len(r.meta) > 0 {
		b = r.appendMetadata(b)
	}
	return b, nil
}

// openRange returns a reader of bytes [from, to) of the file as the
// range reader's own: the same decoder and row filter, lines counted from
// 1 at from.
func (r *fileReader) openRange(from, to int64) connector.BatchReader {
	br := r.rangeDec.NewReaderAt(io.NewSectionReader(r.f, from, max(to-from, 0)), r.split.Path, BatchRows, from, 1)
	if r.rowFilter != nil {
		if fr, ok := br.(connector.RowFilterReader); ok {
			fr.SetRowFilter(r.rowFilter)
		}
	}
	return br
}

func (r *fileReader) SkippedRows() int64 { return r.br.SkippedRows() }

func (r *fileReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.stopWatch()
	if c, ok := r.br.(io.Closer); ok {
		c.Close()
	}
	if r.releaseRange != nil {
		r.releaseRange()
	}
	return r.f.Close()
}

// appendMetadata adds constant metadata columns.
func (r *fileReader) appendMetadata(b *types.Batch) *types.Batch {
	cols := append([]arrowArray(nil), b.Cols...)
	for _, k := range r.meta {
		var v any
		t := metaTypes[k]
		switch k {
		case "file.path":
			v = r.split.Path
		case "file.name":
			v = filepath.Base(r.split.Path)
		case "file.size":
			v = r.split.Size
		case "file.modification-time":
			v = r.split.ModTime.UTC()
		}
		cols = append(cols, constantColumn(t, v, b.Len))
	}
	return types.NewBatch(cols, b.Kinds, b.Len)
}

var metaTypes = (&Source{}).ReadableMetadata()

// newUUID returns a random RFC 4122 version 4 UUID string.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
