package catalog

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/types"
)

// The PyFlink catalog object API: constructors and accessors of
// databases, tables, views, partitions, functions and statistics.

// NewCatalogDatabase builds a database with properties and a comment
// (PyFlink's CatalogDatabase.create_instance).
func NewCatalogDatabase(properties map[string]string, comment string) *Database {
	return &Database{Properties: copyMap(properties), Comment: comment}
}

// GetProperties returns a copy of the properties (PyFlink's
// get_properties).
func (d *Database) GetProperties() map[string]string { return copyMap(d.Properties) }

// GetComment returns the comment (PyFlink's get_comment).
func (d *Database) GetComment() string { return d.Comment }

// GetDescription returns a short description, the comment ("" for none)
// (PyFlink's get_description).
func (d *Database) GetDescription() string { return d.Comment }

// GetDetailedDescription returns a longer description (PyFlink's
// get_detailed_description).
func (d *Database) GetDetailedDescription() string {
	if d.Comment == "" {
		return "This is a generic catalog database"
	}
	return d.Comment
}

// Copy returns a deep copy (PyFlink's copy).
func (d *Database) Copy() *Database { return NewCatalogDatabase(d.Properties, d.Comment) }

// NewCatalogTable builds a catalog table from a resolved schema,
// partition keys, connector options and a comment (PyFlink's
// CatalogBaseTable.create_table).
func NewCatalogTable(schema *types.Schema, partitionKeys []string, options map[string]string, comment string) *Table {
	return &Table{TableSchema: schema, PartitionKeys: append([]string(nil), partitionKeys...), TableOptions: copyMap(options), TableComment: comment}
}

// NewCatalogView builds a catalog view from its original query, its
// expanded query (names fully qualified) and its schema (PyFlink's
// CatalogBaseTable.create_view).
func NewCatalogView(originalQuery, expandedQuery string, schema *types.Schema, options map[string]string, comment string) *View {
	return &View{Query: originalQuery, Expanded: expandedQuery, ViewSchema: schema, ViewOptions: copyMap(options), ViewComment: comment}
}

// GetUnresolvedSchema returns the table's schema in unresolved form
// (PyFlink's get_unresolved_schema).
func (t *Table) GetUnresolvedSchema() *Schema { return SchemaOf(t.TableSchema) }

// GetDescription returns the comment (PyFlink's get_description).
func (t *Table) GetDescription() string { return t.TableComment }

// GetDetailedDescription returns a longer description (PyFlink's
// get_detailed_description).
func (t *Table) GetDetailedDescription() string {
	if t.TableComment == "" {
		return "This is a catalog table in an in-memory catalog"
	}
	return t.TableComment
}

// GetUnresolvedSchema returns the view's schema in unresolved form
// (PyFlink's get_unresolved_schema).
func (v *View) GetUnresolvedSchema() *Schema { return SchemaOf(v.ViewSchema) }

// GetDescription returns the comment (PyFlink's get_description).
func (v *View) GetDescription() string { return v.ViewComment }

// GetDetailedDescription returns a longer description (PyFlink's
// get_detailed_description).
func (v *View) GetDetailedDescription() string {
	if v.ViewComment == "" {
		return "This is a catalog view in an in-memory catalog"
	}
	return v.ViewComment
}

// GetOriginalQuery returns the view's query as written (Flink's
// getOriginalQuery).
func (v *View) GetOriginalQuery() string { return v.Query }

// GetExpandedQuery returns the view's query with names fully qualified
// (Flink's getExpandedQuery).
func (v *View) GetExpandedQuery() string { return v.Expanded }

// NewCatalogPartition builds a partition with properties and a comment
// (PyFlink's CatalogPartition.create_instance).
func NewCatalogPartition(properties map[string]string, comment string) *Partition {
	return &Partition{Properties: copyMap(properties), Comment: comment}
}

// GetProperties returns a copy of the properties (PyFlink's
// get_properties).
func (p *Partition) GetProperties() map[string]string { return copyMap(p.Properties) }

// GetComment returns the comment (PyFlink's get_comment).
func (p *Partition) GetComment() string { return p.Comment }

// GetDescription returns the comment (PyFlink's get_description).
func (p *Partition) GetDescription() string { return p.Comment }

// GetDetailedDescription returns a longer description (PyFlink's
// get_detailed_description).
func (p *Partition) GetDetailedDescription() string {
	if p.Comment == "" {
		return "This is a catalog partition in an in-memory catalog"
	}
	return p.Comment
}

// Copy returns a deep copy (PyFlink's copy).
func (p *Partition) Copy() *Partition { return NewCatalogPartition(p.Properties, p.Comment) }

