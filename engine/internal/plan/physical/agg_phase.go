package physical

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Two-phase aggregation of batch GROUP BY (Flink's
// table.optimizer.agg-phase-strategy): a LocalHashAggregate per input task
// folds its rows into one partial row per group before the exchange, and
// HashAggregate(isMerge=[true]) after it merges the partial rows of every
// task. The exchange then carries a few rows per group and task instead of
// every input row.
//
// A single COUNT(DISTINCT x) column is planned as Flink plans it in batch
// mode: the distinct (keys, x) pairs are aggregated first (two phases,
// no aggregate calls), then COUNT(x) per key over them (two phases).

// LocalGroupAggregate is the local phase of a two-phase batch aggregate
// (Flink's LocalHashAggregate): per input task, it emits at the end of its
// input one row per group, the group keys followed by the partial state of
// every aggregate call (partialCols: AVG has two columns, sum and count).
type LocalGroupAggregate struct {
	Keys []int
	Aggs []opspec.AggSpec
}

func (*LocalGroupAggregate) Name() string { return "LocalHashAggregate" }
func (a *LocalGroupAggregate) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	var attrs []Attr
	var keys []string
	for _, k := range a.Keys {
		keys = append(keys, names[k])
	}
	if len(keys) > 0 {
		attrs = append(attrs, Attr{Name: "groupBy", Value: strings.Join(keys, ", ")})
	}
	sel := append([]string(nil), keys...)
	col := len(a.Keys)
	for _, ag := range a.Aggs {
		w := len(partialTypes(ag))
		outs := plan.Names(n.Cols[col : col+w])
		col += w
		as := outs[0]
		if w > 1 {
			as = "(" + strings.Join(outs, ", ") + ")"
		}
		sel = append(sel, "Partial_"+plan.AggString(ag, names)+" AS "+as)
	}
	return append(attrs, Attr{Name: "select", Value: strings.Join(sel, ", ")})
}

// finalAggString renders the merge of a call's partial columns as Flink's
// HashAggregate(isMerge=[true]) prints it: Final_AVG(sum$1, count$2).
func finalAggString(ag opspec.AggSpec, cols []int, names []string) string {
	args := make([]string, len(cols))
	for i, c := range cols {
		args[i] = names[c]
	}
	return "Final_" + ag.Func + "(" + strings.Join(args, ", ") + ")"
}

// partialTypes are the types of a call's partial state columns; nil when
// the call cannot be split into two phases.
func partialTypes(ag opspec.AggSpec) []*types.DataType {
	if ag.Fn != nil || ag.Distinct {
		return nil
	}
	switch ag.Func {
	case "COUNT":
		return []*types.DataType{types.BigIntType().NotNull()}
	case "SUM", "SUM0", "MIN", "MAX":
		return []*types.DataType{ag.Type}
	case "AVG":
		if len(ag.ArgTypes) != 1 {
			return nil
		}
		switch t := ag.ArgTypes[0]; {
		case t.Root == types.DecimalRoot:
			return nil
		case t.IsApproxNumeric():
			return []*types.DataType{types.DoubleType().NotNull(), types.BigIntType().NotNull()}
		default:
			return []*types.DataType{types.BigIntType().NotNull(), types.BigIntType().NotNull()}
		}
	}
	return nil
}

// partialNames are Flink's names of a call's partial state columns, j being
// the index of the first among all partial columns: count1$0 for
// COUNT(*), count$0, sum$0, min$0, max$0, (sum$0, count$1) for AVG.
func partialNames(ag opspec.AggSpec, j int) []string {
	switch ag.Func {
	case "COUNT":
		if len(ag.Args) == 0 {
			return []string{fmt.Sprintf("count1$%d", j)}
		}
		return []string{fmt.Sprintf("count$%d", j)}
	case "AVG":
		return []string{fmt.Sprintf("sum$%d", j), fmt.Sprintf("count$%d", j+1)}
	case "SUM0":
		return []string{fmt.Sprintf("sum$%d", j)}
	}
	return []string{fmt.Sprintf("%s$%d", strings.ToLower(ag.Func), j)}
}

