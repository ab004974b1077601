package plan

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

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
	leftWin, rightWin                        map[int]WindowColumn
}

// NewWindowJoin starts a WindowJoin of left and right with the window
// columns of each side (from WindowColumnsOf); the rule fills in the
// window, its columns and the condition.
func NewWindowJoin(left, right Node, kind opspec.JoinKind, cols []Column, leftWin, rightWin map[int]WindowColumn) *WindowJoin {
	return &WindowJoin{Left: left, Right: right, Kind: kind, Cols: cols, leftWin: leftWin, rightWin: rightWin}
}

func (w *WindowJoin) Columns() []Column { return w.Cols }

func (w *WindowJoin) Inputs() []Node { return []Node{w.Left, w.Right} }

func (w *WindowJoin) WithInputs(in []Node) Node {
	c := *w
	c.Left, c.Right = in[0], in[1]
	c.leftWin, c.rightWin = WindowColumnsOf(in[0]), WindowColumnsOf(in[1])
	return &c
}

// Describe renders the node in the logical plan's notation.
func (w *WindowJoin) Describe() string {
	cond := "true"
	if w.Cond != nil {
		cond = RefString(w.Cond)
	}
	return fmt.Sprintf("LogicalWindowJoin(condition=[%s], joinType=[%s], window=[%s])", cond, w.Kind, w.Window)
}

// windowColumns propagates both sides' window columns (outer joins make
// them nullable but they stay window columns, as in Flink).
func (w *WindowJoin) windowColumns() map[int]WindowColumn {
	out := map[int]WindowColumn{}
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
