package binder

import (
	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
)

// BindQueryWithInputs binds a query in which one-part table names listed
// in inputs stand for already bound plans, as if each were a WITH item of
// the query. The Table API builds every operation as a query over its
// input tables (referenced by generated names) and binds it here, so that
// Table API programs and SQL share name resolution, type inference, rules
// and error messages. A name in inputs shadows a catalog table of the same
// name; the query's own WITH items shadow inputs.
func BindQueryWithInputs(ctx *plan.Context, q *sql.Query, inputs map[string]plan.Node) (n plan.Node, err error) {
	b := newBinder(ctx, "", sql.Pos{})
	defer b.recoverErr(&err)
	if len(inputs) > 0 {
		defs := make(map[string]*cteDef, len(inputs))
		for name, in := range inputs {
			defs[name] = &cteDef{node: in, cols: in.Columns()}
		}
		b.ctes = append(b.ctes, defs)
	}
	n, _ = b.query(q, nil)
	return n, nil
}

// BindExprWithInputs binds a scalar expression over the columns of an
// input plan (a one-row-at-a-time view of cols, with relation name alias
// when not empty). It is used by the Table API for expressions that are
// not part of a query (watermark and computed column expressions given as
// Expression objects).
func BindExprWithInputs(ctx *plan.Context, e sql.Expr, cols []plan.Column, alias string) (x expr.Expr, err error) {
	b := newBinder(ctx, "", sql.Pos{})
	defer b.recoverErr(&err)
	sc := scopeOf(cols, alias, nil)
	return b.expr(e, sc), nil
}

// ScanTable builds the plan that reads a catalog table (its scan,
// computed columns and watermark), as a FROM clause naming it would, for
// tables that are not registered in a catalog (the Table API's
// FromDescriptor and DataStream sources).
func ScanTable(ctx *plan.Context, id catalog.ObjectIdentifier, t *catalog.Table) (n plan.Node, err error) {
	b := newBinder(ctx, "", sql.Pos{})
	defer b.recoverErr(&err)
	return b.tableScan(id, t, nil), nil
}
