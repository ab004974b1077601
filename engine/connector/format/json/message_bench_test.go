package json

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// BenchmarkMessageDecode decodes orders-like objects (BIGINT, STRING,
// DECIMAL(10, 2), TIMESTAMP(3), STRING, INT) one message at a time and
// flushes every 8192, as the Kafka source does.
func BenchmarkMessageDecode(b *testing.B) {
	names := []string{"id", "customer", "amount", "ts", "category", "qty"}
	ts := []*types.DataType{types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2),
		types.TimestampType(3), types.StringType(), types.IntType()}
	msgs := make([][]byte, 8192)
	size := 0
	for i := range msgs {
		msgs[i] = []byte(fmt.Sprintf(`{"id":%d,"customer":"customer-%d","amount":%d.%02d,"ts":"2024-05-01 00:%02d:%02d.%03d","category":"%s","qty":%d}`,
			i, i%5000, i%10000, i%100, i/60%60, i%60, i%1000, []string{"books", "games", "garden", "toys"}[i%4], i%7))
		size += len(msgs[i])
	}
	d, err := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: names, Types: ts, Options: map[string]string{}})
	if err != nil {
		b.Fatal(err)
	}
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
