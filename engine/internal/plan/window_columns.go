package plan

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// Flatten looks through a chain of projections and filters: it returns
// the first other node (base), the expressions of n's columns over base's
// columns, and the filter conditions over base's columns.
func Flatten(n Node) (base Node, exprs []expr.Expr, conds []expr.Expr) {
	switch x := n.(type) {
	case *Project:
		b, inner, cs := Flatten(x.Input)
		return b, SubstituteAll(x.Exprs, inner), cs
	case *Filter:
		b, inner, cs := Flatten(x.Input)
		return b, inner, append(cs, Substitute(x.Cond, inner))
	}
	cols := n.Columns()
	exprs = make([]expr.Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &expr.InputRef{Index: i, Name: c.Name, T: c.Type}
	}
	return n, exprs, nil
}

// WindowColumn describes a column holding a window property.
type WindowColumn struct {
	Prop   opspec.WindowProp
	Window opspec.WindowSpec
	// ID tells windows apart (the node that assigned them).
	ID Node
}

// WindowColumnsOf reports the columns of n that hold window_start,
// window_end or window_time of windows assigned below n.
func WindowColumnsOf(n Node) map[int]WindowColumn {
	switch x := n.(type) {
	case *WindowTVF:
		nIn := len(x.Input.Columns())
		return map[int]WindowColumn{
			nIn:     {opspec.PropStart, x.Window, x},
			nIn + 1: {opspec.PropEnd, x.Window, x},
			nIn + 2: {opspec.PropTime, x.Window, x},
		}
	case *WindowAggregate:
		out := map[int]WindowColumn{}
		base := len(x.GroupKeys) + len(x.Aggs)
		for i, p := range x.Props {
			out[base+i] = WindowColumn{p, x.Window, x}
		}
		return out
	case *Project:
		in := WindowColumnsOf(x.Input)
		if len(in) == 0 {
			return nil
		}
		out := map[int]WindowColumn{}
		for i, e := range x.Exprs {
			if r, ok := e.(*expr.InputRef); ok {
				if wc, ok := in[r.Index]; ok {
					out[i] = wc
				}
			}
		}
		return out
	case *Filter:
		return WindowColumnsOf(x.Input)
	}
	if wc, ok := n.(interface{ windowColumns() map[int]WindowColumn }); ok {
		return wc.windowColumns()
	}
	return nil
}
