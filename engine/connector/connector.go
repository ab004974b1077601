// Package connector defines how Riffle reads and writes external data: the
// factories chosen by a table's 'connector' option (Flink's
// DynamicTableSourceFactory / DynamicTableSinkFactory) and the formats
// chosen by its 'format' option (Flink's DeserializationFormatFactory /
// SerializationFormatFactory).
//
// A Source is split into independent Splits (files, generator instances);
// the runtime opens one Reader per split in its own goroutine, so a source
// with several splits is read in parallel. Readers return Arrow batches of
// the requested columns. Watermarks are not the source's business: the
// runtime derives them from the rowtime column of each split.
package connector

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/types"
)

// Option declares one option a connector or format understands. The
// table designer and completion list them; validation rejects unknown keys.
type Option struct {
	Key         string
	Required    bool
	Default     string
	Kind        string // "string", "int", "bool", "duration", "enum", "char", "float"
	Values      []string
	Description string
}

// Context is what a factory sees when a table is used.
type Context struct {
	// Table is the fully qualified table name, for error messages.
	Table string
	// Schema is the table's resolved schema (all column kinds).
	Schema *types.Schema
	// PartitionKeys are the table's PARTITIONED BY columns, in order (nil
	// for an unpartitioned table). They are physical columns; connectors
	// that store partitions in paths (filesystem) read and write them there.
	PartitionKeys []string
	// Options are the table's WITH options (plus dynamic OPTIONS hints).
	Options map[string]string
	// Config is the session configuration (time zone, runtime mode, ...).
	Config *config.Configuration
	// Stdout is where the print connector writes (the process's stdout
	// unless the embedding program redirects it).
	Stdout io.Writer
	// CheckPath, when set, is the embedding program's policy for the
	// files a table may reach (riffle gateway --allow-path): CreateSource
	// and CreateSink call it with the table's 'path' option before the
	// factory sees the table, and fail with its error.
	CheckPath func(path string) error
}

// checkPath applies ctx.CheckPath to the table's 'path' option.
func checkPath(ctx *Context) error {
	if ctx.CheckPath == nil {
		return nil
	}
	p, ok := ctx.Options["path"]
	if !ok {
		return nil
	}
	if err := ctx.CheckPath(p); err != nil {
		return fmt.Errorf("table %s: %w", ctx.Table, err)
	}
	return nil
}

// PhysicalNames and PhysicalTypes list the physical columns in order.
func (c *Context) PhysicalNames() []string {
	var out []string
	for _, col := range c.Schema.Physical() {
		out = append(out, col.Name)
	}
	return out
}

// PhysicalTypes lists the physical column types in order.
func (c *Context) PhysicalTypes() []*types.DataType {
	var out []*types.DataType
	for _, col := range c.Schema.Physical() {
		out = append(out, col.Type)
	}
	return out
}

// Factory is the common part of source and sink factories.
type Factory interface {
	// Identifier is the 'connector' option value, e.g. "filesystem".
	Identifier() string
	// Options lists the options the connector understands (without the
	// format's options, which the format declares).
	Options() []Option
}

// SourceFactory creates sources.
type SourceFactory interface {
	Factory
	CreateSource(ctx *Context) (Source, error)
}

// SinkFactory creates sinks.
type SinkFactory interface {
	Factory
	CreateSink(ctx *Context) (Sink, error)
}

// Split is one independently readable part of a source (a file, a
// generator instance). Its String names it in errors and metrics.
type Split interface {
	String() string
}

// ReadSpec says what a reader must produce.
type ReadSpec struct {
	// Columns are indexes into the physical columns (Context.PhysicalNames),
	// in output order: the projection pushed into the source. Sources must
	// honour it (a CSV reader still parses only the listed fields).
	Columns []int
	// Metadata lists metadata keys to append after the physical columns.
	Metadata []string
	// Limit, when >= 0, lets a reader stop after that many rows (a hint).
	Limit int64
	// RowFilter, when set, is the run-time filter of the operator reading
	// the scan (see RowFilter): a bounded source read without checkpoints
	// may drop the rows it does not keep. Set by the job graph, never by
	// the planner.
	RowFilter RowFilter
	// Uses, when set, has one entry per entry of Columns: how the job
	// reads that column (see FieldUse), so that a source may skip
	// decoding the fields of a ROW column that no operator reads. A hint:
	// a source may ignore it. Nil: every column is read whole. Set by the
	// job graph, never by the planner (EXPLAIN is unchanged).
	Uses []*FieldUse
}

