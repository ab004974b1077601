package rules

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
)

func init() {
	streamingRules = append(streamingRules, windowJoinRule)
}

func sameWindow(a, b opspec.WindowSpec) bool {
	return a.Kind == b.Kind && a.Size == b.Size && a.Slide == b.Slide && a.Offset == b.Offset && a.Gap == b.Gap &&
		a.Proctime == b.Proctime && fmt.Sprint(a.Zone) == fmt.Sprint(b.Zone)
}

// windowJoinRule turns a join of two windowed inputs whose condition
// equates their window_start and window_end into a WindowJoin.
func windowJoinRule(n plan.Node) plan.Node {
	j, ok := n.(*plan.Join)
	if !ok || j.Cond == nil {
		return nil
	}
	lw, rw := plan.WindowColumnsOf(j.Left), plan.WindowColumnsOf(j.Right)
	if len(lw) == 0 || len(rw) == 0 {
		return nil
	}
	nl := len(j.Left.Columns())
	var startOK, endOK bool
	w := plan.NewWindowJoin(j.Left, j.Right, j.Kind, j.Cols, lw, rw)
	var rest []expr.Expr
	for _, c := range plan.Conjuncts(j.Cond) {
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
					if lok && rok && la.Prop == rb.Prop && sameWindow(la.Window, rb.Window) {
						w.Window = la.Window
						switch la.Prop {
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
	w.Cond = plan.AndOf(rest)
	return w
}
