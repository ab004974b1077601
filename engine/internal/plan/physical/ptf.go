package physical

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// ProcessTableFunction runs a process table function (Flink's
// StreamPhysicalProcessTableFunction): rows hashed by the PARTITION BY
// keys (one task for a set-semantic table without them), forwarded for
// row semantics; inserts out.
type ProcessTableFunction struct {
	Spec *opspec.PTFSpec
}

func (*ProcessTableFunction) Name() string { return "ProcessTableFunction" }
func (p *ProcessTableFunction) Explain(n *Node) []Attr {
	uid := "null"
	switch {
	case p.Spec.UID != "":
		uid = p.Spec.UID
	case p.Spec.SetSemantics:
		uid = p.Spec.Name
	}
	return []Attr{{Name: "invocation", Value: p.Spec.Invocation}, {Name: "uid", Value: uid},
		{Name: "select", Value: strings.Join(plan.Names(n.Cols), ",")}, {Name: "rowType", Value: plan.RowTypeString(n.Cols)}}
}

func (pl *planner) processTableFunction(x *plan.ProcessTableFunction) *Node {
	s := x.Spec
	if !pl.env.Streaming && s.Def.UpdatingOutput {
		// Flink 2.3 plans no process table function in batch mode: no batch
		// rule converts its FlinkLogicalTableFunctionScan, and Calcite's
		// Volcano planner gives up with this (CannotPlanException; checked
		// against Flink 2.3.0 in ptf_to_changelog.q). Riffle runs the
		// insert-only ones (riffle-only) but refuses, as Flink does, one
		// that produces changes (FROM_CHANGELOG, a user-defined PTF with
		// UpdatingOutput): batch operators consume inserts only.
		pl.fail("There are not enough rules to produce a node with desired properties: convention=BATCH_PHYSICAL, FlinkRelDistributionTraitDef=any, sort=[].\n"+
			"Missing conversion is FlinkLogicalTableFunctionScan[convention: LOGICAL -> BATCH_PHYSICAL] (%s: a process table function whose output is updating cannot run in batch mode)", s.Name)
	}
	in := pl.translate(x.Input)
	if s.HasTable && !s.Def.Args[s.Def.TableArg()].SupportUpdates {
		pl.requireInsertOnly("StreamPhysicalProcessTableFunction", in)
	}
	mode := types.InsertOnlyMode
	if s.Def.UpdatingOutput {
		mode = types.RetractMode
	}
	if s.TimeCol >= 0 && (s.Def.UpdatingOutput || pl.env.Streaming && !in.Mode.IsInsertOnly()) {
		pl.fail("Time operations using the `on_time` argument are currently not supported for PTFs that consume or produce updates.")
	}
	par := in.Parallelism
	if s.SetSemantics {
		par = pl.env.parallelism()
		dist := opspec.Hash
		if len(s.PartitionKeys) == 0 {
			par, dist = 1, opspec.Single
		}
		in = pl.exchange(in, dist, s.PartitionKeys, par)
	}
	if !s.HasTable {
		par = 1
	}
	return &Node{Op: &ProcessTableFunction{Spec: s}, Inputs: []*Node{in}, Cols: x.Cols, Parallelism: par, Mode: mode, rows: in.rows}
}
