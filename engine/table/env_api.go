package table

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// ---------------------------------------------------------------- reading tables

// FromPath reads a registered table or view (PyFlink's from_path). The
// path "[[catalog.]database.]object" resolves against the current catalog
// and database; parts with dots or reserved words are backquoted:
// FromPath("cat.`db.Name`.`Table`"). It fails when nothing exists there.
func (t *TableEnvironment) FromPath(path string) (*Table, error) {
	parts, err := ParsePath(path)
	if err != nil {
		return nil, err
	}
	q := selectQuery(starItems(), &sql.TableRef{Name: objName(parts...)})
	n, err := binder.BindQuery(t.bindContext(), q, "", sql.Pos{})
	if err != nil {
		return nil, err
	}
	return &Table{env: t, node: n}, nil
}

// Scan reads a registered table given as separate path parts, e.g.
// Scan("catalogName", "dbName", "tableName") (PyFlink's scan).
//
// Deprecated: use FromPath.
func (t *TableEnvironment) Scan(tablePath ...string) (*Table, error) {
	if len(tablePath) == 0 {
		return nil, errorf("Scan needs a table path")
	}
	q := make([]string, len(tablePath))
	for i, p := range tablePath {
		q[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
	}
	return t.FromPath(strings.Join(q, "."))
}

// FromDescriptor reads an inline table described by a TableDescriptor
// (PyFlink's from_descriptor). Each call creates a new anonymous table,
// named *anonymous_<connector>$<n>* in plans, even for equal descriptors;
// it is not registered in any catalog. The descriptor needs a schema.
func (t *TableEnvironment) FromDescriptor(d *TableDescriptor) (*Table, error) {
	tbl, err := t.catalogTable(d, nil)
	if err != nil {
		return nil, err
	}
	n, err := binder.ScanTable(t.bindContext(), t.anonymousID(d), tbl)
	if err != nil {
		return nil, err
	}
	return &Table{env: t, node: n}, nil
}

// ---------------------------------------------------------------- registering tables and views

// CreateTemporaryView registers a Table as a temporary view (PyFlink's
// create_temporary_view with a Table). It shadows a permanent object at
// the same path; an existing temporary object there is an error. For
// DataStreams see StreamTableEnvironment.CreateTemporaryViewFromDataStream.
func (t *TableEnvironment) CreateTemporaryView(path string, view *Table) error {
	if err := t.checkInput(view); err != nil {
		return err
	}
	id, err := t.qualifyPath(path)
	if err != nil {
		return err
	}
	cols := view.node.Columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(names, ts), Plan: view.node, Catalog: id.Catalog, Database: id.Database}
	return t.catalogs.CreateTemporaryTable(id, v, false)
}

// RegisterTable registers a Table as a temporary view (PyFlink's
// register_table).
//
// Deprecated: use CreateTemporaryView.
func (t *TableEnvironment) RegisterTable(name string, table *Table) error {
	return t.CreateTemporaryView("`"+strings.ReplaceAll(name, "`", "``")+"`", table)
}

// CreateTable registers a permanent table in the catalog from a
// descriptor (PyFlink's create_table). It fails when an object exists at
// the path.
func (t *TableEnvironment) CreateTable(path string, d *TableDescriptor) error {
	return t.createTable(path, d, false)
}

// CreateTemporaryTable registers a temporary table from a descriptor,
// shadowing a permanent one at the same path (PyFlink's
// create_temporary_table).
func (t *TableEnvironment) CreateTemporaryTable(path string, d *TableDescriptor) error {
	return t.createTable(path, d, true)
}

func (t *TableEnvironment) createTable(path string, d *TableDescriptor, temporary bool) error {
	id, err := t.qualifyPath(path)
	if err != nil {
		return err
	}
	tbl, err := t.catalogTable(d, nil)
	if err != nil {
		return err
	}
	return t.registerTable(id, tbl, temporary, false)
}

// DropTemporaryView drops a temporary view and reports whether one
// existed; a permanent object at the path becomes visible again (PyFlink's
// drop_temporary_view). Only an invalid path is an error.
func (t *TableEnvironment) DropTemporaryView(path string) (bool, error) {
	id, err := t.qualifyPath(path)
	if err != nil {
		return false, err
	}
	k := catalog.KindView
	return t.catalogs.DropTemporaryTable(id, &k), nil
}