// NewCatalogFunction builds a catalog function: an implementation
// identifier (a Go function registered with table.RegisterGoUDF, or a
// class name) and its language, "GO" when empty (PyFlink's
// CatalogFunction.create_instance).
func NewCatalogFunction(className, language string) *Function {
	if language == "" {
		language = "GO"
	}
	return &Function{ClassName: className, Language: language}
}

// GetClassName returns the implementation identifier (PyFlink's
// get_class_name).
func (f *Function) GetClassName() string { return f.ClassName }

// GetFunctionLanguage returns the language (PyFlink's
// get_function_language).
func (f *Function) GetFunctionLanguage() string { return f.Language }

// IsGeneric reports whether the function is a Flink (here Riffle) user
// function rather than a Hive one: always true (PyFlink's is_generic).
func (f *Function) IsGeneric() bool { return true }

// GetDescription returns a short description (PyFlink's get_description).
func (f *Function) GetDescription() string {
	return fmt.Sprintf("%s function %s", f.Language, f.ClassName)
}

// GetDetailedDescription returns a longer description (PyFlink's
// get_detailed_description).
func (f *Function) GetDetailedDescription() string {
	return fmt.Sprintf("This is a user-defined function written in %s, implemented by %s", f.Language, f.ClassName)
}

// Copy returns a copy (PyFlink's copy).
func (f *Function) Copy() *Function { c := *f; return &c }

// GetDatabaseName returns the database (PyFlink's get_database_name).
func (p ObjectPath) GetDatabaseName() string { return p.Database }

// GetObjectName returns the object name (PyFlink's get_object_name).
func (p ObjectPath) GetObjectName() string { return p.Object }

// GetFullName returns "db.object" (PyFlink's get_full_name).
func (p ObjectPath) GetFullName() string { return p.FullName() }

// NewCatalogPartitionSpec builds a partition spec from key/value pairs
// (PyFlink's CatalogPartitionSpec(dict)).
func NewCatalogPartitionSpec(spec map[string]string) PartitionSpec {
	return PartitionSpec(copyMap(spec))
}

// GetPartitionSpec returns a copy of the key/value pairs; their order
// carries no meaning (PyFlink's get_partition_spec).
func (p PartitionSpec) GetPartitionSpec() map[string]string { return copyMap(p) }

// NewCatalogTableStatistics builds table statistics (PyFlink's
// CatalogTableStatistics); -1 is unknown.
func NewCatalogTableStatistics(rowCount int64, fieldCount int, totalSize, rawDataSize int64, properties map[string]string) TableStatistics {
	return TableStatistics{RowCount: rowCount, FileCount: fieldCount, TotalSize: totalSize, RawDataSize: rawDataSize, Properties: copyMap(properties)}
}

// GetRowCount returns the number of rows (PyFlink's get_row_count).
func (s TableStatistics) GetRowCount() int64 { return s.RowCount }

// GetFieldCount returns the number of files (PyFlink's get_field_count,
// documented as "the number of files on disk").
func (s TableStatistics) GetFieldCount() int { return s.FileCount }

// GetTotalSize returns the total size in bytes (PyFlink's get_total_size).
func (s TableStatistics) GetTotalSize() int64 { return s.TotalSize }

// GetRawDataSize returns the size in memory in bytes (PyFlink's
// get_raw_data_size).
func (s TableStatistics) GetRawDataSize() int64 { return s.RawDataSize }

// GetProperties returns a copy of the properties (PyFlink's
// get_properties).
func (s TableStatistics) GetProperties() map[string]string { return copyMap(s.Properties) }

// Copy returns a deep copy (PyFlink's copy).
func (s TableStatistics) Copy() TableStatistics {
	c := s
	c.Properties = copyMap(s.Properties)
	return c
}

// NewCatalogColumnStatistics builds column statistics (PyFlink's
// CatalogColumnStatistics).
func NewCatalogColumnStatistics(data map[string]ColumnStats, properties map[string]string) ColumnStatistics {
	s := ColumnStatistics{Columns: map[string]ColumnStats{}, Properties: copyMap(properties)}
	for k, v := range data {
		s.Columns[k] = v
	}
	return s
}

// GetColumnStatisticsData returns a copy of the per-column statistics
// (PyFlink's get_column_statistics_data).
func (s ColumnStatistics) GetColumnStatisticsData() map[string]ColumnStats {
	out := map[string]ColumnStats{}
	for k, v := range s.Columns {
		out[k] = v
	}
	return out
}

// GetProperties returns a copy of the properties (PyFlink's
// get_properties).
func (s ColumnStatistics) GetProperties() map[string]string { return copyMap(s.Properties) }

// Copy returns a copy (PyFlink's copy).
func (s ColumnStatistics) Copy() ColumnStatistics {
	return NewCatalogColumnStatistics(s.Columns, s.Properties)
}
