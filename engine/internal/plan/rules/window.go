package rules

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// rewriteStreaming applies the rules that turn relational patterns into
// Flink's streaming operators, bottom-up: an aggregation grouped by
// window_start and window_end of a window TVF (or of an upstream window
// operator) becomes a WindowAggregate; legacy group windows, Top-N and
// deduplication patterns are recognised by the other rules of this file
// family.
func rewriteStreaming(n plan.Node) plan.Node {
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]plan.Node, len(in))
		changed := false
		for i, c := range in {
			next[i] = rewriteStreaming(c)
			if next[i] != c {
				changed = true
			}
		}
		if changed {
			n = n.WithInputs(next)
		}
	}
	for _, rule := range streamingRules {
		if out := rule(n); out != nil {
			return out
		}
	}
	return n
}

// streamingRules are tried in order on every node; a rule returns nil
// when it does not apply.
var streamingRules = []func(plan.Node) plan.Node{
	windowAggregateRule,
}

// refsAny reports whether e reads any of the columns in set.
func refsAny(e expr.Expr, set map[int]plan.WindowColumn) bool {
	for _, r := range expr.InputRefs(e) {
		if _, ok := set[r]; ok {
			return true
		}
	}
	return false
}

// windowAggregateRule turns Aggregate(Project/Filter*(windowed input))
// grouped by window_start and window_end into a WindowAggregate (Flink's
// StreamPhysicalWindowAggregateRule). Over a window TVF the window is
// assigned from the time attribute; over another window operator the
// windows it attached are reused.
func windowAggregateRule(n plan.Node) plan.Node {
	a, ok := n.(*plan.Aggregate)
	if !ok {
		return nil
	}
	base, exprs, conds := plan.Flatten(a.Input)
	wcols := plan.WindowColumnsOf(base)
	if len(wcols) == 0 {
		return nil
	}
	// classify group keys
	props := map[int]opspec.WindowProp{} // key position -> property
	var win *plan.WindowColumn
	var startBase, endBase = -1, -1
	for k, key := range a.GroupKeys {
		e := exprs[key]
		if r, ok := e.(*expr.InputRef); ok {
			if wc, ok := wcols[r.Index]; ok {
				if win != nil && win.ID != wc.ID {
					return nil
				}
				w := wc
				win = &w
				props[k] = wc.Prop
				switch wc.Prop {
				case opspec.PropStart:
					startBase = r.Index
				case opspec.PropEnd:
					endBase = r.Index
				}
				continue
			}
		}
		if refsAny(e, wcols) {
			return nil
		}
	}
	if win == nil || startBase < 0 || endBase < 0 {
		return nil
	}
	for _, ag := range a.Aggs {
		for _, c := range ag.Args {
			if refsAny(exprs[c], wcols) {
				return nil
			}
		}
		if ag.Filter >= 0 && refsAny(exprs[ag.Filter], wcols) {
			return nil
		}
	}
	for _, c := range conds {
		if refsAny(c, wcols) {
			return nil
		}
	}
	tvf, isTVF := base.(*plan.WindowTVF)
	if isTVF && tvf != win.ID {
		return nil
	}
	// the new input: filters and the needed expressions over the
	// windowed input
	var input plan.Node
	if isTVF {
		input = tvf.Input
	} else {
		input = base
	}
	if len(conds) > 0 {
		input = &plan.Filter{Input: input, Cond: plan.AndOf(conds)}
	}
	inCols := input.Columns()
	var proj []expr.Expr
	var projCols []plan.Column
	add := func(e expr.Expr, name string) int {
		s := e.String()
		for i, p := range proj {
			if p.String() == s {
				return i
			}
		}
		proj = append(proj, e)
		projCols = append(projCols, plan.Column{Name: name, Type: e.Type()})
		return len(proj) - 1
	}
	aggCols := a.Input.Columns()
	var keys []int
	var keyPos []int // original key positions of the non-window keys
	for k, key := range a.GroupKeys {
		if _, ok := props[k]; ok {
			continue
		}
		keys = append(keys, add(exprs[key], aggCols[key].Name))
		keyPos = append(keyPos, k)
	}
	aggs := make([]opspec.AggSpec, len(a.Aggs))
	for i, ag := range a.Aggs {
		ag2 := ag
		ag2.Args = nil
		for _, c := range ag.Args {
			ag2.Args = append(ag2.Args, add(exprs[c], aggCols[c].Name))
		}
		if ag.Filter >= 0 {
			ag2.Filter = add(exprs[ag.Filter], aggCols[ag.Filter].Name)
		}
		aggs[i] = ag2
	}
	wa := &plan.WindowAggregate{Window: win.Window, GroupKeys: keys, Aggs: aggs}
	if t, ok := win.ID.(*plan.WindowTVF); ok && !t.GroupWindow && t.Window.Kind == opspec.HopWindow && t.Window.Size%t.Window.Slide != 0 {
		e := plan.Error{Msg: fmt.Sprintf("HOP table function based aggregate requires size must be an integral multiple of slide, but got size %d ms and slide %d ms",
			t.Window.Size, t.Window.Slide)}
		if t.At != nil {
			e.Line, e.Column, e.EndLine, e.EndColumn = t.At.Line, t.At.Column, t.At.EndLine, t.At.EndColumn
		}
		wa.SizeErr = &e
	}
	if isTVF {
		tc := tvf.TimeCol
		wa.TimeCol = add(&expr.InputRef{Index: tc, Name: inCols[tc].Name, T: inCols[tc].Type}, inCols[tc].Name)
		if tvf.Window.Kind == opspec.SessionWindow {
			// sessions are per group key: PARTITION BY keys must be grouped
			for _, pk := range tvf.PartitionKeys {
				found := false
				for _, k := range keys {
					if r, ok := proj[k].(*expr.InputRef); ok && r.Index == pk {
						found = true
					}
				}
				if !found {
					return nil
				}
			}
		}
	} else {
		wa.Attached = true
		wa.StartCol = add(&expr.InputRef{Index: startBase, Name: inCols[startBase].Name, T: inCols[startBase].Type}, inCols[startBase].Name)
		wa.EndCol = add(&expr.InputRef{Index: endBase, Name: inCols[endBase].Name, T: inCols[endBase].Type}, inCols[endBase].Name)
	}
	wa.Input = &plan.Project{Input: input, Exprs: proj, Cols: projCols}
	// output: keys, aggs, then window_start, window_end, window_time
	for i, k := range keys {
		wa.Cols = append(wa.Cols, plan.Column{Name: projCols[k].Name, Type: projCols[k].Type})
		_ = i
	}
	for i, ag := range aggs {
		wa.Cols = append(wa.Cols, a.Cols[len(a.GroupKeys)+i])
		_ = ag
	}
	wcolsOut := plan.WindowColumns(timeTypeOf(win, base))
	wa.Props = []opspec.WindowProp{opspec.PropStart, opspec.PropEnd, opspec.PropTime}
	wa.Cols = append(wa.Cols, wcolsOut...)
	// project back to the aggregate's layout
	outExprs := make([]expr.Expr, len(a.Cols))
	nk := len(keys)
	ki := 0
	for k := range a.GroupKeys {
		if p, ok := props[k]; ok {
			idx := nk + len(aggs) + int(p)
			if p == opspec.PropProctime {
				idx = nk + len(aggs) + 2
			}
			outExprs[k] = &expr.InputRef{Index: idx, Name: wa.Cols[idx].Name, T: wa.Cols[idx].Type}
			continue
		}
		outExprs[k] = &expr.InputRef{Index: ki, Name: wa.Cols[ki].Name, T: wa.Cols[ki].Type}
		ki++
	}
	_ = keyPos
	for i := range aggs {
		idx := nk + i
		outExprs[len(a.GroupKeys)+i] = &expr.InputRef{Index: idx, Name: wa.Cols[idx].Name, T: wa.Cols[idx].Type}
	}
	outCols := make([]plan.Column, len(a.Cols))
	for i, c := range a.Cols {
		outCols[i] = plan.Column{Name: c.Name, Type: outExprs[i].Type()}
	}
	return &plan.Project{Input: wa, Exprs: outExprs, Cols: outCols}
}

// timeTypeOf returns the type of the time attribute behind a window: the
// window_time column's type family decides window_time's type downstream.
func timeTypeOf(w *plan.WindowColumn, base plan.Node) *types.DataType {
	switch x := w.ID.(type) {
	case *plan.WindowTVF:
		return x.Input.Columns()[x.TimeCol].Type
	case *plan.WindowAggregate:
		for i, p := range x.Props {
			if p == opspec.PropTime {
				return x.Cols[len(x.GroupKeys)+len(x.Aggs)+i].Type
			}
		}
	}
	if w.Window.Proctime {
		return types.TimestampLTZType(3).WithTimeAttr(types.Proctime)
	}
	return types.TimestampType(3).WithTimeAttr(types.Rowtime)
}

func describeWindowCol(w plan.WindowColumn) string { return fmt.Sprintf("%s of %s", w.Prop, w.Window) }
