package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

func props(ps []*sql.Property) map[string]string {
	m := map[string]string{}
	for _, p := range ps {
		m[p.Key] = p.Value
	}
	return m
}

func (x *execution) qualify(n *sql.ObjectName) (catalog.ObjectIdentifier, error) {
	return x.env.catalogs.Qualify(identNames(n.Parts))
}

func (x *execution) createTable(ct *sql.CreateTable) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(ct.Name)
	if err != nil {
		return nil, err
	}
	var schema *types.Schema
	options := props(ct.Options)
	var partKeys []string
	for _, p := range ct.PartitionBy {
		partKeys = append(partKeys, p.Name)
	}
	comment := ""
	if ct.Comment != nil {
		comment = *ct.Comment
	}
	var asQuery plan.Node
	switch {
	case ct.AsQuery != nil:
		if len(ct.Columns) > 0 {
			return nil, errorf("CREATE TABLE AS SELECT with an explicit column list is not supported yet")
		}
		n, err := binder.BindQuery(t.bindContext(), ct.AsQuery, x.text, x.base)
		if err != nil {
			return nil, err
		}
		asQuery = n
		var names []string
		var ts []*types.DataType
		for _, c := range n.Columns() {
			names = append(names, c.Name)
			ts = append(ts, c.Type.WithTimeAttr(types.NoTimeAttr))
		}
		schema = types.NewPhysicalSchema(names, ts)
	default:
		schema, err = binder.ResolveSchema(t.bindContext(), ct, x.text, x.base)
		if err != nil {
			return nil, err
		}
	}
	if ct.Like != nil {
		schema, options, partKeys, err = x.applyLike(ct.Like, schema, options, partKeys)
		if err != nil {
			return nil, err
		}
	}
	for _, k := range partKeys {
		if schema.Index(k) < 0 {
			return nil, errorf("Partition column '%s' not defined in the table schema. Available columns: [%s]", k, strings.Join(schema.ColumnNames(), ", "))
		}
	}
	tbl := &catalog.Table{TableSchema: schema, TableOptions: options, TableComment: comment, PartitionKeys: partKeys}
	if err := t.registerTable(id, tbl, ct.Temporary, ct.IfNotExists); err != nil {
		return nil, err
	}
	if asQuery != nil {
		ins := &plan.Sink{Input: asQuery, ID: id, Table: tbl}
		return t.runInserts(x.ctx, []plan.Node{ins}, x.text)
	}
	return okResult(), nil
}

func (t *TableEnvironment) registerTable(id catalog.ObjectIdentifier, tbl catalog.BaseTable, temporary, ignoreIfExists bool) error {
	if temporary {
		return t.catalogs.CreateTemporaryTable(id, tbl, ignoreIfExists)
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return err
	}
	// A temporary table or view of the same name does not stop a permanent
	// one (Flink 2.3 creates it; the temporary object shadows it).
	return c.CreateTable(id.Path(), tbl, ignoreIfExists)
}

// applyLike merges CREATE TABLE ... LIKE source (Flink's default is
// INCLUDING ALL OVERWRITING OPTIONS EXCLUDING PARTITIONS... simplified:
// columns, watermarks, constraints and options are inherited unless
// EXCLUDING; explicit definitions of the new table win).
func (x *execution) applyLike(like *sql.TableLike, s *types.Schema, opts map[string]string, parts []string) (*types.Schema, map[string]string, []string, error) {
	id, err := x.qualify(like.Table)
	if err != nil {
		return nil, nil, nil, err
	}
	rt, ok, err := x.env.catalogs.GetTable(id)
	if err != nil {
		return nil, nil, nil, err
	}
	if !ok {
		return nil, nil, nil, errorf("Source table '%s' of the LIKE clause not found in the catalog", id.Summary())
	}
	src, ok := rt.Table.(*catalog.Table)
	if !ok {
		return nil, nil, nil, errorf("Source table '%s' of the LIKE clause is a view", id.Summary())
	}
	include := map[string]bool{"CONSTRAINTS": true, "GENERATED": true, "METADATA": true, "OPTIONS": true, "PARTITIONS": true, "WATERMARKS": true}
	for _, o := range like.Options {
		if o.Feature == "ALL" {
			for k := range include {
				include[k] = o.Strategy != "EXCLUDING"
			}
			continue
		}
		include[o.Feature] = o.Strategy != "EXCLUDING"
	}
	out := &types.Schema{}
	for _, c := range src.TableSchema.Columns {
		if c.Kind == types.ComputedColumn && !include["GENERATED"] || c.Kind == types.MetadataColumn && !include["METADATA"] {
			continue
		}
		if s.Index(c.Name) >= 0 {
			continue
		}
		out.Columns = append(out.Columns, c)
	}
	out.Columns = append(out.Columns, s.Columns...)
	out.Watermarks = s.Watermarks
	if len(out.Watermarks) == 0 && include["WATERMARKS"] {
		out.Watermarks = src.TableSchema.Watermarks
	}
	out.PrimaryKey = s.PrimaryKey
	if out.PrimaryKey == nil && include["CONSTRAINTS"] {
		out.PrimaryKey = src.TableSchema.PrimaryKey
	}
	merged := map[string]string{}
	if include["OPTIONS"] {
		for k, v := range src.TableOptions {
			merged[k] = v
		}
	}
	for k, v := range opts {
		merged[k] = v
	}
	if len(parts) == 0 && include["PARTITIONS"] {
		parts = src.PartitionKeys
	}
	return out, merged, parts, nil
}

