package rules

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

func init() {
	streamingRules = append(streamingRules, rankRule)
}

// rankRule recognises Top-N queries (Flink's FlinkLogicalRankRule):
//
//	SELECT ... FROM (SELECT ..., ROW_NUMBER() OVER (PARTITION BY k ORDER BY o) AS rn FROM t)
//	WHERE rn <= N [AND other conditions]
//
// (also RANK and DENSE_RANK, and the bounds rn < N, rn = N, rn BETWEEN a
// AND b) and replaces the window by a Rank node; conditions on other
// columns stay in a filter above it. The Rank outputs the rank number only
// when a later node reads it (decided by pruning); a ROW_NUMBER Top-1 on a
// time attribute without the number becomes a deduplication at physical
// planning.
func rankRule(n plan.Node) plan.Node {
	f, ok := n.(*plan.Filter)
	if !ok {
		return nil
	}
	base, exprs, conds := plan.Flatten(f.Input)
	over, ok := base.(*plan.Over)
	if !ok || len(over.Groups) != 1 || len(over.Groups[0].Calls) != 1 {
		return nil
	}
	g := over.Groups[0]
	call := g.Calls[0]
	switch call.Func {
	case "ROW_NUMBER", "RANK", "DENSE_RANK":
	default:
		return nil
	}
	if len(g.Order) == 0 {
		return nil
	}
	rankCol := len(over.Input.Columns())
	conds = append(conds, plan.Substitute(f.Cond, exprs))
	start, end := int64(1), int64(-1)
	var rest []expr.Expr
	for _, c := range conds {
		for _, cj := range plan.Conjuncts(c) {
			if lo, hi, ok := rankBound(cj, rankCol); ok {
				start = max(start, lo)
				if hi >= 0 && (end < 0 || hi < end) {
					end = hi
				}
				continue
			}
			for _, r := range expr.InputRefs(cj) {
				if r == rankCol {
					return nil // a condition on the rank Flink cannot push
				}
			}
			rest = append(rest, cj)
		}
	}
	if end < 0 {
		return nil
	}
	cols := append([]plan.Column(nil), over.Input.Columns()...)
	cols = append(cols, plan.Column{Name: over.Cols[rankCol].Name, Type: types.BigIntType().NotNull()})
	var out plan.Node
	if wr := plan.NewWindowRank(over, g, call, start, end, cols); wr != nil {
		out = wr
	} else {
		out = &plan.Rank{Input: over.Input, PartitionKeys: append([]int(nil), g.PartitionKeys...), Keys: append([]opspec.SortKey(nil), g.Order...),
			RankStart: start, RankEnd: end, WithRankNum: true, RankType: call.Func, Cols: cols}
	}
	if start > end {
		// an empty range: Flink keeps the plan; nothing passes
		rest = append(rest, &expr.Literal{Value: false, T: types.BooleanType().NotNull()})
	}
	if len(rest) > 0 {
		out = &plan.Filter{Input: out, Cond: plan.AndOf(rest)}
	}
	outCols := f.Columns()
	return &plan.Project{Input: out, Exprs: exprs, Cols: append([]plan.Column(nil), outCols...)}
}

// rankBound reads a bound on the rank column: rn <= N, rn < N, rn = N,
// rn >= N, rn > N (and the mirrored forms N >= rn ...). hi is -1 when the
// condition gives no upper bound.
func rankBound(c expr.Expr, rankCol int) (lo, hi int64, ok bool) {
	call, isCall := c.(*expr.Call)
	if !isCall || len(call.Args) != 2 {
		return 0, 0, false
	}
	op := call.Name
	a, b := call.Args[0], call.Args[1]
	if r, ok := b.(*expr.InputRef); ok && r.Index == rankCol {
		a, b = b, a
		switch op {
		case "<=":
			op = ">="
		case ">=":
			op = "<="
		case "<":
			op = ">"
		case ">":
			op = "<"
		}
	}
	r, ok := a.(*expr.InputRef)
	if !ok || r.Index != rankCol {
		return 0, 0, false
	}
	lit, ok := b.(*expr.Literal)
	if !ok || lit.Value == nil || !lit.T.IsIntegral() {
		return 0, 0, false
	}
	v := plan.ToInt64(lit.Value)
	switch op {
	case "<=":
		return 1, v, true
	case "<":
		return 1, v - 1, true
	case "=":
		return v, v, true
	case ">=":
		return v, -1, true
	case ">":
		return v + 1, -1, true
	}
	return 0, 0, false
}
