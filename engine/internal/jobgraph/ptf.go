package jobgraph

import (
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// processTableFunction builds the operator of a process table function:
// a new function instance (Def.New) for every parallel task.
func (b *builder) processTableFunction(p *physical.Node, x *physical.ProcessTableFunction) func() runtime.Operator {
	in := p.Inputs[0].Cols
	ts, outTs, names := colTypes(in), plan.Types(p.Cols), plan.Names(in)
	return func() runtime.Operator {
		op := &runtime.ProcessTableFunction{Spec: x.Spec, InTypes: ts, OutTypes: outTs}
		op.SetColumnNames(names)
		return op
	}
}
