package binder

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// BindExpr binds the SQL text of an expression over named columns and
// returns it (computed columns, watermarks, Table API string expressions).
func BindExpr(ctx *plan.Context, text string, cols []plan.Column) (e expr.Expr, err error) {
	ast, err := sql.ParseExpr(text)
	if err != nil {
		return nil, err
	}
	b := newBinder(ctx, text, sql.Pos{})
	defer b.recoverErr(&err)
	return b.expr(ast, scopeOf(cols, "", nil)), nil
}

// ResolveSchema turns the column definitions, watermarks and constraints
// of a CREATE TABLE into a resolved schema, checking names, types,
// computed-column expressions and watermark rules as Flink does:
//   - column names are unique;
//   - computed columns may refer to physical and metadata columns only;
//   - the rowtime column of a watermark exists and is TIMESTAMP(p) or
//     TIMESTAMP_LTZ(p) with p <= 3, and the watermark expression has the
//     same type family;
//   - primary key columns exist and become NOT NULL.
func ResolveSchema(ctx *plan.Context, ct *sql.CreateTable, text string, base sql.Pos) (s *types.Schema, err error) {
	b := newBinder(ctx, text, base)
	defer b.recoverErr(&err)
	return b.resolveSchema(ct.Columns, ct.Watermarks, ct.Constraints), nil
}

func (b *binder) resolveSchema(defs []*sql.ColumnDef, wms []*sql.Watermark, cons []*sql.TableConstraint) *types.Schema {
	s := &types.Schema{}
	seen := map[string]bool{}
	var pk *types.UniqueConstraint
	// physical and metadata columns first: computed ones refer to them
	var base []plan.Column
	for _, d := range defs {
		if seen[d.Name.Name] {
			b.failAt(d.Name, "A column named '%s' already exists in the table. Duplicate columns exist in the compound schema.", d.Name.Name)
		}
		seen[d.Name.Name] = true
		if d.Kind != sql.ColumnComputed {
			base = append(base, plan.Column{Name: d.Name.Name, Type: b.dataType(d.Type)})
		}
	}
	for _, d := range defs {
		col := types.Column{Name: d.Name.Name}
		if d.Comment != nil {
			col.Comment = *d.Comment
		}
		switch d.Kind {
		case sql.ColumnPhysical:
			col.Type = b.dataType(d.Type)
		case sql.ColumnMetadata:
			col.Kind = types.MetadataColumn
			col.Type = b.dataType(d.Type)
			if d.MetadataKey != nil {
				col.MetadataKey = *d.MetadataKey
			}
			col.Virtual = d.Virtual
		case sql.ColumnComputed:
			col.Kind = types.ComputedColumn
			if containsAgg(b, d.Expr) {
				b.failAt(d.Expr, "Aggregate functions are not allowed in computed columns")
			}
			e := b.expr(d.Expr, scopeOf(base, "", nil))
			col.Type = e.Type()
			col.Expr = storedExprText(d.Expr)
		}
		if c := d.Constraint; c != nil {
			if c.Kind != "PRIMARY KEY" {
				b.failAt(c, "UNIQUE constraint is not supported yet")
			}
			if pk != nil {
				b.failAt(d, "Duplicate primary key definition")
			}
			name := "PK_" + d.Name.Name
			if c.Name != nil {
				name = c.Name.Name
			}
			if c.Enforced || !c.NotEnforced {
				b.failAt(c, "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode")
			}
			pk = &types.UniqueConstraint{Name: name, Columns: []string{d.Name.Name}}
		}
		s.Columns = append(s.Columns, col)
	}
	for _, c := range cons {
		if c.Kind != "PRIMARY KEY" {
			b.failAt(c, "UNIQUE constraint is not supported yet")
		}
		if pk != nil {
			b.failAt(c, "Duplicate primary key definition")
		}
		if c.Enforced || !c.NotEnforced {
			b.failAt(c, "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode")
		}
		cols := identNames(c.Columns)
		name := "PK_" + strings.Join(cols, "_")
		if c.Name != nil {
			name = c.Name.Name
		}
		pk = &types.UniqueConstraint{Name: name, Columns: cols}
	}
	if pk != nil {
		for _, pc := range pk.Columns {
			i := s.Index(pc)
			if i < 0 {
				b.fail(fmt.Errorf("Invalid primary key '%s'. Column '%s' does not exist.", pk.Name, pc))
			}
			if s.Columns[i].Kind == types.ComputedColumn {
				b.fail(fmt.Errorf("Invalid primary key '%s'. Column '%s' is not a physical column.", pk.Name, pc))
			}
			s.Columns[i].Type = s.Columns[i].Type.NotNull()
		}
		s.PrimaryKey = pk
	}
	if len(wms) > 1 {
		b.failAt(wms[1], "Multiple watermark definitions are not supported yet.")
	}
	for _, w := range wms {
		name := identNames(w.Column.Parts)
		if len(name) > 1 {
			b.failAt(w.Column, "Watermarks on nested fields are not supported yet")
		}
		idx := s.Index(name[0])
		if idx < 0 {
			b.failAt(w.Column, "The rowtime attribute field '%s' is not defined in the table schema, at %s\nAvailable fields: [%s]", name[0], w.Column.Pos(), quoteJoin(s.ColumnNames()))
		}
		rt := s.Columns[idx].Type
		if !rt.IsTimestamp() || rt.Precision > 3 {
			b.failAt(w.Column, "Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is %s", rt)
		}
		all := make([]plan.Column, len(s.Columns))
		for i, c := range s.Columns {
			all[i] = plan.Column{Name: c.Name, Type: c.Type}
		}
		e := b.expr(w.Expr, scopeOf(all, "", nil))
		et := e.Type()
		if !et.IsTimestamp() || et.Precision > 3 {
			b.failAt(w.Expr, "Invalid data type of expression for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the watermark expression type is %s", et)
		}
		s.Watermarks = append(s.Watermarks, types.WatermarkSpec{RowtimeAttribute: name[0], Expr: w.Expr.String()})
	}
	return s
}

