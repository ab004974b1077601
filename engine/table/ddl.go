package table

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/plan"
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
		n, err := plan.BindQuery(t.bindContext(), ct.AsQuery, x.text, x.base)
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
		schema, err = plan.ResolveSchema(t.bindContext(), ct, x.text, x.base)
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
	cols, _, err := plan.ViewColumns(t.bindContext(), cv.Query, x.text, x.base)
	if err != nil {
		return nil, err
	}
	names := plan.Names(cols)
	if len(cv.Columns) > 0 {
		if len(cv.Columns) != len(cols) {
			return nil, &plan.Error{Line: cv.Pos().Line, Column: cv.Pos().Column, Msg: fmt.Sprintf("VIEW definition and input fields not match:\n\tDef fields: %v.\n\tInput fields: %v.", identNames(cv.Columns), names)}
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
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(names, ts), Query: query, Expanded: cv.Query.String(), ViewComment: comment,
		Catalog: t.catalogs.CurrentCatalog(), Database: t.catalogs.CurrentDatabase()}
	if err := t.registerTable(id, v, cv.Temporary, cv.IfNotExists); err != nil {
		return nil, err
	}
	return okResult(), nil
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
	}
	return nil, errorf("DROP %s is not supported", d.Kind)
}

func (x *execution) createDatabase(cd *sql.CreateDatabase) (*TableResult, error) {
	t := x.env
	parts := identNames(cd.Name.Parts)
	cat := t.catalogs.CurrentCatalog()
	if len(parts) == 2 {
		cat = parts[0]
	}
	c, err := t.catalogs.Catalog(cat)
	if err != nil {
		return nil, err
	}
	db := &catalog.Database{Properties: props(cd.Options)}
	if cd.Comment != nil {
		db.Comment = *cd.Comment
	}
	if err := c.CreateDatabase(parts[len(parts)-1], db, cd.IfNotExists); err != nil {
		return nil, err
	}
	return okResult(), nil
}

func (x *execution) alterDatabase(ad *sql.AlterDatabase) (*TableResult, error) {
	t := x.env
	parts := identNames(ad.Name.Parts)
	cat := t.catalogs.CurrentCatalog()
	if len(parts) == 2 {
		cat = parts[0]
	}
	c, err := t.catalogs.Catalog(cat)
	if err != nil {
		return nil, err
	}
	db, err := c.GetDatabase(parts[len(parts)-1])
	if err != nil {
		return nil, err
	}
	nd := &catalog.Database{Properties: map[string]string{}, Comment: db.Comment}
	for k, v := range db.Properties {
		nd.Properties[k] = v
	}
	for k, v := range props(ad.Options) {
		nd.Properties[k] = v
	}
	if err := c.AlterDatabase(parts[len(parts)-1], nd, false); err != nil {
		return nil, err
	}
	return okResult(), nil
}

// createCatalog runs CREATE CATALOG [IF NOT EXISTS] name [COMMENT …] WITH
// (options): the 'type' option picks a registered catalog.Factory
// (catalog.FindFactory's error, Flink's, for an unknown one), whose
// declared options are checked as Flink's FactoryUtil does before the
// catalog is created, opened and registered; its descriptor (options and
// comment) is kept for SHOW CREATE / DESCRIBE / ALTER CATALOG.
func (x *execution) createCatalog(cc *sql.CreateCatalog) (*TableResult, error) {
	opts := props(cc.Options)
	f, err := catalog.FindFactory(opts)
	if err != nil {
		return nil, err
	}
	name := cc.Name.Name
	if err := catalog.ValidateFactoryOptions(f, opts); err != nil {
		return nil, err
	}
	if _, ok := x.env.catalogs.GetCatalog(name); ok {
		if cc.IfNotExists {
			return okResult(), nil
		}
		return nil, errorf("Catalog %s already exists.", name)
	}
	if err := x.env.checkCatalogPath(name, opts); err != nil {
		return nil, err
	}
	c, err := f.Create(name, opts)
	if err != nil {
		return nil, err
	}
	if err := x.env.catalogs.RegisterCatalog(name, c); err != nil {
		_ = c.Close()
		return nil, err
	}
	x.env.mu.Lock()
	if x.env.catalogDescriptors == nil {
		x.env.catalogDescriptors = map[string]catalogDescriptor{}
	}
	x.env.catalogDescriptors[name] = catalogDescriptor{options: opts, comment: cc.Comment}
	x.env.mu.Unlock()
	return okResult(), nil
}

