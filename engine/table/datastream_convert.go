package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// streamTable builds the inline table of a stream with an optional
// declared schema.
func (t *TableEnvironment) streamTable(ds *DataStream, schema *Schema, mode types.ChangelogMode, checkInsert bool) (*Table, error) {
	if ds == nil {
		return nil, errors.New("nil DataStream")
	}
	if ds.records == nil && ds.replay == nil {
		return nil, errors.New("this DataStream is an output stream; it cannot be read again")
	}
	fields := ds.fields()
	if len(fields) == 0 {
		return nil, errors.New("the DataStream has no row type")
	}
	for _, f := range fields {
		if err := checkDataType(f.Type); err != nil {
			return nil, fmt.Errorf("DataStream field %s: %w", f.Name, err)
		}
	}
	b := NewSchemaBuilder()
	if schema == nil || schema.PhysicalColumnCount() == 0 {
		for _, f := range fields {
			b.Column(f.Name, f.Type)
		}
	}
	if schema != nil {
		b.FromSchema(withSourceWatermark(schema, ds))
	}
	s := b.Build()
	rs, err := t.resolveSchema(s)
	if err != nil {
		return nil, err
	}
	src := &streamSource{ds: ds, mode: mode, checkInsert: checkInsert}
	byName := map[string]int{}
	for i, f := range fields {
		byName[f.Name] = i
	}
	for _, c := range rs.Physical() {
		i, ok := byName[c.Name]
		if !ok {
			return nil, fmt.Errorf("Unable to find a field named '%s' in the physical data type derived from the given type information for schema declaration. Make sure that the type information is not a generic raw type. Currently available fields are: [%s]", c.Name, fieldNames(fields))
		}
		src.from = append(src.from, i)
	}
	for _, c := range rs.Columns {
		if c.Kind == types.MetadataColumn {
			key := c.MetadataKey
			if key == "" {
				key = c.Name
			}
			if key != "rowtime" {
				return nil, fmt.Errorf("Invalid metadata key '%s' in column '%s': a DataStream offers the metadata key 'rowtime' only", key, c.Name)
			}
		}
	}
	if mode.Contains(types.UpdateAfter) && !mode.Contains(types.UpdateBefore) {
		if rs.PrimaryKey == nil {
			return nil, errors.New("An upsert changelog mode requires a primary key in the schema")
		}
		phys := rs.Physical()
		for _, k := range rs.PrimaryKey.Columns {
			for i, c := range phys {
				if c.Name == k {
					src.pk = append(src.pk, i)
				}
			}
		}
	}
	id := registerStream(src)
	tbl := &catalog.Table{TableSchema: rs, TableOptions: map[string]string{"connector": dataStreamIdentifier, "datastream.id": id}}
	oid := catalog.ObjectIdentifier{Catalog: t.CurrentCatalog(), Database: t.CurrentDatabase(), Object: "*anonymous_datastream_source$" + id + "*"}
	n, err := binder.ScanTable(t.bindContext(), oid, tbl)
	if err != nil {
		return nil, err
	}
	return &Table{env: t, node: n}, nil
}

func fieldNames(fs []types.Field) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// withSourceWatermark replaces a SOURCE_WATERMARK() watermark by the
// stream's watermark strategy: the rowtime minus the out-of-orderness
// bound (the rowtime itself without a strategy).
func withSourceWatermark(s *Schema, ds *DataStream) *Schema {
	out := *s
	out.Watermarks = nil
	for _, w := range s.Watermarks {
		x, err := sql.ParseExpr(w.Expr)
		if err == nil {
			if f, ok := x.(*sql.FuncCall); ok && len(f.Name.Parts) == 1 && strings.EqualFold(f.Name.Parts[0].Name, "SOURCE_WATERMARK") && len(f.Args) == 0 {
				expr := sql.QuoteIdent(w.Column)
				if ds.watermark != nil && ds.watermark.MaxOutOfOrderness() > 0 {
					expr += " - " + sql.Format(durationLit(ds.watermark.MaxOutOfOrderness()))
				}
				w.Expr = expr
			}
		}
		out.Watermarks = append(out.Watermarks, w)
	}
	return &out
}

// FromDataStream reads an insert-only DataStream as a table (PyFlink's
// from_data_stream). Without a schema the stream's fields are the
// columns. A schema may declare all physical columns (mapped by name,
// possibly reordered and with other types, to which values are
// converted), or only computed columns, metadata columns and a watermark,
// the physical columns then being derived at the front. The record
// timestamp is the metadata column with key "rowtime" (TIMESTAMP_LTZ(3)),
// and the watermark SOURCE_WATERMARK() follows the stream's watermark
// strategy. Rows of a kind other than INSERT fail the job.
func (t *TableEnvironment) FromDataStream(ds *DataStream, schema ...*Schema) (*Table, error) {
	var s *Schema
	if len(schema) > 0 {
		s = schema[0]
	}
	return t.streamTable(ds, s, types.InsertOnlyMode, true)
}

