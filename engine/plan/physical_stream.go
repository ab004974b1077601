package plan

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// translateStreaming plans the nodes of the streaming rules (windows,
// OVER, Top-N, deduplication, interval and temporal joins); nil means n
// is not one of them.
func (pl *planner) translateStreaming(n Node) *PhysNode {
	switch x := n.(type) {
	case *WindowTVF:
		return pl.windowTVF(x)
	case *WindowAggregate:
		return pl.windowAggregate(x)
	case *Over:
		return pl.over(x)
	}
	if t, ok := n.(interface{ physical(pl *planner) *PhysNode }); ok {
		return t.physical(pl)
	}
	return nil
}

// requireInsertOnly fails, with Flink's message, when an operator that
// only consumes inserts gets an updating input.
func (pl *planner) requireInsertOnly(op string, in *PhysNode) {
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

func (pl *planner) windowTVF(w *WindowTVF) *PhysNode {
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowTableFunction", in)
	names := Names(in.Cols)
	spec := w.Window
	tc := w.TimeCol
	attrs := []string{"window=[" + windowString(spec, names[tc], false, "", "") + "]"}
	timeType := w.Cols[len(w.Cols)-1].Type
	if spec.Kind == opspec.SessionWindow {
		par := pl.env.parallelism()
		dist := opspec.Hash
		if len(w.PartitionKeys) == 0 {
			par, dist = 1, opspec.Single
		}
		ex := pl.exchange(in, dist, w.PartitionKeys, par)
		if len(w.PartitionKeys) > 0 {
			var pk []string
			for _, k := range w.PartitionKeys {
				pk = append(pk, names[k])
			}
			attrs = append([]string{"partitionBy=[" + strings.Join(pk, ", ") + "]"}, attrs...)
		}
		keys := append([]int(nil), w.PartitionKeys...)
		keyTypes := make([]*types.DataType, len(keys))
		for i, k := range keys {
			keyTypes[i] = in.Cols[k].Type
		}
		inTypes := Types(in.Cols)
		outTypes := Types(w.Cols)
		p := &PhysNode{Op: "WindowTableFunction", Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: w.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: in.rows}
		p.newOp = func() runtime.Operator {
			return &runtime.SessionWindows{Keys: keys, KeyTypes: keyTypes, Window: spec, TimeCol: tc, Rows: true, InTypes: inTypes,
				OutTypes: outTypes, Props: []opspec.WindowProp{opspec.PropStart, opspec.PropEnd, opspec.PropTime}}
		}
		return p
	}
	p := &PhysNode{Op: "WindowTableFunction", Attrs: attrs, Inputs: []*PhysNode{in}, Cols: w.Cols, Mode: in.Mode, Parallelism: in.Parallelism, rows: in.rows}
	p.newOp = func() runtime.Operator {
		return &runtime.WindowTableFunction{Window: spec, TimeCol: tc, TimeType: timeType}
	}
	return p
}

func (pl *planner) windowAggregate(w *WindowAggregate) *PhysNode {
	if w.sizeErr != nil && pl.env.Streaming {
		// in batch mode Flink aggregates the window table function's rows
		// with an ordinary aggregate, which takes any size and slide
		panic(bindPanic{w.sizeErr})
	}
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowAggregate", in)
	names := Names(in.Cols)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(w.GroupKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, w.GroupKeys, par)
	var keys []string
	for _, k := range w.GroupKeys {
		keys = append(keys, names[k])
	}
	sel := append([]string(nil), keys...)
	for i, ag := range w.Aggs {
		sel = append(sel, aggString(ag, names)+" AS "+w.Cols[len(w.GroupKeys)+i].Name)
	}
	base := len(w.GroupKeys) + len(w.Aggs)
	for i, p := range w.Props {
		sel = append(sel, propName(p)+" AS "+w.Cols[base+i].Name)
	}
	var attrs []string
	if len(keys) > 0 {
		attrs = append(attrs, "groupBy=["+strings.Join(keys, ", ")+"]")
	}
	timeName, startName, endName := "", "", ""
	if w.Attached {
		startName, endName = names[w.StartCol], names[w.EndCol]
	} else {
		timeName = names[w.TimeCol]
	}
	attrs = append(attrs, "window=["+windowString(w.Window, timeName, w.Attached, startName, endName)+"]", "select=["+strings.Join(sel, ", ")+"]")
	keysCopy := append([]int(nil), w.GroupKeys...)
	keyTypes := make([]*types.DataType, len(keysCopy))
	for i, k := range keysCopy {
		keyTypes[i] = in.Cols[k].Type
	}
	aggs := append([]opspec.AggSpec(nil), w.Aggs...)
	outTypes := Types(w.Cols)
	props := append([]opspec.WindowProp(nil), w.Props...)
	spec := w.Window
	tc, attached, sc, ec := w.TimeCol, w.Attached, w.StartCol, w.EndCol
	p := &PhysNode{Op: "WindowAggregate", Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: w.Cols, Mode: types.InsertOnlyMode,
		Parallelism: par, rows: max(in.rows/10, 1)}
	if spec.Kind == opspec.SessionWindow && !attached {
		p.newOp = func() runtime.Operator {
			return &runtime.SessionWindows{Keys: keysCopy, KeyTypes: keyTypes, Aggs: aggs, OutTypes: outTypes, Window: spec, TimeCol: tc, Props: props}
		}
		return p
	}
	p.newOp = func() runtime.Operator {
		return &runtime.WindowAgg{Keys: keysCopy, KeyTypes: keyTypes, Aggs: aggs, OutTypes: outTypes, Window: spec, TimeCol: tc,
			Attached: attached, StartCol: sc, EndCol: ec, Props: props}
	}
	return p
}

// describeNode renders a physical node as EXPLAIN prints it (a node
// without attributes, DropUpdateBefore, by its name alone).
func describeNode(p *PhysNode) string {
	if len(p.Attrs) == 0 {
		return p.Op
	}
	return fmt.Sprintf("%s(%s)", p.Op, strings.Join(p.Attrs, ", "))
}

func (pl *planner) over(o *Over) *PhysNode {
	in := pl.translate(o.Input)
	names := Names(in.Cols)
	inTypes := Types(in.Cols)
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
	var pk []string
	for _, k := range g0.PartitionKeys {
		pk = append(pk, names[k])
	}
	outNames := Names(o.Cols)
	var attrs []string
	if len(pk) > 0 {
		attrs = append(attrs, "partitionBy=["+strings.Join(pk, ", ")+"]")
	}
	attrs = append(attrs, "orderBy=["+sortString(g0.Order, names)+"]")
	k := len(in.Cols)
	sel := append([]string(nil), names...)
	for gi, g := range groups {
		var calls []string
		for _, c := range g.Calls {
			calls = append(calls, c.String(names)+" AS "+outNames[k])
			sel = append(sel, outNames[k])
			k++
		}
		attrs = append(attrs, fmt.Sprintf("window#%d=[%s %s]", gi, strings.Join(calls, ", "), g.Frame))
	}
	attrs = append(attrs, "select=["+strings.Join(sel, ", ")+"]")
	p := &PhysNode{Op: "OverAggregate", Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: o.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: in.rows}
	if !pl.env.Streaming {
		p.newOp = func() runtime.Operator { return &runtime.OverAggregate{Groups: groups, InTypes: inTypes} }
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
		if _, ranking := rankingFunctions[c.Func]; ranking {
			pl.fail("%s is not supported in a streaming OVER window; only aggregate functions are (use ROW_NUMBER with a filter on its value for Top-N or deduplication)", c.Func)
		}
	}
	fr := g0.Frame
	if fr.Upper.Kind != opspec.CurrentRow || (fr.Lower.Kind != opspec.UnboundedPreceding && fr.Lower.Kind != opspec.Preceding) {
		pl.fail("OVER RANGE FOLLOWING windows are not supported yet.")
	}
	keys := append([]int(nil), g0.PartitionKeys...)
	keyTypes := make([]*types.DataType, len(keys))
	for i, kc := range keys {
		keyTypes[i] = in.Cols[kc].Type
	}
	rowtime := tt.IsRowtime()
	p.newOp = func() runtime.Operator {
		return &runtime.StreamOver{PartitionKeys: keys, KeyTypes: keyTypes, InTypes: inTypes, TimeCol: ok.Col, Rowtime: rowtime,
			Frame: fr, Calls: g0.Calls}
	}
	return p
}

// deduplicate plans a ROW_NUMBER Top-1 over a time attribute without the
// row number as Flink's Deduplicate (StreamPhysicalDeduplicate); nil when
// the Rank is not one.
func (pl *planner) deduplicate(r *Rank, in *PhysNode) *PhysNode {
	if (r.RankType != "" && r.RankType != "ROW_NUMBER") || r.RankStart != 1 || r.RankEnd != 1 || r.WithRankNum || len(r.Keys) != 1 {
		return nil
	}
	ok := r.Keys[0]
	tt := in.Cols[ok.Col].Type
	if !tt.IsRowtime() && !tt.IsProctime() {
		return nil
	}
	pl.requireInsertOnly("StreamPhysicalDeduplicate", in)
	names := Names(in.Cols)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(r.PartitionKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, r.PartitionKeys, par)
	var pk []string
	for _, k := range r.PartitionKeys {
		pk = append(pk, names[k])
	}
	keepLast := ok.Desc
	rowtime := tt.IsRowtime()
	keep, order := "FirstRow", "PROCTIME"
	if keepLast {
		keep = "LastRow"
	}
	if rowtime {
		order = "ROWTIME"
	}
	mode := types.ChangelogModeOf(types.Insert, types.UpdateBefore, types.UpdateAfter)
	if !keepLast && !rowtime {
		mode = types.InsertOnlyMode
	}
	if !pl.env.Streaming {
		mode = types.InsertOnlyMode
	}
	keys := append([]int(nil), r.PartitionKeys...)
	keyTypes := make([]*types.DataType, len(keys))
	for i, k := range keys {
		keyTypes[i] = in.Cols[k].Type
	}
	ts := Types(in.Cols)
	tc := ok.Col
	p := &PhysNode{Op: "Deduplicate", Inputs: []*PhysNode{ex}, Cols: r.Cols, Parallelism: par, Mode: mode, rows: in.rows,
		Attrs: []string{"keep=[" + keep + "]", "key=[" + strings.Join(pk, ", ") + "]", "order=[" + order + "]"}}
	p.upsertKeys = [][]int{keys}
	p.newOp = func() runtime.Operator {
		return &runtime.Deduplicate{Keys: keys, KeyTypes: keyTypes, Types: ts, KeepLast: keepLast, Rowtime: rowtime, TimeCol: tc,
			NoUpdateBefore: p.noUpdateBefore}
	}
	return p
}

// temporalSort plans streaming ORDER BY without LIMIT: allowed only when
// the first key is a time attribute in ascending order (Flink's
// StreamPhysicalTemporalSortRule); the rest are secondary keys.
func (pl *planner) temporalSort(in *PhysNode, keys []opspec.SortKey, offset int64) *PhysNode {
	first := keys[0]
	t := in.Cols[first.Col].Type
	if first.Desc || !(t.IsRowtime() || t.IsProctime()) || offset > 0 {
		pl.fail("Sort on a non-time-attribute field is not supported.")
	}
	if !in.Mode.IsInsertOnly() {
		pl.fail("TemporalSort doesn't support consuming %s which is produced by node %s", changesOf(in.Mode), describeTop(in))
	}
	ex := pl.exchange(in, opspec.Single, nil, 1)
	names := Names(in.Cols)
	p := &PhysNode{Op: "TemporalSort", Inputs: []*PhysNode{ex}, Cols: in.Cols, Parallelism: 1,
		Attrs: []string{"orderBy=[" + sortString(keys, names) + "]"}, Mode: types.InsertOnlyMode, rows: in.rows}
	colTypes := Types(in.Cols)
	secondary := append([]opspec.SortKey(nil), keys[1:]...)
	timeCol, proctime := first.Col, t.IsProctime()
	p.newOp = func() runtime.Operator {
		return &runtime.TemporalSort{TimeCol: timeCol, Keys: secondary, Types: colTypes, Proctime: proctime}
	}
	return p
}
