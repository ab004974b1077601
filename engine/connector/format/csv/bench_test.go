package csv

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

var flightsTable = cols("date", types.TimestampType(0), "delay", types.IntType(), "distance", types.IntType(),
	"origin", types.StringType(), "destination", types.StringType())

// flightsInput repeats the data rows of the flights extract to about 8 MB,
// the size of the full flights-2001-01-01_14.csv.
func flightsInput(t testing.TB) ([]byte, int) {
	data := readTestFile(t, "flights-head2000.csv")
	body := data[strings.IndexByte(data, '\n')+1:]
	var b bytes.Buffer
	rows := 0
	for b.Len() < 8_000_000 {
		b.WriteString(body)
		rows += 2000
	}
	return b.Bytes(), rows
}

func benchScan(b *testing.B, proj []int) {
	input, rows := flightsInput(b)
	d, err := NewDecoder(DefaultOptions(), flightsTable.names, flightsTable.types, proj)
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
		rd := d.NewReader(bytes.NewReader(input), "flights.csv", DefaultBatchRows)
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
			b.Fatalf("%d rows, want %d", n, rows)
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

// BenchmarkCSVScanFlights reads the flights rows into typed columns
// (TIMESTAMP(0), INT, INT, STRING, STRING).
func BenchmarkCSVScanFlights(b *testing.B) { benchScan(b, nil) }

// BenchmarkCSVScanFlightsProject2 reads only delay and origin.
func BenchmarkCSVScanFlightsProject2(b *testing.B) { benchScan(b, []int{1, 3}) }

// BenchmarkCSVEncodeFlights writes the flights rows as CSV.
func BenchmarkCSVEncodeFlights(b *testing.B) {
	input, rows := flightsInput(b)
	d, _ := NewDecoder(DefaultOptions(), flightsTable.names, flightsTable.types, nil)
	rd := d.NewReader(bytes.NewReader(input), "flights.csv", DefaultBatchRows)
	var batches []*types.Batch
	for {
		batch, err := rd.Next()
		if err != nil {
			break
		}
		batches = append(batches, batch)
	}
	e, _ := NewEncoder(DefaultOptions(), flightsTable.names, flightsTable.types)
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := e.NewWriter(io.Discard)
		for _, batch := range batches {
			if err := w.Write(batch); err != nil {
				b.Fatal(err)
			}
		}
		_ = w.Flush()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)*float64(b.N)/(cpuSeconds()-cpu0), "rows/cpu-s")
}

// cpuSeconds is the CPU time (user + system) used by the process so far:
// throughput per CPU-second is robust against other load on the machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// flightsWhere keeps the rows with delay > 60 AND distance < 1000, columns
// 2 and 3 of the projection origin, destination, delay, distance (the
// bench harness's filtered scan).
// With minDelay set, delay > minDelay instead (-1000: every row).
type flightsWhere struct{ minDelay int32 }

func (flightsWhere) Columns() []bool { return []bool{false, false, true, true} }

func (f flightsWhere) Keep(b *types.Batch) ([]int32, bool, error) {
	delay, dist := b.Cols[2].(*array.Int32), b.Cols[3].(*array.Int32)
	sel := []int32{}
	for i := 0; i < b.Len; i++ {
		if f.minDelay != 0 {
			if delay.IsValid(i) && delay.Value(i) > f.minDelay {
				sel = append(sel, int32(i))
			}
			continue
		}
		if delay.IsValid(i) && dist.IsValid(i) && delay.Value(i) > 60 && dist.Value(i) < 1000 {
			sel = append(sel, int32(i))
		}
	}
	return sel, len(sel) == b.Len, nil
}

// BenchmarkCSVScanFlightsWhere reads origin, destination, delay and
// distance and keeps the rows with delay > 60 AND distance < 1000: eager
// builds every column and then gathers the kept rows (the Calc's work
// before late materialization), late hands the filter to the reader,
// which builds origin and destination for the kept rows only.
//
// The "all" variants keep every row (delay > -1000): what late
// materialization costs when the filter drops nothing.
func BenchmarkCSVScanFlightsWhere(b *testing.B) {
	for _, v := range []struct {
		name  string
		late  bool
		where flightsWhere
	}{{"eager", false, flightsWhere{}}, {"late", true, flightsWhere{}}, {"eager-all", false, flightsWhere{-1000}}, {"late-all", true, flightsWhere{-1000}}} {
		late, where := v.late, v.where
		b.Run(v.name, func(b *testing.B) {
			input, rows := flightsInput(b)
			d, err := NewDecoder(DefaultOptions(), flightsTable.names, flightsTable.types, []int{3, 4, 1, 2})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(input)))
			cpu0 := cpuSeconds()
			b.ResetTimer()
			kept := 0
			for i := 0; i < b.N; i++ {
				rd := d.NewReader(bytes.NewReader(input), "flights.csv", DefaultBatchRows)
				if late && !rd.(*Reader).SetRowFilter(where) {
					b.Fatal("filter declined")
				}
				kept = 0
				for {
					batch, err := rd.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					if !late {
						sel, all, _ := where.Keep(batch)
						if !all {
							for j, c := range batch.Cols {
								batch.Cols[j] = vector.Take(c, sel)
							}
							batch.Len = len(sel)
						}
					}
					kept += batch.Len
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(rows)*float64(b.N)/(cpuSeconds()-cpu0), "rows/cpu-s")
			b.ReportMetric(float64(kept), "kept")
		})
	}
}