// FromChangelogStream reads a DataStream of rows of every RowKind as a
// table, evaluating each row's kind (PyFlink's from_changelog_stream). The
// default mode accepts all kinds; an upsert mode (ChangelogModeUpsert)
// needs a primary key in the schema, and its updates are turned into
// retractions of the previous row per key. A row whose kind the mode does
// not contain fails the job.
func (t *TableEnvironment) FromChangelogStream(ds *DataStream, schema *Schema, mode ...types.ChangelogMode) (*Table, error) {
	m := types.RetractMode
	if len(mode) > 0 {
		m = mode[0]
	}
	return t.streamTable(ds, schema, m, false)
}

// FromDataStreamWithFields reads an insert-only DataStream with a field
// mapping of expressions (PyFlink's from_data_stream with fields): by
// name, when the expressions reference the stream's fields (they may
// reorder, project and rename them with As), or by position (renaming
// them in order). Col(name).Rowtime() declares the record timestamp as the
// rowtime attribute (replacing the field of that name, or appended), with
// the stream's watermarks; Col(name).Proctime() appends a processing-time
// attribute.
func (t *TableEnvironment) FromDataStreamWithFields(ds *DataStream, fields ...Expression) (*Table, error) {
	if ds == nil {
		return nil, errors.New("nil DataStream")
	}
	sf := ds.fields()
	byName := map[string]int{}
	for i, f := range sf {
		byName[f.Name] = i
	}
	byPosition := true
	for _, f := range fields {
		if err := f.Err(); err != nil {
			return nil, err
		}
		base := f
		if f.x.kind == kindTimeAttr {
			base = f.x.args[0]
		}
		if id, ok := base.x.node.(*sql.Identifier); ok && len(id.Parts) == 1 {
			if _, ok := byName[id.Parts[0].Name]; ok && f.x.kind != kindTimeAttr {
				byPosition = false
			}
		}
	}
	b := NewSchemaBuilder()
	var rowtime, proctime string
	var proj []Expression
	pos := 0
	for _, f := range fields {
		base, prop := f, ""
		if f.x.kind == kindTimeAttr {
			base, prop = f.x.args[0], f.x.prop
		}
		id, ok := base.x.node.(*sql.Identifier)
		if !ok || len(id.Parts) != 1 {
			return nil, fmt.Errorf("field mappings accept column references, not %s", f)
		}
		name := id.Parts[0].Name
		out := name
		if len(f.x.names) == 1 {
			out = f.x.names[0]
		} else if len(base.x.names) == 1 {
			out = base.x.names[0]
		}
		switch prop {
		case "rowtime":
			rowtime = out
			if i, ok := byName[name]; ok && !byPosition {
				_ = i
			}
			continue
		case "proctime":
			proctime = out
			continue
		}
		src := name
		if byPosition {
			if pos >= len(sf) {
				return nil, fmt.Errorf("the field mapping has more fields than the stream (%d)", len(sf))
			}
			src = sf[pos].Name
			out = name
			if len(f.x.names) == 1 {
				out = f.x.names[0]
			}
			pos++
		} else if _, ok := byName[src]; !ok {
			return nil, fmt.Errorf("Cannot resolve field [%s], input field list:[%s]", src, fieldNames(sf))
		}
		proj = append(proj, Col(src).As(out))
	}
	for _, f := range sf {
		b.Column(f.Name, f.Type)
	}
	if rowtime != "" {
		b.ColumnByMetadata("$rowtime", types.TimestampLTZType(3), "rowtime", true)
		b.Watermark("$rowtime", "SOURCE_WATERMARK()")
	}
	tbl, err := t.streamTable(ds, b.Build(), types.InsertOnlyMode, true)
	if err != nil {
		return nil, err
	}
	if rowtime != "" {
		proj = append(proj, Col("$rowtime").As(rowtime))
	}
	if proctime != "" {
		proj = append(proj, Call("PROCTIME").As(proctime))
	}
	out := tbl.Select(proj...)
	return out, out.err
}

// CreateTemporaryViewFromDataStream registers a DataStream as a temporary
// view (PyFlink's create_temporary_view with a DataStream): with a
// *Schema as FromDataStream does, with Expressions as
// FromDataStreamWithFields does, or with nothing.
func (t *TableEnvironment) CreateTemporaryViewFromDataStream(path string, ds *DataStream, fieldsOrSchema ...any) error {
	var tbl *Table
	var err error
	switch {
	case len(fieldsOrSchema) == 0:
		tbl, err = t.FromDataStream(ds)
	default:
		if s, ok := fieldsOrSchema[0].(*Schema); ok && len(fieldsOrSchema) == 1 {
			tbl, err = t.FromDataStream(ds, s)
			break
		}
		var fs []Expression
		for _, f := range fieldsOrSchema {
			switch x := f.(type) {
			case Expression:
				fs = append(fs, x)
			case string:
				fs = append(fs, Exprs(x)...)
			default:
				return fmt.Errorf("CreateTemporaryViewFromDataStream takes a *Schema or Expressions, got %T", f)
			}
		}
		tbl, err = t.FromDataStreamWithFields(ds, fs...)
	}
	if err != nil {
		return err
	}
	return t.CreateTemporaryView(path, tbl)
}
