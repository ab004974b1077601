package results

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
)

var benchCols = []Column{
	{"id", types.BigIntType()},
	{"price", types.DoubleType()},
	{"name", types.StringType()},
	{"ts", types.TimestampType(3)},
	{"qty", types.IntType()},
}

func fillBench(r *Result, n int) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]*types.Row, 0, 1024)
	for i := 0; i < n; i++ {
		rows = append(rows, types.NewRow(int64(i), float64(i)*0.25, fmt.Sprintf("item-%05d", i%100000),
			t0.Add(time.Duration(i)*time.Millisecond), int32(i%1000)))
		if len(rows) == cap(rows) {
			r.AddRows(rows)
			rows = rows[:0]
		}
	}
	r.AddRows(rows)
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkStore1M fills a Result with 1,000,000 rows of BIGINT, DOUBLE,
// STRING (10 chars), TIMESTAMP(3), INT and reports the heap it holds.
func BenchmarkStore1M(b *testing.B) {
	for b.Loop() {
		before := heapInUse()
		r := New(benchCols, Options{})
		fillBench(r, 1_000_000)
		after := heapInUse()
		b.ReportMetric(float64(after-before)/1e6, "heap-MB")
		b.ReportMetric(float64(after-before)/1_000_000, "bytes/row")
		runtime.KeepAlive(r)
	}
}

// BenchmarkSnapshot1M takes one visible window (50 rows) from the middle
// of a 1,000,000-row table: what a grid does per frame.
func BenchmarkSnapshot1M(b *testing.B) {
	r := New(benchCols, Options{})
	fillBench(r, 1_000_000)
	var s *Snapshot
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		from := (i * 7919) % 999_950
		s = r.Snapshot(TableView, from, from+50, s)
	}
	if s.Total != 1_000_000 {
		b.Fatal(s.Total)
	}
}

// BenchmarkSnapshotWithRetractions: the same after 10% of the rows were
// retracted (index built, dead rows scattered).
func BenchmarkSnapshot1MRetracted(b *testing.B) {
	r := New(benchCols, Options{})
	fillBench(r, 1_000_000)
	f := r.Freeze(TableView)
	for i := 0; i < 1_000_000; i += 10 {
		vals := make([]any, 5)
		for c := range vals {
			vals[c] = f.Value(i, c)
		}
		r.Add(types.Delete, vals)
	}
	var s *Snapshot
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		from := (i * 7919) % 899_950
		s = r.Snapshot(TableView, from, from+50, s)
	}
	if s.Total != 900_000 {
		b.Fatal(s.Total)
	}
}

// BenchmarkAddRows measures ingest (rows/s) into the table and changelog views.
func BenchmarkAddRows(b *testing.B) {
	rows := make([]*types.Row, 1024)
	t0 := time.Now()
	for i := range rows {
		rows[i] = types.NewRow(int64(i), 1.5, "abcdefghij", t0, int32(i))
	}
	r := New(benchCols, Options{MaxTableRows: 100_000})
	b.ResetTimer()
	for b.Loop() {
		r.AddRows(rows)
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAddRecord measures ingest (rows/s) of Arrow batches of 32,768
// rows of BIGINT, DOUBLE, STRING, TIMESTAMP(3), INT, as the engine's
// collect sink delivers them.
func BenchmarkAddRecord(b *testing.B) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	const n = 32768
	for i := range n {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		rb.Field(1).(*array.Float64Builder).Append(float64(i) * 0.25)
		rb.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("item-%05d", i))
		rb.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000 + int64(i)))
		rb.Field(4).(*array.Int32Builder).Append(int32(i % 1000))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	r := New(benchCols, Options{MaxTableRows: 1_000_000})
	b.ResetTimer()
	for b.Loop() {
		if err := r.AddRecord(rec, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}
