package plan

import (
	"fmt"
	"strings"

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
		pl.fail("%s doesn't support consuming update and delete changes which is produced by node %s", op, describeTop(in))
	}
}

func (pl *planner) windowTVF(w *WindowTVF) *PhysNode {
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowTableFunction", in)
	names := Names(in.Cols)
	spec := w.Window
	tc := w.TimeCol
	attrs := []string{"window=[" + windowString(spec, names[tc], false, "", "") + "]"}
	timeType := w.Cols[len(w.Cols)-1].Type
	if spec.Kind == runtime.SessionWindow {
		par := pl.env.parallelism()
		dist := runtime.Hash
		if len(w.PartitionKeys) == 0 {
			par, dist = 1, runtime.Single
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
				OutTypes: outTypes, Props: []WindowProp{runtime.PropStart, runtime.PropEnd, runtime.PropTime}}
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
	in := pl.translate(w.Input)
	pl.requireInsertOnly("StreamPhysicalWindowAggregate", in)
	names := Names(in.Cols)
	par := pl.env.parallelism()
	dist := runtime.Hash
	if len(w.GroupKeys) == 0 {
		par, dist = 1, runtime.Single
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
	aggs := append([]AggCall(nil), w.Aggs...)
	outTypes := Types(w.Cols)
	props := append([]WindowProp(nil), w.Props...)
	spec := w.Window
	tc, attached, sc, ec := w.TimeCol, w.Attached, w.StartCol, w.EndCol
	p := &PhysNode{Op: "WindowAggregate", Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: w.Cols, Mode: types.InsertOnlyMode,
		Parallelism: par, rows: max(in.rows/10, 1)}
	if spec.Kind == runtime.SessionWindow && !attached {
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

// describeNode renders a physical node as EXPLAIN prints it.
func describeNode(p *PhysNode) string {
	return fmt.Sprintf("%s(%s)", p.Op, strings.Join(p.Attrs, ", "))
}