func (x *execution) createView(cv *sql.CreateView) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(cv.Name)
	if err != nil {
		return nil, err
	}
	cols, _, err := binder.ViewColumns(t.bindContext(), cv.Query, x.text, x.base)
	if err != nil {
		return nil, err
	}
	names := plan.Names(cols)
	if len(cv.Columns) > 0 {
		if len(cv.Columns) != len(cols) {
			return nil, &ValidationError{Line: cv.Pos().Line, Column: cv.Pos().Column, Msg: fmt.Sprintf("VIEW definition and input fields not match:\n\tDef fields: %v.\n\tInput fields: %v.", identNames(cv.Columns), names)}
		}
		names = identNames(cv.Columns)
	}
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	comment := ""
	if cv.Comment != nil {
		comment = *cv.Comment
	}
	query := x.source(cv.Query)
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(names, ts), Query: query, Expanded: t.expandedViewQuery(query, cv.Query), ViewComment: comment,
		Catalog: t.catalogs.CurrentCatalog(), Database: t.catalogs.CurrentDatabase()}
	if err := t.registerTable(id, v, cv.Temporary, cv.IfNotExists); err != nil {
		return nil, err
	}
	return okResult(), nil
}

// expandedViewQuery is the expanded query a view keeps (SHOW CREATE VIEW):
// binder.ExpandViewQuery's over a fresh parse of the view's text, or the
// query as written (one line) where that expansion does not reach.
func (t *TableEnvironment) expandedViewQuery(text string, q *sql.Query) string {
	if st, err := sql.Parse(text); err == nil {
		if fresh, ok := st.(*sql.Query); ok {
			if s, ok := binder.ExpandViewQuery(t.bindContext(), fresh); ok {
				return s
			}
		}
	}
	return q.String()
}

func (x *execution) drop(d *sql.Drop) (*TableResult, error) {
	t := x.env
	switch d.Kind {
	case sql.DropTable, sql.DropView:
		id, err := x.qualify(d.Name)
		if err != nil {
			return nil, err
		}
		want := catalog.KindTable
		what := "Table"
		if d.Kind == sql.DropView {
			want, what = catalog.KindView, "View"
		}
		if d.Temporary {
			if t.catalogs.DropTemporaryTable(id, &want) || d.IfExists {
				return okResult(), nil
			}
			// Flink names the identifier unquoted here, and either kind
			return nil, errorf("Temporary table or view with identifier '%s' does not exist.", id.Summary())
		}
		if t.catalogs.IsTemporary(id) {
			rt, _, _ := t.catalogs.GetTable(id)
			if rt.Table.Kind() == want {
				// Flink drops the temporary object first when no permanent one exists
				c, _ := t.catalogs.Catalog(id.Catalog)
				if c == nil || !c.TableExists(id.Path()) {
					t.catalogs.DropTemporaryTable(id, &want)
					return okResult(), nil
				}
				return nil, errorf("Temporary %s with identifier '%s' exists. Drop it first before removing the permanent %s.", strings.ToLower(what), id, strings.ToLower(what))
			}
		}
		c, err := t.catalogs.Catalog(id.Catalog)
		if err != nil {
			return nil, err
		}
		bt, err := c.GetTable(id.Path())
		if tb, ok := bt.(*catalog.Table); err == nil && ok && tb.Materialized != nil {
			// Flink's DROP TABLE does not see materialized tables
			if d.IfExists {
				return okResult(), nil
			}
			return nil, errorf("%s with identifier '%s' does not exist.", what, id.Summary())
		}
		if err != nil {
			if d.IfExists && catalog.IsNotExist(err) {
				return okResult(), nil
			}
			return nil, errorf("%s with identifier '%s' does not exist.", what, id.Summary())
		}
		if bt.Kind() != want {
			if want == catalog.KindView {
				return nil, errorf("DROP VIEW for a table is not allowed; use DROP TABLE %s", id)
			}
			return nil, errorf("DROP TABLE for a view is not allowed; use DROP VIEW %s", id)
		}
		if err := c.DropTable(id.Path(), d.IfExists); err != nil {
			return nil, err
		}
		return okResult(), nil
	case sql.DropDatabase:
		parts := identNames(d.Name.Parts)
		cat := t.catalogs.CurrentCatalog()
		db := parts[len(parts)-1]
		if len(parts) == 2 {
			cat = parts[0]
		}
		if cat == t.catalogs.CurrentCatalog() && db == t.catalogs.CurrentDatabase() {
			return nil, errorf("Cannot drop a database which is currently in use.")
		}
		c, err := t.catalogs.Catalog(cat)
		if err != nil {
			return nil, err
		}
		if err := c.DropDatabase(db, d.IfExists, d.Behavior == "CASCADE"); err != nil {
			return nil, err
		}
		return okResult(), nil
	case sql.DropCatalog:
		if err := t.catalogs.UnregisterCatalog(d.Name.Parts[0].Name, d.IfExists); err != nil {
			return nil, err
		}
		t.mu.Lock()
		delete(t.catalogDescriptors, d.Name.Parts[0].Name)
		t.mu.Unlock()
		return okResult(), nil
	case sql.DropFunction:
		return x.dropFunction(d)
	case sql.DropMaterializedTable:
		return x.dropMaterializedTable(d)
	}
	return nil, errorf("DROP %s is not supported", d.Kind)
}

