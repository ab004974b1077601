package plan

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

func init() {
	streamingRules = append(streamingRules, windowJoinRule)
}

// WindowJoin joins two windowed inputs window by window (Flink's
// StreamPhysicalWindowJoin, docs/dev/table/sql/queries/window-join.md):
// the condition equates both sides' window_start and window_end; Cond
// holds the other conjuncts (equi-keys and residual).
type WindowJoin struct {
	Left, Right Node
	Kind        opspec.JoinKind
	Cond        expr.Expr
	Cols        []Column
	Window      opspec.WindowSpec
	// window columns of each side (indexes into that side's columns)
	LeftStart, LeftEnd, RightStart, RightEnd int
	leftWin, rightWin                        map[int]windowCol
}

func (w *WindowJoin) Columns() []Column { return w.Cols }
func (w *WindowJoin) Inputs() []Node    { return []Node{w.Left, w.Right} }
func (w *WindowJoin) WithInputs(in []Node) Node {
	c := *w
	c.Left, c.Right = in[0], in[1]
	c.leftWin, c.rightWin = windowColumnsOf(in[0]), windowColumnsOf(in[1])
	return &c
}

// Describe renders the node in the logical plan's notation.
func (w *WindowJoin) Describe() string {
	cond := "true"
	if w.Cond != nil {
		cond = refString(w.Cond)
	}
	return fmt.Sprintf("LogicalWindowJoin(condition=[%s], joinType=[%s], window=[%s])", cond, w.Kind, w.Window)
}

// windowColumns propagates both sides' window columns (outer joins make
// them nullable but they stay window columns, as in Flink).
func (w *WindowJoin) windowColumns() map[int]windowCol {
	out := map[int]windowCol{}
	nl := len(w.Left.Columns())
	if w.Kind != opspec.RightJoin && w.Kind != opspec.FullJoin {
		for i, c := range w.leftWin {
			out[i] = c
		}
	}
	if w.Kind != opspec.LeftJoin && w.Kind != opspec.FullJoin && w.Kind != opspec.SemiJoin && w.Kind != opspec.AntiJoin {
		for i, c := range w.rightWin {
			out[nl+i] = c
		}
	}
	return out
}

func sameWindow(a, b opspec.WindowSpec) bool {
	return a.Kind == b.Kind && a.Size == b.Size && a.Slide == b.Slide && a.Offset == b.Offset && a.Gap == b.Gap &&
		a.Proctime == b.Proctime && fmt.Sprint(a.Zone) == fmt.Sprint(b.Zone)
}

// windowJoinRule turns a join of two windowed inputs whose condition
// equates their window_start and window_end into a WindowJoin.
func windowJoinRule(n Node) Node {
	j, ok := n.(*Join)
	if !ok || j.Cond == nil {
		return nil
	}
	lw, rw := windowColumnsOf(j.Left), windowColumnsOf(j.Right)
	if len(lw) == 0 || len(rw) == 0 {
		return nil
	}
	nl := len(j.Left.Columns())
	var startOK, endOK bool
	w := &WindowJoin{Left: j.Left, Right: j.Right, Kind: j.Kind, Cols: j.Cols, leftWin: lw, rightWin: rw}
	var rest []expr.Expr
	for _, c := range conjuncts(j.Cond) {
		if call, ok := c.(*expr.Call); ok && call.Name == "=" && len(call.Args) == 2 {
			a, aok := call.Args[0].(*expr.InputRef)
			b, bok := call.Args[1].(*expr.InputRef)
			if aok && bok {
				if a.Index >= nl && b.Index < nl {
					a, b = b, a
				}
				if a.Index < nl && b.Index >= nl {
					la, lok := lw[a.Index]
					rb, rok := rw[b.Index-nl]
					if lok && rok && la.prop == rb.prop && sameWindow(la.window, rb.window) {
						w.Window = la.window
						switch la.prop {
						case opspec.PropStart:
							startOK = true
							w.LeftStart, w.RightStart = a.Index, b.Index-nl
							continue
						case opspec.PropEnd:
							endOK = true
							w.LeftEnd, w.RightEnd = a.Index, b.Index-nl
							continue
						}
					}
				}
			}
		}
		rest = append(rest, c)
	}
	if !startOK || !endOK {
		return nil
	}
	w.Cond = andOf(rest)
	return w
}

func (w *WindowJoin) physical(pl *planner) *PhysNode {
	left := pl.translate(w.Left)
	right := pl.translate(w.Right)
	pl.requireInsertOnly("StreamPhysicalWindowJoin", left)
	pl.requireInsertOnly("StreamPhysicalWindowJoin", right)
	nl := len(left.Cols)
	lk, rk, nullSafe, residual := equiKeys(w.Cond, nl, left.Cols, right.Cols)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(lk) == 0 {
		par, dist = 1, opspec.Single
	}
	le := pl.exchange(left, dist, lk, par)
	re := pl.exchange(right, dist, rk, par)
	spec := opspec.JoinSpec{Kind: w.Kind, LeftKeys: lk, RightKeys: rk, LeftTypes: Types(left.Cols), RightTypes: Types(right.Cols), NullSafe: nullSafe}
	if len(residual) > 0 {
		spec.Residual = andOf(residual)
	}
	op := &PhysWindowJoin{Spec: spec, Window: w.Window, LeftStart: w.LeftStart, LeftEnd: w.LeftEnd, RightStart: w.RightStart, RightEnd: w.RightEnd, Cond: w.Cond}
	return &PhysNode{Op: op, Inputs: []*PhysNode{le, re}, Cols: w.Cols, Mode: types.InsertOnlyMode, Parallelism: par, rows: max(left.rows, right.rows)}
}
