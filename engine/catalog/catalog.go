// Package catalog holds Riffle's catalogs (Flink's Catalog interface and
// GenericInMemoryCatalog), object paths and identifiers, catalog tables,
// views, functions, partitions and statistics, and the CatalogManager that
// resolves 1-, 2- and 3-part names against the current catalog and
// database with temporary objects shadowing permanent ones.
package catalog

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// Catalog is Flink's Catalog interface: databases, tables and views,
// functions, partitions and statistics. Methods return the typed errors
// of errors.go (test with errors.As) with Flink's messages.
type Catalog interface {
	Open() error
	Close() error
	DefaultDatabase() string

	ListDatabases() ([]string, error)
	GetDatabase(name string) (*Database, error)
	DatabaseExists(name string) bool
	CreateDatabase(name string, db *Database, ignoreIfExists bool) error
	DropDatabase(name string, ignoreIfNotExists, cascade bool) error
	AlterDatabase(name string, db *Database, ignoreIfNotExists bool) error

	// ListTables lists tables and views of a database.
	ListTables(db string) ([]string, error)
	ListViews(db string) ([]string, error)
	GetTable(p ObjectPath) (BaseTable, error)
	TableExists(p ObjectPath) bool
	CreateTable(p ObjectPath, t BaseTable, ignoreIfExists bool) error
	DropTable(p ObjectPath, ignoreIfNotExists bool) error
	AlterTable(p ObjectPath, t BaseTable, ignoreIfNotExists bool) error
	RenameTable(p ObjectPath, newName string, ignoreIfNotExists bool) error

	ListFunctions(db string) ([]string, error)
	GetFunction(p ObjectPath) (*Function, error)
	FunctionExists(p ObjectPath) bool
	CreateFunction(p ObjectPath, f *Function, ignoreIfExists bool) error
	AlterFunction(p ObjectPath, f *Function, ignoreIfNotExists bool) error
	DropFunction(p ObjectPath, ignoreIfNotExists bool) error

	ListPartitions(p ObjectPath, filter PartitionSpec) ([]PartitionSpec, error)
	GetPartition(p ObjectPath, spec PartitionSpec) (*Partition, error)
	PartitionExists(p ObjectPath, spec PartitionSpec) bool
	CreatePartition(p ObjectPath, spec PartitionSpec, part *Partition, ignoreIfExists bool) error
	DropPartition(p ObjectPath, spec PartitionSpec, ignoreIfNotExists bool) error
	AlterPartition(p ObjectPath, spec PartitionSpec, part *Partition, ignoreIfNotExists bool) error

	GetTableStatistics(p ObjectPath) (TableStatistics, error)
	GetTableColumnStatistics(p ObjectPath) (ColumnStatistics, error)
	GetPartitionStatistics(p ObjectPath, spec PartitionSpec) (TableStatistics, error)
	GetPartitionColumnStatistics(p ObjectPath, spec PartitionSpec) (ColumnStatistics, error)
	AlterTableStatistics(p ObjectPath, s TableStatistics, ignoreIfNotExists bool) error
	AlterTableColumnStatistics(p ObjectPath, s ColumnStatistics, ignoreIfNotExists bool) error
	AlterPartitionStatistics(p ObjectPath, spec PartitionSpec, s TableStatistics, ignoreIfNotExists bool) error
	AlterPartitionColumnStatistics(p ObjectPath, spec PartitionSpec, s ColumnStatistics, ignoreIfNotExists bool) error
}

// ObjectPath names an object inside a catalog: database and object name
// (Flink's ObjectPath).
type ObjectPath struct {
	Database string
	Object   string
}

// NewObjectPath builds a path.
func NewObjectPath(db, obj string) ObjectPath { return ObjectPath{Database: db, Object: obj} }

// FullName is "db.object" (Flink's getFullName).
func (p ObjectPath) FullName() string { return p.Database + "." + p.Object }

// String is FullName.
func (p ObjectPath) String() string { return p.FullName() }

// ParseObjectPath parses "db.object" (Flink's ObjectPath.fromString).
func ParseObjectPath(s string) (ObjectPath, error) {
	db, obj, ok := strings.Cut(s, ".")
	if !ok || db == "" || obj == "" || strings.Contains(obj, ".") {
		return ObjectPath{}, fmt.Errorf("cannot parse '%s' as object path: expected 'database.object'", s)
	}
	return ObjectPath{Database: db, Object: obj}, nil
}

// ObjectIdentifier is a fully qualified object name (Flink's ObjectIdentifier).
type ObjectIdentifier struct {
	Catalog  string
	Database string
	Object   string
}

// Path returns the identifier's ObjectPath.
func (id ObjectIdentifier) Path() ObjectPath { return ObjectPath{id.Database, id.Object} }

// String renders `cat`.`db`.`obj` (Flink's asSerializableString).
func (id ObjectIdentifier) String() string {
	return types.QuoteIdent(id.Catalog) + "." + types.QuoteIdent(id.Database) + "." + types.QuoteIdent(id.Object)
}

// Summary renders cat.db.obj without quotes (Flink's asSummaryString).
func (id ObjectIdentifier) Summary() string {
	return id.Catalog + "." + id.Database + "." + id.Object
}

