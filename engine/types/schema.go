package types

import (
	"fmt"
	"strings"
)

// ColumnKind distinguishes the three kinds of table columns in Flink.
type ColumnKind uint8

// Column kinds.
const (
	PhysicalColumn ColumnKind = iota // stored by the connector
	ComputedColumn                   // c AS expr
	MetadataColumn                   // c TYPE METADATA [FROM 'key'] [VIRTUAL]
)

// Column is one column of a resolved table schema (Flink's Column).
type Column struct {
	Name string
	Type *DataType
	Kind ColumnKind
	// Expr is the SQL text of a computed column's expression.
	Expr string
	// MetadataKey is the connector metadata key ("" = the column name).
	MetadataKey string
	// Virtual metadata columns are read-only (not written by INSERT).
	Virtual bool
	Comment string
}

// IsPersisted reports whether INSERT writes the column (physical and
// non-virtual metadata columns).
func (c Column) IsPersisted() bool {
	return c.Kind == PhysicalColumn || (c.Kind == MetadataColumn && !c.Virtual)
}

// WatermarkSpec is `WATERMARK FOR rowtime AS expr` (Flink's WatermarkSpec).
type WatermarkSpec struct {
	RowtimeAttribute string
	Expr             string // SQL text of the watermark expression
}

// UniqueConstraint is a PRIMARY KEY (always NOT ENFORCED in Flink).
type UniqueConstraint struct {
	Name    string
	Columns []string
}

// Schema is a resolved table schema: columns with types, watermarks and
// an optional primary key (Flink's ResolvedSchema).
type Schema struct {
	Columns    []Column
	Watermarks []WatermarkSpec
	PrimaryKey *UniqueConstraint
}

// NewPhysicalSchema builds a schema of physical columns.
func NewPhysicalSchema(names []string, ts []*DataType) *Schema {
	s := &Schema{}
	for i := range names {
		s.Columns = append(s.Columns, Column{Name: names[i], Type: ts[i]})
	}
	return s
}

// ColumnNames lists all column names.
func (s *Schema) ColumnNames() []string {
	out := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Name
	}
	return out
}

// ColumnTypes lists all column types.
func (s *Schema) ColumnTypes() []*DataType {
	out := make([]*DataType, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Type
	}
	return out
}

// Index returns the index of the named column, or -1.
func (s *Schema) Index(name string) int {
	for i, c := range s.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Physical returns the physical columns in order.
func (s *Schema) Physical() []Column {
	var out []Column
	for _, c := range s.Columns {
		if c.Kind == PhysicalColumn {
			out = append(out, c)
		}
	}
	return out
}

// String renders the schema as Flink's ResolvedSchema.toString does:
//
//	(
//	  `a` INT NOT NULL,
//	  `ts` TIMESTAMP(3) *ROWTIME*,
//	  WATERMARK FOR `ts`: TIMESTAMP(3) AS `ts` - INTERVAL '5' SECOND,
//	  CONSTRAINT `PK_a` PRIMARY KEY (`a`) NOT ENFORCED
//	)
func (s *Schema) String() string {
	var parts []string
	for _, c := range s.Columns {
		p := QuoteIdent(c.Name) + " " + c.Type.String()
		switch c.Kind {
		case ComputedColumn:
			p += " AS " + c.Expr
		case MetadataColumn:
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
		t := ""
		if i := s.Index(w.RowtimeAttribute); i >= 0 {
			t = ": " + s.Columns[i].Type.SQLString()
		}
		parts = append(parts, fmt.Sprintf("WATERMARK FOR %s%s AS %s", QuoteIdent(w.RowtimeAttribute), t, w.Expr))
	}
	if pk := s.PrimaryKey; pk != nil {
		cols := make([]string, len(pk.Columns))
		for i, c := range pk.Columns {
			cols[i] = QuoteIdent(c)
		}
		parts = append(parts, fmt.Sprintf("CONSTRAINT %s PRIMARY KEY (%s) NOT ENFORCED", QuoteIdent(pk.Name), strings.Join(cols, ", ")))
	}
	return "(\n  " + strings.Join(parts, ",\n  ") + "\n)"
}
