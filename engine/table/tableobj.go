package table

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Table is a relational pipeline description (PyFlink's Table): a logical
// plan bound to its TableEnvironment. Nothing runs until Execute (or an
// INSERT) is called.
//
// Table operations (Select, Where, GroupBy, Join, ...) build the same
// logical plan as the equivalent SQL query and validate it at once. They
// return a *Table even when they fail: the failure is kept in the result
// and in every Table derived from it, and reported by Err, Execute,
// ExecuteInsert, Explain and the other methods that return an error. This
// keeps PyFlink-style chains readable:
//
//	res, err := tab.Where(Col("a").IsGreater(1)).Select(Col("a"), Col("b")).Execute()
type Table struct {
	env  *TableEnvironment
	node plan.Node
	name string
	err  error
	// ast is the query a Table API operation was bound from (nil for
	// tables read from a catalog, SQL queries and sources).
	ast *sql.Query
	// sort remembers an OrderBy / Offset / Fetch result so that a
	// following Offset or Fetch refines the same sort.
	sort *sortSpec
}

type sortSpec struct {
	input  *Table
	name   string
	keys   []*sql.OrderItem
	deps   *exprDeps
	offset int64
	fetch  int64
}

// SQLQuery binds a SELECT and returns it as a Table (PyFlink's sql_query).
// A Table's String (its registered name) may be used in the query text.
// It fails with a *sql.Error for syntax errors and a *ValidationError for
// validation errors (both with line and column).
func (t *TableEnvironment) SQLQuery(query string) (*Table, error) {
	st, err := sql.Parse(query)
	if err != nil {
		return nil, err
	}
	q, ok := st.(*sql.Query)
	if !ok {
		return nil, errorf("Only queries are supported by SQLQuery, got: %s", firstWords(query))
	}
	n, err := binder.BindQuery(t.bindContext(), q, query, sql.Pos{})
	if err != nil {
		return nil, err
	}
	return &Table{env: t, node: n}, nil
}

// failedTable returns a Table holding an error.
func (t *TableEnvironment) failedTable(err error) *Table { return &Table{env: t, err: err} }

// Err returns the error of the operation that built this table (or of an
// operation it was derived from), or nil.
func (t *Table) Err() error {
	if t == nil {
		return errorf("nil Table")
	}
	return t.err
}

// usable returns the error that keeps the table from being used: "nil
// Table" for a nil *Table (as returned next to an error by FromPath,
// FromElements, ...), or the error of the operation that built it.
func (t *Table) usable() error {
	if t == nil {
		return errorf("nil Table")
	}
	return t.err
}

// Environment returns the TableEnvironment the table belongs to (nil
// for a nil *Table).
func (t *Table) Environment() *TableEnvironment {
	if t == nil {
		return nil
	}
	return t.env
}

// QueryString renders the SQL query a Table API operation was bound from,
// with inputs shown by generated names; "" for tables that were not built
// by a Table API operation.
func (t *Table) QueryString() string {
	if t == nil || t.ast == nil {
		return ""
	}
	return sql.Format(t.ast)
}

// columns returns the table's output columns.
func (t *Table) columns() []plan.Column {
	if t == nil || t.node == nil {
		return nil
	}
	return t.node.Columns()
}

// Schema returns the table's columns (PyFlink's get_schema). A failed
// or nil table has an empty schema (see Err).
func (t *Table) Schema() *TableSchema {
	cols := t.columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	return NewTableSchema(names, ts)
}

// ResolvedSchema returns the table's columns as a resolved schema
// (Flink's getResolvedSchema), including time attribute markers.
func (t *Table) ResolvedSchema() *types.Schema {
	cols := t.columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	return types.NewPhysicalSchema(names, ts)
}

// PrintSchema prints the schema as a tree ("root\n |-- a: INT") to the
// environment's standard output (PyFlink's print_schema); a failed or nil
// table prints "root" alone.
func (t *Table) PrintSchema() {
	if t == nil || t.env == nil {
		t.PrintSchemaTo(os.Stdout)
		return
	}
	t.PrintSchemaTo(t.env.out())
}

// PrintSchemaTo writes the schema tree to w.
func (t *Table) PrintSchemaTo(w io.Writer) { fmt.Fprint(w, t.GetSchema().String()) }

// ExecuteContext runs the table as a query and returns its result, whose
// rows are collected to the client (PyFlink's execute). ctx bounds
// planning and submission, as ExecuteSQLContext's does; the job outlives
// the call (read its rows with TableResult.Rows, cancel it through the
// result's JobClient). It returns the table's error if it has one, or a
// planning error.
func (t *Table) ExecuteContext(ctx context.Context) (*TableResult, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	return t.env.runQuery(ctx, t.node, t.statement())
}

// Rows runs the table as a query and yields its rows as they arrive, each
// with its RowKind, until the job ends or ctx is cancelled: the
// iterator form of ExecuteContext followed by TableResult.Rows. An error
// (the table's, planning, or the job's failure) is yielded once, with a
// nil row, and ends the sequence. Stopping early cancels the job.
func (t *Table) Rows(ctx context.Context) iter.Seq2[*types.Row, error] {
	return func(yield func(*types.Row, error) bool) {
		res, err := t.ExecuteContext(ctx)
		if err != nil {
			yield(nil, err)
			return
		}
		res.Rows(ctx)(yield)
	}
}

// statement describes the table for job listings: its registered name, the
// query it was built from, or a generic label.
func (t *Table) statement() string {
	switch {
	case t.name != "":
		return "SELECT * FROM " + t.name
	case t.ast != nil:
		return t.QueryString()
	}
	return "Table API query"
}

// Explain returns the table's plan, with Flink's three EXPLAIN sections
// and the requested extra details (PyFlink's explain).
//
// It fails for the table's error and for a detail that is not one of the
// ExplainDetail constants.
func (t *Table) Explain(details ...ExplainDetail) (string, error) {
	if err := t.usable(); err != nil {
		return "", err
	}
	d, err := explainDetails(details)
	if err != nil {
		return "", err
	}
	return t.env.explainNodes([]plan.Node{&plan.Sink{Input: t.node, Collect: true}}, d)
}

// explainDetails converts the requested details; an ExplainDetail that is
// not one of the constants (the type is a string, so any value compiles)
// is an error, as Flink's enum cannot hold one. PLAN_ADVICE is accepted
// and adds nothing: Riffle has no plan advisor.
func explainDetails(details []ExplainDetail) (physical.ExplainDetail, error) {
	var d physical.ExplainDetail
	for _, x := range details {
		switch x {
		case EstimatedCost:
			d.EstimatedCost = true
		case ChangelogMode:
			d.ChangelogMode = true
		case JSONExecutionPlan:
			d.JSONPlan = true
		case PlanAdvice:
		default:
			return d, errorf("Unsupported ExplainDetail %q: expected one of ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN, PLAN_ADVICE", string(x))
		}
	}
	return d, nil
}

// String registers the table as an anonymous temporary view (once) and
// returns its quoted name, so that SQL can refer to it:
// env.SQLQuery("SELECT * FROM " + tbl.String()) — PyFlink's __str__. A
// failed table renders as "<invalid table: error>", a nil one as
// "<invalid table: nil Table>".
func (t *Table) String() string {
	if t == nil {
		return "<invalid table: nil Table>"
	}
	if t.err != nil {
		return "<invalid table: " + t.err.Error() + ">"
	}
	if t.name != "" {
		return t.name
	}
	t.env.mu.Lock()
	name := fmt.Sprintf("UnnamedTable$%d", t.env.unnamedID)
	t.env.unnamedID++
	t.env.mu.Unlock()
	id := catalog.ObjectIdentifier{Catalog: t.env.CurrentCatalog(), Database: t.env.CurrentDatabase(), Object: name}
	cols := t.node.Columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(names, ts), Plan: t.node, Query: "", Expanded: "", Catalog: id.Catalog, Database: id.Database}
	_ = t.env.catalogs.CreateTemporaryTable(id, v, true)
	t.name = "`" + name + "`"
	return t.name
}

