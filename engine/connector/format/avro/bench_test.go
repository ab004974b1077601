package avro

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// benchTable is an orders-like message: BIGINT, STRING, DECIMAL(10, 2),
// TIMESTAMP(3), STRING, INT, all nullable but id.
var benchNames = []string{"id", "customer", "amount", "ts", "category", "qty"}
var benchTypes = []*types.DataType{types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2),
	types.TimestampType(3), types.StringType(), types.IntType()}

func benchMessages(b *testing.B, n int) [][]byte {
	e, err := Factory{}.CreateMessageEncoder(&connector.FormatContext{Names: benchNames, Types: benchTypes, Options: map[string]string{}})
	if err != nil {
		b.Fatal(err)
	}
	bb := types.NewBatchBuilder(benchTypes)
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		d, _ := types.ParseDecimal(fmt.Sprintf("%d.%02d", i%10000, i%100))
		_ = bb.Append(types.Insert, []any{int64(i), fmt.Sprintf("customer-%d", i%5000), d, base.Add(time.Duration(i) * time.Millisecond),
			[]string{"books", "games", "garden", "toys"}[i%4], int32(i % 7)})
	}
	batch := bb.Build()
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i], _ = e.Encode(nil, batch, i)
	}
	return msgs
}

// BenchmarkMessageDecode decodes orders records one message at a time and
// flushes every 8192, as the Kafka source does.
func BenchmarkMessageDecode(b *testing.B) {
	msgs := benchMessages(b, 8192)
	size := 0
	for _, m := range msgs {
		size += len(m)
	}
	d, _ := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: benchNames, Types: benchTypes, Options: map[string]string{}})
	b.SetBytes(int64(size / len(msgs)))
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuSeconds()
	for i := 0; i < b.N; i++ {
		if _, err := d.Decode(msgs[i%len(msgs)]); err != nil {
			b.Fatal(err)
		}
		if i%8192 == 8191 {
			d.Flush()
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "records/s")
	b.ReportMetric(float64(b.N)/(cpuSeconds()-cpu0), "records/cpu-s")
}

// BenchmarkMessageEncode encodes the same records.
func BenchmarkMessageEncode(b *testing.B) {
	e, _ := Factory{}.CreateMessageEncoder(&connector.FormatContext{Names: benchNames, Types: benchTypes, Options: map[string]string{}})
	msgs := benchMessages(b, 1)
	d, _ := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: benchNames, Types: benchTypes, Options: map[string]string{}})
	_, _ = d.Decode(msgs[0])
	batch := d.Flush()
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuSeconds()
	for i := 0; i < b.N; i++ {
		buf, _ = e.Encode(buf[:0], batch, 0)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "records/s")
	b.ReportMetric(float64(b.N)/(cpuSeconds()-cpu0), "records/cpu-s")
}

// cpuSeconds is the process's user+system CPU time: throughput per
// CPU-second stays stable when other work shares the machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