// aggPhases returns the two-phase plan of a batch aggregate, or nil when it
// takes one phase: table.optimizer.agg-phase-strategy is ONE_PHASE, a call
// cannot be merged, or (AUTO) the input runs in one task, where a local
// phase would only add work.
func (pl *planner) aggPhases(in *Node, keys []int, aggs []opspec.AggSpec, cols []plan.Column) *Node {
	if pl.env.Streaming || !in.Mode.IsInsertOnly() {
		return nil
	}
	switch strings.ToUpper(pl.env.Config.GetString(config.AggPhaseStrategy.Key, "AUTO")) {
	case "ONE_PHASE":
		return nil
	case "TWO_PHASE":
	default:
		if in.Parallelism <= 1 {
			return pl.distinctFirst(in, keys, aggs, cols)
		}
	}
	if x, ok := singleCountDistinct(keys, aggs); ok {
		// the distinct (keys, x) pairs, then COUNT(x) per key
		innerKeys := append(append([]int(nil), keys...), x)
		var innerCols []plan.Column
		for _, k := range innerKeys {
			innerCols = append(innerCols, in.Cols[k])
		}
		inner := pl.twoPhase(in, innerKeys, nil, innerCols)
		outer := make([]opspec.AggSpec, len(aggs))
		for i, ag := range aggs {
			ag.Distinct = false
			ag.Args = []int{len(keys)}
			outer[i] = ag
		}
		return pl.twoPhase(inner, seq(len(keys)), outer, cols)
	}
	for _, ag := range aggs {
		if partialTypes(ag) == nil {
			return nil
		}
	}
	return pl.twoPhase(in, keys, aggs, cols)
}

// distinctFirst plans a single COUNT(DISTINCT x) of a batch aggregate
// whose input runs in one task as Flink's batch planner does at any
// parallelism: the distinct (keys, x) pairs first (one phase), then COUNT(x)
// per key over them; nil for other aggregates. It is the plan the second
// thread gets (aggPhases) without its local phases and exchanges, so both
// thread counts number the pairs the same way (pairIndex), not one thread
// a dictionary of x per group (distinctAcc).
func (pl *planner) distinctFirst(in *Node, keys []int, aggs []opspec.AggSpec, cols []plan.Column) *Node {
	x, ok := singleCountDistinct(keys, aggs)
	if !ok {
		return nil
	}
	innerKeys := append(append([]int(nil), keys...), x)
	var innerCols []plan.Column
	for _, k := range innerKeys {
		innerCols = append(innerCols, in.Cols[k])
	}
	inner := pl.aggregateOver(in, &plan.Aggregate{GroupKeys: innerKeys, Cols: innerCols})
	outer := make([]opspec.AggSpec, len(aggs))
	for i, ag := range aggs {
		ag.Distinct = false
		ag.Args = []int{len(keys)}
		outer[i] = ag
	}
	return pl.aggregateOver(inner, &plan.Aggregate{GroupKeys: seq(len(keys)), Aggs: outer, Cols: cols})
}

// singleCountDistinct reports aggregate calls that are all COUNT(DISTINCT
// x) of one column x that is not a group key, without FILTER.
func singleCountDistinct(keys []int, aggs []opspec.AggSpec) (int, bool) {
	if len(aggs) == 0 {
		return 0, false
	}
	x := -1
	for _, ag := range aggs {
		if ag.Fn != nil || !ag.Distinct || ag.Func != "COUNT" || len(ag.Args) != 1 || ag.Filter >= 0 || (x >= 0 && ag.Args[0] != x) {
			return 0, false
		}
		x = ag.Args[0]
	}
	for _, k := range keys {
		if k == x {
			return 0, false
		}
	}
	return x, true
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// twoPhase builds LocalHashAggregate → Exchange → HashAggregate(isMerge)
// over in; every call must have partialTypes.
func (pl *planner) twoPhase(in *Node, keys []int, aggs []opspec.AggSpec, cols []plan.Column) *Node {
	var localCols []plan.Column
	for _, k := range keys {
		localCols = append(localCols, in.Cols[k])
	}
	mergeCols := make([][]int, len(aggs))
	j := 0
	for i, ag := range aggs {
		ts, names := partialTypes(ag), partialNames(ag, j)
		for c, t := range ts {
			mergeCols[i] = append(mergeCols[i], len(localCols))
			localCols = append(localCols, plan.Column{Name: names[c], Type: t})
		}
		j += len(ts)
	}
	local := &Node{Op: &LocalGroupAggregate{Keys: append([]int(nil), keys...), Aggs: append([]opspec.AggSpec(nil), aggs...)},
		Inputs: []*Node{in}, Cols: localCols, Mode: types.InsertOnlyMode, Parallelism: in.Parallelism, rows: max(in.rows/10, 1)}
	par, dist := pl.env.parallelism(), opspec.Hash
	if len(keys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(local, dist, seq(len(keys)), par)
	global := &GroupAggregate{Keys: seq(len(keys)), Aggs: append([]opspec.AggSpec(nil), aggs...), Merge: true, MergeCols: mergeCols}
	p := &Node{Op: global, Inputs: []*Node{ex}, Cols: cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: max(in.rows/10, 1)}
	if len(keys) == 0 {
		p.rows = 1
	}
	return p
}
