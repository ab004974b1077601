package jobgraph

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/types"
)

// planAggCastInputs drops the Calc's CAST of an integer column to DOUBLE
// when the only reader of the cast column is a batch SUM, SUM0 or AVG
// (AVG(CAST(delay AS DOUBLE)), the usual way to get a fractional mean
// of an integer column). The plan keeps the cast, as Flink's does; at run
// time the Calc passes the integer column through unchanged (no copy)
// and the aggregate's DOUBLE accumulator converts each value as it adds
// it (runtime floatSumCount reads integer columns), which is the same
// arithmetic as adding the cast values: sum += float64(v), NULLs
// skipped. A batch of 8,192 rows then costs no 64 KB DOUBLE column
// allocated, zeroed and filled by the Calc.
//
// The rewrite applies to a batch GroupAggregate (not the merge phase) or
// LocalGroupAggregate whose input is a Calc, directly or through one
// Exchange, each read by that aggregate alone; the cast column must not
// be a grouping key, a FILTER column, or the argument of any other call
// (DISTINCT included: two integers above 2^53 can cast to one DOUBLE).
// It composes with planJoinOutputs: a Calc narrowed there is rewritten
// in its narrowed form.
func (b *builder) planAggCastInputs(roots []*physical.Node) {
	consumers, seen := countConsumers(roots)
	for p := range seen {
		var keys []int
		var aggs []opspec.AggSpec
		switch x := p.Op.(type) {
		case *physical.GroupAggregate:
			if x.Streaming || x.Merge {
				continue
			}
			keys, aggs = x.Keys, x.Aggs
		case *physical.LocalGroupAggregate:
			keys, aggs = x.Keys, x.Aggs
		default:
			continue
		}
		if len(p.Inputs) != 1 {
			continue
		}
		cn := p.Inputs[0]
		if _, ok := cn.Op.(*physical.Exchange); ok {
			if consumers[cn] != 1 || len(cn.Inputs) != 1 {
				continue
			}
			cn = cn.Inputs[0]
		}
		calc, ok := cn.Op.(*physical.Calc)
		if !ok || consumers[cn] != 1 || calc.Projs == nil {
			continue
		}
		if narrowed, ok := b.calcRefs[cn]; ok {
			calc = narrowed
		}
		var rewritten []expr.Expr
		for j, e := range calc.Projs {
			ref := integerCastToDouble(e)
			if ref == nil || !onlySummedAsDouble(j, keys, aggs) {
				continue
			}
			if rewritten == nil {
				rewritten = append([]expr.Expr(nil), calc.Projs...)
			}
			rewritten[j] = ref
		}
		if rewritten != nil {
			b.calcRefs[cn] = &physical.Calc{Where: calc.Where, Projs: rewritten}
		}
	}
}

// integerCastToDouble returns the column reference of e when e is
// CAST(column AS DOUBLE) of a TINYINT, SMALLINT, INT or BIGINT column,
// else nil.
func integerCastToDouble(e expr.Expr) *expr.InputRef {
	c, ok := e.(*expr.Call)
	if !ok || c.Name != "CAST" || len(c.Args) != 1 || c.T.Root != types.Double {
		return nil
	}
	ref, ok := c.Args[0].(*expr.InputRef)
	if !ok || !ref.T.IsIntegral() {
		return nil
	}
	return ref
}

// onlySummedAsDouble reports whether input column j of an aggregate with
// these keys and calls is read only as the argument of non-DISTINCT SUM,
// SUM0 or AVG calls with a DOUBLE argument type, and is read at least
// once.
func onlySummedAsDouble(j int, keys []int, aggs []opspec.AggSpec) bool {
	for _, k := range keys {
		if k == j {
			return false
		}
	}
	read := false
	for _, a := range aggs {
		if a.Filter == j {
			return false
		}
		for _, arg := range a.Args {
			if arg != j {
				continue
			}
			switch a.Func {
			case "SUM", "SUM0", "AVG":
			default:
				return false
			}
			if a.Distinct || a.Fn != nil || len(a.Args) != 1 || a.ArgTypes[0].Root != types.Double {
				return false
			}
			read = true
		}
	}
	return read
}
