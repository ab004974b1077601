package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/types"
)

// TestDirectColumns reads string and bytes columns (read by
// byteArrayColumn, not pqarrow) and fixed-width ones (fixedColumn) across many pages and row groups, with
// NULLs, empty and long values, dictionary and plain encodings, beside an
// INT64 column, in batches that straddle pages and row
// groups; and a range of row groups, and a projection of strings only.
func TestDirectColumns(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},      // dictionary
		{Name: "p", Type: arrow.BinaryTypes.String, Nullable: true},      // plain
		{Name: "r", Type: arrow.BinaryTypes.String},                      // required
		{Name: "b", Type: arrow.BinaryTypes.LargeBinary, Nullable: true}, // stored schema: large_binary
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},    // dictionary
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},  // plain
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "h", Type: arrow.PrimitiveTypes.Int16, Nullable: true}, // read by pqarrow
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	const rows, group = 10000, 1700
	var want [][]any
	for i := 0; i < rows; i++ {
		row := []any{int64(i)}
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		s := fmt.Sprintf("k%d", i%37)
		if i%37 == 5 {
			s = ""
		}
		p := fmt.Sprintf("v%d-%s", i, strings.Repeat("é", i%11))
		if i%997 == 3 {
			p = strings.Repeat("x", 3000) // longer than a page
		}
		for k, v := range []string{s, p} {
			if (i+k)%7 == 2 && i < 6000 || i%500 == 0 || (i >= 4000 && i < 4600) { // pages with and without NULLs
				bld.Field(1 + k).AppendNull()
				row = append(row, nil)
			} else {
				bld.Field(1 + k).(*array.StringBuilder).Append(v)
				row = append(row, v)
			}
		}
		bld.Field(3).(*array.StringBuilder).Append(p)
		row = append(row, p)
		if i%3 == 0 {
			bld.Field(4).AppendNull()
			row = append(row, nil)
		} else {
			bld.Field(4).(*array.BinaryBuilder).Append([]byte(s + "!"))
			row = append(row, []byte(s+"!"))
		}
		if (i+3)%7 == 2 && i < 6000 || i%500 == 0 || (i >= 4000 && i < 4600) {
			for k := 5; k < 9; k++ {
				bld.Field(k).AppendNull()
			}
			row = append(row, nil, nil, nil, nil)
		} else {
			bld.Field(5).(*array.Int64Builder).Append(int64(i % 41))
			bld.Field(6).(*array.Float64Builder).Append(float64(i) / 4)
			bld.Field(7).(*array.Date32Builder).Append(arrow.Date32(i))
			bld.Field(8).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1001))
			row = append(row, int64(i%41), float64(i)/4, types.Date(i), time.UnixMilli(int64(i)*1001).UTC())
		}
		bld.Field(9).(*array.Int16Builder).Append(int16(i))
		row = append(row, int16(i))
		want = append(want, row)
	}
	var buf bytes.Buffer
	props := pq.NewWriterProperties(pq.WithDataPageSize(512), pq.WithMaxRowGroupLength(group),
		pq.WithDictionaryDefault(false), pq.WithDictionaryFor("s", true), pq.WithDictionaryFor("b", true), pq.WithDictionaryFor("n", true))
	w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bld.NewRecordBatch()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	names := []string{"i", "s", "p", "r", "b", "n", "f", "d", "t", "h"}
	ts := []*types.DataType{types.BigIntType(), types.StringType(), types.StringType(), types.StringType(), types.BytesType(),
		types.BigIntType(), types.DoubleType(), types.DateType(), types.TimestampType(3), types.SmallIntType()}
	read := func(names []string, ts []*types.DataType, batch, first, last int) [][]any {
		t.Helper()
		dec, err := Factory{}.CreateDecoder(fctx(names, ts, nil))
		if err != nil {
			t.Fatal(err)
		}
		br, err := dec.(*Decoder).NewFileBlockReader(bytes.NewReader(data), int64(len(data)), "f.parquet", batch, nil, first, last)
		if err != nil {
			t.Fatal(err)
		}
		fr := br.(*FileReader)
		for i, n := range names {
			if direct := fr.direct[i] != nil; direct != (n != "h") {
				t.Fatalf("column %s read without pqarrow: %v", n, direct)
			}
		}
		var out [][]any
		for {
			b, err := br.Next()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range b.Rows(ts) {
				out = append(out, r.Values)
			}
		}
	}
	project := func(rows [][]any, cols ...int) [][]any {
		var out [][]any
		for _, r := range rows {
			var p []any
			for _, c := range cols {
				p = append(p, r[c])
			}
			out = append(out, p)
		}
		return out
	}
	check := func(what string, got, want [][]any) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: row %d = %v, want %v", what, i, got[i], want[i])
			}
		}
	}
	want = normalize(ts, want)
	for _, batch := range []int{1, 333, 8192} {
		check(fmt.Sprintf("all columns, batch %d", batch), read(names, ts, batch, 0, -1), want)
	}
	check("row groups 2-4", read(names, ts, 500, 2, 4), want[2*group:4*group])
	check("without i", read(names[1:], ts[1:], 777, 0, -1), project(want, 1, 2, 3, 4, 5, 6, 7, 8, 9))
	check("without pqarrow", read(names[:9], ts[:9], 4321, 0, -1), project(want, 0, 1, 2, 3, 4, 5, 6, 7, 8))
	check("VARCHAR(3)", read([]string{"i", "s"}, []*types.DataType{types.BigIntType(), types.VarCharType(3)}, 1000, 0, -1), project(want, 0, 1))
}