// checkCatalogPath applies the file access policy (SetPathPolicy) to a
// catalog's 'path' option (the persistent catalog's file), as connectors
// apply it to a table's.
func (t *TableEnvironment) checkCatalogPath(name string, opts map[string]string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checkCatalogPathLocked(name, opts)
}

func (t *TableEnvironment) checkCatalogPathLocked(name string, opts map[string]string) error {
	p, ok := opts["path"]
	if !ok || t.checkPath == nil {
		return nil
	}
	if err := t.checkPath(p); err != nil {
		return fmt.Errorf("catalog %s: %w", name, err)
	}
	return nil
}

// alterCatalog runs ALTER CATALOG name SET (options) | RESET (keys) |
// COMMENT 'text' as Flink 2.3.0 does: it changes what DESCRIBE CATALOG and
// SHOW CREATE CATALOG report (the catalog's descriptor); RESET refuses no
// key and the key 'type'; a key that is not set is ignored; an empty
// comment is kept as given.
func (x *execution) alterCatalog(ac *sql.AlterCatalog) (*TableResult, error) {
	t := x.env
	name := ac.Name.Name
	t.mu.Lock()
	defer t.mu.Unlock()
	desc, ok := t.catalogDescriptors[name]
	if _, exists := t.catalogs.GetCatalog(name); !exists || !ok {
		// Flink alters what its catalog store keeps: catalogs made by
		// CREATE CATALOG (not default_catalog)
		return nil, errorf("Catalog %s does not exist in the catalog store.", name)
	}
	opts := make(map[string]string, len(desc.options))
	for k, v := range desc.options {
		opts[k] = v
	}
	switch {
	case ac.Comment != nil:
		c := *ac.Comment
		desc.comment = &c
	case ac.Options != nil:
		for k, v := range props(ac.Options) {
			opts[k] = v
		}
	default:
		if len(ac.ResetKeys) == 0 {
			return nil, errorf("ALTER CATALOG RESET does not support empty key")
		}
		for _, k := range ac.ResetKeys {
			if k == "type" {
				return nil, errorf("ALTER CATALOG RESET does not support changing 'type'")
			}
		}
		for _, k := range ac.ResetKeys {
			delete(opts, k)
		}
	}
	optionsChanged := ac.Comment == nil
	desc.options = opts
	t.catalogDescriptors[name] = desc
	// Flink stores the new descriptor, then re-creates the catalog from it,
	// which is where unknown options fail (the descriptor stays changed)
	f, err := catalog.FindFactory(opts)
	if err != nil {
		return nil, err
	}
	if err := catalog.ValidateFactoryOptions(f, opts); err != nil {
		return nil, err
	}
	// A generic_in_memory catalog keeps its objects (re-creating it would
	// empty it, and none of its options but default-database exists);
	// other types are re-created from the new options, so that a changed
	// 'path' or URL takes effect, and replace the open catalog once the
	// new one opened.
	if optionsChanged && f.Identifier() != catalog.InMemoryFactoryIdentifier {
		if err := t.checkCatalogPathLocked(name, opts); err != nil {
			return nil, err
		}
		c, err := f.Create(name, opts)
		if err != nil {
			return nil, err
		}
		if err := t.catalogs.ReplaceCatalog(name, c); err != nil {
			return nil, err
		}
	}
	return okResult(), nil
}

// showCreateCatalog answers SHOW CREATE CATALOG name in Flink 2.3.0's
// text: CREATE CATALOG `name`, the COMMENT line when it has one, and its
// options (with 'type') sorted by key in a WITH block.
func (x *execution) showCreateCatalog(name string) (*TableResult, error) {
	t := x.env
	t.mu.Lock()
	desc, ok := t.catalogDescriptors[name]
	t.mu.Unlock()
	if _, exists := t.catalogs.GetCatalog(name); !exists || !ok {
		return nil, errorf("Cannot obtain metadata information from Catalog %s.", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE CATALOG %s\n", sql.QuoteIdent(name))
	if desc.comment != nil {
		fmt.Fprintf(&b, "COMMENT '%s'\n", strings.ReplaceAll(*desc.comment, "'", "''"))
	}
	b.WriteString("WITH (\n")
	keys := sortedKeys(desc.options)
	for i, k := range keys {
		sep := ","
		if i == len(keys)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  '%s' = '%s'%s\n", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(desc.options[k], "'", "''"), sep)
	}
	b.WriteString(")\n")
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"result"},
		[]*types.DataType{types.StringType()}), static: []*types.Row{types.NewRow(b.String())}}, nil
}

