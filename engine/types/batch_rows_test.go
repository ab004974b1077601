package types

import (
	"reflect"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// TestBatchRowsMatchesRow checks that Rows, which converts column by
// column, yields the same kinds and values as Row for every row, NULLs,
// RowKinds and a sliced batch (non-zero array offsets) included.
func TestBatchRowsMatchesRow(t *testing.T) {
	ts := []*DataType{BooleanType(), IntType(), BigIntType(), DoubleType(), StringType(), TimestampType(3), DecimalType(10, 2), DateType()}
	bb := NewBatchBuilder(ts)
	at := time.Date(2001, 1, 1, 0, 1, 0, 0, time.UTC)
	rows := [][]any{
		{true, int32(-7), int64(1) << 40, 1.5, "LAS", at, Decimal{Unscaled: decimal128.FromI64(1234), Scale: 2}, Date(11323)},
		{nil, nil, nil, nil, nil, nil, nil, nil},
		{false, int32(300), int64(-1), -0.25, "", at.Add(time.Millisecond), Decimal{Unscaled: decimal128.FromI64(-5), Scale: 2}, Date(0)},
		{true, int32(0), nil, 2.0, "PHL", nil, nil, Date(1)},
	}
	kinds := []RowKind{Insert, UpdateBefore, UpdateAfter, Delete}
	for i, r := range rows {
		if err := bb.Append(kinds[i], r); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	for _, batch := range []*Batch{b, b.Slice(1, 4)} {
		got := batch.Rows(ts)
		if len(got) != batch.Len {
			t.Fatalf("%d rows, want %d", len(got), batch.Len)
		}
		for i, r := range got {
			want := batch.Row(i, ts)
			if r.Kind != want.Kind || !reflect.DeepEqual(r.Values, want.Values) {
				t.Errorf("row %d: got %v %#v, want %v %#v", i, r.Kind, r.Values, want.Kind, want.Values)
			}
		}
	}
	// the rows share one backing array but appending to one row must not
	// overwrite the next
	got := b.Rows(ts)
	_ = append(got[0].Values, "extra")
	if got[1].Values[0] != nil {
		t.Errorf("append to row 0 changed row 1: %#v", got[1].Values[0])
	}
	if got[0].Values[1] != int32(-7) || got[2].Values[1] != int32(300) || got[2].Values[4] != "" {
		t.Errorf("values: %#v / %#v", got[0].Values, got[2].Values)
	}
}

// TestBatchRowsRepeatedValues checks that the boxed-value caches of Rows
// return the right value when slots collide and values repeat: every
// element equals ValueAt's value.
func TestBatchRowsRepeatedValues(t *testing.T) {
	ts := []*DataType{StringType(), IntType(), BigIntType(), TimestampType(3)}
	bb := NewBatchBuilder(ts)
	at := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 3000; i++ {
		// 0 and 256 (and 512, ...) share an integer slot
		row := []any{[]string{"LAS", "PHL", "ATL", "", "LAS", "SAV"}[i%6] + string(rune('A'+i%29)), int32((i % 5) * 256), int64(i%700) - 350, at.Add(time.Duration(i%3*256) * time.Millisecond)}
		if i%11 == 0 {
			row[i%4] = nil
		}
		if err := bb.Append(Insert, row); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	for i, r := range b.Rows(ts) {
		if want := b.Row(i, ts); !reflect.DeepEqual(r.Values, want.Values) {
			t.Fatalf("row %d: %#v, want %#v", i, r.Values, want.Values)
		}
	}
}

// TestRowConverterAcrossBatches converts several batches with one
// converter, whose caches carry over: values repeated across batches and
// values that collide in a slot still come out as ValueAt's.
func TestRowConverterAcrossBatches(t *testing.T) {
	ts := []*DataType{StringType(), IntType(), BigIntType()}
	rc := NewRowConverter(ts)
	for k := 0; k < 4; k++ {
		bb := NewBatchBuilder(ts)
		for i := 0; i < 700; i++ {
			row := []any{[]string{"LAS", "PHL", "ATL"}[(i+k)%3] + string(rune('a'+(i*k)%23)), int32((i + k) % 9 * 256), int64(i*k) - 1000}
			if (i+k)%13 == 0 {
				row[(i+k)%3] = nil
			}
			if err := bb.Append(Insert, row); err != nil {
				t.Fatal(err)
			}
		}
		b := bb.Build()
		if k == 2 {
			b = b.Slice(5, 600)
		}
		for i, r := range rc.Rows(b) {
			if want := b.Row(i, ts); !reflect.DeepEqual(r.Values, want.Values) {
				t.Fatalf("batch %d row %d: %#v, want %#v", k, i, r.Values, want.Values)
			}
		}
	}
}

// TestRowBlockBoxesBigintsByMisses converts batches of 8192 BIGINT rows
// whose values are runs of 32 (256 values a batch, new to the converter's
// cache each time): the boxes of the values the cache misses take about
// 8 bytes each, not a slab for the rest of the batch at the first miss
// (64 KB a batch); and a column of a new value every row (ROW_NUMBER),
// boxed across several slabs, keeps every value.
func TestRowBlockBoxesBigintsByMisses(t *testing.T) {
	ts := []*DataType{BigIntType().NotNull()}
	const rows = 8192
	batch := func(base int64, run int) *Batch {
		bb := NewBatchBuilder(ts)
		for i := range rows {
			if err := bb.Append(Insert, []any{base + int64(i/run)}); err != nil {
				t.Fatal(err)
			}
		}
		return bb.Build()
	}
	rc := NewRowConverter(ts)
	const conversions = 16
	batches := make([]*Batch, conversions)
	for k := range batches {
		batches[k] = batch(int64(k+1)*1_000_000, 32)
	}
	rc.RowBlock(batch(0, 32)) // the converter's cache, made once
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, b := range batches {
		rc.RowBlock(b)
	}
	runtime.ReadMemStats(&after)
	perBatch := int64(after.TotalAlloc-before.TotalAlloc) / conversions
	rowsAndValues := int64(rows) * int64(unsafe.Sizeof(Row{})+unsafe.Sizeof(any(nil)))
	if boxes := perBatch - rowsAndValues; boxes > 16<<10 {
		t.Fatalf("%d bytes a batch beside its rows and values for 256 new values, want at most 16 KiB", boxes)
	}
	for k, b := range batches {
		for i, r := range rc.RowBlock(b) {
			if want := int64(k+1)*1_000_000 + int64(i/32); r.Values[0] != want {
				t.Fatalf("batch %d row %d: %v, want %d", k, i, r.Values[0], want)
			}
		}
	}
	numbers := batch(1<<40, 1)
	for i, r := range rc.RowBlock(numbers) {
		if want := int64(1<<40) + int64(i); r.Values[0] != want {
			t.Fatalf("row %d of the numbers: %v, want %d", i, r.Values[0], want)
		}
	}
}

// TestValueBlockBoxesSmallBigintsInTheSharedTable converts a ROW_NUMBER
// column (1 to 8192) beside small values, their NULLs, negatives and the
// values either side of the table's end (65,535 and 65,536) into a reused
// block: every value is the column's, and the numbers under 65,536 need
// no allocation at all (no slab, no box).
func TestValueBlockBoxesSmallBigintsInTheSharedTable(t *testing.T) {
	ts := []*DataType{BigIntType().NotNull(), BigIntType()}
	const rows = 8192
	bb := NewBatchBuilder(ts)
	edge := []any{int64(0), int64(-1), nil, int64(65535), int64(65536), int64(-65536), int64(1) << 40, int64(7)}
	for i := range rows {
		if err := bb.Append(Insert, []any{int64(i + 1), edge[i%len(edge)]}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	rc := NewRowConverter(ts)
	block := rc.ValueBlock(b, nil)
	for i := range rows {
		if got := block[2*i]; got != int64(i+1) {
			t.Fatalf("row %d: ROW_NUMBER %#v, want %d", i, got, i+1)
		}
		if got, want := block[2*i+1], edge[i%len(edge)]; got != want {
			t.Fatalf("row %d: %#v, want %#v", i, got, want)
		}
	}
	// the boxes point into the shared table: another conversion does not
	// change values taken before
	first := block[0]
	ranks := NewBatchBuilder(ts[:1])
	for i := range rows {
		if err := ranks.Append(Insert, []any{int64(rows - i)}); err != nil {
			t.Fatal(err)
		}
	}
	rb := ranks.Build()
	one := NewRowConverter(ts[:1])
	reused := one.ValueBlock(rb, nil)
	if allocs := testing.AllocsPerRun(20, func() { reused = one.ValueBlock(rb, reused) }); allocs != 0 {
		t.Errorf("%v allocations converting 8192 small numbers into a reused block, want 0", allocs)
	}
	if reused[0] != int64(rows) || reused[rows-1] != int64(1) || first != int64(1) {
		t.Errorf("after reuse: %#v %#v, first block's %#v", reused[0], reused[rows-1], first)
	}
}