// DropTemporaryTable drops a temporary table and reports whether one
// existed (PyFlink's drop_temporary_table).
func (t *TableEnvironment) DropTemporaryTable(path string) (bool, error) {
	id, err := t.qualifyPath(path)
	if err != nil {
		return false, err
	}
	k := catalog.KindTable
	return t.catalogs.DropTemporaryTable(id, &k), nil
}

// ---------------------------------------------------------------- writing tables

// sinkPlan plans the insertion of a table into a target: a path of a
// registered table, or a *TableDescriptor (a new anonymous table whose
// schema may omit the physical columns, which are then derived from the
// table).
func (t *TableEnvironment) sinkPlan(target any, src *Table, overwrite bool) (*plan.Sink, error) {
	if err := t.checkInput(src); err != nil {
		return nil, err
	}
	var id catalog.ObjectIdentifier
	var tbl *catalog.Table
	switch x := target.(type) {
	case string:
		var err error
		id, err = t.qualifyPath(x)
		if err != nil {
			return nil, err
		}
		rt, ok, err := t.catalogs.GetTable(id)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errorf("Object '%s' not found", x)
		}
		ct, ok := rt.Table.(*catalog.Table)
		if !ok {
			return nil, errorf("View '%s' cannot be the target of an INSERT", id.Summary())
		}
		tbl = ct
	case *TableDescriptor:
		var err error
		tbl, err = t.catalogTable(x, src.columns())
		if err != nil {
			return nil, err
		}
		id = t.anonymousID(x)
	default:
		return nil, fmt.Errorf("an insert target must be a table path or a *TableDescriptor, got %T", target)
	}
	overwrite = overwrite || t.overwrites(id.String())
	ins := &sql.Insert{Table: objName(id.Catalog, id.Database, id.Object), Overwrite: overwrite}
	input, err := mapInsertColumns(src.node, tbl, ins, map[string]string{}, id.Summary())
	if err != nil {
		return nil, err
	}
	return &plan.Sink{Input: input, ID: id, Table: tbl, Overwrite: overwrite}, nil
}

// ExecuteInsertContext writes the table into a registered table (a path)
// or into a new anonymous table described by a *TableDescriptor; the
// option Overwrite() replaces the target's data (PyFlink's execute_insert).
// The job runs asynchronously: wait for it with TableResult.WaitContext or
// through JobClient. ctx bounds the planning and submission. Several
// inserts in one job need a StatementSet.
func (t *Table) ExecuteInsertContext(ctx context.Context, target any, opts ...InsertOption) (*TableResult, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	s, err := t.env.sinkPlan(target, t, insertOptionsOf(opts).overwrite)
	if err != nil {
		return nil, err
	}
	return t.env.runInserts(ctx, []plan.Node{s}, "INSERT INTO "+s.ID.Summary())
}

// InsertOption is an option of ExecuteInsertContext and
// StatementSet.AddInsert (PyFlink's keyword arguments of execute_insert
// and add_insert).
type InsertOption func(*insertOptions)

type insertOptions struct{ overwrite bool }

// Overwrite makes an insert replace the target's data, as INSERT
// OVERWRITE does (PyFlink's overwrite=True).
func Overwrite() InsertOption { return func(o *insertOptions) { o.overwrite = true } }

func insertOptionsOf(opts []InsertOption) insertOptions {
	var o insertOptions
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	return o
}

// InsertInto buffers the insertion of the table into a registered table;
// TableEnvironment.Execute runs it (PyFlink's Table.insert_into).
//
// Deprecated: use ExecuteInsert, or a StatementSet for several sinks.
func (t *Table) InsertInto(tablePath string) error {
	if err := t.usable(); err != nil {
		return err
	}
	return t.env.InsertInto(tablePath, t)
}

