package table

import (
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// DataTypeOf resolves a type written in SQL (as sql.ParseDataType reads
// it, "DECIMAL(10, 2)", "ROW<a INT, b STRING> NOT NULL") to the logical
// type DDL gives a column of that type: Flink's defaults for omitted
// parameters (DECIMAL is DECIMAL(10, 0), VARCHAR is STRING, TIMESTAMP is
// TIMESTAMP(6), ...) and NOT NULL as written. It fails for unknown types
// and parameters out of range, with Flink's messages.
func DataTypeOf(t *sql.DataType) (*types.DataType, error) { return binder.ConvertType(t) }

// ReferencedColumns lists the columns an expression of a table's schema (a
// computed column or a watermark expression, in SQL) refers to, in order
// of first use: the first part of every identifier (a nested field a.b
// refers to column a). It fails when the text is not an expression.
func ReferencedColumns(expr string) ([]string, error) { return binder.ReferencedColumns(expr) }
