//go:build unix

package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// The batch group key lookup and the accumulators (issue 19 §3), on the
// shapes of the bench/ queries: 3-letter string keys (group-by origin,
// COUNT(DISTINCT destination)), small integer keys (hourly EXTRACT), and
// the hash join's probe on a string key. Each benchmark feeds 32 distinct
// batches of 8192 rows round-robin, 1 M rows per op; ns/op is per 1 M rows.
// cpu-ns/op is the process's user + system CPU time per op (garbage
// collection included), steadier than ns/op on a loaded machine.

const keyBenchRows = 1 << 20
const keyBenchBatch = 8192

// keyBenchBatches builds 32 batches of (origin STRING, dest STRING,
// hour BIGINT, delay INT) with 300 origins, 300 destinations, 24 hours and
// 5 % NULL delays; no key column has NULLs.
func keyBenchBatches(b *testing.B) ([]*types.Batch, []*types.DataType) {
	ts := []*types.DataType{types.StringType(), types.StringType(), types.BigIntType(), types.IntType()}
	r := rand.New(rand.NewSource(7))
	codes := make([]string, 300)
	for i := range codes {
		codes[i] = fmt.Sprintf("%c%c%c", 'A'+i%26, 'A'+(i/26)%26, 'A'+i%7)
	}
	batches := make([]*types.Batch, 32)
	for k := range batches {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < keyBenchBatch; i++ {
			var d any = int32(r.Intn(200) - 20)
			if r.Intn(20) == 0 {
				d = nil
			}
			row := []any{codes[r.Intn(len(codes))], codes[r.Intn(len(codes))], int64(r.Intn(24)), d}
			if err := bb.Append(types.Insert, row); err != nil {
				b.Fatal(err)
			}
		}
		batches[k] = bb.Build()
	}
	return batches, ts
}

// runKeyBench runs a batch GroupAgg over keyBenchRows rows per op and
// checks the number of groups.
func runKeyBench(b *testing.B, key int, aggs []opspec.AggSpec, outTypes []*types.DataType, wantGroups int) {
	batches, ts := keyBenchBatches(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for n := 0; n < b.N; n++ {
		op := &GroupAgg{Keys: []int{key}, KeyTypes: ts[key : key+1], Aggs: aggs, OutTypes: outTypes, Final: true}
		out := &discardOut{}
		if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: keyBenchBatch}}, out); err != nil {
			b.Fatal(err)
		}
		for fed, k := 0, 0; fed < keyBenchRows; fed, k = fed+keyBenchBatch, k+1 {
			if err := op.ProcessBatch(0, batches[k%len(batches)]); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.EndInput(0); err != nil {
			b.Fatal(err)
		}
		if out.rows != wantGroups {
			b.Fatalf("%d groups, want %d", out.rows, wantGroups)
		}
	}
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time since start per op as cpu-ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

var countStar = opspec.AggSpec{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()}

// BenchmarkGroupKeyLookupString: SELECT origin, COUNT(*) … GROUP BY origin.
func BenchmarkGroupKeyLookupString(b *testing.B) {
	runKeyBench(b, 0, []opspec.AggSpec{countStar},
		[]*types.DataType{types.StringType(), types.BigIntType().NotNull()}, 300)
}

// BenchmarkGroupKeyLookupInt: SELECT hour, COUNT(*) … GROUP BY hour.
func BenchmarkGroupKeyLookupInt(b *testing.B) {
	runKeyBench(b, 2, []opspec.AggSpec{countStar},
		[]*types.DataType{types.BigIntType(), types.BigIntType().NotNull()}, 24)
}

// BenchmarkGroupAccumulators: SELECT origin, COUNT(*), SUM(delay),
// AVG(delay), MIN(delay), MAX(delay) … GROUP BY origin.
func BenchmarkGroupAccumulators(b *testing.B) {
	arg := func(f string, t *types.DataType) opspec.AggSpec {
		return opspec.AggSpec{Func: f, Args: []int{3}, ArgTypes: []*types.DataType{types.IntType()}, Filter: -1, Type: t}
	}
	runKeyBench(b, 0, []opspec.AggSpec{countStar, arg("SUM", types.IntType()), arg("AVG", types.IntType()),
		arg("MIN", types.IntType()), arg("MAX", types.IntType())},
		[]*types.DataType{types.StringType(), types.BigIntType().NotNull(), types.IntType(), types.IntType(), types.IntType(), types.IntType()}, 300)
}