// FieldUse is how a job reads a column or a field of a ROW column: a nil
// *FieldUse is not read at all; one without Fields is read whole (every
// value as it is); one with Fields, for a ROW column whose fields are
// only read one by one (r.f), holds one entry per field of the ROW type,
// each how that field is read.
type FieldUse struct {
	Fields []*FieldUse
}

// WholeUse is a FieldUse of a value read whole.
var WholeUse = &FieldUse{}

// Whole reports whether the value is read whole.
func (u *FieldUse) Whole() bool { return u != nil && u.Fields == nil }

// Field returns how field i of a ROW value u is read: whole when u is,
// nil (not read) when u is nil.
func (u *FieldUse) Field(i int) *FieldUse {
	switch {
	case u == nil:
		return nil
	case u.Fields == nil:
		return WholeUse
	case i < len(u.Fields):
		return u.Fields[i]
	}
	return WholeUse
}

// MergeUses returns a use covering both a and b (either may be nil).
func MergeUses(a, b *FieldUse) *FieldUse {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.Fields == nil || b.Fields == nil || len(a.Fields) != len(b.Fields):
		return WholeUse
	}
	out := &FieldUse{Fields: make([]*FieldUse, len(a.Fields))}
	for i := range a.Fields {
		out.Fields[i] = MergeUses(a.Fields[i], b.Fields[i])
	}
	return out
}

// Source reads a table.
type Source interface {
	// Bounded reports whether the source ends by itself (files, datagen
	// with number-of-rows). Batch mode requires bounded sources.
	Bounded() bool
	// ChangelogMode is the kind of rows the source produces.
	ChangelogMode() types.ChangelogMode
	// Splits lists the independent parts of the source.
	Splits(ctx context.Context) ([]Split, error)
	// Open starts reading one split.
	Open(ctx context.Context, split Split, spec ReadSpec) (Reader, error)
}

// DeclaresBoundedness is implemented by a Source whose boundedness to the
// planner differs from Bounded (whether it ends by itself): Flink's
// ScanRuntimeProvider.isBounded. A datagen table whose fields include a
// sequence ends when the sequence does, yet Flink declares it unbounded
// unless number-of-rows is set, so batch mode refuses it.
type DeclaresBoundedness interface {
	// DeclaredBounded reports whether the planner treats the source as
	// bounded.
	DeclaredBounded() bool
}

// DeclaredBounded reports whether the planner treats src as bounded (batch
// mode requires it): DeclaredBounded when src declares it, Bounded
// otherwise.
func DeclaredBounded(src Source) bool {
	if d, ok := src.(DeclaresBoundedness); ok {
		return d.DeclaredBounded()
	}
	return src.Bounded()
}

// ReportsStatistics is implemented by a Source that can estimate, when a
// query is planned, how many rows it will produce: Flink's
// SupportsStatisticReport (a file system table's format estimates its
// files' rows). The batch planner broadcasts the small side of a hash
// join with it (table.optimizer.join.broadcast-threshold); unknown sizes
// never broadcast, as in Flink.
type ReportsStatistics interface {
	// EstimatedRowCount is the estimated number of rows; ok is false
	// when the source cannot tell cheaply.
	EstimatedRowCount(ctx context.Context) (rows int64, ok bool)
}

// PartitionPruner is implemented by sources of partitioned tables, like
// Flink's SupportsPartitionPushDown: the planner hands over a predicate on
// the partition columns, and Splits then lists only the splits of the
// partitions that satisfy it.
type PartitionPruner interface {
	// PrunePartitions installs keep, which receives the values of one
	// partition by partition key (typed as the columns' Go values, nil for
	// the default partition) and reports whether to read it. It returns
	// the kept partitions as key -> directory value maps, sorted, for
	// EXPLAIN.
	PrunePartitions(ctx context.Context, keep func(values map[string]any) bool) ([]map[string]string, error)
}

// MetadataSource is implemented by sources that offer metadata columns.
type MetadataSource interface {
	ReadableMetadata() map[string]*types.DataType
}

