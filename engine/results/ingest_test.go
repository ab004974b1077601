package results

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
)

// allTypesRecord is a record with a column per Arrow type AddRecord
// copies without boxing, NULLs in every column and negative times.
func allTypesRecord(t *testing.T) (arrow.RecordBatch, []Column) {
	t.Helper()
	fields := []arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "dec3", Type: &arrow.Decimal128Type{Precision: 10, Scale: 3}, Nullable: true}, // rescaled: boxed path
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "t32", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
		{Name: "t64", Type: arrow.FixedWidthTypes.Time64ns, Nullable: true},
		{Name: "dur", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},
		{Name: "ts_s", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true},
		{Name: "ts_ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "ts_ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
		{Name: "ts9", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true}, // TIMESTAMP(9): boxed path
		{Name: "ym", Type: arrow.FixedWidthTypes.MonthInterval, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}
	cols := []Column{
		{"i8", types.TinyIntType()}, {"i16", types.SmallIntType()}, {"i32", types.IntType()}, {"i64", types.BigIntType()},
		{"f32", types.FloatType()}, {"f64", types.DoubleType()}, {"b", types.BooleanType()},
		{"dec", types.DecimalType(10, 2)}, {"dec3", types.DecimalType(10, 2)}, {"day", types.DateType()},
		{"t32", types.TimeType(3)}, {"t64", types.TimeType(9)}, {"dur", types.IntervalDayTimeType(types.ResDay, 2, 3)},
		{"ts_s", types.TimestampType(0)}, {"ts_ms", types.TimestampType(3)}, {"ts_us", types.TimestampType(6)},
		{"ts_ns", types.TimestampType(6)}, {"ts9", types.TimestampType(9)}, {"ym", types.IntervalYearMonthType(types.ResMonth, 2)},
		{"s", types.StringType()}, {"bin", types.BytesType()},
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), arrow.NewSchema(fields, nil))
	t.Cleanup(b.Release)
	const n = 3000 // more than two slices of ingestRows
	for i := range n {
		if i%7 == 3 {
			for f := range fields {
				b.Field(f).AppendNull()
			}
			continue
		}
		x := int64(i) - 1500
		b.Field(0).(*array.Int8Builder).Append(int8(x))
		b.Field(1).(*array.Int16Builder).Append(int16(x * 7))
		b.Field(2).(*array.Int32Builder).Append(int32(x * 70001))
		b.Field(3).(*array.Int64Builder).Append(x * 1e12)
		b.Field(4).(*array.Float32Builder).Append(float32(x) / 3)
		b.Field(5).(*array.Float64Builder).Append(float64(x) / 7)
		b.Field(6).(*array.BooleanBuilder).Append(x%2 == 0)
		b.Field(7).(*array.Decimal128Builder).Append(decimal128.FromI64(x * 101))
		b.Field(8).(*array.Decimal128Builder).Append(decimal128.FromI64(x * 1010))
		b.Field(9).(*array.Date32Builder).Append(arrow.Date32(x * 17))
		b.Field(10).(*array.Time32Builder).Append(arrow.Time32((i * 86399) % 86_400_000))
		b.Field(11).(*array.Time64Builder).Append(arrow.Time64(int64(i) * 28_799_999_999 % 86_400_000_000_000))
		b.Field(12).(*array.DurationBuilder).Append(arrow.Duration(x * 12345))
		b.Field(13).(*array.TimestampBuilder).Append(arrow.Timestamp(x * 86_413))
		b.Field(14).(*array.TimestampBuilder).Append(arrow.Timestamp(x * 86_413_789))
		b.Field(15).(*array.TimestampBuilder).Append(arrow.Timestamp(x * 86_413_789_123))
		b.Field(16).(*array.TimestampBuilder).Append(arrow.Timestamp(x*86_413_789_123_457 + 1))
		b.Field(17).(*array.TimestampBuilder).Append(arrow.Timestamp(x*86_413_789_123_457 + 1))
		b.Field(18).(*array.MonthIntervalBuilder).Append(arrow.MonthInterval(x))
		b.Field(19).(*array.StringBuilder).Append(fmt.Sprintf("s%d", x))
		b.Field(20).(*array.BinaryBuilder).Append([]byte{byte(x), byte(x >> 8)})
	}
	rec := b.NewRecordBatch()
	t.Cleanup(rec.Release)
	return rec, cols
}

