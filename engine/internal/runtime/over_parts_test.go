package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// overPartsInput makes batches of random sizes (s STRING of 40 values,
// i BIGINT in [-50, 50], b BOOLEAN, d INT of many values, z STRING all
// NULL; 5 % NULLs in s, i, b) with rows in all, and the two ways the
// batch OVER receives them: whole batches (one instance) and the two
// instances' rows of a balanced exchange.
func overPartsInput(t *testing.T, rows int) (ts []*types.DataType, whole []selectedRows, drained [2][]selectedRows) {
	t.Helper()
	ts = []*types.DataType{types.StringType(), types.BigIntType(), types.BooleanType(), types.IntType(), types.StringType()}
	r := rand.New(rand.NewSource(11))
	maybe := func(v any) any {
		if r.Intn(20) == 0 {
			return nil
		}
		return v
	}
	var batches []*types.Batch
	for done := 0; done < rows; {
		n := min(1+r.Intn(3000), rows-done)
		bb := types.NewBatchBuilder(ts)
		for range n {
			row := []any{maybe(fmt.Sprintf("k%02d", r.Intn(40))), maybe(int64(r.Intn(101) - 50)), maybe(r.Intn(2) == 0), int32(r.Intn(100000)), nil}
			if err := bb.Append(types.Insert, row); err != nil {
				t.Fatal(err)
			}
		}
		batches = append(batches, bb.Build())
		done += n
	}
	whole, _ = wholeBatches(batches)
	pool := newKeyGroupPool(DefaultKeyGroups, 2)
	for _, b := range batches {
		pool.add(b, []int{0})
	}
	for inst := range 2 {
		parts, _, err := pool.drainParts(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		drained[inst] = parts
	}
	return ts, whole, drained
}

// The batch OVER's ranking path over the parts of its input (rankParts:
// keys coded straight from the batches, results by sorted position)
// gives the rows the general path gives over the same rows gathered into
// one batch: every ranking function, NULLs first and last, string,
// integer and boolean keys, an all-NULL key, a column that is no key,
// several groups (the earlier groups' results put back in the last one's
// order).
func TestOverRankPartsMatchesGathered(t *testing.T) {
	ts, whole, drained := overPartsInput(t, 20000)
	bigint := types.BigIntType().NotNull()
	call := func(fn string, offset int64) opspec.OverCall {
		c := opspec.OverCall{Func: fn, Filter: -1, Offset: offset, Type: bigint}
		if fn == "PERCENT_RANK" || fn == "CUME_DIST" {
			c.Type = types.DoubleType().NotNull()
		}
		return c
	}
	frame := opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	cases := map[string][]opspec.OverGroup{
		"partition by s order by i desc, every ranking": {{
			PartitionKeys: []int{0}, Order: []opspec.SortKey{{Col: 1, Desc: true}}, Frame: frame,
			Calls: []opspec.OverCall{call("ROW_NUMBER", 0), call("RANK", 0), call("DENSE_RANK", 0),
				call("PERCENT_RANK", 0), call("CUME_DIST", 0), call("NTILE", 3)},
		}},
		"partition by i, b order by s nulls first": {{
			PartitionKeys: []int{1, 2}, Order: []opspec.SortKey{{Col: 0, NullsFirst: true}}, Frame: frame,
			Calls: []opspec.OverCall{call("ROW_NUMBER", 0), call("RANK", 0)},
		}},
		"no partition, order by i nulls first": {{
			Order: []opspec.SortKey{{Col: 1, NullsFirst: true}}, Frame: frame,
			Calls: []opspec.OverCall{call("DENSE_RANK", 0)},
		}},
		"partition by the all-NULL z order by i": {{
			PartitionKeys: []int{4}, Order: []opspec.SortKey{{Col: 1}}, Frame: frame,
			Calls: []opspec.OverCall{call("ROW_NUMBER", 0)},
		}},
		"two groups": {{
			PartitionKeys: []int{0}, Order: []opspec.SortKey{{Col: 1}}, Frame: frame,
			Calls: []opspec.OverCall{call("ROW_NUMBER", 0), call("CUME_DIST", 0)},
		}, {
			PartitionKeys: []int{2}, Order: []opspec.SortKey{{Col: 1, Desc: true}}, Frame: frame,
			Calls: []opspec.OverCall{call("RANK", 0)},
		}},
	}
	inputs := map[string][]selectedRows{"whole batches": whole, "instance 0": drained[0], "instance 1": drained[1]}
	for name, groups := range cases {
		for in, parts := range inputs {
			total := 0
			for _, p := range parts {
				total += p.len()
			}
			op := &OverAggregate{Groups: groups, InTypes: ts}
			got := op.rankParts(parts, total)
			if got == nil {
				t.Fatalf("%s, %s: rankParts did not run", name, in)
			}
			want, err := op.evaluate(gatherParts(parts, total))
			if err != nil {
				t.Fatal(err)
			}
			outTypes := append([]*types.DataType(nil), ts...)
			for _, g := range groups {
				for _, c := range g.Calls {
					outTypes = append(outTypes, c.Type)
				}
			}
			if got.Len != total || want.Len != total {
				t.Fatalf("%s, %s: %d and %d rows, want %d", name, in, got.Len, want.Len, total)
			}
			gotRows, wantRows := got.Rows(outTypes), want.Rows(outTypes)
			for i := range gotRows {
				if g, w := gotRows[i].String(), wantRows[i].String(); g != w {
					t.Fatalf("%s, %s: row %d = %s, want %s", name, in, i, g, w)
				}
			}
		}
	}
}

// Calls that read a column (LAG, an aggregate) and keys the radix sort
// cannot code (DOUBLE) leave rankParts to the general path.
func TestOverRankPartsDeclines(t *testing.T) {
	ts, whole, _ := overPartsInput(t, 5000)
	frame := opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	lag := &OverAggregate{InTypes: ts, Groups: []opspec.OverGroup{{PartitionKeys: []int{0}, Order: []opspec.SortKey{{Col: 1}}, Frame: frame,
		Calls: []opspec.OverCall{{Func: "LAG", Args: []int{3}, ArgTypes: []*types.DataType{types.IntType()}, Offset: 1, Filter: -1, Type: types.IntType()}}}}}
	if lag.rankParts(whole, 5000) != nil {
		t.Fatal("rankParts ran LAG")
	}
	dts := []*types.DataType{types.DoubleType()}
	bb := types.NewBatchBuilder(dts)
	for i := range 5000 {
		if err := bb.Append(types.Insert, []any{float64(i % 7)}); err != nil {
			t.Fatal(err)
		}
	}
	dbl := &OverAggregate{InTypes: dts, Groups: []opspec.OverGroup{{Order: []opspec.SortKey{{Col: 0}}, Frame: frame,
		Calls: []opspec.OverCall{{Func: "ROW_NUMBER", Filter: -1, Type: types.BigIntType().NotNull()}}}}}
	if dbl.rankParts([]selectedRows{{b: bb.Build()}}, 5000) != nil {
		t.Fatal("rankParts sorted a DOUBLE key")
	}
}

// gatherValidity's bitmap agrees with the parts' rows, for whole batches
// and selected rows, columns with and without NULLs, at bit offsets that
// are not byte aligned.
func TestGatherValidity(t *testing.T) {
	ts := []*types.DataType{types.IntType()}
	mk := func(vals ...any) *types.Batch {
		bb := types.NewBatchBuilder(ts)
		for _, v := range vals {
			if err := bb.Append(types.Insert, []any{v}); err != nil {
				t.Fatal(err)
			}
		}
		return bb.Build()
	}
	a := mk(int32(1), nil, int32(3))
	b := mk(int32(4), int32(5), int32(6), int32(7), int32(8), int32(9), int32(10), int32(11), int32(12), int32(13))
	c := mk(nil, int32(15), nil, nil, int32(18), int32(19), nil, int32(21), int32(22), nil, int32(24))
	sliced := c.Slice(3, 11) // offset 3: nil, 18, 19, nil, 21, 22, nil, 24
	parts := []selectedRows{{b: a}, {b: b, sel: []int32{0, 2, 9}}, {b: c, sel: []int32{0, 1, 10, 9}}, {b: b}, {b: sliced}, {b: sliced, sel: []int32{7, 0, 1}}}
	var want []bool
	for _, p := range parts {
		for j := range p.len() {
			i := j
			if p.sel != nil {
				i = int(p.sel[j])
			}
			want = append(want, p.b.Cols[0].IsValid(i))
		}
	}
	got := gatherValidity(parts, 0, len(want))
	for k, w := range want {
		if g := got[k>>3]>>(k&7)&1 == 1; g != w {
			t.Fatalf("row %d valid %v, want %v", k, g, w)
		}
	}
	col := gatherColumn(parts, 0, len(want))
	for k, w := range want {
		if col.IsValid(k) != w {
			t.Fatalf("gathered row %d valid %v, want %v", k, col.IsValid(k), w)
		}
	}
}

// The two instances of a balanced exchange rank their rows side by side
// over the same producer batches (read only: go test -race) and get what
// each gets alone.
func TestOverRankPartsInstancesSideBySide(t *testing.T) {
	ts, _, drained := overPartsInput(t, 20000)
	frame := opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	groups := []opspec.OverGroup{{PartitionKeys: []int{0}, Order: []opspec.SortKey{{Col: 1, Desc: true}}, Frame: frame,
		Calls: []opspec.OverCall{{Func: "ROW_NUMBER", Filter: -1, Type: types.BigIntType().NotNull()}}}}
	outTypes := append(append([]*types.DataType(nil), ts...), types.BigIntType().NotNull())
	rank := func(inst int) string {
		total := 0
		for _, p := range drained[inst] {
			total += p.len()
		}
		op := &OverAggregate{Groups: groups, InTypes: ts}
		out := op.rankParts(drained[inst], total)
		if out == nil {
			return "rankParts did not run"
		}
		return fmt.Sprint(out.Rows(outTypes))
	}
	alone := [2]string{rank(0), rank(1)}
	var side [2]string
	done := make(chan int)
	for inst := range 2 {
		go func() {
			side[inst] = rank(inst)
			done <- inst
		}()
	}
	<-done
	<-done
	for inst := range 2 {
		if side[inst] != alone[inst] {
			t.Fatalf("instance %d: side by side %.200s…, alone %.200s…", inst, side[inst], alone[inst])
		}
	}
}

// The batch OVER's rankings over more rows than a sort leaf (so the sort
// splits the rows by partition as it packs them and the partitions are
// its buckets) hold what ROW_NUMBER, RANK and DENSE_RANK mean, checked
// without the sort: the output is the input's rows ordered by (s NULLS
// FIRST, i DESC NULLS LAST); within a partition the row numbers count 1,
// 2, 3, ..., ties in i share RANK and DENSE_RANK, which step as they
// should; whole batches and both instances of a balanced exchange.
func TestOverRankingBucketedPartitions(t *testing.T) {
	const rows = 150_000
	ts, whole, drained := overPartsInput(t, rows)
	bigint := types.BigIntType().NotNull()
	frame := opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
	groups := []opspec.OverGroup{{
		PartitionKeys: []int{0}, Order: []opspec.SortKey{{Col: 1, Desc: true}}, Frame: frame,
		Calls: []opspec.OverCall{{Func: "ROW_NUMBER", Filter: -1, Type: bigint}, {Func: "RANK", Filter: -1, Type: bigint},
			{Func: "DENSE_RANK", Filter: -1, Type: bigint}},
	}}
	outTypes := append(append([]*types.DataType(nil), ts...), bigint, bigint, bigint)
	inputs := map[string][]selectedRows{"whole batches": whole, "instance 0": drained[0], "instance 1": drained[1]}
	parted := map[string]int{}
	for in, parts := range inputs {
		total := 0
		for _, p := range parts {
			total += p.len()
		}
		op := &OverAggregate{Groups: groups, InTypes: ts}
		got := op.rankParts(parts, total)
		if got == nil {
			t.Fatalf("%s: rankParts did not run", in)
		}
		// the same rows as the input (as a multiset of their values)
		count := map[string]int{}
		for _, r := range gatherParts(parts, total).Rows(ts) {
			count[r.String()]++
		}
		out := got.Rows(outTypes)
		for _, r := range out {
			count[(&types.Row{Kind: r.Kind, Values: r.Values[:len(ts)]}).String()]--
		}
		for k, c := range count {
			if c != 0 {
				t.Fatalf("%s: row %s %d times more in the input than in the output", in, k, c)
			}
		}
		var partitions int
		for i, r := range out {
			s, d := r.Values[0], r.Values[1]
			rn, rank, dense := r.Values[len(ts)].(int64), r.Values[len(ts)+1].(int64), r.Values[len(ts)+2].(int64)
			first := i == 0 || fmt.Sprint(out[i-1].Values[0]) != fmt.Sprint(s)
			if first {
				partitions++
				// s NULLS FIRST, then ascending
				if i > 0 && (s == nil || out[i-1].Values[0] != nil && out[i-1].Values[0].(string) > s.(string)) {
					t.Fatalf("%s: partition %v after %v", in, s, out[i-1].Values[0])
				}
				if rn != 1 || rank != 1 || dense != 1 {
					t.Fatalf("%s: row %d opens partition %v with %d %d %d", in, i, s, rn, rank, dense)
				}
				continue
			}
			prev := out[i-1].Values
			pd := prev[1]
			// i DESC, NULLs last
			if pd == nil && d != nil || pd != nil && d != nil && pd.(int64) < d.(int64) {
				t.Fatalf("%s: row %d of partition %v: %v after %v", in, i, s, d, pd)
			}
			prn, prank, pdense := prev[len(ts)].(int64), prev[len(ts)+1].(int64), prev[len(ts)+2].(int64)
			tie := fmt.Sprint(pd) == fmt.Sprint(d)
			wantRank, wantDense := rn, pdense+1
			if tie {
				wantRank, wantDense = prank, pdense
			}
			if rn != prn+1 || rank != wantRank || dense != wantDense {
				t.Fatalf("%s: row %d of partition %v (%v): %d %d %d, want %d %d %d", in, i, s, d, rn, rank, dense, prn+1, wantRank, wantDense)
			}
		}
		parted[in] = partitions
	}
	// 40 values and NULL, each in one instance
	if parted["whole batches"] != 41 || parted["instance 0"]+parted["instance 1"] != 41 {
		t.Errorf("partitions: %v", parted)
	}
}