// Reader yields batches of one split.
type Reader interface {
	// Next returns the next non-empty batch, or io.EOF at the end of a
	// bounded split. Unbounded readers block until data is due and must
	// return ctx.Err() promptly when ctx is cancelled. Bad data yields a
	// *DataError (unless the format is told to skip it).
	Next(ctx context.Context) (*types.Batch, error)
	// Close releases files and goroutines. It is safe to call twice.
	Close() error
}

// SkipCounter is implemented by readers that skip bad rows
// (csv.ignore-parse-errors, json.ignore-parse-errors): the number skipped so far.
type SkipCounter interface {
	SkippedRows() int64
}

// WriteSpec says what a sink receives.
type WriteSpec struct {
	// Names and Types of the written (persisted) columns, in order.
	Names []string
	Types []*types.DataType
	// Overwrite is INSERT OVERWRITE.
	Overwrite bool
	// StaticPartitions are PARTITION (k='v') values of INSERT.
	StaticPartitions map[string]string
	// Bounded tells the sink whether its input ends.
	Bounded bool
	// Writers is the number of parallel writers the job opens (the sink
	// operator's parallelism; 0 when unknown), as Flink's
	// RuntimeContext.getNumberOfParallelSubtasks.
	Writers int
}

// Sink writes a table.
type Sink interface {
	// ChangelogMode returns the kinds the sink accepts for an input of the
	// requested mode. An append-only sink returns InsertOnlyMode whatever
	// is requested; the planner then rejects updating input at planning time.
	ChangelogMode(requested types.ChangelogMode) types.ChangelogMode
	// Open starts writing. Parallel writers may be opened (one per input
	// partition); index identifies the writer.
	Open(ctx context.Context, spec WriteSpec, index int) (Writer, error)
}

// ParallelismSink is implemented by a Sink that takes 'sink.parallelism'
// (Flink's ParallelismProvider): the planner runs its writers at the
// option's value when the table sets it, else at the input's parallelism.
// When the two differ, an insert-only input is rebalanced and an updating
// one hashed by the table's primary key (an updating input into a sink
// without one is refused, as in Flink). Parallelism is the count the sink
// itself works with (0 when it has none of its own).
type ParallelismSink interface {
	Parallelism() int
}

// OverwriteSink is implemented by sinks that accept INSERT OVERWRITE
// (Flink's SupportsOverwrite); the planner rejects INSERT OVERWRITE into
// any other sink. CheckOverwrite is called while planning with whether
// the job runs in batch mode and may refuse the statement (Flink's
// filesystem sink: "Streaming mode not support overwrite.").
type OverwriteSink interface {
	CheckOverwrite(batch bool) error
}

// Writer writes batches.
type Writer interface {
	Write(ctx context.Context, b *types.Batch) error
	// Commit makes written data visible (filesystem: renames in-progress
	// files into place) and releases resources.
	Commit() error
	// Abort discards uncommitted data and releases resources.
	Abort()
}

// DataError is bad input data with its location. Line and Column are
// 1-based; Column counts fields for CSV (the failing field's position) and
// bytes for JSON; zero means unknown.
type DataError struct {
	File   string
	Line   int64
	Column int
	Field  string
	Msg    string
}

func (e *DataError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("<input>")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Field != "" {
		fmt.Fprintf(&b, "column %s: ", types.QuoteIdent(e.Field))
	}
	b.WriteString(e.Msg)
	return b.String()
}

var (
	regMu     sync.RWMutex
	sources   = map[string]SourceFactory{}
	sinks     = map[string]SinkFactory{}
	factories = map[string]Factory{}
)

// Register makes a connector factory available under its identifier. A
// factory may implement SourceFactory, SinkFactory or both.
func Register(f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	factories[f.Identifier()] = f
	if s, ok := f.(SourceFactory); ok {
		sources[f.Identifier()] = s
	}
	if s, ok := f.(SinkFactory); ok {
		sinks[f.Identifier()] = s
	}
}

// Lookup returns the factory registered under id.
func Lookup(id string) (Factory, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	f, ok := factories[id]
	return f, ok
}

