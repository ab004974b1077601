package plan

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
)

// Correlate applies a table function to each row of its input (LATERAL
// TABLE, UNNEST). Its columns are the input's followed by the function's.
type Correlate struct {
	Input Node
	Call  *expr.TableCall
	// Left keeps input rows for which the function emits nothing (LEFT
	// JOIN LATERAL ... ON TRUE), with NULLs.
	Left bool
	// Cond is an ON condition over the joined row, or nil.
	Cond expr.Expr
	Cols []Column
}

func (c *Correlate) Columns() []Column { return c.Cols }
func (c *Correlate) Inputs() []Node    { return []Node{c.Input} }
func (c *Correlate) WithInputs(in []Node) Node {
	x := *c
	x.Input = in[0]
	return &x
}
func (c *Correlate) Describe() string {
	jt := "inner"
	if c.Left {
		jt = "left"
	}
	return fmt.Sprintf("LogicalCorrelate(correlation=[$cor0], joinType=[%s], requiredColumns=[{%s}])", jt, requiredCols(c.Call.Args))
}

func requiredCols(args []expr.Expr) string {
	seen := map[int]bool{}
	var out []string
	for _, a := range args {
		for _, r := range expr.InputRefs(a) {
			if !seen[r] {
				seen[r] = true
				out = append(out, fmt.Sprint(r))
			}
		}
	}
	return strings.Join(out, ", ")
}
