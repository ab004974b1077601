// Package binder binds SQL to logical plans: it resolves names against
// the catalogs of a plan.Context, types every expression through
// engine/expr's registry, decorrelates subqueries and builds the
// engine/internal/plan nodes of a query (BindQuery; BindQueryWithInputs for the
// Table API's inputs). It also resolves a CREATE TABLE's schema
// (ResolveSchema), a view's columns (ViewColumns) and computed-column
// expressions (BindExpr, ReferencedColumns). A validation error is a
// *plan.Error with line, column and, where it can, a "did you mean".
package binder