// TableKind distinguishes tables and views.
type TableKind uint8

// Table kinds.
const (
	KindTable TableKind = iota
	KindView
)

func (k TableKind) String() string {
	if k == KindView {
		return "VIEW"
	}
	return "TABLE"
}

// BaseTable is a table or view stored in a catalog (Flink's CatalogBaseTable).
type BaseTable interface {
	Kind() TableKind
	Schema() *types.Schema
	Options() map[string]string
	Comment() string
	// Copy returns a deep-enough copy that the caller may alter.
	Copy() BaseTable
}

// Table is a connector-backed table (Flink's CatalogTable).
type Table struct {
	TableSchema   *types.Schema
	TableOptions  map[string]string
	TableComment  string
	PartitionKeys []string
	// Inline is set for anonymous tables created by FromDescriptor.
	Inline bool
	// Materialized is set for a materialized table (Flink's
	// CatalogMaterializedTable): its definition query, freshness and
	// refresh state. Such a table is read and written like any other.
	Materialized *Materialized
}

// Kind implements BaseTable.
func (t *Table) Kind() TableKind { return KindTable }

// Schema implements BaseTable.
func (t *Table) Schema() *types.Schema { return t.TableSchema }

// Options implements BaseTable.
func (t *Table) Options() map[string]string { return t.TableOptions }

// Comment implements BaseTable.
func (t *Table) Comment() string { return t.TableComment }

// IsPartitioned reports whether the table has partition keys.
func (t *Table) IsPartitioned() bool { return len(t.PartitionKeys) > 0 }

// Copy implements BaseTable.
func (t *Table) Copy() BaseTable {
	c := *t
	c.TableOptions = copyMap(t.TableOptions)
	c.PartitionKeys = append([]string(nil), t.PartitionKeys...)
	s := *t.TableSchema
	s.Columns = append([]types.Column(nil), t.TableSchema.Columns...)
	s.Watermarks = append([]types.WatermarkSpec(nil), t.TableSchema.Watermarks...)
	c.TableSchema = &s
	if t.Materialized != nil {
		m := *t.Materialized
		c.Materialized = &m
	}
	return &c
}

// View is a stored query (Flink's CatalogView). Query is the query text
// as written; Expanded is the same query with names fully qualified.
type View struct {
	ViewSchema  *types.Schema
	Query       string
	Expanded    string
	ViewComment string
	ViewOptions map[string]string
	// Plan, when set, is an in-process logical plan (for views created from
	// Table API objects, which have no SQL text); it is opaque here.
	Plan any
	// Catalog and Database are the current catalog and database when the
	// view was created: unqualified names in Query resolve against them.
	Catalog, Database string
}

// Kind implements BaseTable.
func (v *View) Kind() TableKind { return KindView }

// Schema implements BaseTable.
func (v *View) Schema() *types.Schema { return v.ViewSchema }

// Options implements BaseTable.
func (v *View) Options() map[string]string { return v.ViewOptions }

// Comment implements BaseTable.
func (v *View) Comment() string { return v.ViewComment }

// Copy implements BaseTable.
func (v *View) Copy() BaseTable {
	c := *v
	c.ViewOptions = copyMap(v.ViewOptions)
	return &c
}

// Database is a catalog database (Flink's CatalogDatabase).
type Database struct {
	Properties map[string]string
	Comment    string
}

// Function is a catalog function (Flink's CatalogFunction): an identifier
// of an implementation (for Riffle, the name a Go UDF was registered
// under with udf registration) and its language.
type Function struct {
	ClassName string
	Language  string // "GO", "JAVA", "SCALA", "PYTHON", "SQL"
	// Impl holds an in-process implementation for functions registered
	// from the Go API; nil for functions resolved by ClassName.
	Impl any
}

// PartitionSpec maps partition keys to values (Flink's CatalogPartitionSpec).
type PartitionSpec map[string]string

// String renders k1=v1/k2=v2 in key order.
func (p PartitionSpec) String() string {
	keys := sortedKeys(p)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + p[k]
	}
	return strings.Join(parts, "/")
}

// Partition is a catalog partition (Flink's CatalogPartition).
type Partition struct {
	Properties map[string]string
	Comment    string
}

// TableStatistics are table-level statistics (Flink's CatalogTableStatistics).
// Unknown values are -1.
type TableStatistics struct {
	RowCount    int64
	FileCount   int
	TotalSize   int64
	RawDataSize int64
	Properties  map[string]string
}

// UnknownTableStatistics is Flink's CatalogTableStatistics.UNKNOWN.
var UnknownTableStatistics = TableStatistics{RowCount: -1, FileCount: -1, TotalSize: -1, RawDataSize: -1}

// ColumnStatistics are per-column statistics (Flink's CatalogColumnStatistics).
type ColumnStatistics struct {
	Columns    map[string]ColumnStats
	Properties map[string]string
}

// ColumnStats is one column's statistics; nil pointers are unknown.
type ColumnStats struct {
	NDV       *int64
	NullCount *int64
	Min, Max  any
	AvgLen    *float64
	MaxLen    *int64
	TrueCount *int64
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