// anonName returns a fresh internal name "$<prefix><n>".
func (t *TableEnvironment) anonName(prefix string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.anonID
	t.anonID++
	return fmt.Sprintf("$%s%d", prefix, n)
}

// out is where Print-style helpers write.
func (t *TableEnvironment) out() io.Writer {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stdout == nil {
		return os.Stdout
	}
	return t.stdout
}

// derive binds a query over input tables into a new Table. inputs maps
// the names used in the query's FROM clauses to tables; deps are the
// expressions' dependencies (sub-query tables, inline functions).
func (t *TableEnvironment) derive(q *sql.Query, inputs map[string]*Table, deps *exprDeps) *Table {
	nodes := map[string]plan.Node{}
	for name, in := range inputs {
		if err := t.checkInput(in); err != nil {
			return t.failedTable(err)
		}
		nodes[name] = in.node
	}
	if deps != nil {
		for name, in := range deps.tables {
			if err := t.checkInput(in); err != nil {
				return t.failedTable(err)
			}
			nodes[name] = in.node
		}
		for key, f := range deps.funcs {
			fn, err := f.function()
			if err != nil {
				return t.failedTable(err)
			}
			t.funcs.addInline(key, fn)
		}
	}
	n, err := binder.BindQueryWithInputs(t.bindContext(), q, nodes)
	if err != nil {
		return t.failedTable(err)
	}
	return &Table{env: t, node: n, ast: q}
}

func (t *TableEnvironment) checkInput(in *Table) error {
	if in == nil {
		return errorf("nil Table")
	}
	if in.err != nil {
		return in.err
	}
	if in.env != t {
		return errorf("Only tables from the same TableEnvironment can be used together")
	}
	return nil
}

// resolver returns a resolver over the table's columns.
func (t *Table) resolver() *resolver { return &resolver{env: t.env, cols: t.columns()} }

// ensure the expression package's kernels are linked (UDF kernels use it).
var _ = expr.ScalarKind

// Ordinal returns the detail's position in Flink's ExplainDetail enum:
// ESTIMATED_COST 0, CHANGELOG_MODE 1, JSON_EXECUTION_PLAN 2 (PLAN_ADVICE,
// a later addition, 3; -1 for unknown values).
func (d ExplainDetail) Ordinal() int {
	switch d {
	case EstimatedCost:
		return 0
	case ChangelogMode:
		return 1
	case JSONExecutionPlan:
		return 2
	case PlanAdvice:
		return 3
	}
	return -1
}
