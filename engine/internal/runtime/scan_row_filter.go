package runtime

import (
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// scanRowFilter is a batch Calc's condition handed to the scan it reads
// as a connector.RowFilter (late materialization: a CSV reader then builds
// its other string columns only for the rows the condition keeps). The
// Calc still evaluates the condition; the scan only drops rows early.
type scanRowFilter struct {
	src  expr.Expr
	cond expr.Evaluator
	cols []bool
	ctx  *expr.Ctx
}

// NewScanRowFilter compiles cond, a Calc's condition over its input (the
// scan's columns), into a row filter for that scan, or returns false when
// cond is not one a scan may evaluate early: only comparisons, AND, OR,
// NOT and IS [NOT] NULL over columns, literals, numeric casts and + - *
// qualify, whose values do not depend on the evaluation context (time
// zone, clock, watermark) and are the same wherever they are computed.
func NewScanRowFilter(cond expr.Expr) (connector.RowFilter, bool) {
	if cond == nil || !earlyFilterable(cond) {
		return nil, false
	}
	ev, err := expr.Compile(cond)
	if err != nil {
		return nil, false
	}
	refs := expr.InputRefs(cond)
	if len(refs) == 0 {
		return nil, false
	}
	n := 0
	for _, r := range refs {
		n = max(n, r+1)
	}
	cols := make([]bool, n)
	for _, r := range refs {
		cols[r] = true
	}
	return &scanRowFilter{src: cond, cond: ev, cols: cols, ctx: expr.DefaultCtx()}, true
}

// clone compiles the condition again, for another parallel instance (nil
// when that fails, which it did not the first time).
func (f *scanRowFilter) clone() connector.RowFilter {
	ev, err := expr.Compile(f.src)
	if err != nil {
		return nil
	}
	return &scanRowFilter{src: f.src, cond: ev, cols: f.cols, ctx: expr.DefaultCtx()}
}

// earlyFilterable reports whether e is built only from what
// NewScanRowFilter accepts.
func earlyFilterable(e expr.Expr) bool {
	switch x := e.(type) {
	case *expr.InputRef:
		return x.T.Root != types.TimestampLTZRoot
	case *expr.Literal:
		return x.T.Root != types.TimestampLTZRoot
	case *expr.Call:
		if x.Fn != nil && x.Fn.NonDeterministic {
			return false
		}
		switch x.Name {
		case "=", "<>", "<", ">", "<=", ">=", "AND", "OR", "NOT", "IS NULL", "IS NOT NULL", "+", "-", "*":
		case "CAST":
			if len(x.Args) != 1 || !x.Args[0].Type().IsNumeric() || !x.T.IsNumeric() {
				return false
			}
		default:
			return false
		}
		for _, a := range x.Args {
			if !earlyFilterable(a) {
				return false
			}
		}
		return true
	}
	return false
}

// Columns implements connector.RowFilter.
func (f *scanRowFilter) Columns() []bool { return f.cols }

// Keep implements connector.RowFilter: the rows where the condition is
// TRUE.
func (f *scanRowFilter) Keep(b *types.Batch) ([]int32, bool, error) {
	for i, c := range f.cols {
		if c && (i >= len(b.Cols) || b.Cols[i] == nil) {
			return nil, true, nil
		}
	}
	pred, err := f.cond(f.ctx, b)
	if err != nil {
		return nil, true, err
	}
	if pred.Const {
		if v, ok := pred.Val.(bool); ok && v {
			return nil, true, nil
		}
		return []int32{}, false, nil
	}
	sel, all := vector.SelectionFromBools(pred.Arr)
	return sel, all, nil
}