// catalogDescriptor is what CREATE CATALOG said of a catalog: its options
// (with 'type') and its comment (nil when it had none), as Flink's
// CatalogDescriptor.
type catalogDescriptor struct {
	options map[string]string
	comment *string
}

// describeCatalog answers DESCRIBE CATALOG [EXTENDED] name as Flink 2.3.0
// does: rows name, type and comment (NULL when CREATE CATALOG gave none),
// with EXTENDED also option:<key> rows for the options but 'type', sorted
// by key. A catalog not made by CREATE CATALOG (default_catalog, one
// registered through the API) has no descriptor: Flink fails with "Cannot
// obtain metadata information from Catalog <name>.".
func (x *execution) describeCatalog(name string, extended bool) (*TableResult, error) {
	t := x.env
	t.mu.Lock()
	desc, ok := t.catalogDescriptors[name]
	t.mu.Unlock()
	if _, exists := t.catalogs.GetCatalog(name); !exists || !ok {
		return nil, errorf("Cannot obtain metadata information from Catalog %s.", name)
	}
	var comment any
	if desc.comment != nil {
		comment = *desc.comment
	}
	rows := []*types.Row{types.NewRow("name", name), types.NewRow("type", desc.options["type"]), types.NewRow("comment", comment)}
	if extended {
		for _, k := range sortedKeys(desc.options) {
			if k != "type" {
				rows = append(rows, types.NewRow("option:"+k, desc.options[k]))
			}
		}
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"info name", "info value"},
		[]*types.DataType{types.StringType(), types.StringType()}), static: rows}, nil
}

func (x *execution) alterView(av *sql.AlterView) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(av.Name)
	if err != nil {
		return nil, err
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok || rt.Table.Kind() != catalog.KindView {
		return nil, errorf("View %s doesn't exist or is a temporary view.", id)
	}
	if av.NewName != nil {
		nid, err := x.qualify(av.NewName)
		if err != nil {
			return nil, err
		}
		return x.rename(id, nid, rt)
	}
	cols, _, err := plan.ViewColumns(t.bindContext(), av.Query, x.text, x.base)
	if err != nil {
		return nil, err
	}
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(plan.Names(cols), ts), Query: x.source(av.Query), Expanded: av.Query.String(),
		Catalog: t.catalogs.CurrentCatalog(), Database: t.catalogs.CurrentDatabase()}
	return x.replace(id, rt, v)
}

