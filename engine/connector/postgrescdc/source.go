package postgrescdc

import (
	"context"
	"fmt"
	"io"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Metadata keys (Flink CDC's PostgreSQLReadableMetadata).
const (
	MetaTableName    = "table_name"
	MetaSchemaName   = "schema_name"
	MetaDatabaseName = "database_name"
	MetaOpTs         = "op_ts"
	MetaRowKind      = "row_kind"
)

func readableMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{
		MetaTableName:    types.StringType().NotNull(),
		MetaSchemaName:   types.StringType().NotNull(),
		MetaDatabaseName: types.StringType().NotNull(),
		MetaOpTs:         types.TimestampLTZType(3).NotNull(),
		MetaRowKind:      types.StringType().NotNull(),
	}
}

// Source reads one PostgreSQL table: a snapshot, then its changes from a
// logical replication slot. It is unbounded and has one split.
type Source struct {
	t         *tableOptions
	physNames []string
	physTypes []*types.DataType
}

// TableSplit is the source's only split: the captured table.
type TableSplit struct{ Schema, Table string }

// String names the split "schema.table".
func (s TableSplit) String() string { return s.Schema + "." + s.Table }

func newSource(ctx *connector.Context, t *tableOptions) (*Source, error) {
	s := &Source{t: t, physNames: ctx.PhysicalNames(), physTypes: ctx.PhysicalTypes()}
	for _, k := range t.pkColumns {
		found := false
		for _, n := range s.physNames {
			found = found || n == k
		}
		if !found {
			return nil, t.errorf("primary key column %s is not a physical column", types.QuoteIdent(k))
		}
	}
	for i, dt := range s.physTypes {
		// reject types no PostgreSQL column can fill before any connection
		switch dt.Root {
		case types.Char, types.VarChar, types.Boolean, types.TinyInt, types.SmallInt, types.Integer, types.BigInt,
			types.Float, types.Double, types.DecimalRoot, types.Binary, types.VarBinary, types.DateRoot,
			types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		default:
			return nil, t.errorf("column %s: the postgres-cdc connector cannot produce %s; supported types are those of Flink CDC's type mapping (BOOLEAN, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BYTES, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ)",
				types.QuoteIdent(s.physNames[i]), dt.WithNullable(true))
		}
	}
	return s, nil
}

// Bounded is false: the source follows the table's changes until the query
// is cancelled; true with 'scan.startup.mode' = 'snapshot', which reads the
// snapshot alone.
func (s *Source) Bounded() bool { return s.t.startup == StartupSnapshot }

// ChangelogMode is [I, UB, UA, D] ('changelog-mode' = 'all', Flink CDC's
// ChangelogMode.all()) or [I, UA, D] ('upsert', ChangelogMode.upsert(): the
// planner adds a ChangelogNormalize on the primary key); [I] for the
// 'snapshot' startup mode and with
// 'scan.read-changelog-as-append-only.enabled'.
func (s *Source) ChangelogMode() types.ChangelogMode {
	if s.t.startup == StartupSnapshot || s.t.appendOnly {
		// only +I rows: usable in batch mode as well
		return types.InsertOnlyMode
	}
	if s.t.upsert {
		return types.UpsertMode
	}
	return types.RetractMode
}

// ReadableMetadata lists op_ts, table_name, schema_name, database_name and
// row_kind.
func (s *Source) ReadableMetadata() map[string]*types.DataType { return readableMetadata() }

// Splits is the one split of the captured table.
func (s *Source) Splits(ctx context.Context) ([]connector.Split, error) {
	return []connector.Split{TableSplit{Schema: s.t.schema, Table: s.t.tableName}}, nil
}

// IgnoredOptions lists the debezium.* keys given and ignored.
func (s *Source) IgnoredOptions() []string { return s.t.ignoredDebez }

// Open connects to the server, checks wal_level, the table and the column
// types, prepares the publication and the replication slot (for 'initial'
// it (re)creates the slot, exporting its snapshot, and imports that
// snapshot into a REPEATABLE READ transaction), and returns the reader,
// which reads the snapshot and then the slot. Connection, permission,
// table and type errors are returned here.
func (s *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	meta := readableMetadata()
	for _, k := range spec.Metadata {
		if _, ok := meta[k]; !ok {
			return nil, s.t.errorf("unknown metadata key '%s'", k)
		}
	}
	for _, c := range spec.Columns {
		if c < 0 || c >= len(s.physNames) {
			return nil, s.t.errorf("projected column %d out of range", c)
		}
	}
	if _, ok := split.(TableSplit); !ok {
		return nil, s.t.errorf("unexpected split %s (%T)", split, split)
	}
	r, err := openReader(ctx, s, spec)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// OpenInstance opens the reader of parallel instance 0, which owns the one
// split (the planner runs no more instances than there are splits); it
// lets the runtime show the split's progress and watermark in the Jobs
// panel.
func (s *Source) OpenInstance(ctx context.Context, splits []connector.Split, instance, parallelism int, spec connector.ReadSpec) (connector.Reader, error) {
	if instance != 0 || len(splits) == 0 {
		return idleReader{bounded: s.Bounded()}, nil
	}
	return s.Open(ctx, splits[0], spec)
}

// idleReader is the reader of an instance that owns no split.
type idleReader struct{ bounded bool }

func (r idleReader) Next(ctx context.Context) (*types.Batch, error) {
	if r.bounded {
		return nil, io.EOF
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (idleReader) Close() error { return nil }

// String describes the source for EXPLAIN-like output.
func (s *Source) String() string {
	return fmt.Sprintf("postgres-cdc(%s:%d/%s %s.%s slot=%s)", s.t.host, s.t.port, s.t.database, s.t.schema, s.t.tableName, s.t.slot)
}
