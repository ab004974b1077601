//go:build unix

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

// flightsLikeBatches returns rows generated like the bench's flights
// table (origin, destination: 300 three-letter codes; delay: BIGINT in
// [-30, 1500), 2 % NULL) in batches of 8192.
func flightsLikeBatches(b *testing.B, rows int) ([]*types.Batch, []*types.DataType) {
	ts := []*types.DataType{types.StringType(), types.StringType(), types.BigIntType()}
	r := rand.New(rand.NewSource(3))
	codes := make([]string, 300)
	for i := range codes {
		codes[i] = fmt.Sprintf("%c%c%c", 'A'+i%26, 'A'+(i/26)%26, 'A'+i%7)
	}
	var out []*types.Batch
	for done := 0; done < rows; {
		n := min(8192, rows-done)
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < n; i++ {
			var d any = int64(r.Intn(1530) - 30)
			if r.Intn(50) == 0 {
				d = nil
			}
			if err := bb.Append(types.Insert, []any{codes[r.Intn(300)], codes[r.Intn(300)], d}); err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, bb.Build())
		done += n
	}
	return out, ts
}

// measureCPU runs the benchmark loop body b.N times and reports the
// process CPU time per operation (cpu-ns/op, the garbage collector's
// included) beside the wall time, which a loaded machine inflates.
func measureCPU(b *testing.B, body func()) {
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for n := 0; n < b.N; n++ {
		body()
	}
	reportCPU(b, start)
}

// runBatchOperator feeds batches to op and ends its input; it returns the
// rows emitted.
func runBatchOperator(b *testing.B, op Operator, batches []*types.Batch) int {
	out := &discardOut{}
	if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: 8192}}, out); err != nil {
		b.Fatal(err)
	}
	for _, in := range batches {
		if err := op.ProcessBatch(0, in); err != nil {
			b.Fatal(err)
		}
	}
	if err := op.EndInput(0); err != nil {
		b.Fatal(err)
	}
	return out.rows
}

// BenchmarkOverRowNumber is the bench's OVER query on 1 M rows:
// SELECT origin, delay, ROW_NUMBER() OVER (PARTITION BY origin ORDER BY
// delay DESC) (the operator's input: origin, destination, delay).
func BenchmarkOverRowNumber(b *testing.B) {
	const rows = 1_000_000
	batches, ts := flightsLikeBatches(b, rows)
	measureCPU(b, func() {
		op := &OverAggregate{InTypes: ts, Groups: []opspec.OverGroup{{
			PartitionKeys: []int{0},
			Order:         []opspec.SortKey{{Col: 2, Desc: true}},
			Frame:         opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}},
			Calls:         []opspec.OverCall{{Func: "ROW_NUMBER", Filter: -1, Type: types.BigIntType().NotNull()}},
		}}}
		if got := runBatchOperator(b, op, batches); got != rows {
			b.Fatalf("%d rows", got)
		}
	})
}

// BenchmarkSortTopN is the bench's top-n query on 1 M rows: ORDER BY
// delay DESC, origin, destination LIMIT 10.
func BenchmarkSortTopN(b *testing.B) {
	const rows = 1_000_000
	batches, ts := flightsLikeBatches(b, rows)
	measureCPU(b, func() {
		op := &Sort{Types: ts, Fetch: 10, Keys: []opspec.SortKey{{Col: 2, Desc: true}, {Col: 0}, {Col: 1}}}
		if got := runBatchOperator(b, op, batches); got != 10 {
			b.Fatalf("%d rows", got)
		}
	})
}

// BenchmarkSortFull orders 1 M rows by origin, delay DESC (ORDER BY
// without a limit).
func BenchmarkSortFull(b *testing.B) {
	const rows = 1_000_000
	batches, ts := flightsLikeBatches(b, rows)
	measureCPU(b, func() {
		op := &Sort{Types: ts, Fetch: -1, Keys: []opspec.SortKey{{Col: 0}, {Col: 2, Desc: true}}}
		if got := runBatchOperator(b, op, batches); got != rows {
			b.Fatalf("%d rows", got)
		}
	})
}

