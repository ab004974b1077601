package physical

import (
	"context"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// BroadcastJoinThreshold is Flink's table.optimizer.join.broadcast-threshold:
// the largest estimated size in bytes of a batch hash join's input that
// is broadcast to every instance of the join (-1: never).
var BroadcastJoinThreshold = config.Register(config.Option{Key: "table.optimizer.join.broadcast-threshold", Default: "1048576", Kind: "int",
	Description: "Maximum estimated size in bytes of a batch join input that is broadcast to every instance of the join (BroadcastHashJoin) instead of shuffling both inputs by key; -1 disables broadcasting."})

// broadcastRight decides, as Flink's BatchPhysicalHashJoinRule does,
// whether a batch hash join broadcasts its right input: both inputs'
// sizes must be known (sources that report statistics, VALUES, and Calcs
// and exchanges above them), and the right input's estimated size must be
// at most the threshold. LEFT, SEMI and ANTI joins broadcast the right
// input; an INNER join broadcasts the smaller input, so only when that is
// the right one (Riffle builds the right input; where Flink would
// broadcast and build the left one, Riffle shuffles both). RIGHT and
// FULL joins, whose unmatched build rows one instance alone can emit,
// never broadcast the right input.
//
// The probe input is then not shuffled: every join instance reads a part
// of it and the whole build input.
func (pl *planner) broadcastRight(kind opspec.JoinKind, left, right *Node) bool {
	threshold := pl.env.Config.GetInteger(BroadcastJoinThreshold.Key, 1048576)
	if threshold < 0 {
		return false
	}
	switch kind {
	case opspec.InnerJoin, opspec.LeftJoin, opspec.SemiJoin, opspec.AntiJoin:
	default:
		return false
	}
	lr, lok := estimatedRows(left)
	rr, rok := estimatedRows(right)
	if !lok || !rok {
		return false
	}
	ls, rs := lr*binaryRowSize(left.Cols), rr*binaryRowSize(right.Cols)
	if rs > float64(threshold) {
		return false
	}
	return kind != opspec.InnerJoin || !(ls < rs)
}

// estimatedRows is the row count of n's output known from statistics:
// a source reporting them (connector.ReportsStatistics), VALUES, and a
// Calc (its condition's selectivity applied) or exchange above one.
// Otherwise ok is false: Flink does not broadcast an input of unknown
// size.
func estimatedRows(n *Node) (rows float64, ok bool) {
	switch x := n.Op.(type) {
	case *TableSourceScan:
		r, isReporter := x.Source.(connector.ReportsStatistics)
		if !isReporter {
			return 0, false
		}
		c, ok := r.EstimatedRowCount(context.Background())
		return float64(c), ok
	case *Values:
		return float64(len(x.Rows)), true
	case *Calc:
		in, ok := estimatedRows(n.Inputs[0])
		if ok && x.Where != nil {
			in *= selectivity(x.Where)
		}
		return in, ok
	case *Exchange:
		return estimatedRows(n.Inputs[0])
	}
	return 0, false
}

// binaryRowSize is the average size in bytes of a row of cols in Flink's
// binary row format (FlinkRelMdUtil.binaryRowAverageSize): the fixed part
// (null bits and 8 bytes per field) plus the average size of each
// variable-length value (strings, binary strings, wide decimals,
// collections, rows, RAW).
func binaryRowSize(cols []plan.Column) float64 {
	n := len(cols)
	size := float64(((n+63+8)/64)*8 + 8*n)
	for _, c := range cols {
		switch c.Type.Root {
		case types.Char, types.VarChar, types.Binary, types.VarBinary, types.ArrayRoot, types.MultisetRoot,
			types.MapRoot, types.RowRoot, types.Raw, types.VariantRoot:
			size += avgValueSize(c.Type)
		case types.DecimalRoot:
			if c.Type.Precision > 18 {
				size += avgValueSize(c.Type)
			}
		}
	}
	return size
}