// InsertInto buffers the insertion of a table; Execute runs the buffered
// inserts (PyFlink's TableEnvironment.insert_into).
//
// Deprecated: use Table.ExecuteInsert, or a StatementSet for several
// sinks.
func (t *TableEnvironment) InsertInto(targetPath string, table *Table) error {
	s, err := t.sinkPlan(targetPath, table, false)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.buffered = append(t.buffered, s)
	t.mu.Unlock()
	return nil
}

// SQLUpdate runs a CREATE TABLE at once or buffers an INSERT for Execute
// (PyFlink's sql_update); other statements are rejected.
//
// Deprecated: use ExecuteSQL for one statement, or a StatementSet for
// several INSERTs.
func (t *TableEnvironment) SQLUpdate(stmt string) error {
	st, err := sql.Parse(stmt)
	if err != nil {
		return err
	}
	switch s := st.(type) {
	case *sql.Insert:
		x := &execution{env: t, ctx: context.Background(), text: stmt}
		p, err := x.insertPlan(s)
		if err != nil {
			return err
		}
		t.mu.Lock()
		t.buffered = append(t.buffered, p)
		t.mu.Unlock()
		return nil
	case *sql.CreateTable:
		_, err := t.ExecuteSQLContext(context.Background(), stmt)
		return err
	}
	return errorf("Unsupported SQL query! sqlUpdate() only accepts a single SQL statement of type INSERT or CREATE TABLE, got: %s", firstWords(stmt))
}

// ExecuteContext runs the INSERTs buffered by InsertInto and SQLUpdate as
// one job named jobName and waits until it finishes, is cancelled or fails
// (PyFlink's TableEnvironment.execute). The buffer is cleared. It returns
// the job's result, or its error (ErrCanceled for a cancelled job); when
// ctx ends before the job does, it cancels the job and returns ctx's
// error.
//
// Deprecated: use ExecuteSQLContext or a StatementSet.
func (t *TableEnvironment) ExecuteContext(ctx context.Context, jobName string) (*JobExecutionResult, error) {
	t.mu.Lock()
	sinks := t.buffered
	t.buffered = nil
	t.mu.Unlock()
	if len(sinks) == 0 {
		return nil, errorf("No operators defined in streaming topology. Cannot generate StreamGraph.")
	}
	old := t.config.conf.GetString("pipeline.name", "")
	t.config.conf.Set("pipeline.name", jobName)
	res, err := t.runInserts(ctx, sinks, "")
	if old == "" {
		t.config.conf.Remove("pipeline.name")
	} else {
		t.config.conf.Set("pipeline.name", old)
	}
	if err != nil {
		return nil, err
	}
	jc := res.JobClient()
	if err := jc.Wait(ctx); err != nil {
		if ctx.Err() != nil && !jc.Status().IsTerminal() {
			_ = jc.Cancel()
		}
		return nil, err
	}
	return jc.ExecutionResult(ctx)
}

// Explain returns the plan of a table, or of the buffered INSERTs when
// table is nil; extended adds estimated costs and changelog modes
// (PyFlink's TableEnvironment.explain).
//
// Deprecated: use Table.Explain, ExplainSQL or StatementSet.Explain.
func (t *TableEnvironment) Explain(table *Table, extended bool) (string, error) {
	var details []ExplainDetail
	if extended {
		details = []ExplainDetail{EstimatedCost, ChangelogMode}
	}
	if table != nil {
		return table.Explain(details...)
	}
	t.mu.Lock()
	sinks := append([]plan.Node(nil), t.buffered...)
	t.mu.Unlock()
	if len(sinks) == 0 {
		return "", errorf("No INSERT was buffered: nothing to explain")
	}
	d, _ := explainDetails(details) // only the constants above
	return t.explainNodes(sinks, d)
}

// ---------------------------------------------------------------- functions

// CreateTemporarySystemFunction registers a user function as a temporary
// system function with a global name, independent of the current catalog
// and database (PyFlink's create_temporary_system_function). It takes
// precedence over built-in functions of the same name (extending TRIM,
// ABS, ...) and over catalog functions. An existing temporary system
// function of that name is an error.
func (t *TableEnvironment) CreateTemporarySystemFunction(name string, f *UserDefinedFunction) error {
	fn, err := f.function()
	if err != nil {
		return err
	}
	return t.addTempSystem(name, fn, false)
}

