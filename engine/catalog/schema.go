package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// Schema is an unresolved table schema (PyFlink's Schema): the "(schema)"
// part of CREATE TABLE (schema) WITH (options), as declared. It holds
// physical, computed and metadata columns, watermarks and a primary key,
// with types given as data types or SQL type strings and expressions as
// SQL text. It is resolved (names checked, types derived) when it is used
// to create or read a table. Build it with NewSchemaBuilder.
type Schema struct {
	Columns    []UnresolvedColumn
	Watermarks []UnresolvedWatermark
	PrimaryKey *UnresolvedPrimaryKey
	// err is the first error of the builder.
	err error
}

// UnresolvedColumn is one declared column of a Schema.
type UnresolvedColumn struct {
	Name string
	Kind types.ColumnKind
	// Type is the data type of a physical or metadata column (nil when
	// TypeString is used).
	Type *types.DataType
	// TypeString is a SQL type such as "DECIMAL(10, 2)".
	TypeString string
	// Expr is the SQL expression of a computed column.
	Expr string
	// MetadataKey is the metadata key ("" = the column name).
	MetadataKey string
	// Virtual metadata columns are read-only.
	Virtual bool
	Comment string
}

// UnresolvedWatermark is WATERMARK FOR column AS expression.
type UnresolvedWatermark struct {
	Column string
	Expr   string
}

// UnresolvedPrimaryKey is PRIMARY KEY (columns) NOT ENFORCED.
type UnresolvedPrimaryKey struct {
	Name    string
	Columns []string
}

// Err returns the first error the schema's builder met (an unsupported
// type or expression value), or nil.
func (s *Schema) Err() error { return s.err }

// String renders the schema as Flink's Schema.toString does:
// "(\n  `a` INT,\n  `c` AS a + 1\n)".
func (s *Schema) String() string {
	var parts []string
	for _, c := range s.Columns {
		p := types.QuoteIdent(c.Name) + " "
		switch c.Kind {
		case types.ComputedColumn:
			p += "AS " + c.Expr
		default:
			p += c.typeText()
		}
		if c.Kind == types.MetadataColumn {
			p += " METADATA"
			if c.MetadataKey != "" && c.MetadataKey != c.Name {
				p += fmt.Sprintf(" FROM '%s'", c.MetadataKey)
			}
			if c.Virtual {
				p += " VIRTUAL"
			}
		}
		if c.Comment != "" {
			p += fmt.Sprintf(" COMMENT '%s'", strings.ReplaceAll(c.Comment, "'", "''"))
		}
		parts = append(parts, p)
	}
	for _, w := range s.Watermarks {
		parts = append(parts, fmt.Sprintf("WATERMARK FOR %s AS %s", types.QuoteIdent(w.Column), w.Expr))
	}
	if pk := s.PrimaryKey; pk != nil {
		q := make([]string, len(pk.Columns))
		for i, c := range pk.Columns {
			q[i] = types.QuoteIdent(c)
		}
		parts = append(parts, fmt.Sprintf("CONSTRAINT %s PRIMARY KEY (%s) NOT ENFORCED", types.QuoteIdent(pk.Name), strings.Join(q, ", ")))
	}
	if len(parts) == 0 {
		return "()"
	}
	return "(\n  " + strings.Join(parts, ",\n  ") + "\n)"
}

func (c UnresolvedColumn) typeText() string {
	if c.Type != nil {
		return c.Type.String()
	}
	return c.TypeString
}

// PhysicalColumnCount is the number of physical columns declared.
func (s *Schema) PhysicalColumnCount() int {
	n := 0
	for _, c := range s.Columns {
		if c.Kind == types.PhysicalColumn {
			n++
		}
	}
	return n
}

