package table

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Schema is an unresolved table schema (PyFlink's Schema); see
// catalog.Schema. Build one with NewSchemaBuilder.
type Schema = catalog.Schema

// SchemaBuilder builds a Schema (PyFlink's Schema.Builder); see
// catalog.SchemaBuilder.
type SchemaBuilder = catalog.SchemaBuilder

// NewSchemaBuilder starts an empty Schema (PyFlink's Schema.new_builder):
//
//	table.NewSchemaBuilder().
//		Column("id", types.BigIntType().NotNull()).
//		Column("ts", "TIMESTAMP(3)").
//		ColumnByExpression("day", "CAST(ts AS DATE)").
//		Watermark("ts", "ts - INTERVAL '5' SECOND").
//		PrimaryKey("id").
//		Build()
func NewSchemaBuilder() *SchemaBuilder { return catalog.NewSchemaBuilder() }

// SQLExpression renders the expression as SQL text for a Schema
// (computed columns, watermarks); it fails for expressions that cannot be
// persisted as SQL (inline user functions, sub-queries, Table API-only
// constructs). It implements catalog.SQLExpression.
func (e Expression) SQLExpression() (string, error) {
	n, err := e.sqlNode()
	if err != nil {
		return "", err
	}
	if d := e.deps(); d != nil && (len(d.funcs) > 0 || len(d.tables) > 0) {
		return "", fmt.Errorf("%s calls an unregistered function or uses a sub-query and cannot be stored as SQL; register the function first", e)
	}
	bad := ""
	walkSQLExpr(n, func(x sql.Expr) {
		if m := markerName(x); m != "" {
			bad = m
		}
	})
	if bad != "" {
		return "", fmt.Errorf("%s cannot be stored as SQL", e)
	}
	return sql.Format(n), nil
}

// optionKey accepts a string key or a config option (anything with a
// Key method, such as *config.ConfigOption[T]).
func optionKey(key any) (string, error) {
	switch k := key.(type) {
	case string:
		if k == "" {
			return "", errors.New("empty option key")
		}
		return k, nil
	case interface{ Key() string }:
		return k.Key(), nil
	}
	return "", fmt.Errorf("an option key must be a string or a ConfigOption, got %T", key)
}

// optionValue renders an option value as Flink's string form: numbers and
// booleans as text, durations as "<n> ms".
func optionValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case time.Duration:
		return config.FormatDuration(x)
	case bool:
		return strconv.FormatBool(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// TableDescriptor describes a table for CreateTable, CreateTemporaryTable,
// FromDescriptor, ExecuteInsert and StatementSet.AddInsert (PyFlink's
// TableDescriptor), like CREATE TABLE: a schema, connector options,
// partition keys and a comment. It is immutable; build it with
// ForConnector.
type TableDescriptor struct {
	schema        *Schema
	options       map[string]string
	partitionKeys []string
	comment       string
	err           error
}

// TableDescriptorBuilder builds a TableDescriptor (PyFlink's
// TableDescriptor.Builder). Its methods chain; the first error is kept in
// the descriptor and reported when it is used.
type TableDescriptorBuilder struct{ d TableDescriptor }

// ForConnector starts a descriptor for the connector with that identifier
// ('connector' option), e.g. "datagen", "filesystem", "print"
// (PyFlink's TableDescriptor.for_connector).
func ForConnector(connector string) *TableDescriptorBuilder {
	b := &TableDescriptorBuilder{d: TableDescriptor{options: map[string]string{"connector": connector}}}
	if connector == "" {
		b.d.err = errors.New("ForConnector: empty connector identifier")
	}
	return b
}

func (b *TableDescriptorBuilder) fail(err error) *TableDescriptorBuilder {
	if b.d.err == nil {
		b.d.err = err
	}
	return b
}

// Schema sets the table's schema (PyFlink's schema).
func (b *TableDescriptorBuilder) Schema(s *Schema) *TableDescriptorBuilder {
	b.d.schema = s
	return b
}

// Comment sets the table's comment (PyFlink's comment).
func (b *TableDescriptorBuilder) Comment(comment string) *TableDescriptorBuilder {
	b.d.comment = comment
	return b
}

// PartitionedBy sets the partition keys (PyFlink's partitioned_by).
func (b *TableDescriptorBuilder) PartitionedBy(keys ...string) *TableDescriptorBuilder {
	b.d.partitionKeys = append([]string(nil), keys...)
	return b
}

// Option sets a connector option; key is a fully qualified string or a
// ConfigOption, value any value rendered as text (10 becomes "10")
// (PyFlink's option). Format options belong in Format.
func (b *TableDescriptorBuilder) Option(key any, value any) *TableDescriptorBuilder {
	k, err := optionKey(key)
	if err != nil {
		return b.fail(err)
	}
	b.d.options[k] = optionValue(value)
	return b
}

// Format sets the format (PyFlink's format): an identifier such as "json",
// or a FormatDescriptor whose options are added with the format's prefix
// ("json.ignore-parse-errors"). formatOption names the option that selects
// the format (default "format"; e.g. "value.format" for connectors with
// key and value formats, whose options then get the prefix
// "value.json.").
func (b *TableDescriptorBuilder) Format(format any, formatOption ...any) *TableDescriptorBuilder {
	key := "format"
	if len(formatOption) > 0 {
		k, err := optionKey(formatOption[0])
		if err != nil {
			return b.fail(err)
		}
		key = k
	}
	var fd *FormatDescriptor
	switch f := format.(type) {
	case string:
		fd = &FormatDescriptor{format: f, options: map[string]string{}}
	case *FormatDescriptor:
		fd = f
	default:
		return b.fail(fmt.Errorf("Format takes a format identifier or a *FormatDescriptor, got %T", format))
	}
	if fd == nil {
		return b.fail(errors.New("Format: nil format descriptor"))
	}
	if fd.err != nil {
		return b.fail(fd.err)
	}
	b.d.options[key] = fd.format
	prefix := strings.TrimSuffix(key, "format") + fd.format + "."
	for k, v := range fd.options {
		b.d.options[prefix+k] = v
	}
	return b
}

// Build returns the descriptor (PyFlink's build).
func (b *TableDescriptorBuilder) Build() *TableDescriptor {
	d := b.d
	d.options = copyOptions(b.d.options)
	d.partitionKeys = append([]string(nil), b.d.partitionKeys...)
	return &d
}

func copyOptions(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Schema returns the schema, or nil (PyFlink's get_schema).
func (d *TableDescriptor) Schema() *Schema { return d.schema }

// Options returns a copy of the options (PyFlink's get_options).
func (d *TableDescriptor) Options() map[string]string { return copyOptions(d.options) }

// PartitionKeys returns the partition keys (PyFlink's
// get_partition_keys).
func (d *TableDescriptor) PartitionKeys() []string {
	return append([]string(nil), d.partitionKeys...)
}

// Comment returns the comment ("" when none) (PyFlink's get_comment).
func (d *TableDescriptor) Comment() string { return d.comment }

// Err returns the first error of the descriptor's builder, or nil.
func (d *TableDescriptor) Err() error { return d.err }

// String renders the descriptor like a CREATE TABLE body: schema, comment,
// partitioning and options in key order.
func (d *TableDescriptor) String() string {
	var b strings.Builder
	if d.schema != nil {
		b.WriteString(d.schema.String())
		b.WriteString("\n")
	}
	if d.comment != "" {
		fmt.Fprintf(&b, "COMMENT '%s'\n", strings.ReplaceAll(d.comment, "'", "''"))
	}
	if len(d.partitionKeys) > 0 {
		q := make([]string, len(d.partitionKeys))
		for i, k := range d.partitionKeys {
			q[i] = types.QuoteIdent(k)
		}
		fmt.Fprintf(&b, "PARTITIONED BY (%s)\n", strings.Join(q, ", "))
	}
	b.WriteString("WITH (\n")
	keys := make([]string, 0, len(d.options))
	for k := range d.options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		fmt.Fprintf(&b, "  '%s' = '%s'", k, strings.ReplaceAll(d.options[k], "'", "''"))
		if i < len(keys)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(")")
	return b.String()
}

// FormatDescriptor describes a format and its options (PyFlink's
// FormatDescriptor); options are given without the format prefix, which
// TableDescriptorBuilder.Format adds.
type FormatDescriptor struct {
	format  string
	options map[string]string
	err     error
}

// FormatDescriptorBuilder builds a FormatDescriptor (PyFlink's
// FormatDescriptor.Builder).
type FormatDescriptorBuilder struct{ d FormatDescriptor }

// ForFormat starts a descriptor for the format with that identifier, e.g.
// "csv" or "json" (PyFlink's FormatDescriptor.for_format).
func ForFormat(format string) *FormatDescriptorBuilder {
	b := &FormatDescriptorBuilder{d: FormatDescriptor{format: format, options: map[string]string{}}}
	if format == "" {
		b.d.err = errors.New("ForFormat: empty format identifier")
	}
	return b
}

// Option sets a format option without the format prefix:
// ForFormat("json").Option("ignore-parse-errors", true) (PyFlink's
// option).
func (b *FormatDescriptorBuilder) Option(key any, value any) *FormatDescriptorBuilder {
	k, err := optionKey(key)
	if err != nil {
		if b.d.err == nil {
			b.d.err = err
		}
		return b
	}
	b.d.options[k] = optionValue(value)
	return b
}

// Build returns the descriptor (PyFlink's build).
func (b *FormatDescriptorBuilder) Build() *FormatDescriptor {
	d := b.d
	d.options = copyOptions(b.d.options)
	return &d
}

// Format returns the format identifier (PyFlink's get_format).
func (d *FormatDescriptor) Format() string { return d.format }

// Options returns a copy of the options, unprefixed (PyFlink's
// get_options).
func (d *FormatDescriptor) Options() map[string]string { return copyOptions(d.options) }

// String renders "json[{ignore-parse-errors=true}]".
func (d *FormatDescriptor) String() string {
	keys := make([]string, 0, len(d.options))
	for k := range d.options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + d.options[k]
	}
	return d.format + "[{" + strings.Join(parts, ", ") + "}]"
}

// ---------------------------------------------------------------- schema resolution

// createTableAST builds the CREATE TABLE column definitions of an
// unresolved schema.
func createTableAST(s *Schema) (*sql.CreateTable, error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	ct := &sql.CreateTable{}
	for _, c := range s.Columns {
		d := &sql.ColumnDef{Name: ident(c.Name)}
		if c.Comment != "" {
			cm := c.Comment
			d.Comment = &cm
		}
		switch c.Kind {
		case types.ComputedColumn:
			d.Kind = sql.ColumnComputed
			x, err := sql.ParseExpr(c.Expr)
			if err != nil {
				return nil, fmt.Errorf("computed column %s: %w", c.Name, err)
			}
			d.Expr = x
		default:
			if c.Kind == types.MetadataColumn {
				d.Kind = sql.ColumnMetadata
				if c.MetadataKey != "" {
					k := c.MetadataKey
					d.MetadataKey = &k
				}
				d.Virtual = c.Virtual
			}
			var err error
			if c.Type != nil {
				d.Type, err = dataTypeNode(c.Type)
			} else {
				d.Type, err = sql.ParseDataType(c.TypeString)
			}
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", c.Name, err)
			}
		}
		ct.Columns = append(ct.Columns, d)
	}
	for _, w := range s.Watermarks {
		x, err := sql.ParseExpr(w.Expr)
		if err != nil {
			return nil, fmt.Errorf("watermark for %s: %w", w.Column, err)
		}
		ct.Watermarks = append(ct.Watermarks, &sql.Watermark{Column: colRef(w.Column), Expr: x})
	}
	if pk := s.PrimaryKey; pk != nil {
		c := &sql.TableConstraint{Name: ident(pk.Name), Kind: "PRIMARY KEY", NotEnforced: true}
		for _, col := range pk.Columns {
			c.Columns = append(c.Columns, ident(col))
		}
		ct.Constraints = append(ct.Constraints, c)
	}
	return ct, nil
}

// resolveSchema resolves an unresolved schema with the rules of CREATE
// TABLE (types, computed columns, watermark and primary key checks).
func (t *TableEnvironment) resolveSchema(s *Schema) (*types.Schema, error) {
	if s == nil {
		return nil, errors.New("a schema is required")
	}
	ct, err := createTableAST(s)
	if err != nil {
		return nil, err
	}
	return binder.ResolveSchema(t.bindContext(), ct, "", sql.Pos{})
}

// catalogTable converts a descriptor to a catalog table. derived, when
// not nil, supplies the physical columns of a schema that declares none
// (sinks and sources whose columns come from a Table or stream).
func (t *TableEnvironment) catalogTable(d *TableDescriptor, derived []plan.Column) (*catalog.Table, error) {
	if d == nil {
		return nil, errors.New("nil TableDescriptor")
	}
	if d.err != nil {
		return nil, d.err
	}
	s := d.schema
	if s == nil && derived == nil {
		return nil, fmt.Errorf("the table descriptor for connector '%s' needs a schema", d.options["connector"])
	}
	if derived != nil && (s == nil || s.PhysicalColumnCount() == 0) {
		b := NewSchemaBuilder()
		for _, c := range derived {
			b.Column(c.Name, c.Type.WithTimeAttr(types.NoTimeAttr))
		}
		if s != nil {
			b.FromSchema(s)
		}
		s = b.Build()
	}
	rs, err := t.resolveSchema(s)
	if err != nil {
		return nil, err
	}
	for _, k := range d.partitionKeys {
		if rs.Index(k) < 0 {
			return nil, fmt.Errorf("Partition column '%s' not defined in the table schema. Available columns: [%s]", k, strings.Join(rs.ColumnNames(), ", "))
		}
	}
	return &catalog.Table{TableSchema: rs, TableOptions: copyOptions(d.options), TableComment: d.comment, PartitionKeys: append([]string(nil), d.partitionKeys...)}, nil
}

// anonymousID names an inline table of a descriptor as Flink does:
// *anonymous_<connector>$<n>*.
func (t *TableEnvironment) anonymousID(d *TableDescriptor) catalog.ObjectIdentifier {
	name := t.anonName("anon")
	n := strings.TrimPrefix(name, "$anon")
	return catalog.ObjectIdentifier{Catalog: t.CurrentCatalog(), Database: t.CurrentDatabase(),
		Object: "*anonymous_" + d.options["connector"] + "$" + n + "*"}
}