func (t *TableEnvironment) addTempSystem(name string, fn *expr.Function, replace bool) error {
	key := strings.ToLower(name)
	t.funcs.mu.Lock()
	defer t.funcs.mu.Unlock()
	if _, exists := t.funcs.tempSystem[key]; exists && !replace {
		return errorf("Could not register temporary system function. A function named '%s' does already exist.", name)
	}
	t.funcs.tempSystem[key] = named(fn, name)
	return nil
}

// named returns the function under a registration name (plans and errors
// show the name it was registered under).
func named(fn *expr.Function, name string) *expr.Function {
	if strings.EqualFold(fn.Name, name) {
		return fn
	}
	c := *fn
	c.Name = name
	return &c
}

// CreateTemporaryFunction registers a user function as a temporary catalog
// function at a path [[catalog.]database.]name (PyFlink's
// create_temporary_function). It shadows a permanent function at the same
// path; an existing temporary function there is an error.
func (t *TableEnvironment) CreateTemporaryFunction(path string, f *UserDefinedFunction) error {
	fn, err := f.function()
	if err != nil {
		return err
	}
	return t.addTempCatalog(path, fn)
}

func (t *TableEnvironment) addTempCatalog(path string, fn *expr.Function) error {
	id, err := t.qualifyPath(path)
	if err != nil {
		return err
	}
	obj := id.Object
	id.Object = strings.ToLower(id.Object)
	t.funcs.mu.Lock()
	defer t.funcs.mu.Unlock()
	if _, exists := t.funcs.tempCat[id]; exists {
		return errorf("Could not register temporary catalog function. A function '%s' does already exist.", id)
	}
	t.funcs.tempCat[id] = named(fn, obj)
	return nil
}

// RegisterGoUDF makes a user function available under an identifier to
// CREATE FUNCTION ... AS 'identifier' and CreateFunction (Go has no class
// loading: this registry stands in for Java class names).
func RegisterGoUDF(identifier string, f *UserDefinedFunction) error {
	fn, err := f.function()
	if err != nil {
		return err
	}
	RegisterGoFunction(identifier, fn)
	return nil
}

// CreateFunction registers a permanent catalog function at a path,
// implemented by the Go function registered under identifier (with
// RegisterGoUDF or RegisterGoFunction) (PyFlink's create_java_function).
// No function, temporary or permanent, may exist at the path: with the
// option IgnoreIfExists() nothing happens then, otherwise it is an error.
func (t *TableEnvironment) CreateFunction(path, identifier string, opts ...CreateFunctionOption) error {
	var o functionOptions
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	ignore := o.ignoreIfExists
	if _, ok := lookupGoFunction(identifier); !ok {
		return errorf("Function class '%s' is not a registered Go function; register it with table.RegisterGoUDF", identifier)
	}
	id, err := t.qualifyPath(path)
	if err != nil {
		return err
	}
	id.Object = strings.ToLower(id.Object)
	t.funcs.mu.RLock()
	_, temp := t.funcs.tempCat[id]
	t.funcs.mu.RUnlock()
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return err
	}
	if temp || c.FunctionExists(id.Path()) {
		if ignore {
			return nil
		}
		return errorf("Could not register function. A function '%s' does already exist.", id)
	}
	return c.CreateFunction(id.Path(), &catalog.Function{ClassName: identifier, Language: "GO"}, ignore)
}

// CreateFunctionOption is an option of CreateFunction (PyFlink's keyword
// arguments of create_java_function).
type CreateFunctionOption func(*functionOptions)

type functionOptions struct{ ignoreIfExists bool }

// IgnoreIfExists makes CreateFunction do nothing when a function exists at
// the path (PyFlink's ignore_if_exists=True).
func IgnoreIfExists() CreateFunctionOption {
	return func(o *functionOptions) { o.ignoreIfExists = true }
}

// CreateTemporaryFunctionFromIdentifier registers the Go function
// registered under identifier as a temporary catalog function (PyFlink's
// create_java_temporary_function).
func (t *TableEnvironment) CreateTemporaryFunctionFromIdentifier(path, identifier string) error {
	fn, ok := lookupGoFunction(identifier)
	if !ok {
		return errorf("Function class '%s' is not a registered Go function; register it with table.RegisterGoUDF", identifier)
	}
	return t.addTempCatalog(path, fn)
}

