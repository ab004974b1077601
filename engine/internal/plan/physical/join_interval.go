package physical

import (
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// intervalJoin plans a join whose condition bounds the time attribute of
// one side by the other's (Flink's StreamPhysicalIntervalJoin, see
// IntervalJoinUtil.extractWindowBoundsFromPredicate):
//
//	l.rowtime BETWEEN r.rowtime - INTERVAL '1' HOUR AND r.rowtime + INTERVAL '10' MINUTE
//
// Both bounds are needed and both attributes must be rowtimes (or both
// proctimes) of insert-only inputs; the other conjuncts stay in the
// residual condition. It returns nil when the join is not such a join.
func (pl *planner) intervalJoin(p *Node, spec opspec.JoinSpec, left, right *Node, residual []expr.Expr) *Node {
	if !left.Mode.IsInsertOnly() || !right.Mode.IsInsertOnly() || spec.Kind == opspec.SemiJoin || spec.Kind == opspec.AntiJoin {
		return nil
	}
	nl := len(left.Cols)
	var lower, upper *int64
	lt, rt := -1, -1
	var rest []expr.Expr
	for _, c := range residual {
		lcol, rcol, lo, hi, ok := timeBound(c, nl)
		if ok {
			ltype, rtype := left.Cols[lcol].Type, right.Cols[rcol].Type
			same := (ltype.IsRowtime() && rtype.IsRowtime()) || (ltype.IsProctime() && rtype.IsProctime())
			if same && (lt < 0 || (lt == lcol && rt == rcol)) {
				lt, rt = lcol, rcol
				if lo != nil && (lower == nil || *lo > *lower) {
					lower = lo
				}
				if hi != nil && (upper == nil || *hi < *upper) {
					upper = hi
				}
				continue
			}
		}
		rest = append(rest, c)
	}
	if lower == nil || upper == nil {
		return nil
	}
	spec.Residual = nil
	if len(rest) > 0 {
		spec.Residual = plan.AndOf(rest)
	}
	proctime := left.Cols[lt].Type.IsProctime()
	lo, hi := *lower, *upper
	var cond expr.Expr
	if len(residual) > 0 {
		cond = plan.AndOf(residual)
	}
	p.Op = &IntervalJoin{Spec: spec, LowerBound: lo, UpperBound: hi, LeftTime: lt, RightTime: rt, Proctime: proctime, Cond: cond}
	p.Mode = types.InsertOnlyMode
	return p
}

// timeBound reads a conjunct bounding the left time attribute by the
// right one: l.t OP r.t + c (either side may carry an interval offset).
// It returns the columns and the lower and/or upper bound of l.t - r.t
// in milliseconds.
func timeBound(c expr.Expr, nl int) (lcol, rcol int, lower, upper *int64, ok bool) {
	call, isCall := c.(*expr.Call)
	if !isCall || len(call.Args) != 2 {
		return
	}
	op := call.Name
	switch op {
	case ">=", ">", "<=", "<", "=":
	default:
		return
	}
	ca, oa, okA := timeTerm(call.Args[0])
	cb, ob, okB := timeTerm(call.Args[1])
	if !okA || !okB {
		return
	}
	flip := map[string]string{">=": "<=", ">": "<", "<=": ">=", "<": ">", "=": "="}
	if ca >= nl && cb < nl {
		ca, cb, oa, ob = cb, ca, ob, oa
		op = flip[op]
	}
	if ca >= nl || cb < nl {
		return
	}
	// l.t + oa OP r.t + ob  =>  l.t - r.t OP ob - oa
	d := ob - oa
	switch op {
	case ">=":
		lower = &d
	case ">":
		v := d + 1
		lower = &v
	case "<=":
		upper = &d
	case "<":
		v := d - 1
		upper = &v
	case "=":
		lower, upper = &d, &d
	}
	return ca, cb - nl, lower, upper, true
}

// timeTerm reads col, col + interval or col - interval.
func timeTerm(e expr.Expr) (col int, offset int64, ok bool) {
	switch x := e.(type) {
	case *expr.InputRef:
		if x.T.IsRowtime() || x.T.IsProctime() {
			return x.Index, 0, true
		}
	case *expr.Call:
		if (x.Name != "+" && x.Name != "-") || len(x.Args) != 2 {
			return
		}
		lit, isLit := x.Args[1].(*expr.Literal)
		inner := x.Args[0]
		if !isLit && x.Name == "+" {
			lit, isLit = x.Args[0].(*expr.Literal)
			inner = x.Args[1]
		}
		if !isLit {
			return
		}
		d, isDur := lit.Value.(time.Duration)
		if !isDur {
			return
		}
		c, off, ok2 := timeTerm(inner)
		if !ok2 {
			return
		}
		ms := int64(d / time.Millisecond)
		if x.Name == "-" {
			ms = -ms
		}
		return c, off + ms, true
	}
	return
}