func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// ViewColumns binds a view's query and returns its output columns.
func ViewColumns(ctx *plan.Context, q *sql.Query, text string, base sql.Pos) ([]plan.Column, plan.Node, error) {
	n, err := BindQuery(ctx, q, text, base)
	if err != nil {
		return nil, nil, err
	}
	return n.Columns(), n, nil
}

// storedExprText is the text a computed column keeps (SHOW CREATE TABLE,
// DESCRIBE's extras): as Flink's validator expands a CREATE TABLE's
// expressions, the calls of built-in functions written without backquotes
// are named in upper case (coalesce(b, 'x') becomes COALESCE(`b`, 'x')).
// Names written in backquotes, and qualified or user-defined functions,
// stay as written.
func storedExprText(e sql.Expr) string {
	var restore []func()
	walkSQL(e, func(x sql.Expr) bool {
		f, ok := x.(*sql.FuncCall)
		if !ok || f.Name == nil || len(f.Name.Parts) != 1 {
			return true
		}
		id := f.Name.Parts[0]
		if id.Quoted {
			return true
		}
		if _, builtin := expr.Builtins.Lookup(id.Name); builtin {
			old := id.Name
			id.Name = strings.ToUpper(old)
			restore = append(restore, func() { id.Name = old })
		}
		return true
	})
	text := e.String()
	for _, r := range restore {
		r()
	}
	return text
}

// QuoteUnreservedCalls marks the names of the calls in e that are not
// reserved keywords as written in backquotes, so that storedExprText keeps
// them as written: Flink's ALTER TABLE ADD/MODIFY stores an added computed
// column's expression without validating it, and Calcite unparses a call
// of a function that its parser does not know by keyword as a quoted
// identifier (concat_ws(b, c) becomes `concat_ws`(`b`, `c`)), while
// keyword functions print in upper case (UPPER(`b`), COALESCE(`b`, 'x')).
func QuoteUnreservedCalls(e sql.Expr) {
	walkSQL(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.FuncCall); ok && f.Name != nil && len(f.Name.Parts) == 1 &&
			f.Syntax != sql.SyntaxNiladic && !sql.IsReserved(f.Name.Parts[0].Name) {
			f.Name.Parts[0].Quoted = true
		}
		return true
	})
}