// SchemaOf returns the unresolved form of a resolved schema (every column
// with its resolved type).
func SchemaOf(r *types.Schema) *Schema {
	s := &Schema{}
	if r == nil {
		return s
	}
	for _, c := range r.Columns {
		uc := UnresolvedColumn{Name: c.Name, Kind: c.Kind, Comment: c.Comment, MetadataKey: c.MetadataKey, Virtual: c.Virtual}
		if c.Kind == types.ComputedColumn {
			uc.Expr = c.Expr
		} else {
			uc.Type = c.Type
		}
		s.Columns = append(s.Columns, uc)
	}
	for _, w := range r.Watermarks {
		s.Watermarks = append(s.Watermarks, UnresolvedWatermark{Column: w.RowtimeAttribute, Expr: w.Expr})
	}
	if r.PrimaryKey != nil {
		s.PrimaryKey = &UnresolvedPrimaryKey{Name: r.PrimaryKey.Name, Columns: append([]string(nil), r.PrimaryKey.Columns...)}
	}
	return s
}

// SQLExpression is implemented by expression values (the Table API's
// Expression) that a Schema accepts in place of SQL text.
type SQLExpression interface {
	SQLExpression() (string, error)
}

// SchemaBuilder builds a Schema (PyFlink's Schema.Builder). Its methods
// chain; the first error (an unsupported type or expression value, a
// duplicate primary key) is reported by Build's schema Err and when the
// schema is used.
type SchemaBuilder struct {
	s Schema
}

// NewSchemaBuilder starts an empty schema (PyFlink's Schema.new_builder).
func NewSchemaBuilder() *SchemaBuilder { return &SchemaBuilder{} }

func (b *SchemaBuilder) fail(err error) *SchemaBuilder {
	if b.s.err == nil {
		b.s.err = err
	}
	return b
}

// typeOf accepts a *types.DataType or a SQL type string.
func typeOf(dataType any) (*types.DataType, string, error) {
	switch t := dataType.(type) {
	case *types.DataType:
		if t == nil {
			return nil, "", errors.New("nil data type")
		}
		return t, "", nil
	case string:
		if strings.TrimSpace(t) == "" {
			return nil, "", errors.New("empty data type")
		}
		return nil, t, nil
	}
	return nil, "", fmt.Errorf("a data type must be a *types.DataType or a SQL type string, got %T", dataType)
}

// exprText accepts SQL text or an SQLExpression.
func exprText(e any) (string, error) {
	switch x := e.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return "", errors.New("empty expression")
		}
		return x, nil
	case SQLExpression:
		return x.SQLExpression()
	}
	return "", fmt.Errorf("an expression must be SQL text or an Expression, got %T", e)
}

// Column declares a physical column, read and written by the connector in
// declaration order (PyFlink's column). dataType is a *types.DataType or
// a SQL type string such as "DECIMAL(10, 2)".
func (b *SchemaBuilder) Column(name string, dataType any) *SchemaBuilder {
	t, s, err := typeOf(dataType)
	if err != nil {
		return b.fail(fmt.Errorf("column %s: %w", name, err))
	}
	b.s.Columns = append(b.s.Columns, UnresolvedColumn{Name: name, Kind: types.PhysicalColumn, Type: t, TypeString: s})
	return b
}

// ColumnByExpression declares a computed (virtual) column: SQL text such
// as "f1 + 42" or an Expression; its type is derived (PyFlink's
// column_by_expression).
func (b *SchemaBuilder) ColumnByExpression(name string, expr any) *SchemaBuilder {
	text, err := exprText(expr)
	if err != nil {
		return b.fail(fmt.Errorf("column %s: %w", name, err))
	}
	b.s.Columns = append(b.s.Columns, UnresolvedColumn{Name: name, Kind: types.ComputedColumn, Expr: text})
	return b
}

// ColumnByMetadata declares a metadata column (PyFlink's
// column_by_metadata). metadataKey defaults to the column name; a virtual
// column is read-only (excluded when writing). The value is cast to
// dataType when the connector's metadata type differs.
func (b *SchemaBuilder) ColumnByMetadata(name string, dataType any, metadataKey string, isVirtual bool) *SchemaBuilder {
	t, s, err := typeOf(dataType)
	if err != nil {
		return b.fail(fmt.Errorf("column %s: %w", name, err))
	}
	b.s.Columns = append(b.s.Columns, UnresolvedColumn{Name: name, Kind: types.MetadataColumn, Type: t, TypeString: s,
		MetadataKey: metadataKey, Virtual: isVirtual})
	return b
}