func (x *execution) rename(id, nid catalog.ObjectIdentifier, rt catalog.ResolvedTable) (*TableResult, error) {
	t := x.env
	if rt.Temporary {
		return nil, errorf("Temporary objects cannot be renamed; drop and recreate %s", id)
	}
	if nid.Catalog != id.Catalog || nid.Database != id.Database {
		return nil, errorf("The new name %s must be in the same database as %s", nid, id)
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.RenameTable(id.Path(), nid.Object, false); err != nil {
		return nil, err
	}
	return okResult(), nil
}

func (x *execution) replace(id catalog.ObjectIdentifier, rt catalog.ResolvedTable, nt catalog.BaseTable) (*TableResult, error) {
	t := x.env
	if rt.Temporary {
		t.catalogs.AlterTemporaryTable(id, nt)
		return okResult(), nil
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.AlterTable(id.Path(), nt, false); err != nil {
		return nil, err
	}
	return okResult(), nil
}

func (x *execution) alterTable(at *sql.AlterTable) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(at.Name)
	if err != nil {
		return nil, err
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		if at.IfExists {
			return okResult(), nil
		}
		return nil, errorf("Table %s doesn't exist or is a temporary table.", id)
	}
	tbl, ok := rt.Table.(*catalog.Table)
	if !ok {
		return nil, errorf("ALTER TABLE for a view is not allowed; use ALTER VIEW %s", id)
	}
	nt := tbl.Copy().(*catalog.Table)
	switch at.Op {
	case sql.AlterRename:
		nid, err := x.qualify(at.NewName)
		if err != nil {
			return nil, err
		}
		return x.rename(id, nid, rt)
	case sql.AlterSet:
		if nt.TableOptions == nil {
			nt.TableOptions = map[string]string{}
		}
		for k, v := range props(at.Options) {
			nt.TableOptions[k] = v
		}
	case sql.AlterReset:
		if len(at.ResetKeys) == 0 {
			return nil, errorf("ALTER TABLE RESET does not support empty key")
		}
		for _, k := range at.ResetKeys {
			if k == "connector" {
				return nil, errorf("ALTER TABLE RESET does not support changing 'connector'")
			}
			delete(nt.TableOptions, k)
		}
	case sql.AlterAdd, sql.AlterModify:
		if err := x.alterSchema(at, nt); err != nil {
			return nil, err
		}
	case sql.AlterDropColumns:
		if err := dropColumns(at, nt); err != nil {
			return nil, err
		}
	case sql.AlterDropPrimaryKey, sql.AlterDropConstraint:
		if nt.TableSchema.PrimaryKey == nil {
			return nil, errorf("The base table does not define any primary key.")
		}
		nt.TableSchema.PrimaryKey = nil
	case sql.AlterDropWatermark:
		if len(nt.TableSchema.Watermarks) == 0 {
			return nil, errorf("The base table does not define any watermark strategy.")
		}
		nt.TableSchema.Watermarks = nil
	case sql.AlterRenameColumn:
		if err := renameColumn(at, nt); err != nil {
			return nil, err
		}
	default:
		return nil, errorf("This ALTER TABLE operation is not supported")
	}
	// the new schema must resolve (computed columns, watermark, primary
	// key) before it replaces the old one: on error the catalog is left
	// untouched
	if _, err := x.resolveTableSchema(nt.TableSchema); err != nil {
		return nil, errorf("%s%v", alterPrefix, err)
	}
	return x.replace(id, rt, nt)
}

// alterPrefix starts Flink's ALTER TABLE schema errors
// (AlterSchemaConverter's EX_MSG_PREFIX).
const alterPrefix = "Failed to execute ALTER TABLE statement.\n"

// schemaRefs tells which columns of a table's schema others depend on, as
// Flink's AlterSchemaConverter.ReferencesManager: computed columns refer
// to columns, the watermark to its rowtime column and the columns of its
// expression, and the primary key and partition keys to theirs.
type schemaRefs struct {
	columns map[string]bool
	// referencedBy maps a column to the computed columns referring to it.
	referencedBy map[string]map[string]bool
	// dependsOn maps a computed column to the columns it refers to.
	dependsOn  map[string][]string
	primaryKey map[string]bool
	watermark  map[string]bool
	partitions map[string]bool
}

func newSchemaRefs(t *catalog.Table) (*schemaRefs, error) {
	r := &schemaRefs{columns: map[string]bool{}, referencedBy: map[string]map[string]bool{}, dependsOn: map[string][]string{},
		primaryKey: map[string]bool{}, watermark: map[string]bool{}, partitions: map[string]bool{}}
	s := t.TableSchema
	for _, c := range s.Columns {
		r.columns[c.Name] = true
	}
	for _, c := range s.Columns {
		if c.Kind != types.ComputedColumn {
			continue
		}
		refs, err := plan.ReferencedColumns(c.Expr)
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			if !r.columns[ref] {
				continue
			}
			if r.referencedBy[ref] == nil {
				r.referencedBy[ref] = map[string]bool{}
			}
			r.referencedBy[ref][c.Name] = true
			r.dependsOn[c.Name] = append(r.dependsOn[c.Name], ref)
		}
	}
	for _, w := range s.Watermarks {
		r.watermark[w.RowtimeAttribute] = true
		refs, err := plan.ReferencedColumns(w.Expr)
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			if r.columns[ref] {
				r.watermark[ref] = true
			}
		}
	}
	if pk := s.PrimaryKey; pk != nil {
		for _, c := range pk.Columns {
			r.primaryKey[c] = true
		}
	}
	for _, k := range t.PartitionKeys {
		r.partitions[k] = true
	}
	return r, nil
}

// check fails when a column cannot be renamed or dropped: it does not
// exist, a computed column, the partition keys or the watermark refer to
// it (Flink's ReferencesManager.checkReferences).
func (r *schemaRefs) check(name string) error {
	if !r.columns[name] {
		return errorf("%sThe column `%s` does not exist in the base table.", alterPrefix, name)
	}
	if by := r.referencedBy[name]; len(by) > 0 {
		names := make([]string, 0, len(by))
		for n := range by {
			names = append(names, "`"+n+"`")
		}
		sort.Strings(names)
		return errorf("%sThe column `%s` is referenced by computed column %s.", alterPrefix, name, strings.Join(names, ", "))
	}
	if r.partitions[name] {
		return errorf("%sThe column `%s` is used as the partition keys.", alterPrefix, name)
	}
	if r.watermark[name] {
		return errorf("%sThe column `%s` is referenced by watermark expression.", alterPrefix, name)
	}
	return nil
}

