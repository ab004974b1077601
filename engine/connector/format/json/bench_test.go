package json

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func quakeInput(b *testing.B) ([]byte, int) {
	f, err := os.ReadFile("../../testdata/earthquakes-head300.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	rows := 0
	for buf.Len() < 8_000_000 {
		buf.Write(f)
		rows += 300
	}
	return buf.Bytes(), rows
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

func benchDecode(b *testing.B, tb table) {
	input, rows := quakeInput(b)
	d, err := NewDecoder(DefaultOptions(), tb.names, tb.types)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd := d.NewReader(bytes.NewReader(input), "quakes.jsonl", DefaultBatchRows)
		n := 0
		for {
			batch, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += batch.Len
		}
		if n != rows {
			b.Fatalf("%d rows", n)
		}
	}
	b.StopTimer()
	cpu := cpuSeconds() - cpu0
	runtime.ReadMemStats(&ms1)
	total := float64(rows) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(total/cpu, "rows/cpu-s")
	b.ReportMetric(float64(len(input))*float64(b.N)/cpu/1e6, "MB/cpu-s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/total, "allocs/row")
}

// BenchmarkJSONDecodeQuakes decodes the USGS GeoJSON lines (~700 bytes
// each) into a nested schema of 12 leaf fields.
func BenchmarkJSONDecodeQuakes(b *testing.B) { benchDecode(b, quakeTable) }

// BenchmarkJSONDecodeQuakesProject2 decodes only id and properties.mag.
func BenchmarkJSONDecodeQuakesProject2(b *testing.B) {
	benchDecode(b, cols("id", types.StringType(), "properties", types.RowType(types.NewField("mag", types.DoubleType()))))
}

// BenchmarkJSONEncodeFlights encodes flights-like rows
// (TIMESTAMP(0), INT, INT, STRING, STRING).
func BenchmarkJSONEncodeFlights(b *testing.B) {
	tb := cols("date", types.TimestampType(0), "delay", types.IntType(), "distance", types.IntType(), "origin", types.StringType(), "destination", types.StringType())
	bb := types.NewBatchBuilder(tb.types)
	base := time.Date(2001, 1, 1, 0, 1, 0, 0, time.UTC)
	for i := 0; i < 8192; i++ {
		_ = bb.Append(types.Insert, []any{base.Add(time.Duration(i) * time.Minute), int32(i%200 - 20), int32(100 + i%2000), "ORD", "LAX"})
	}
	batch := bb.Build()
	e, _ := NewEncoder(DefaultOptions(), tb.names, tb.types)
	b.ReportAllocs()
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := e.NewWriter(io.Discard)
		if err := w.Write(batch); err != nil {
			b.Fatal(err)
		}
		_ = w.Flush()
	}
	b.ReportMetric(float64(batch.Len)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(batch.Len)*float64(b.N)/(cpuSeconds()-cpu0), "rows/cpu-s")
}
