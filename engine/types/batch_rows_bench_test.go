//go:build unix

package types

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// cpuNow is the process's user + system CPU time so far.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRowConverterSortedOver converts the OVER query's result as the
// collector does: batches of 8192 rows of origin (runs of one code, as
// sorted output has them), delay (BIGINT, repeated) and ROW_NUMBER
// (BIGINT, every value new); 64 batches, about 0.5 M rows per op.
func BenchmarkRowConverterSortedOver(b *testing.B) {
	ts := []*DataType{StringType(), BigIntType(), BigIntType().NotNull()}
	var batches []*Batch
	num := int64(0)
	for k := 0; k < 64; k++ {
		bb := NewBatchBuilder(ts)
		for i := 0; i < 8192; i++ {
			num++
			if err := bb.Append(Insert, []any{fmt.Sprintf("A%02d", (k*8192+i)/5000%100), int64(1500 - (i*7)%1600), num}); err != nil {
				b.Fatal(err)
			}
		}
		batches = append(batches, bb.Build())
	}
	for _, block := range []bool{false, true} {
		b.Run(map[bool]string{false: "Rows", true: "RowBlock"}[block], func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			start := cpuNow()
			for n := 0; n < b.N; n++ {
				rc := NewRowConverter(ts)
				for _, bt := range batches {
					if block {
						_ = rc.RowBlock(bt)
					} else {
						_ = rc.Rows(bt)
					}
				}
			}
			b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
