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

// The batch path of COUNT(DISTINCT) and SUM(DISTINCT), string and integer
// arguments: a pair already counted is not counted again, a value whose
// multiplicity a retraction brought to zero counts again when a batch
// brings it back (once, however often the batch holds it), a pair new to
// the table counts at its first row only, NULL values and groups below 0
// are left out; multiplicities stay right for later retractions.
func TestDistinctAccBatchCountsPairsOnce(t *testing.T) {
	for _, typ := range []*types.DataType{types.StringType(), types.BigIntType()} {
		for _, fn := range []string{"COUNT", "SUM"} {
			if fn == "SUM" && typ.IsString() {
				continue
			}
			spec := opspec.AggSpec{Func: fn, Args: []int{0}, ArgTypes: []*types.DataType{typ}, Distinct: true, Filter: -1, Type: types.BigIntType()}
			val := func(v int) any {
				if typ.IsString() {
					return fmt.Sprint("v", v)
				}
				return int64(v)
			}
			col := func(vals ...any) []arrow.Array {
				bb := types.NewBatchBuilder(spec.ArgTypes)
				for _, v := range vals {
					if v != nil {
						v = val(v.(int))
					}
					if err := bb.Append(types.Insert, []any{v}); err != nil {
						t.Fatal(err)
					}
				}
				return bb.Build().Cols
			}
			a, err := newAccumulator(spec, true)
			if err != nil {
				t.Fatal(err)
			}
			a.resize(2)
			name := fn + " " + typ.String()
			want := func(g int32, count, sum int64) {
				t.Helper()
				w := any(count)
				if fn == "SUM" {
					w = sum
					if count == 0 {
						w = nil
					}
				}
				if got := a.result(g); got != w {
					t.Errorf("%s group %d: %v, want %v", name, g, got, w)
				}
			}
			a.accumulateBatch([]int32{0, 0, 1, 0, -1}, col(1, 2, 1, 1, 7))
			want(0, 2, 3)
			want(1, 1, 1)
			// retract value 2 from group 0: its multiplicity falls to zero
			a.update(0, col(2), 0, true)
			want(0, 1, 1)
			// 2 comes back twice, 1 again, 3 is new twice, a NULL
			a.accumulateBatch([]int32{0, 0, 0, 0, 0, 0, 1}, col(2, 1, 3, 2, nil, 3, 3))
			want(0, 3, 6)
			want(1, 2, 4)
			// group 0 holds 1 three times, 2 twice, 3 twice: two
			// retractions of 2 remove it, one of 3 does not
			args := col(2, 3)
			a.update(0, args, 0, true)
			want(0, 3, 6)
			a.update(0, args, 0, true)
			a.update(0, args, 1, true)
			want(0, 2, 4)
		}
	}
}
