package opspec

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// AggSpec describes one aggregate call of a GROUP BY (Flink's AggregateCall).
type AggSpec struct {
	// Func is the upper-case function name: COUNT, SUM, SUM0, AVG, MIN, MAX, ...
	Func string
	// Args are input column indexes (empty for COUNT(*)).
	Args     []int
	ArgTypes []*types.DataType
	Distinct bool
	// Filter is the index of a BOOLEAN input column (FILTER (WHERE ...)), or -1.
	Filter int
	// Type is the result type.
	Type *types.DataType
	// Name is the output column name, for plans.
	Name string
	// Fn is the function of a user-defined aggregate (Fn.Aggregate set);
	// nil for built-in aggregates.
	Fn *expr.Function
	// Params are literal parameters of the call that are not input columns:
	// the separator of LISTAGG, the percentage of PERCENTILE.
	Params []any
	// Flags carries a clause of the call: "IGNORE NULLS" / "RESPECT NULLS"
	// (ARRAY_AGG), "NULL ON NULL" / "ABSENT ON NULL" (JSON_OBJECTAGG,
	// JSON_ARRAYAGG).
	Flags string
	// Raw marks a JSON aggregate whose value argument is JSON text from a
	// nested JSON constructor (inserted as JSON, not as a string).
	Raw bool
}

// String renders the call as in Flink's plans: "COUNT(DISTINCT $1)".
func (s AggSpec) String() string {
	var b strings.Builder
	b.WriteString(s.Func)
	b.WriteByte('(')
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", a)
	}
	if len(s.Args) == 0 && s.Func == "COUNT" {
		b.WriteString("*")
	}
	b.WriteByte(')')
	return b.String()
}
