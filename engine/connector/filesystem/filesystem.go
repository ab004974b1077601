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
//	source.monitor-interval                none      continuous file monitoring in streaming mode (not yet
//	                                                  supported: the source is bounded, see Source)
//	partition.default-name                 __DEFAULT_PARTITION__  accepted; partitioned tables are not yet supported
//	sink.rolling-policy.file-size          128MB     roll to a new part file when a file reaches this size
//	sink.rolling-policy.rollover-interval  30 min    roll when a part file has been open this long
//	sink.rolling-policy.check-interval     1 min     accepted (rolling is checked on every write)
//	sink.parallelism                       none      accepted; the runtime decides the writer count
//
// Reading: a directory is listed recursively; files and directories whose
// names start with '.' or '_' are skipped (Flink's DefaultFileFilter), and
// each file is one split, in path order. Metadata columns file.path,
// file.name, file.size and file.modification-time are available (Flink's
// FileSystemTableSource metadata).
//
// Writing: the path is always a directory, as in Flink (writing to
// 'out.csv' creates a directory named out.csv holding part files; a regular
// file at the path is an error). Each writer writes hidden in-progress files
// ".part-<uuid>-<writer>-<n>.inprogress" and Commit renames them to
// "part-<uuid>-<writer>-<n>"; Abort deletes them, so nothing is visible
// before the job succeeds. INSERT OVERWRITE deletes the files that were in
// the directory when the sink opened, on commit. The sink is insert-only.
package filesystem

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
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
	return []connector.Option{
		{Key: OptPath, Required: true, Kind: "string", Description: "The path of a file or a directory."},
		{Key: OptFormat, Required: true, Kind: "string", Description: "The format of the files, e.g. 'csv' or 'json'."},
		{Key: OptRegexPattern, Kind: "string", Description: "Read only the files whose absolute path matches this regular expression."},
		{Key: OptMonitorInterval, Kind: "duration", Description: "Interval of checking for new files in streaming mode (not yet supported)."},
		{Key: OptDefaultPartition, Default: "__DEFAULT_PARTITION__", Kind: "string", Description: "The partition name used when a dynamic partition value is null or empty."},
		{Key: OptRollingFileSize, Default: "128MB", Kind: "string", Description: "The maximum part file size before rolling."},
		{Key: OptRolloverInterval, Default: "30 min", Kind: "duration", Description: "The maximum time a part file stays open before rolling."},
		{Key: OptRollingCheck, Default: "1 min", Kind: "duration", Description: "The interval of checking time based rolling policies."},
		{Key: OptSinkParallelism, Kind: "int", Description: "The parallelism of the sink."},
	}
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
	names     []string
	types     []*types.DataType
	config    *config.Configuration
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
		n, err := ParseMemorySize(v)
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
	if v, ok := ctx.Options[OptRollingCheck]; ok {
		if _, err := config.ParseDuration(v); err != nil {
			return nil, fmt.Errorf("table %s: invalid '%s': %s", ctx.Table, OptRollingCheck, v)
		}
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

// ParseMemorySize parses Flink's MemorySize syntax: a number with an
// optional unit b, k/kb/kibibytes, m/mb, g/gb, t/tb (binary multiples).
func ParseMemorySize(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("invalid memory size %q", s)
	}
	var n int64
	if _, err := fmt.Sscan(s[:i], &n); err != nil {
		return 0, err
	}
	unit := strings.TrimSpace(s[i:])
	mult := int64(1)
	switch unit {
	case "", "b", "bytes":
	case "k", "kb", "kibibytes":
		mult = 1 << 10
	case "m", "mb", "mebibytes":
		mult = 1 << 20
	case "g", "gb", "gibibytes":
		mult = 1 << 30
	case "t", "tb", "tebibytes":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("invalid memory size unit %q", unit)
	}
	return n * mult, nil
}

// CreateSource creates a source reading the table's path.
func (Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	s, err := parse(ctx)
	if err != nil {
		return nil, err
	}
	if s.monitor > 0 && !ctx.Config.IsBatch() {
		// Hook for continuous monitoring (a later issue): Splits would be
		// re-listed every s.monitor and new files handed out as new splits.
		return nil, fmt.Errorf("table %s: option '%s' (continuously reading new files in streaming mode) is not supported yet", ctx.Table, OptMonitorInterval)
	}
	// Validate the format's options and the column types now, not at Open.
	if _, err := s.format.CreateDecoder(&connector.FormatContext{Table: s.table, Names: s.names, Types: s.types,
		AllNames: s.names, AllTypes: s.types, Options: s.fmtOpts, Config: s.config}); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &Source{s: s}, nil
}