// WithComment sets the comment of the last declared column (Flink's
// Schema.Builder.withComment).
func (b *SchemaBuilder) WithComment(comment string) *SchemaBuilder {
	if len(b.s.Columns) == 0 {
		return b.fail(errors.New("WithComment needs a column before it"))
	}
	b.s.Columns[len(b.s.Columns)-1].Comment = comment
	return b
}

// FromFields adds physical columns from names and types (PyFlink's
// from_fields).
func (b *SchemaBuilder) FromFields(names []string, dataTypes []any) *SchemaBuilder {
	if len(names) != len(dataTypes) {
		return b.fail(fmt.Errorf("FromFields: %d names and %d types", len(names), len(dataTypes)))
	}
	for i, n := range names {
		b.Column(n, dataTypes[i])
	}
	return b
}

// FromRowDataType adds a physical column per field of a ROW type
// (PyFlink's from_row_data_type).
func (b *SchemaBuilder) FromRowDataType(rowType *types.DataType) *SchemaBuilder {
	if rowType == nil || rowType.Root != types.RowRoot {
		return b.fail(fmt.Errorf("FromRowDataType needs a ROW type, got %v", rowType))
	}
	for _, f := range rowType.Fields {
		b.Column(f.Name, f.Type)
	}
	return b
}

// FromSchema adopts all members of another schema (PyFlink's
// from_schema).
func (b *SchemaBuilder) FromSchema(s *Schema) *SchemaBuilder {
	if s == nil {
		return b.fail(errors.New("FromSchema: nil schema"))
	}
	if s.err != nil {
		return b.fail(s.err)
	}
	b.s.Columns = append(b.s.Columns, s.Columns...)
	b.s.Watermarks = append(b.s.Watermarks, s.Watermarks...)
	if s.PrimaryKey != nil {
		pk := *s.PrimaryKey
		b.primaryKey(pk.Name, pk.Columns)
	}
	return b
}

// PrimaryKey declares the primary key, named PK_<col1>_<col2>...; its
// columns become NOT NULL. Flink does not enforce it: the data owner
// guarantees uniqueness (PyFlink's primary_key).
func (b *SchemaBuilder) PrimaryKey(columns ...string) *SchemaBuilder {
	return b.primaryKey("PK_"+strings.Join(columns, "_"), columns)
}

// PrimaryKeyNamed declares the primary key with a constraint name
// (PyFlink's primary_key_named).
func (b *SchemaBuilder) PrimaryKeyNamed(constraintName string, columns ...string) *SchemaBuilder {
	return b.primaryKey(constraintName, columns)
}

func (b *SchemaBuilder) primaryKey(name string, columns []string) *SchemaBuilder {
	if b.s.PrimaryKey != nil {
		return b.fail(errors.New("multiple primary keys are not supported"))
	}
	if len(columns) == 0 {
		return b.fail(errors.New("a primary key needs at least one column"))
	}
	b.s.PrimaryKey = &UnresolvedPrimaryKey{Name: name, Columns: append([]string(nil), columns...)}
	return b
}

// Watermark declares columnName as the rowtime attribute with a watermark
// strategy: SQL text such as "ts - INTERVAL '5' SECOND" or an Expression
// (PyFlink's watermark). The column must be TIMESTAMP(3) or
// TIMESTAMP_LTZ(3) (it may be computed).
func (b *SchemaBuilder) Watermark(columnName string, watermarkExpr any) *SchemaBuilder {
	text, err := exprText(watermarkExpr)
	if err != nil {
		return b.fail(fmt.Errorf("watermark for %s: %w", columnName, err))
	}
	b.s.Watermarks = append(b.s.Watermarks, UnresolvedWatermark{Column: columnName, Expr: text})
	return b
}

// Build returns the schema (PyFlink's build).
func (b *SchemaBuilder) Build() *Schema {
	s := b.s
	s.Columns = append([]UnresolvedColumn(nil), b.s.Columns...)
	s.Watermarks = append([]UnresolvedWatermark(nil), b.s.Watermarks...)
	return &s
}
