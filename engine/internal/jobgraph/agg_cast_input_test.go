package jobgraph

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/types"
)

// A batch aggregate whose only use of a Calc column CAST(int AS DOUBLE)
// is SUM/SUM0/AVG gets the integer column at run time; any other use of
// the column (a key, MIN, DISTINCT, a FILTER, another reader of the Calc,
// a streaming aggregate) keeps the cast.
func TestAggCastInputs(t *testing.T) {
	double := types.DoubleType()
	for _, c := range []struct {
		name   string
		agg    func(calc *physical.Node) *physical.Node
		twoUse bool // the Calc has a second reader
		want   bool
	}{
		{"AVG through a hash exchange", func(calc *physical.Node) *physical.Node {
			return groupAgg(exchange(calc), false, opspec.AggSpec{Func: "AVG", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1})
		}, false, true},
		{"SUM and SUM0 in the local phase", func(calc *physical.Node) *physical.Node {
			return &physical.Node{Op: &physical.LocalGroupAggregate{Keys: []int{1}, Aggs: []opspec.AggSpec{
				{Func: "SUM", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1},
				{Func: "SUM0", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1}}},
				Inputs: []*physical.Node{calc}, Parallelism: 1}
		}, false, true},
		{"MIN of the cast", func(calc *physical.Node) *physical.Node {
			return groupAgg(exchange(calc), false,
				opspec.AggSpec{Func: "AVG", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1},
				opspec.AggSpec{Func: "MIN", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1})
		}, false, false},
		{"SUM DISTINCT", func(calc *physical.Node) *physical.Node {
			return groupAgg(exchange(calc), false, opspec.AggSpec{Func: "SUM", Args: []int{0}, ArgTypes: []*types.DataType{double}, Distinct: true, Filter: -1})
		}, false, false},
		{"the cast as a grouping key", func(calc *physical.Node) *physical.Node {
			a := groupAgg(exchange(calc), false, opspec.AggSpec{Func: "AVG", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1})
			a.Op.(*physical.GroupAggregate).Keys = []int{0, 1}
			return a
		}, false, false},
		{"the cast as a FILTER column", func(calc *physical.Node) *physical.Node {
			return groupAgg(exchange(calc), false, opspec.AggSpec{Func: "AVG", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: 0})
		}, false, false},
		{"a streaming aggregate", func(calc *physical.Node) *physical.Node {
			return groupAgg(exchange(calc), true, opspec.AggSpec{Func: "AVG", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1})
		}, false, false},
		{"a Calc read twice", func(calc *physical.Node) *physical.Node {
			return groupAgg(exchange(calc), false, opspec.AggSpec{Func: "AVG", Args: []int{0}, ArgTypes: []*types.DataType{double}, Filter: -1})
		}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			scan := &physical.Node{Op: &physical.Values{}, Cols: []plan.Column{{Name: "delay", Type: types.BigIntType()}, {Name: "h", Type: types.BigIntType()}}, Parallelism: 1}
			delay := &expr.InputRef{Index: 0, Name: "delay", T: types.BigIntType()}
			calc := &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{
				&expr.Call{Name: "CAST", Args: []expr.Expr{delay}, T: double},
				&expr.InputRef{Index: 1, Name: "h", T: types.BigIntType()}}},
				Inputs: []*physical.Node{scan}, Parallelism: 1}
			roots := []*physical.Node{c.agg(calc)}
			if c.twoUse {
				roots = append(roots, &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{&expr.InputRef{Index: 0, T: double}}}, Inputs: []*physical.Node{calc}, Parallelism: 1})
			}
			b := &builder{}
			b.planJoinOutputs(roots)
			b.planAggCastInputs(roots)
			narrowed, ok := b.calcRefs[calc]
			if ok != c.want {
				t.Fatalf("rewritten %v, want %v", ok, c.want)
			}
			if !ok {
				return
			}
			if ref, isRef := narrowed.Projs[0].(*expr.InputRef); !isRef || ref.Index != 0 {
				t.Errorf("projection 0 = %v, want the column delay", narrowed.Projs[0])
			}
			if ref, isRef := narrowed.Projs[1].(*expr.InputRef); !isRef || ref.Index != 1 {
				t.Errorf("projection 1 = %v, want the column h unchanged", narrowed.Projs[1])
			}
			if _, isCall := calc.Op.(*physical.Calc).Projs[0].(*expr.Call); !isCall {
				t.Error("the plan's own Calc changed: EXPLAIN must keep the cast")
			}
		})
	}
}

func exchange(in *physical.Node) *physical.Node {
	return &physical.Node{Op: &physical.Exchange{Dist: opspec.Hash, Keys: []int{1}}, Inputs: []*physical.Node{in}, Parallelism: 1}
}

func groupAgg(in *physical.Node, streaming bool, aggs ...opspec.AggSpec) *physical.Node {
	return &physical.Node{Op: &physical.GroupAggregate{Keys: []int{1}, Aggs: aggs, Streaming: streaming}, Inputs: []*physical.Node{in}, Parallelism: 1}
}
