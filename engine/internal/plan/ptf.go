package plan

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// ProcessTableFunction is a call of a process table function in FROM
// (Calcite's LogicalTableFunctionScan with a PTF invocation): Input is
// the table argument (a one-row Values for a PTF called with scalar
// arguments only). Its columns are the partition keys (set semantics) or
// every input column (pass-through), the function's output columns, and
// rowtime when on_time is given.
type ProcessTableFunction struct {
	Input Node
	Spec  *opspec.PTFSpec
	Cols  []Column
}

func (p *ProcessTableFunction) Columns() []Column { return p.Cols }
func (p *ProcessTableFunction) Inputs() []Node    { return []Node{p.Input} }
func (p *ProcessTableFunction) WithInputs(in []Node) Node {
	c := *p
	c.Input = in[0]
	return &c
}
func (p *ProcessTableFunction) Describe() string {
	return "LogicalTableFunctionScan(invocation=[" + p.Spec.Invocation + "], rowType=[" + RowTypeString(p.Cols) + "])"
}

// RowTypeString renders columns as Calcite's RecordType(T1 a, T2 b).
func RowTypeString(cols []Column) string {
	row := make([]string, len(cols))
	for i, c := range cols {
		row[i] = c.Type.String() + " " + c.Name
	}
	return "RecordType(" + strings.Join(row, ", ") + ")"
}