// BenchmarkOverRowNumberBalanced is the bench's OVER query on 1 M rows
// as its plan runs it (the operator's input: delay, origin): "p1" one
// instance reading every batch, "p2" the balanced exchange into two
// instances (every batch added to a key-group pool, then each instance
// drains its rows and computes), run one after the other so that
// cpu-ns/op is the CPU of both.
//
//	go test -tags migrated_fynedo ./internal/runtime/ -run '^$' -bench OverRowNumberBalanced -count 5
func BenchmarkOverRowNumberBalanced(b *testing.B) {
	const rows = 1 << 20
	wide, _ := flightsLikeBatches(b, rows)
	batches := make([]*types.Batch, len(wide))
	for i, w := range wide {
		batches[i] = &types.Batch{Cols: []arrow.Array{w.Cols[2], w.Cols[0]}, Len: w.Len}
	}
	ts := []*types.DataType{types.BigIntType(), types.StringType()}
	newOp := func() *OverAggregate {
		return &OverAggregate{InTypes: ts, Groups: []opspec.OverGroup{{
			PartitionKeys: []int{1},
			Order:         []opspec.SortKey{{Col: 0, Desc: true}},
			Frame:         opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}},
			Calls:         []opspec.OverCall{{Func: "ROW_NUMBER", Filter: -1, Type: types.BigIntType().NotNull()}},
		}}}
	}
	open := func(op Operator, out Output) {
		if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: 8192}}, out); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("p1", func(b *testing.B) {
		measureCPU(b, func() {
			if got := runBatchOperator(b, newOp(), batches); got != rows {
				b.Fatalf("%d rows", got)
			}
		})
	})
	b.Run("p2", func(b *testing.B) {
		measureCPU(b, func() {
			pool := newKeyGroupPool(DefaultKeyGroups, 2)
			for _, bt := range batches {
				pool.add(bt, []int{1})
			}
			out := &discardOut{}
			for inst := range 2 {
				op := newOp()
				open(op, out)
				if err := drainKeyGroups(context.Background(), pool, inst, 0, op, &OperatorMetrics{}); err != nil {
					b.Fatal(err)
				}
				if err := op.EndInput(0); err != nil {
					b.Fatal(err)
				}
			}
			if out.rows != rows {
				b.Fatalf("%d rows", out.rows)
			}
		})
	})
}

// BenchmarkKeyGroupPoolAdd is the producers' side of the OVER's balanced
// exchange on 1 Mi flights-like rows (key: origin, 300 three-letter
// codes): "number" is pool.add as the plan runs it (key groups and the
// pool's dictionary numbers), "groups" the key groups alone
// (stringKeyGroups, what a producer does once the dictionary gave up).
//
//	go test -tags migrated_fynedo ./internal/runtime/ -run '^$' -bench KeyGroupPoolAdd -count 5
func BenchmarkKeyGroupPoolAdd(b *testing.B) {
	const rows = 1 << 20
	batches, _ := flightsLikeBatches(b, rows)
	b.Run("number", func(b *testing.B) {
		measureCPU(b, func() {
			pool := newKeyGroupPool(DefaultKeyGroups, 2)
			for _, bt := range batches {
				pool.add(bt, []int{0})
			}
			if pool.dict == nil || pool.dict.failed {
				b.Fatal("the dictionary gave up")
			}
		})
	})
	b.Run("groups", func(b *testing.B) {
		groups := make([]uint8, 8192)
		counts := make([]int32, DefaultKeyGroups)
		measureCPU(b, func() {
			for _, bt := range batches {
				stringKeyGroups(bt.Cols[0], DefaultKeyGroups, groups[:bt.Len], counts)
			}
		})
	})
}
