package connector

import (
	"fmt"
	"strings"
)

// Filter pushdown (Flink's SupportsFilterPushDown): the planner offers a
// source the conjuncts of a WHERE clause directly above its scan, in a
// small predicate language of its own so that connectors need no engine
// internals, and the source says which it evaluates exactly. A database
// source turns them into its SQL; a Parquet source uses them to skip row
// groups by their statistics but still lets the Filter run (not exact).

// PredicateOp is the operator of one Predicate node.
type PredicateOp string

// The operators a Predicate can hold. Comparisons compare a column with a
// literal; IsNull/IsNotNull test a column; In lists literals; And, Or and
// Not combine Args.
const (
	OpEq        PredicateOp = "="
	OpNotEq     PredicateOp = "<>"
	OpLess      PredicateOp = "<"
	OpLessEq    PredicateOp = "<="
	OpGreater   PredicateOp = ">"
	OpGreaterEq PredicateOp = ">="
	OpIsNull    PredicateOp = "IS NULL"
	OpIsNotNull PredicateOp = "IS NOT NULL"
	OpIn        PredicateOp = "IN"
	OpLike      PredicateOp = "LIKE"
	OpAnd       PredicateOp = "AND"
	OpOr        PredicateOp = "OR"
	OpNot       PredicateOp = "NOT"
)

// Predicate is one filter offered to a source: a tree of And/Or/Not over
// leaves that compare one physical column with literals.
//
// For a leaf, Column is the index into the table's physical columns
// (Context.PhysicalNames), Name its name, and Value (comparisons, LIKE) or
// Values (IN) hold literals as the engine's Go values for the column's type
// (int64 for BIGINT, string for STRING, types.Decimal, time.Time for
// TIMESTAMP, ...; see engine/types). A literal is never nil: the planner
// does not offer comparisons with NULL. For And/Or, Args holds two or more
// operands; for Not, one.
type Predicate struct {
	Op     PredicateOp
	Column int
	Name   string
	Value  any
	Values []any
	Args   []*Predicate
}

// String renders the predicate in SQL for EXPLAIN and errors, e.g.
// "AND(>(dep_delay, 10), IS NOT NULL(origin))" in Flink's prefix style.
func (p *Predicate) String() string {
	switch p.Op {
	case OpAnd, OpOr, OpNot:
		parts := make([]string, len(p.Args))
		for i, a := range p.Args {
			parts[i] = a.String()
		}
		return fmt.Sprintf("%s(%s)", p.Op, strings.Join(parts, ", "))
	case OpIsNull, OpIsNotNull:
		return fmt.Sprintf("%s(%s)", p.Op, p.Name)
	case OpIn:
		parts := make([]string, len(p.Values))
		for i, v := range p.Values {
			parts[i] = literalString(v)
		}
		return fmt.Sprintf("IN(%s, %s)", p.Name, strings.Join(parts, ", "))
	default:
		return fmt.Sprintf("%s(%s, %s)", p.Op, p.Name, literalString(p.Value))
	}
}

func literalString(v any) string {
	if s, ok := v.(string); ok {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return fmt.Sprint(v)
}

// FilterSource is implemented by sources that can evaluate filters
// themselves (Flink's SupportsFilterPushDown). The planner calls
// ApplyFilters once, while planning and before Splits, with the conjuncts it
// could translate; the source keeps what it can use and returns, for each
// conjunct, whether it guarantees that every row it yields satisfies it
// (exact). The planner removes exact conjuncts from the Filter above the
// scan and prints all accepted ones in EXPLAIN as filter=[...]; a source
// that only uses a conjunct to skip data (row-group statistics) returns
// false for it, and the Filter keeps it.
type FilterSource interface {
	ApplyFilters(filters []*Predicate) (exact []bool)
}

// LimitSource is implemented by sources that can stop after a number of
// rows themselves (Flink's SupportsLimitPushDown, e.g. SQL LIMIT in a
// database query). ReadSpec.Limit carries the limit to every source; a
// source implementing LimitSource reports that it applies it exactly, per
// split, so EXPLAIN shows limit=[n] on the scan.
type LimitSource interface {
	AppliesLimit() bool
}

// FilterAccepter may be implemented by a FilterSource that ignores some of
// the filters it is offered (Flink's accepted filters, SupportsFilterPushDown
// Result.acceptedFilters): after ApplyFilters, AcceptedFilters reports for
// each offered filter whether the source uses it at all, exactly or only to
// skip data. EXPLAIN's filter=[...] lists the accepted ones; without this
// interface every offered filter counts as accepted.
type FilterAccepter interface {
	AcceptedFilters() []bool
}