// Source reads the files of a path; every file is one split.
type Source struct{ s *settings }

// Bounded is true: the files are listed once. (source.monitor-interval in
// streaming mode, which would make the source unbounded, is rejected.)
func (src *Source) Bounded() bool { return true }

// ChangelogMode is insert-only.
func (src *Source) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }

// ReadableMetadata lists the metadata keys of each file.
func (src *Source) ReadableMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{
		"file.path":              types.StringType().NotNull(),
		"file.name":              types.StringType().NotNull(),
		"file.size":              types.BigIntType().NotNull(),
		"file.modification-time": types.TimestampLTZType(3).NotNull(),
	}
}

// FileSplit is one file to read.
type FileSplit struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// String names the split (its path).
func (f *FileSplit) String() string { return f.Path }

// Splits lists the files under the path, sorted, skipping hidden names.
func (src *Source) Splits(ctx context.Context) ([]connector.Split, error) {
	files, err := listFiles(src.s.path, src.s.regex)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", src.s.table, err)
	}
	out := make([]connector.Split, len(files))
	for i, f := range files {
		out[i] = f
	}
	return out, nil
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
		return []*FileSplit{{Path: root, Size: st.Size(), ModTime: st.ModTime()}}, nil
	}
	var out []*FileSplit
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
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
		out = append(out, &FileSplit{Path: p, Size: info.Size(), ModTime: info.ModTime()})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// Open starts reading one file.