// resolveTableSchema resolves a schema again from its definitions, as
// CREATE TABLE would: it fails when a computed column, the watermark or
// the primary key no longer fit the columns.
func (x *execution) resolveTableSchema(s *types.Schema) (*types.Schema, error) {
	ct, err := schemaDefinitions(s)
	if err != nil {
		return nil, err
	}
	return x.resolveDefinitions(ct)
}

// resolveDefinitions resolves the definitions of a table's schema.
func (x *execution) resolveDefinitions(ct *sql.CreateTable) (*types.Schema, error) {
	ns, err := binder.ResolveSchema(x.env.bindContext(), ct, "", sql.Pos{})
	if err != nil {
		// positions would point into the stored expression texts
		var pe *ValidationError
		if errors.As(err, &pe) {
			return nil, errors.New(pe.Msg)
		}
		return nil, err
	}
	return ns, nil
}

// schemaDefinitions turns a resolved schema back into the definitions of
// a CREATE TABLE.
func schemaDefinitions(s *types.Schema) (*sql.CreateTable, error) {
	ct := &sql.CreateTable{}
	for _, c := range s.Columns {
		def, err := columnDef(c)
		if err != nil {
			return nil, err
		}
		ct.Columns = append(ct.Columns, def)
	}
	for _, w := range s.Watermarks {
		e, err := sql.ParseExpr(w.Expr)
		if err != nil {
			return nil, err
		}
		ct.Watermarks = append(ct.Watermarks, &sql.Watermark{Column: &sql.Identifier{Parts: []*sql.Ident{{Name: w.RowtimeAttribute}}}, Expr: e})
	}
	if pk := s.PrimaryKey; pk != nil {
		con := &sql.TableConstraint{Kind: "PRIMARY KEY", Name: &sql.Ident{Name: pk.Name}, NotEnforced: true}
		for _, c := range pk.Columns {
			con.Columns = append(con.Columns, &sql.Ident{Name: c})
		}
		ct.Constraints = append(ct.Constraints, con)
	}
	return ct, nil
}

// columnDef turns a resolved column back into a definition.
func columnDef(c types.Column) (*sql.ColumnDef, error) {
	d := &sql.ColumnDef{Name: &sql.Ident{Name: c.Name}}
	if c.Comment != "" {
		cm := c.Comment
		d.Comment = &cm
	}
	switch c.Kind {
	case types.ComputedColumn:
		e, err := sql.ParseExpr(c.Expr)
		if err != nil {
			return nil, err
		}
		d.Kind, d.Expr = sql.ColumnComputed, e
	default:
		dt, err := sql.ParseDataType(c.Type.SQLString())
		if err != nil {
			return nil, err
		}
		d.Type = dt
		if c.Kind == types.MetadataColumn {
			d.Kind = sql.ColumnMetadata
			if c.MetadataKey != "" {
				k := c.MetadataKey
				d.MetadataKey = &k
			}
			d.Virtual = c.Virtual
		}
	}
	return d, nil
}
