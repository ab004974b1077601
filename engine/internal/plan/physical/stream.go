package physical

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// translateStreaming plans the nodes of the streaming rules (windows,
// OVER, Top-N, deduplication, interval and temporal joins); nil means n
// is not one of them.
func (pl *planner) translateStreaming(n plan.Node) *Node {
	switch x := n.(type) {
	case *plan.WindowTVF:
		return pl.windowTVF(x)
	case *plan.WindowAggregate:
		return pl.windowAggregate(x)
	case *plan.Over:
		return pl.over(x)
	case *plan.TemporalJoin:
		return pl.temporalJoin(x)
	case *plan.WindowJoin:
		return pl.windowJoin(x)
	case *plan.WindowRank:
		return pl.windowRank(x)
	case *plan.MatchRecognize:
		return pl.match(x)
	case *plan.ProcessTableFunction:
		return pl.processTableFunction(x)
	}
	return nil
}

// requireInsertOnly fails, with Flink's message, when an operator that
// only consumes inserts gets an updating input.
func (pl *planner) requireInsertOnly(op string, in *Node) {
	if pl.env.Streaming && !in.Mode.IsInsertOnly() {
		pl.fail("%s doesn't support consuming %s which is produced by node %s", op, changesOf(in.Mode), describeTop(in))
	}
}

// changesOf names the non-insert changes of a mode as Flink's
// FlinkChangelogModeInferenceProgram does in its errors: "update changes",
// "delete changes" or "update and delete changes".
func changesOf(m types.ChangelogMode) string {
	upd := m.Contains(types.UpdateAfter) || m.Contains(types.UpdateBefore)
	del := m.Contains(types.Delete)
	switch {
	case upd && !del:
		return "update changes"
	case del && !upd:
		return "delete changes"
	}
	return "update and delete changes"
}

func (pl *planner) windowTVF(w *plan.WindowTVF) *Node {
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowTableFunction", in)
	op := &WindowTableFunction{Window: w.Window, TimeCol: w.TimeCol}
	if w.Window.Kind == opspec.SessionWindow {
		par := pl.env.parallelism()
		dist := opspec.Hash
		if len(w.PartitionKeys) == 0 {
			par, dist = 1, opspec.Single
		}
		ex := pl.exchange(in, dist, w.PartitionKeys, par)
		op.PartitionKeys = append([]int(nil), w.PartitionKeys...)
		return &Node{Op: op, Inputs: []*Node{ex}, Cols: w.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: in.rows}
	}
	return &Node{Op: op, Inputs: []*Node{in}, Cols: w.Cols, Mode: in.Mode, Parallelism: in.Parallelism, rows: in.rows}
}

func (pl *planner) windowAggregate(w *plan.WindowAggregate) *Node {
	if w.SizeErr != nil && pl.env.Streaming {
		// in batch mode Flink aggregates the window table function's rows
		// with an ordinary aggregate, which takes any size and slide
		panic(planPanic{w.SizeErr})
	}
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowAggregate", in)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(w.GroupKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, w.GroupKeys, par)
	op := &WindowAggregate{Keys: append([]int(nil), w.GroupKeys...), Aggs: append([]opspec.AggSpec(nil), w.Aggs...), Window: w.Window,
		TimeCol: w.TimeCol, Attached: w.Attached, StartCol: w.StartCol, EndCol: w.EndCol, Props: append([]opspec.WindowProp(nil), w.Props...)}
	return &Node{Op: op, Inputs: []*Node{ex}, Cols: w.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: max(in.rows/10, 1)}
}

