package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

type discardOut struct{ rows int }

func (d *discardOut) Emit(b *types.Batch) error { d.rows += b.Len; return nil }
func (d *discardOut) EmitWatermark(int64) error { return nil }

// BenchmarkGroupAggInMemory is issue 2's in-memory target: the plan of
// SELECT origin, COUNT(*), AVG(delay) FROM flights GROUP BY origin over
// 10 M generated rows (batches of 8192; 300 origins; 5% NULL delays), on
// one core. It reports rows/s and allocations per row.
func BenchmarkGroupAggInMemory(b *testing.B) {
	const rows = 10_000_000
	const batchRows = 8192
	ts := []*types.DataType{types.StringType(), types.IntType()}
	r := rand.New(rand.NewSource(7))
	origins := make([]string, 300)
	for i := range origins {
		origins[i] = fmt.Sprintf("%c%c%c", 'A'+i%26, 'A'+(i/26)%26, 'A'+i%7)
	}
	// 32 distinct batches, fed round-robin up to 10 M rows
	batches := make([]*types.Batch, 32)
	for k := range batches {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < batchRows; i++ {
			var d any = int32(r.Intn(200) - 20)
			if r.Intn(20) == 0 {
				d = nil
			}
			if err := bb.Append(types.Insert, []any{origins[r.Intn(len(origins))], d}); err != nil {
				b.Fatal(err)
			}
		}
		batches[k] = bb.Build()
	}
	aggs := []opspec.AggSpec{
		{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()},
		{Func: "AVG", Args: []int{1}, ArgTypes: []*types.DataType{types.IntType()}, Filter: -1, Type: types.IntType()},
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		op := &GroupAgg{Keys: []int{0}, KeyTypes: ts[:1], Aggs: aggs, OutTypes: []*types.DataType{types.StringType(), types.BigIntType().NotNull(), types.IntType()}, Final: true}
		out := &discardOut{}
		if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: batchRows}}, out); err != nil {
			b.Fatal(err)
		}
		for fed, k := 0, 0; fed < rows; fed, k = fed+batchRows, k+1 {
			if err := op.ProcessBatch(0, batches[k%len(batches)]); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.EndInput(0); err != nil {
			b.Fatal(err)
		}
		if out.rows != len(origins) {
			b.Fatalf("%d groups, want %d", out.rows, len(origins))
		}
	}
	b.StopTimer()
	fed := float64(((rows + batchRows - 1) / batchRows) * batchRows)
	b.ReportMetric(fed*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
