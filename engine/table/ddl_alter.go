package table

import (
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

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
	cols, _, err := binder.ViewColumns(t.bindContext(), av.Query, x.text, x.base)
	if err != nil {
		return nil, err
	}
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(plan.Names(cols), ts), Query: x.source(av.Query), Expanded: t.expandedViewQuery(x.source(av.Query), av.Query),
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
		refs, err := binder.ReferencedColumns(c.Expr)
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
		refs, err := binder.ReferencedColumns(w.Expr)
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
			binder.QuoteUnreservedCalls(d.Expr)
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