// drop removes a column after checking it may go (Flink's
// ReferencesManager.dropColumn).
func (r *schemaRefs) drop(name string) error {
	if err := r.check(name); err != nil {
		return err
	}
	if r.primaryKey[name] {
		return errorf("%sThe column `%s` is used as the primary key.", alterPrefix, name)
	}
	for _, ref := range r.dependsOn[name] {
		delete(r.referencedBy[ref], name)
	}
	delete(r.dependsOn, name)
	delete(r.columns, name)
	return nil
}

// dropColumns applies ALTER TABLE DROP (col, ...): computed columns that
// are dropped too no longer hold their references, so DROP (price, cost)
// drops both when cost AS price * 2.
func dropColumns(at *sql.AlterTable, nt *catalog.Table) error {
	var names []string
	set := map[string]bool{}
	for _, c := range at.DropColumns {
		if len(c.Parts) > 1 {
			return errorf("%sAlter nested row type %s is not supported yet.", alterPrefix, c)
		}
		name := c.Parts[0].Name
		if set[name] {
			return errorf("%sDuplicate column `%s`.", alterPrefix, name)
		}
		set[name] = true
		names = append(names, name)
	}
	refs, err := newSchemaRefs(nt)
	if err != nil {
		return err
	}
	// columns that depend on more columns go first (Flink sorts by the
	// number of dependencies, largest first)
	sort.SliceStable(names, func(i, j int) bool { return len(refs.dependsOn[names[i]]) > len(refs.dependsOn[names[j]]) })
	for _, name := range names {
		if err := refs.drop(name); err != nil {
			return err
		}
	}
	cols := make([]types.Column, 0, len(nt.TableSchema.Columns))
	for _, c := range nt.TableSchema.Columns {
		if !set[c.Name] {
			cols = append(cols, c)
		}
	}
	nt.TableSchema.Columns = cols
	return nil
}

// renameColumn applies ALTER TABLE RENAME old TO new: a column that a
// computed column, the watermark or the partition keys refer to cannot be
// renamed; a primary key column can (the key follows it).
func renameColumn(at *sql.AlterTable, nt *catalog.Table) error {
	if len(at.OldColumn.Parts) > 1 {
		return errorf("%sAlter nested row type %s is not supported yet.", alterPrefix, at.OldColumn)
	}
	if len(at.NewColumn.Parts) > 1 {
		return errorf("%sAlter nested row type %s is not supported yet.", alterPrefix, at.NewColumn)
	}
	old, newName := at.OldColumn.Parts[0].Name, at.NewColumn.Parts[0].Name
	refs, err := newSchemaRefs(nt)
	if err != nil {
		return err
	}
	if err := refs.check(old); err != nil {
		return err
	}
	if nt.TableSchema.Index(newName) >= 0 {
		return errorf("%sThe column `%s` already existed in table schema.", alterPrefix, newName)
	}
	cols := append([]types.Column(nil), nt.TableSchema.Columns...)
	cols[nt.TableSchema.Index(old)].Name = newName
	nt.TableSchema.Columns = cols
	if pk := nt.TableSchema.PrimaryKey; pk != nil {
		npk := *pk
		npk.Columns = append([]string(nil), pk.Columns...)
		for k, c := range npk.Columns {
			if c == old {
				npk.Columns[k] = newName
			}
		}
		nt.TableSchema.PrimaryKey = &npk
	}
	return nil
}