// The typed copies of AddRecord store exactly what converting every value
// to engine/types' Go values (AddRows) stores.
func TestAddRecordMatchesRowByRowValues(t *testing.T) {
	rec, cols := allTypesRecord(t)
	n := int(rec.NumRows())
	fast := New(cols, Options{})
	if err := fast.AddRecord(rec, nil); err != nil {
		t.Fatal(err)
	}
	getters := make([]func(int) any, len(cols))
	for c := range cols {
		g, err := arrowGetter(rec.Column(c))
		if err != nil {
			t.Fatal(err)
		}
		getters[c] = g
	}
	rows := make([]*types.Row, n)
	for i := range rows {
		vals := make([]any, len(cols))
		for c, g := range getters {
			vals[c] = g(i)
		}
		rows[i] = &types.Row{Kind: types.Insert, Values: vals}
	}
	boxed := New(cols, Options{})
	if err := boxed.AddRows(rows); err != nil {
		t.Fatal(err)
	}
	a, b := fast.Snapshot(TableView, 0, n, nil), boxed.Snapshot(TableView, 0, n, nil)
	if a.Total != n || b.Total != n {
		t.Fatalf("totals %d and %d, want %d", a.Total, b.Total, n)
	}
	for i := range n {
		if !slices.Equal(a.Cells[i], b.Cells[i]) || !slices.Equal(a.Nulls[i], b.Nulls[i]) {
			t.Fatalf("row %d differs:\nfast  %q %v\nboxed %q %v", i, a.Cells[i], a.Nulls[i], b.Cells[i], b.Nulls[i])
		}
	}
	// spot checks of real values
	if got := a.Cells[0]; got[3] != "-1500000000000000" || got[9] != "1900-03-09" || got[13] != "1965-11-22 18:35:00" || got[19] != "s-1500" {
		t.Errorf("row 0 %q", got)
	}
	if !a.Nulls[3][0] || !a.Nulls[3][19] {
		t.Errorf("row 3 should be NULL: %v", a.Nulls[3])
	}
	ff, fb := fast.Freeze(TableView), boxed.Freeze(TableView)
	for i := 0; i < n; i += 97 {
		for c := range cols {
			if !types.ValuesEqual(ff.Value(i, c), fb.Value(i, c)) {
				t.Fatalf("value (%d, %s): %#v vs %#v", i, cols[c].Name, ff.Value(i, c), fb.Value(i, c))
			}
		}
	}
}

// A big batch is applied ingestRows at a time and the lock is free between
// slices: a reader (the UI) sees the rows arrive and never waits for the
// whole batch.
func TestBigBatchReleasesTheLockBetweenSlices(t *testing.T) {
	rec, cols := allTypesRecord(t)
	r := New(cols, Options{})
	var seen []int
	afterIngest = func(x *Result) {
		if x != r {
			return
		}
		// Would deadlock if AddRecord still held the write lock.
		s := r.Snapshot(TableView, 0, 1, nil)
		f := r.Freeze(TableView)
		if s.Total != f.Len() || s.Total != r.Len(TableView) || r.Stats().Rows != s.Total {
			t.Errorf("inconsistent counts: snapshot %d, frozen %d, Len %d, Stats %d", s.Total, f.Len(), r.Len(TableView), r.Stats().Rows)
		}
		seen = append(seen, s.Total)
	}
	defer func() { afterIngest = nil }()
	if err := r.AddRecord(rec, nil); err != nil {
		t.Fatal(err)
	}
	if want := []int{1024, 2048, 3000}; !slices.Equal(seen, want) {
		t.Errorf("rows visible after each slice %v, want %v", seen, want)
	}
}

// Frozen pictures taken while a writer inserts, retracts, drops by the cap
// and compacts are consistent (every row whole, counts as at capture) and
// do not change afterwards. Run with -race.
func TestFreezeWhileWriting(t *testing.T) {
	r := New(kvCols, Options{MaxTableRows: 20_000, MaxChangelogRows: 3000})
	const n = 120_000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		batch := make([]*types.Row, 0, 2500)
		for i := range n {
			k := fmt.Sprint(i % 50)
			batch = append(batch, &types.Row{Kind: types.Insert, Values: []any{k, int64(i)}})
			if i%3 == 0 && i > 0 {
				j := i - 1 - (i/3)%100 // an earlier row, maybe already gone
				batch = append(batch, &types.Row{Kind: types.Delete, Values: []any{fmt.Sprint(j % 50), int64(j)}})
			}
			if len(batch) >= cap(batch)-1 {
				r.AddRows(batch)
				batch = batch[:0]
			}
		}
		r.AddRows(batch)
		r.Finish(nil)
	}()
	check := func(f *Frozen, view View) {
		off := 0
		if view == ChangelogView {
			off = 1
		}
		for i := 0; i < f.Len(); i++ {
			k, _ := f.Text(i, off)
			v, _ := f.Value(i, off+1).(int64)
			if k != fmt.Sprint(v%50) {
				t.Errorf("%s row %d torn: %q, %d", view, i, k, v)
				return
			}
		}
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				st, _ := r.State()
				changes := r.Stats().Changes
				f, l := r.Freeze(TableView), r.Freeze(ChangelogView)
				if before := f.Len(); before > 0 {
					first, _ := f.Text(0, 1)
					waitChanges(r, changes) // the writer changed the result since the freeze
					check(f, TableView)
					check(l, ChangelogView)
					if after, _ := f.Text(0, 1); f.Len() != before || after != first {
						t.Errorf("a frozen picture changed: %d rows, first %s, now %d rows, first %s", before, first, f.Len(), after)
					}
				}
				if f.Len() > 20_000 || l.Len() > 3000 {
					t.Errorf("caps exceeded: %d, %d", f.Len(), l.Len())
				}
				vals := r.ReadValues(TableView, []int{0, 1}, 500, nil)
				for i := range vals.Len {
					if vals.Cols[0].Texts[i] != fmt.Sprint(int64(vals.Cols[1].Nums[i])%50) {
						t.Errorf("ReadValues row %d torn", i)
						return
					}
				}
				if st != Running {
					return
				}
			}
		}()
	}
	wg.Wait()
	if f := r.Freeze(TableView); f.Len() != r.Stats().Rows || !strings.HasPrefix(fmt.Sprint(f.Value(f.Len()-1, 1)), "1199") {
		t.Errorf("final: %d rows (stats %d), last %v", f.Len(), r.Stats().Rows, f.Value(f.Len()-1, 1))
	}
}