// CreateTemporarySystemFunctionFromIdentifier registers the Go function
// registered under identifier as a temporary system function (PyFlink's
// create_java_temporary_system_function).
func (t *TableEnvironment) CreateTemporarySystemFunctionFromIdentifier(name, identifier string) error {
	fn, ok := lookupGoFunction(identifier)
	if !ok {
		return errorf("Function class '%s' is not a registered Go function; register it with table.RegisterGoUDF", identifier)
	}
	return t.addTempSystem(name, fn, false)
}

// RegisterFunction registers a user function as a temporary system
// function, replacing an existing one of that name (PyFlink's
// register_function).
//
// Deprecated: use CreateTemporarySystemFunction.
func (t *TableEnvironment) RegisterFunction(name string, f *UserDefinedFunction) error {
	fn, err := f.function()
	if err != nil {
		return err
	}
	return t.addTempSystem(name, fn, true)
}

// RegisterJavaFunction registers the Go function registered under
// identifier as a temporary system function, replacing an existing one
// (PyFlink's register_java_function).
//
// Deprecated: use CreateTemporarySystemFunctionFromIdentifier.
func (t *TableEnvironment) RegisterJavaFunction(name, identifier string) error {
	fn, ok := lookupGoFunction(identifier)
	if !ok {
		return errorf("Function class '%s' is not a registered Go function; register it with table.RegisterGoUDF", identifier)
	}
	return t.addTempSystem(name, fn, true)
}

// DropFunction drops a permanent catalog function and reports whether one
// existed (PyFlink's drop_function).
func (t *TableEnvironment) DropFunction(path string) (bool, error) {
	id, err := t.qualifyPath(path)
	if err != nil {
		return false, err
	}
	id.Object = strings.ToLower(id.Object)
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return false, nil
	}
	if !c.FunctionExists(id.Path()) {
		return false, nil
	}
	if err := c.DropFunction(id.Path(), true); err != nil {
		return false, err
	}
	return true, nil
}

// DropTemporaryFunction drops a temporary catalog function and reports
// whether one existed; a permanent function at the path is used again
// (PyFlink's drop_temporary_function).
func (t *TableEnvironment) DropTemporaryFunction(path string) (bool, error) {
	id, err := t.qualifyPath(path)
	if err != nil {
		return false, err
	}
	id.Object = strings.ToLower(id.Object)
	t.funcs.mu.Lock()
	defer t.funcs.mu.Unlock()
	_, ok := t.funcs.tempCat[id]
	delete(t.funcs.tempCat, id)
	return ok, nil
}

// DropTemporarySystemFunction drops a temporary system function and
// reports whether one existed (PyFlink's drop_temporary_system_function).
func (t *TableEnvironment) DropTemporarySystemFunction(name string) bool {
	key := strings.ToLower(name)
	t.funcs.mu.Lock()
	defer t.funcs.mu.Unlock()
	_, ok := t.funcs.tempSystem[key]
	delete(t.funcs.tempSystem, key)
	return ok
}

// ListUserDefinedFunctions lists the names of user-defined functions:
// temporary system functions and the temporary and permanent catalog
// functions of the current database (PyFlink's
// list_user_defined_functions).
func (t *TableEnvironment) ListUserDefinedFunctions() []string { return t.funcs.userNames() }

// ListFunctions lists all function names: those of the used modules
// (built-in functions) and user-defined ones (PyFlink's list_functions).
func (t *TableEnvironment) ListFunctions() []string {
	set := map[string]bool{}
	for _, n := range t.modules.functionNames() {
		set[n] = true
	}
	for _, n := range t.funcs.userNames() {
		set[n] = true
	}
	return sortedStrings(set)
}

// ---------------------------------------------------------------- not applicable

// ErrNotApplicable is returned by PyFlink methods that have no meaning for
// Go programs (Python dependency management).
var ErrNotApplicable = errors.New("not applicable in Go: Riffle runs Go functions in-process, so there is no Python worker to configure")
