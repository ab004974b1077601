package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestGroupAggCountDistinctManyGroups feeds a batch GroupAgg 3,000 groups
// of string, integer and two-column DISTINCT aggregates with NULL keys,
// NULL arguments and a FILTER clause, and checks every group against
// counts computed with Go maps.
func TestGroupAggCountDistinctManyGroups(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.IntType(), types.BooleanType()}
	r := rand.New(rand.NewSource(3))
	const groups = 3000
	type ref struct {
		strs, filtered map[string]bool
		ints           map[int32]bool
		pairs          map[string]bool
		sum            int64
	}
	refs := map[any]*ref{}
	get := func(k any) *ref {
		if refs[k] == nil {
			refs[k] = &ref{strs: map[string]bool{}, filtered: map[string]bool{}, ints: map[int32]bool{}, pairs: map[string]bool{}}
		}
		return refs[k]
	}
	var batches []*types.Batch
	for b := 0; b < 12; b++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < 4000; i++ {
			var k any = int32(r.Intn(groups))
			if r.Intn(200) == 0 {
				k = nil
			}
			var s any = fmt.Sprintf("v%d", r.Intn(40))
			if r.Intn(4) == 0 {
				s = fmt.Sprintf("a longer value %d", r.Intn(20))
			}
			if r.Intn(10) == 0 {
				s = nil
			}
			var n any = int32(r.Intn(25) - 5)
			if r.Intn(8) == 0 {
				n = nil
			}
			var f any = r.Intn(3) == 0
			if r.Intn(15) == 0 {
				f = nil
			}
			if err := bb.Append(types.Insert, []any{k, s, n, f}); err != nil {
				t.Fatal(err)
			}
			g := get(k)
			if s != nil {
				g.strs[s.(string)] = true
				if f == true {
					g.filtered[s.(string)] = true
				}
			}
			if n != nil && !g.ints[n.(int32)] {
				g.ints[n.(int32)] = true
				g.sum += int64(n.(int32))
			}
			if s != nil && n != nil {
				g.pairs[fmt.Sprint(s, "/", n)] = true
			}
		}
		batches = append(batches, bb.Build())
	}
	bigint := types.BigIntType().NotNull()
	aggs := []opspec.AggSpec{
		{Func: "COUNT", Args: []int{1}, ArgTypes: ts[1:2], Distinct: true, Filter: -1, Type: bigint},
		{Func: "COUNT", Args: []int{1}, ArgTypes: ts[1:2], Distinct: true, Filter: 3, Type: bigint},
		{Func: "COUNT", Args: []int{2}, ArgTypes: ts[2:3], Distinct: true, Filter: -1, Type: bigint},
		{Func: "SUM", Args: []int{2}, ArgTypes: ts[2:3], Distinct: true, Filter: -1, Type: types.IntType()},
		{Func: "COUNT", Args: []int{1, 2}, ArgTypes: ts[1:3], Distinct: true, Filter: -1, Type: bigint},
	}
	outTypes := []*types.DataType{types.IntType(), bigint, bigint, bigint, types.IntType(), bigint}
	op := &GroupAgg{Keys: []int{0}, KeyTypes: ts[:1], Aggs: aggs, OutTypes: outTypes, Final: true}
	out := &collectOut{}
	if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: 1024}}, out); err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := op.ProcessBatch(0, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := op.EndInput(0); err != nil {
		t.Fatal(err)
	}
	if len(out.rows) != len(refs) {
		t.Fatalf("%d groups, want %d", len(out.rows), len(refs))
	}
	for _, row := range out.rows {
		g := refs[row[0]]
		if g == nil {
			t.Fatalf("unexpected group %v", row[0])
		}
		var sum any
		if len(g.ints) > 0 {
			sum = int32(g.sum)
		}
		want := []any{row[0], int64(len(g.strs)), int64(len(g.filtered)), int64(len(g.ints)), sum, int64(len(g.pairs))}
		for c := range want {
			if row[c] != want[c] {
				t.Errorf("group %v column %d: %v, want %v", row[0], c, row[c], want[c])
			}
		}
	}
}

// TestDistinctAccRetractMergeReset drives COUNT(DISTINCT) directly:
// retractions forward a value's last removal only, merging from another
// accumulator renumbers its values, and reset empties a group.
func TestDistinctAccRetractMergeReset(t *testing.T) {
	spec := opspec.AggSpec{Func: "COUNT", Args: []int{0}, ArgTypes: []*types.DataType{types.StringType()}, Distinct: true, Filter: -1, Type: types.BigIntType().NotNull()}
	col := func(vals ...any) []arrow.Array {
		bb := types.NewBatchBuilder(spec.ArgTypes)
		for _, v := range vals {
			if err := bb.Append(types.Insert, []any{v}); err != nil {
				t.Fatal(err)
			}
		}
		return bb.Build().Cols
	}
	newAcc := func() accumulator {
		a, err := newAccumulator(spec, true)
		if err != nil {
			t.Fatal(err)
		}
		a.resize(3)
		return a
	}
	a := newAcc()
	args := col("x", "y", "x", nil, "z")
	for i := 0; i < 5; i++ {
		a.update(0, args, i, false)
	}
	a.update(1, args, 1, false)
	if a.result(0) != int64(3) || a.result(1) != int64(1) || a.result(2) != int64(0) {
		t.Fatalf("after inserts: %v %v %v, want 3 1 0", a.result(0), a.result(1), a.result(2))
	}
	a.update(0, args, 0, true) // one of two x
	if a.result(0) != int64(3) {
		t.Fatalf("after retracting one x of two: %v, want 3", a.result(0))
	}
	a.update(0, args, 2, true) // the last x
	a.update(0, args, 1, true) // the only y
	a.update(2, args, 4, true) // z was never in group 2
	if a.result(0) != int64(1) || a.result(2) != int64(0) {
		t.Fatalf("after retractions: %v %v, want 1 0", a.result(0), a.result(2))
	}
	a.update(0, args, 0, false) // x comes back
	if a.result(0) != int64(2) {
		t.Fatalf("after re-insert: %v, want 2", a.result(0))
	}
	// another accumulator numbers its values in another order
	b := newAcc()
	bargs := col("w", "z", "x")
	for i := 0; i < 3; i++ {
		b.update(1, bargs, i, false)
	}
	a.(mergeableAcc).mergeFrom(0, b, 1) // {x, z} + {w, z, x}
	if a.result(0) != int64(3) {
		t.Fatalf("after merge: %v, want 3", a.result(0))
	}
	a.(mergeableAcc).mergeFrom(2, a, 0) // self merge into an empty group
	if a.result(2) != int64(3) {
		t.Fatalf("after self merge: %v, want 3", a.result(2))
	}
	a.(resettableAcc).reset(0)
	if a.result(0) != int64(0) || a.result(2) != int64(3) {
		t.Fatalf("after reset: %v %v, want 0 3", a.result(0), a.result(2))
	}
	a.update(0, args, 4, false)
	a.update(0, args, 4, false)
	if a.result(0) != int64(1) {
		t.Fatalf("after reset and insert: %v, want 1", a.result(0))
	}
}
