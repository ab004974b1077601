package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestOverAggregateRankingLargeBatch runs ROW_NUMBER, RANK, DENSE_RANK and
// NTILE(4) OVER (PARTITION BY k ORDER BY v DESC) on 6,000 rows with many
// ties and NULLs (large enough for the radix sort) and checks every row
// against numbers computed from a Go stable sort: rows with equal keys
// keep their arrival order (seq), NULL v sorts last under DESC.
func TestOverAggregateRankingLargeBatch(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.IntType(), types.BigIntType().NotNull()}
	r := rand.New(rand.NewSource(5))
	type in struct {
		k   any
		v   any
		seq int64
	}
	var rows []in
	var batches []*types.Batch
	for b := 0; b < 3; b++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < 2000; i++ {
			var k any = fmt.Sprintf("p%d", r.Intn(12))
			if r.Intn(50) == 0 {
				k = nil
			}
			var v any = int32(r.Intn(30))
			if r.Intn(20) == 0 {
				v = nil
			}
			row := in{k, v, int64(len(rows))}
			rows = append(rows, row)
			if err := bb.Append(types.Insert, []any{k, v, row.seq}); err != nil {
				t.Fatal(err)
			}
		}
		batches = append(batches, bb.Build())
	}
	bigint := types.BigIntType().NotNull()
	op := &OverAggregate{
		InTypes: ts,
		Groups: []opspec.OverGroup{{
			PartitionKeys: []int{0},
			Order:         []opspec.SortKey{{Col: 1, Desc: true, NullsFirst: false}},
			Frame:         opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}},
			Calls: []opspec.OverCall{
				{Func: "ROW_NUMBER", Filter: -1, Type: bigint},
				{Func: "RANK", Filter: -1, Type: bigint},
				{Func: "DENSE_RANK", Filter: -1, Type: bigint},
				{Func: "NTILE", Filter: -1, Offset: 4, Type: bigint},
			},
		}},
	}
	out := &collectOut{}
	if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: 1000}}, out); err != nil {
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
	// expected: partitions in ascending key order (NULL first), each by v
	// descending with NULL last, ties by seq
	want := append([]in(nil), rows...)
	key := func(x any) string {
		if x == nil {
			return ""
		}
		return "~" + x.(string)
	}
	val := func(x any) int32 {
		if x == nil {
			return -1
		}
		return x.(int32)
	}
	sort.SliceStable(want, func(i, j int) bool {
		if ki, kj := key(want[i].k), key(want[j].k); ki != kj {
			return ki < kj
		}
		return val(want[i].v) > val(want[j].v)
	})
	if len(out.rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(out.rows), len(want))
	}
	var rowNum, rank, dense, size int64
	partSize := map[string]int64{}
	for _, w := range want {
		partSize[key(w.k)]++
	}
	for i, w := range want {
		newPart := i == 0 || key(want[i-1].k) != key(w.k)
		if newPart {
			rowNum, rank, dense, size = 0, 0, 0, partSize[key(w.k)]
		}
		rowNum++
		if newPart || val(want[i-1].v) != val(w.v) {
			rank = rowNum
			dense++
		}
		// NTILE(4): the first size%4 buckets hold one row more
		per, extra := size/4, size%4
		var tile int64
		if p := rowNum - 1; p < extra*(per+1) {
			tile = p/(per+1) + 1
		} else {
			tile = extra + (p-extra*(per+1))/per + 1
		}
		got := out.rows[i]
		if got[2] != w.seq || got[3] != rowNum || got[4] != rank || got[5] != dense || got[6] != tile {
			t.Fatalf("position %d: got seq %v row_number %v rank %v dense_rank %v ntile %v, want %d %d %d %d %d",
				i, got[2], got[3], got[4], got[5], got[6], w.seq, rowNum, rank, dense, tile)
		}
	}
}