// alterSchema applies ALTER TABLE ADD/MODIFY by re-resolving the schema
// with the changed column definitions.
func (x *execution) alterSchema(at *sql.AlterTable, nt *catalog.Table) error {
	ct, err := schemaDefinitions(nt.TableSchema)
	if err != nil {
		return err
	}
	index := func(name string) int {
		for i, d := range ct.Columns {
			if d.Name.Name == name {
				return i
			}
		}
		return -1
	}
	for _, d := range at.Columns {
		if d.Kind == sql.ColumnComputed {
			plan.QuoteUnreservedCalls(d.Expr)
		}
		i := index(d.Name.Name)
		switch {
		case at.Op == sql.AlterAdd && i >= 0:
			return errorf("Try to add a column `%s` which already exists in the table.", d.Name.Name)
		case at.Op == sql.AlterModify && i < 0:
			return errorf("Try to modify a column `%s` which does not exist in the table.", d.Name.Name)
		}
		if i >= 0 {
			ct.Columns = append(ct.Columns[:i], ct.Columns[i+1:]...)
		}
		pos := len(ct.Columns)
		if i >= 0 {
			pos = i
		}
		switch d.Position {
		case "FIRST":
			pos = 0
		case "AFTER":
			after := d.After.Parts[len(d.After.Parts)-1].Name
			j := index(after)
			if j < 0 {
				return errorf("Referenced column `%s` by 'AFTER' does not exist in the table.", after)
			}
			pos = j + 1
		}
		ct.Columns = append(ct.Columns[:pos], append([]*sql.ColumnDef{d}, ct.Columns[pos:]...)...)
	}
	if at.Watermark != nil {
		if at.Op == sql.AlterAdd && len(ct.Watermarks) > 0 {
			return errorf("The base table has already defined the watermark strategy; use MODIFY to change it")
		}
		ct.Watermarks = []*sql.Watermark{at.Watermark}
	}
	if at.Constraint != nil {
		if at.Op == sql.AlterAdd && len(ct.Constraints) > 0 {
			return errorf("The base table has already defined the primary key constraint; use MODIFY to change it")
		}
		ct.Constraints = []*sql.TableConstraint{at.Constraint}
	}
	ns, err := x.resolveDefinitions(ct)
	if err != nil {
		return errorf("%s%v", alterPrefix, err)
	}
	nt.TableSchema = ns
	return nil
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
	ns, err := plan.ResolveSchema(x.env.bindContext(), ct, "", sql.Pos{})
	if err != nil {
		// positions would point into the stored expression texts
		var pe *plan.Error
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

func (x *execution) createFunction(cf *sql.CreateFunction) (*TableResult, error) {
	t := x.env
	lang := cf.Language
	if lang == "" {
		lang = "GO"
	}
	if lang != "GO" && lang != "JAVA" && lang != "SCALA" {
		return nil, errorf("Unsupported language %s for function %s: Riffle runs Go functions", lang, cf.Name)
	}
	impl, ok := lookupGoFunction(cf.Class)
	if !ok {
		return nil, errorf("Function class '%s' is not a registered Go function; register it with table.RegisterGoFunction", cf.Class)
	}
	if cf.System {
		name := strings.ToLower(cf.Name.Parts[len(cf.Name.Parts)-1].Name)
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, exists := t.funcs.tempSystem[name]; exists && !cf.IfNotExists {
			return nil, errorf("Could not register temporary system function. A function named '%s' does already exist.", name)
		}
		t.funcs.tempSystem[name] = impl
		return okResult(), nil
	}
	id, err := x.qualify(cf.Name)
	if err != nil {
		return nil, err
	}
	id.Object = strings.ToLower(id.Object)
	if cf.Temporary {
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, exists := t.funcs.tempCat[id]; exists && !cf.IfNotExists {
			return nil, errorf("Could not register temporary catalog function. A function '%s' does already exist.", id)
		}
		t.funcs.tempCat[id] = impl
		return okResult(), nil
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.CreateFunction(id.Path(), &catalog.Function{ClassName: cf.Class, Language: lang}, cf.IfNotExists); err != nil {
		return nil, err
	}
	return okResult(), nil
}

func (x *execution) dropFunction(d *sql.Drop) (*TableResult, error) {
	t := x.env
	if d.System {
		name := strings.ToLower(d.Name.Parts[len(d.Name.Parts)-1].Name)
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, ok := t.funcs.tempSystem[name]; !ok {
			if d.IfExists {
				return okResult(), nil
			}
			return nil, errorf("Temporary system function %s doesn't exist", name)
		}
		delete(t.funcs.tempSystem, name)
		return okResult(), nil
	}
	id, err := x.qualify(d.Name)
	if err != nil {
		return nil, err
	}
	id.Object = strings.ToLower(id.Object)
	if d.Temporary {
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, ok := t.funcs.tempCat[id]; !ok {
			if d.IfExists {
				return okResult(), nil
			}
			return nil, errorf("Temporary catalog function %s doesn't exist", id)
		}
		delete(t.funcs.tempCat, id)
		return okResult(), nil
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.DropFunction(id.Path(), d.IfExists); err != nil {
		var ne *catalog.FunctionNotExistError
		if errors.As(err, &ne) {
			return nil, errorf("Function %s.%s does not exist in Catalog %s.", id.Database, id.Object, id.Catalog)
		}
		return nil, err
	}
	return okResult(), nil
}