// BenchmarkGroupCountDistinct: SELECT origin, COUNT(DISTINCT dest) …
// GROUP BY origin.
func BenchmarkGroupCountDistinct(b *testing.B) {
	cd := opspec.AggSpec{Func: "COUNT", Args: []int{1}, ArgTypes: []*types.DataType{types.StringType()}, Distinct: true, Filter: -1, Type: types.BigIntType().NotNull()}
	runKeyBench(b, 0, []opspec.AggSpec{cd}, []*types.DataType{types.StringType(), types.BigIntType().NotNull()}, 300)
}

// BenchmarkGroupKeyLookupPair: SELECT origin, dest, COUNT(*) … GROUP BY
// origin, dest (pairIndex), the local phase of a two-phase COUNT(DISTINCT
// dest) … GROUP BY origin; origins and destinations drawn from the first
// 60 codes (the flights data has 3,399 pairs of 229 origins).
func BenchmarkGroupKeyLookupPair(b *testing.B) {
	batches, ts := keyBenchBatches(b)
	for k, bt := range batches {
		// the first two columns' values folded onto 60 codes
		cols := append([]arrow.Array(nil), bt.Cols...)
		for c := 0; c < 2; c++ {
			sb := array.NewStringBuilder(memory.DefaultAllocator)
			s := bt.Cols[c].(*array.String)
			for i := 0; i < bt.Len; i++ {
				v := s.Value(i)
				sb.Append(fmt.Sprintf("%c%c%c", 'A'+(int(v[0]-'A')%6), 'A'+int(v[1]-'A')%10, 'A'))
			}
			cols[c] = sb.NewArray()
		}
		batches[k] = types.NewBatch(cols, nil, bt.Len)
	}
	pairs := map[[2]string]bool{}
	for _, bt := range batches {
		for i := 0; i < bt.Len; i++ {
			pairs[[2]string{bt.Cols[0].(*array.String).Value(i), bt.Cols[1].(*array.String).Value(i)}] = true
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for n := 0; n < b.N; n++ {
		op := &GroupAgg{Keys: []int{0, 1}, KeyTypes: ts[:2], Aggs: []opspec.AggSpec{countStar},
			OutTypes: []*types.DataType{types.StringType(), types.StringType(), types.BigIntType().NotNull()}, Final: true}
		out := &discardOut{}
		if err := op.Open(&OpContext{Ctx: context.Background(), Batch: true, Config: JobConfig{BatchSize: keyBenchBatch}}, out); err != nil {
			b.Fatal(err)
		}
		for fed, k := 0, 0; fed < keyBenchRows; fed, k = fed+keyBenchBatch, k+1 {
			if err := op.ProcessBatch(0, batches[k%len(batches)]); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.EndInput(0); err != nil {
			b.Fatal(err)
		}
		if out.rows != len(pairs) {
			b.Fatalf("%d groups, want %d", out.rows, len(pairs))
		}
	}
}

// BenchmarkJoinProbeString: the batch hash join's probe on a string key
// (300 unique build keys, every probe row matching one).
func BenchmarkJoinProbeString(b *testing.B) {
	batches, _ := keyBenchBatches(b)
	bb := types.NewBatchBuilder([]*types.DataType{types.StringType()})
	for i := 0; i < 300; i++ {
		if err := bb.Append(types.Insert, []any{fmt.Sprintf("%c%c%c", 'A'+i%26, 'A'+(i/26)%26, 'A'+i%7)}); err != nil {
			b.Fatal(err)
		}
	}
	ix := newStrJoinIndex(bb.Build(), 0, false)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for n := 0; n < b.N; n++ {
		matches := 0
		var li, ri []int32
		for fed, k := 0, 0; fed < keyBenchRows; fed, k = fed+keyBenchBatch, k+1 {
			c := batches[k%len(batches)].Cols[0]
			li, ri = ix.probe(c, c.Len(), li[:0], ri[:0])
			matches += len(li)
		}
		if matches != keyBenchRows {
			b.Fatalf("%d matches, want %d", matches, keyBenchRows)
		}
	}
}

// BenchmarkGroupCountDistinctInt: SELECT origin, COUNT(DISTINCT hour) …
// GROUP BY origin.
func BenchmarkGroupCountDistinctInt(b *testing.B) {
	cd := opspec.AggSpec{Func: "COUNT", Args: []int{2}, ArgTypes: []*types.DataType{types.BigIntType()}, Distinct: true, Filter: -1, Type: types.BigIntType().NotNull()}
	runKeyBench(b, 0, []opspec.AggSpec{cd}, []*types.DataType{types.StringType(), types.BigIntType().NotNull()}, 300)
}