// Identifiers lists the registered connectors, sorted.
func Identifiers() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(factories))
	for id := range factories {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// CreateSource finds the factory for ctx's 'connector' option and creates a
// source. Errors name the table and list the available connectors, as
// Flink's "Could not find any factory for identifier 'x'" does.
func CreateSource(ctx *Context) (Source, error) {
	id, err := connectorID(ctx)
	if err != nil {
		return nil, err
	}
	regMu.RLock()
	f, ok := sources[id]
	regMu.RUnlock()
	if !ok {
		return nil, unknownFactory(ctx, id, "DynamicTableSourceFactory", SourceIdentifiers())
	}
	if err := checkPath(ctx); err != nil {
		return nil, err
	}
	return f.CreateSource(ctx)
}

// CreateSink is CreateSource for sinks.
func CreateSink(ctx *Context) (Sink, error) {
	id, err := connectorID(ctx)
	if err != nil {
		return nil, err
	}
	regMu.RLock()
	f, ok := sinks[id]
	regMu.RUnlock()
	if !ok {
		return nil, unknownFactory(ctx, id, "DynamicTableSinkFactory", SinkIdentifiers())
	}
	if err := checkPath(ctx); err != nil {
		return nil, err
	}
	return f.CreateSink(ctx)
}

// SourceIdentifiers lists connectors that can read.
func SourceIdentifiers() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []string
	for id := range sources {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// SinkIdentifiers lists connectors that can write.
func SinkIdentifiers() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []string
	for id := range sinks {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func connectorID(ctx *Context) (string, error) {
	id, ok := ctx.Options["connector"]
	if !ok || id == "" {
		return "", fmt.Errorf("table options of %s do not contain an option key 'connector' for discovering a connector", ctx.Table)
	}
	return id, nil
}

func unknownFactory(ctx *Context, id, kind string, avail []string) error {
	return fmt.Errorf("unable to create a %s for table %s: could not find any factory for identifier '%s' that implements '%s'.\n\nAvailable factory identifiers are:\n\n%s",
		map[string]string{"DynamicTableSourceFactory": "source", "DynamicTableSinkFactory": "sink"}[kind],
		ctx.Table, id, kind, strings.Join(avail, "\n"))
}

// ValidateOptions checks ctx.Options against the declared options of a
// connector and of its format (keys prefixed by the format identifier):
// required keys must be present and unknown keys are rejected, naming the
// unsupported keys and listing the supported ones as Flink does.
func ValidateOptions(ctx *Context, declared []Option, formatPrefixes ...string) error {
	known := map[string]bool{"connector": true}
	for _, o := range declared {
		known[o.Key] = true
		if o.Required {
			if _, ok := ctx.Options[o.Key]; !ok {
				return fmt.Errorf("table %s: missing required option '%s'", ctx.Table, o.Key)
			}
		}
	}
	var unknown []string
	for k := range ctx.Options {
		if known[k] {
			continue
		}
		prefixed := false
		for _, p := range formatPrefixes {
			if strings.HasPrefix(k, p+".") {
				prefixed = true
			}
		}
		if !prefixed {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var supported []string
		for k := range known {
			supported = append(supported, k)
		}
		sort.Strings(supported)
		return fmt.Errorf("table %s: unsupported options found for '%s': %s\nsupported options:\n%s",
			ctx.Table, ctx.Options["connector"], strings.Join(unknown, ", "), strings.Join(supported, "\n"))
	}
	return nil
}

// ProjectionPushdown is implemented by a source factory to say whether its
// sources read only the columns a query uses (Flink's
// SupportsProjectionPushDown). A factory that does not implement it is
// taken to support it. When ProjectionPushdown returns false the planner
// scans every physical column and projects above the scan, as Flink does
// for such a source (its datagen connector pushes limits, not
// projections): the plan keeps a Calc over
// TableSourceScan(..., fields=[every column]).
type ProjectionPushdown interface {
	ProjectionPushdown() bool
}

// PushesProjection reports whether the connector registered as id reads
// only the projected columns (see ProjectionPushdown); true for a
// connector that is unknown or does not say.
func PushesProjection(id string) bool {
	f, ok := Lookup(id)
	if !ok {
		return true
	}
	if p, ok := f.(ProjectionPushdown); ok {
		return p.ProjectionPushdown()
	}
	return true
}
