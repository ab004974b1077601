package plan

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// reduceEmptyAggregates replaces a global aggregate (no GROUP BY) over an
// input that is empty by construction (a WHERE that folds to FALSE or
// UNKNOWN, e.g. `x <> CAST(NULL AS INT)`) by the one row it yields, as
// Flink's planner does (Calcite's PruneEmptyRules and AggregateValuesRule):
// COUNT gives 0, SUM, MIN, MAX and AVG give NULL. With any other
// aggregate (variance, LISTAGG, ...) the plan is kept, as Flink keeps it.
//
// The difference shows in streaming mode: a streaming aggregate emits
// nothing until a row arrives, so Riffle returned no row where Flink
// returns e.g. (0, NULL) for SELECT COUNT(*), SUM(m) FROM t WHERE 1 = 0.
func reduceEmptyAggregates(n Node) Node {
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]Node, len(in))
		for i, c := range in {
			next[i] = reduceEmptyAggregates(c)
		}
		n = n.WithInputs(next)
	}
	a, ok := n.(*Aggregate)
	if !ok || len(a.GroupKeys) > 0 || !provablyEmpty(a.Input) {
		return n
	}
	row := make([]expr.Expr, len(a.Aggs))
	for i, ag := range a.Aggs {
		t := a.Cols[i].Type
		switch ag.Func {
		case "COUNT":
			row[i] = &expr.Literal{Value: int64(0), T: t}
		case "SUM", "MIN", "MAX", "AVG":
			row[i] = &expr.Literal{Value: nil, T: t.WithNullable(true)}
		default:
			return n
		}
	}
	cols := make([]Column, len(a.Cols))
	for i, c := range a.Cols {
		cols[i] = Column{Name: c.Name, Type: row[i].Type()}
	}
	return &Values{Rows: [][]expr.Expr{row}, Cols: cols}
}

// provablyEmpty reports an input that yields no rows whatever the data:
// an empty VALUES, or a filter (under projections and filters) with a
// conjunct that is FALSE or UNKNOWN for every row.
func provablyEmpty(n Node) bool {
	switch x := n.(type) {
	case *Values:
		return len(x.Rows) == 0
	case *Project:
		return provablyEmpty(x.Input)
	case *Filter:
		for _, c := range conjuncts(x.Cond) {
			if neverTrue(c) {
				return true
			}
		}
		return provablyEmpty(x.Input)
	}
	return false
}

// neverTrue reports a condition that is FALSE or NULL for every row: a
// FALSE or NULL literal, a comparison with a NULL literal, IS NULL /
// IS UNKNOWN of an expression that cannot be NULL, IS NOT NULL of a NULL
// literal, and AND with such an operand.
func neverTrue(e expr.Expr) bool {
	switch x := e.(type) {
	case *expr.Literal:
		return x.Value == nil || x.Value == false
	case *expr.Call:
		switch x.Name {
		case "=", "<>", "<", "<=", ">", ">=":
			for _, a := range x.Args {
				if isNullLiteral(a) {
					return true
				}
			}
		case "IS NULL", "IS UNKNOWN":
			return len(x.Args) == 1 && !x.Args[0].Type().Nullable
		case "IS NOT NULL":
			return len(x.Args) == 1 && isNullLiteral(x.Args[0])
		case "AND":
			for _, a := range x.Args {
				if neverTrue(a) {
					return true
				}
			}
		}
	}
	return false
}

func isNullLiteral(e expr.Expr) bool {
	l, ok := e.(*expr.Literal)
	return ok && l.Value == nil && l.T.Root != types.Symbol
}