func (pl *planner) over(o *plan.Over) *Node {
	in := pl.translate(o.Input)
	groups := append([]opspec.OverGroup(nil), o.Groups...)
	g0 := groups[0]
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(g0.PartitionKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	for _, g := range groups[1:] {
		if fmt.Sprint(g.PartitionKeys) != fmt.Sprint(g0.PartitionKeys) {
			par, dist = 1, opspec.Single
		}
	}
	ex := pl.exchange(in, dist, g0.PartitionKeys, par)
	op := &OverAggregate{Groups: groups, Streaming: pl.env.Streaming}
	p := &Node{Op: op, Inputs: []*Node{ex}, Cols: o.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: in.rows}
	if !pl.env.Streaming {
		return p
	}
	pl.requireInsertOnly("StreamPhysicalOverAggregate", in)
	if len(groups) > 1 {
		pl.fail("Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window.")
	}
	if len(g0.Order) != 1 {
		pl.fail("The window can only be ordered by a single time column.")
	}
	ok := g0.Order[0]
	tt := in.Cols[ok.Col].Type
	if !tt.IsRowtime() && !tt.IsProctime() {
		if g0.Frame.Lower.Kind == opspec.Preceding && g0.Frame.Upper.Kind == opspec.CurrentRow {
			// Flink 2.3's message for a bounded frame
			pl.fail("Non-time attribute sort is not supported for bounded OVER window.")
		}
		// Flink 2.3 runs an unbounded one (NonTimeRangeUnboundedPrecedingFunction
		// and its ROWS twin, emitting updates); Riffle does not yet
		pl.fail("OVER windows' ordering in stream mode must be defined on a time attribute.")
	}
	if ok.Desc {
		pl.fail("The window can only be ordered in ASCENDING mode.")
	}
	for _, c := range g0.Calls {
		if _, ranking := plan.RankingFunctions[c.Func]; ranking {
			pl.fail("%s is not supported in a streaming OVER window; only aggregate functions are (use ROW_NUMBER with a filter on its value for Top-N or deduplication)", c.Func)
		}
	}
	fr := g0.Frame
	if fr.Upper.Kind != opspec.CurrentRow || (fr.Lower.Kind != opspec.UnboundedPreceding && fr.Lower.Kind != opspec.Preceding) {
		pl.fail("OVER RANGE FOLLOWING windows are not supported yet.")
	}
	op.Rowtime = tt.IsRowtime()
	return p
}

// deduplicate plans a ROW_NUMBER Top-1 over a time attribute without the
// row number as Flink's Deduplicate (StreamPhysicalDeduplicate); nil when
// the Rank is not one.
func (pl *planner) deduplicate(r *plan.Rank, in *Node) *Node {
	if (r.RankType != "" && r.RankType != "ROW_NUMBER") || r.RankStart != 1 || r.RankEnd != 1 || r.WithRankNum || len(r.Keys) != 1 {
		return nil
	}
	ok := r.Keys[0]
	tt := in.Cols[ok.Col].Type
	if !tt.IsRowtime() && !tt.IsProctime() {
		return nil
	}
	pl.requireInsertOnly("StreamPhysicalDeduplicate", in)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(r.PartitionKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, r.PartitionKeys, par)
	keepLast := ok.Desc
	rowtime := tt.IsRowtime()
	mode := types.ChangelogModeOf(types.Insert, types.UpdateBefore, types.UpdateAfter)
	if !keepLast && !rowtime {
		mode = types.InsertOnlyMode
	}
	if !pl.env.Streaming {
		mode = types.InsertOnlyMode
	}
	keys := append([]int(nil), r.PartitionKeys...)
	p := &Node{Op: &Deduplicate{Keys: keys, KeepLast: keepLast, Rowtime: rowtime, TimeCol: ok.Col}, Inputs: []*Node{ex},
		Cols: r.Cols, Parallelism: par, Mode: mode, rows: in.rows}
	p.upsertKeys = [][]int{keys}
	return p
}

// temporalSort plans streaming ORDER BY without LIMIT: allowed only when
// the first key is a time attribute in ascending order (Flink's
// StreamPhysicalTemporalSortRule); the rest are secondary keys.
func (pl *planner) temporalSort(in *Node, keys []opspec.SortKey, offset int64) *Node {
	first := keys[0]
	t := in.Cols[first.Col].Type
	if first.Desc || !(t.IsRowtime() || t.IsProctime()) || offset > 0 {
		pl.fail("Sort on a non-time-attribute field is not supported.")
	}
	if !in.Mode.IsInsertOnly() {
		pl.fail("TemporalSort doesn't support consuming %s which is produced by node %s", changesOf(in.Mode), describeTop(in))
	}
	ex := pl.exchange(in, opspec.Single, nil, 1)
	return &Node{Op: &TemporalSort{Keys: keys}, Inputs: []*Node{ex}, Cols: in.Cols, Parallelism: 1, Mode: types.InsertOnlyMode, rows: in.rows}
}
