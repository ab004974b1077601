package plan

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// TemporalJoin joins each left row with the version of a right table as
// of the left row's time (FOR SYSTEM_TIME AS OF, Flink's
// docs/dev/table/sql/queries/joins.md "Temporal Joins"):
//
//   - over a processing-time attribute it is a lookup join: the right
//     table (bounded) is read into memory and each left row looks up its
//     key as it arrives (Flink's LookupJoin);
//   - over a rowtime attribute it is an event-time temporal join against
//     a versioned table (a primary key and a rowtime): left rows wait for
//     the watermark and join the right version valid at their time.
//
// Cond is over left ++ right columns; Kind is inner or left.
type TemporalJoin struct {
	Left, Right Node
	Kind        opspec.JoinKind
	Cond        expr.Expr
	Cols        []Column
	// TimeCol is the left column named by FOR SYSTEM_TIME AS OF.
	TimeCol  int
	Proctime bool
	// RightID and RightTable identify the right table.
	RightID    catalog.ObjectIdentifier
	RightTable *catalog.Table
}

func (t *TemporalJoin) Columns() []Column { return t.Cols }

func (t *TemporalJoin) Inputs() []Node { return []Node{t.Left, t.Right} }

func (t *TemporalJoin) WithInputs(in []Node) Node {
	c := *t
	c.Left, c.Right = in[0], in[1]
	return &c
}

// Describe renders Calcite's correlate over a snapshot.
func (t *TemporalJoin) Describe() string {
	cond := "true"
	if t.Cond != nil {
		cond = RefString(t.Cond)
	}
	kind := "inner"
	if t.Kind == opspec.LeftJoin {
		kind = "left"
	}
	return fmt.Sprintf("LogicalTemporalJoin(condition=[%s], joinType=[%s], period=[$%d])", cond, kind, t.TimeCol)
}