func (src *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	fsplit, ok := split.(*FileSplit)
	if !ok {
		return nil, fmt.Errorf("filesystem: unexpected split %T", split)
	}
	s := src.s
	proj := spec.Columns
	if proj == nil {
		proj = make([]int, len(s.types))
		for i := range proj {
			proj[i] = i
		}
	}
	fctx := &connector.FormatContext{Table: s.table, AllNames: s.names, AllTypes: s.types, Projection: proj, Options: s.fmtOpts, Config: s.config}
	for _, p := range proj {
		if p < 0 || p >= len(s.types) {
			return nil, fmt.Errorf("filesystem: column index %d out of range", p)
		}
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
	f, err := os.Open(fsplit.Path)
	if err != nil {
		return nil, err
	}
	return &fileReader{f: f, split: fsplit, br: dec.NewReader(f, fsplit.Path, BatchRows), meta: spec.Metadata, limit: spec.Limit, hasLimit: spec.Limit >= 0 && spec.Limit < 1<<62}, nil
}

// fileReader reads one file; it implements connector.Reader and
// connector.SkipCounter.
type fileReader struct {
	f        *os.File
	split    *FileSplit
	br       connector.BatchReader
	meta     []string
	limit    int64
	hasLimit bool
	read     int64
	closed   bool
}

func (r *fileReader) Next(ctx context.Context) (*types.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.closed {
		return nil, io.EOF
	}
	if r.hasLimit && r.read >= r.limit {
		return nil, io.EOF
	}
	b, err := r.br.Next()
	if err != nil {
		return nil, err
	}
	if r.hasLimit && r.read+int64(b.Len) > r.limit {
		b = b.Slice(0, int(r.limit-r.read))
	}
	r.read += int64(b.Len)
	if len(r.meta) > 0 {
		b = r.appendMetadata(b)
	}
	return b, nil
}

func (r *fileReader) SkippedRows() int64 { return r.br.SkippedRows() }

func (r *fileReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
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

// CreateSink creates a sink writing part files under the table's path.
func (Factory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	s, err := parse(ctx)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(s.path); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("table %s: path '%s' is a file; the filesystem sink writes a directory of part files there (as Flink does), so point 'path' at a directory", ctx.Table, s.path)
	}
	if _, err := s.format.CreateEncoder(&connector.FormatContext{Table: s.table, Names: s.names, Types: s.types,
		AllNames: s.names, AllTypes: s.types, Options: s.fmtOpts, Config: s.config}); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &Sink{s: s, uuid: newUUID()}, nil
}

// Sink writes part files; see the package documentation.
type Sink struct {
	s    *settings
	uuid string

	mu        sync.Mutex
	snapshot  []string // visible files before an INSERT OVERWRITE
	snapTaken bool
	cleared   bool
}

// ChangelogMode is insert-only whatever is requested.
func (k *Sink) ChangelogMode(types.ChangelogMode) types.ChangelogMode { return types.InsertOnlyMode }

// Open starts writer number index.
func (k *Sink) Open(ctx context.Context, spec connector.WriteSpec, index int) (connector.Writer, error) {
	s := k.s
	if len(spec.StaticPartitions) > 0 {
		return nil, fmt.Errorf("table %s: INSERT ... PARTITION is not supported yet by the filesystem connector", s.table)
	}
	if err := os.MkdirAll(s.path, 0o755); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	if spec.Overwrite {
		k.mu.Lock()
		if !k.snapTaken {
			k.snapTaken = true
			files, err := listFiles(s.path, nil)
			if err != nil {
				k.mu.Unlock()
				return nil, err
			}
			for _, f := range files {
				k.snapshot = append(k.snapshot, f.Path)
			}
		}
		k.mu.Unlock()
	}
	enc, err := s.format.CreateEncoder(&connector.FormatContext{Table: s.table, Names: spec.Names, Types: spec.Types,
		AllNames: spec.Names, AllTypes: spec.Types, Options: s.fmtOpts, Config: s.config})
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &writer{k: k, enc: enc, index: index, overwrite: spec.Overwrite, now: time.Now}, nil
}

// clearOld deletes the files an INSERT OVERWRITE replaces (once per sink).
func (k *Sink) clearOld() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cleared {
		return nil
	}
	k.cleared = true
	for _, p := range k.snapshot {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// part is one file written by a writer.
type part struct {
	tmp, final string
}

// countingWriter counts the bytes written to a file.
type countingWriter struct {
	f *os.File
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.f.Write(p)
	c.n += int64(n)
	return n, err
}

type writer struct {
	k         *Sink
	enc       connector.Encoder
	index     int
	overwrite bool
	now       func() time.Time

	cur    *countingWriter
	bw     connector.BatchWriter
	opened time.Time
	count  int
	parts  []part
	done   bool
}

func (w *writer) openPart() error {
	s := w.k.s
	name := fmt.Sprintf("part-%s-%d-%d", w.k.uuid, w.index, w.count)
	w.count++
	p := part{tmp: filepath.Join(s.path, "."+name+".inprogress"), final: filepath.Join(s.path, name)}
	f, err := os.OpenFile(p.tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	w.parts = append(w.parts, p)
	w.cur = &countingWriter{f: f}
	w.bw = w.enc.NewWriter(w.cur)
	w.opened = w.now()
	return nil
}

func (w *writer) closePart() error {
	if w.cur == nil {
		return nil
	}
	err := w.bw.Flush()
	if cerr := w.cur.f.Close(); err == nil {
		err = cerr
	}
	w.cur, w.bw = nil, nil
	return err
}

// Write appends a batch, rolling to a new part file by size or age.
func (w *writer) Write(ctx context.Context, b *types.Batch) error {
	if w.done {
		return fmt.Errorf("filesystem: write after commit or abort")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !b.InsertOnly() {
		return fmt.Errorf("table %s: the filesystem sink accepts insert-only input, got an update or delete row", w.k.s.table)
	}
	if b.Len == 0 {
		return nil
	}
	if w.cur != nil && w.now().Sub(w.opened) >= w.k.s.rollAfter {
		if err := w.closePart(); err != nil {
			return err
		}
	}
	if w.cur == nil {
		if err := w.openPart(); err != nil {
			return err
		}
	}
	if err := w.bw.Write(b); err != nil {
		return err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if w.cur.n >= w.k.s.rollSize {
		return w.closePart()
	}
	return nil
}

// Commit closes the open part and renames every part into place.
func (w *writer) Commit() error {
	if w.done {
		return nil
	}
	w.done = true
	if err := w.closePart(); err != nil {
		w.removeParts()
		return err
	}
	if w.overwrite {
		if err := w.k.clearOld(); err != nil {
			w.removeParts()
			return err
		}
	}
	for _, p := range w.parts {
		if err := os.Rename(p.tmp, p.final); err != nil {
			return err
		}
	}
	return nil
}

// Abort deletes the in-progress files.
func (w *writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	_ = w.closePart()
	w.removeParts()
}

func (w *writer) removeParts() {
	for _, p := range w.parts {
		_ = os.Remove(p.tmp)
	}
}
