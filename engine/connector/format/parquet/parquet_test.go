package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func fctx(names []string, ts []*types.DataType, opts map[string]string) *connector.FormatContext {
	if opts == nil {
		opts = map[string]string{}
	}
	return &connector.FormatContext{Table: "t", Names: names, Types: ts, AllNames: names, AllTypes: ts, Options: opts}
}

// writeFile encodes rows with the format's encoder and returns the file.
func writeFile(t *testing.T, names []string, ts []*types.DataType, opts map[string]string, batches ...[][]any) []byte {
	t.Helper()
	enc, err := Factory{}.CreateEncoder(fctx(names, ts, opts))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := enc.NewWriter(&buf)
	for _, rows := range batches {
		bb := types.NewBatchBuilder(ts)
		for _, r := range rows {
			if err := bb.Append(types.Insert, r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Write(bb.Build()); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.(connector.ClosingBatchWriter).Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll decodes a file with the projection names/ts and filters.
func readAll(t *testing.T, data []byte, all []string, allTypes []*types.DataType, names []string, ts []*types.DataType,
	opts map[string]string, filters []*connector.Predicate) ([][]any, *FileReader) {
	t.Helper()
	ctx := fctx(names, ts, opts)
	ctx.AllNames, ctx.AllTypes = all, allTypes
	dec, err := Factory{}.CreateDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	br, err := dec.(connector.FileDecoder).NewFileReader(bytes.NewReader(data), int64(len(data)), "f.parquet", 3, filters)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for {
		b, err := br.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range b.Rows(ts) {
			out = append(out, r.Values)
		}
	}
	return out, br.(*FileReader)
}

// normalize passes rows through a batch, as the engine holds them (an
// empty BYTES value reads back as a nil slice, for one).
func normalize(ts []*types.DataType, rows [][]any) [][]any {
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.Append(types.Insert, r); err != nil {
			panic(err)
		}
	}
	var out [][]any
	for _, r := range bb.Build().Rows(ts) {
		out = append(out, r.Values)
	}
	return out
}

func dec(s string) types.Decimal {
	d, err := types.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

func allTypes() ([]string, []*types.DataType, [][]any) {
	names := []string{"b", "ti", "si", "i", "bi", "f", "d", "d5", "d18", "d38", "c", "vc", "s", "bin", "vb", "dt",
		"tm0", "tm3", "ts0", "ts3", "ts6", "ts9", "ltz3", "ltz6", "ltz9", "arr", "m", "ms", "r", "nested", "nn"}
	ts := []*types.DataType{
		types.BooleanType(), types.TinyIntType(), types.SmallIntType(), types.IntType(), types.BigIntType(),
		types.FloatType(), types.DoubleType(), types.DecimalType(5, 2), types.DecimalType(18, 4), types.DecimalType(38, 10),
		types.CharType(3), types.VarCharType(10), types.StringType(), types.BinaryType(3), types.VarBinaryType(10),
		types.DateType(), types.TimeType(0), types.TimeType(3),
		types.TimestampType(0), types.TimestampType(3), types.TimestampType(6), types.TimestampType(9),
		types.TimestampLTZType(3), types.TimestampLTZType(6), types.TimestampLTZType(9),
		types.ArrayType(types.IntType()), types.MapType(types.StringType().NotNull(), types.DecimalType(10, 2)),
		types.MultisetType(types.StringType()),
		types.RowType(types.NewField("a", types.IntType()), types.NewField("b", types.StringType()),
			types.NewField("c", types.ArrayType(types.DoubleType()))),
		types.ArrayType(types.RowType(types.NewField("x", types.TimestampType(6)),
			types.NewField("y", types.MapType(types.IntType().NotNull(), types.ArrayType(types.StringType()))))),
		types.BigIntType().NotNull(),
	}
	ts9 := time.Date(2024, 2, 29, 23, 59, 59, 123456789, time.UTC)
	row := func(_ string, vals ...any) *types.Row {
		return &types.Row{Kind: types.Insert, Values: vals}
	}
	full := []any{true, int8(-128), int16(32767), int32(-2147483648), int64(9223372036854775807),
		float32(1.5), -2.25, dec("-999.99"), dec("12345678901234.5678"), dec("-1234567890123456789012345678.0123456789"),
		"ab ", "héllo", strings.Repeat("x", 300), []byte{0, 1, 2}, []byte{0xff, 0},
		types.DateOf(1969, 7, 20), types.TimeOf(23, 59, 58, 0), types.TimeOf(1, 2, 3, 456000000),
		time.Date(1900, 1, 1, 0, 0, 1, 0, time.UTC), ts9.Truncate(time.Millisecond), ts9.Truncate(time.Microsecond), ts9,
		time.Date(1969, 12, 31, 23, 59, 59, 999000000, time.UTC), ts9.Truncate(time.Microsecond), ts9,
		[]any{int32(1), nil, int32(3)},
		&types.Map{Keys: []any{"k1", "k2"}, Values: []any{dec("1.50"), nil}},
		&types.Map{Keys: []any{"a", "b"}, Values: []any{int32(2), int32(1)}},
		row("r", int32(7), "seven", []any{1.0, nil}),
		[]any{row("n", ts9.Truncate(time.Microsecond), &types.Map{Keys: []any{int32(1)}, Values: []any{[]any{"p", nil}}}), nil},
		int64(1),
	}
	full[28].(*types.Row).Names = []string{"a", "b", "c"}
	full[29].([]any)[0].(*types.Row).Names = []string{"x", "y"}
	nulls := make([]any, len(names))
	nulls[len(nulls)-1] = int64(2)
	empty := []any{false, int8(0), int16(0), int32(0), int64(0), float32(0), 0.0, dec("0.00"), dec("0.0000"), dec("0E-10"),
		"", "", "", []byte{}, []byte{}, types.Date(0), types.LocalTime(0), types.LocalTime(0),
		time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC(),
		time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC(),
		[]any{}, &types.Map{}, &types.Map{}, &types.Row{Kind: types.Insert, Values: []any{nil, nil, nil}, Names: []string{"a", "b", "c"}},
		[]any{}, int64(3)}
	return names, ts, [][]any{full, nulls, empty}
}

// Every type survives a write and a read, with INT96 (default) and INT64
// timestamps in each unit; a nested ROW with nulls and an empty MAP too.
func TestRoundTripEveryType(t *testing.T) {
	names, ts, rows := allTypes()
	for _, opts := range []map[string]string{
		nil,
		{"utc-timezone": "true"},
		{"write.int64.timestamp": "true", "timestamp.time.unit": "nanos"},
		{"compression": "zstd", "writer.version": "PARQUET_2_0", "enable.dictionary": "false"},
		{"compression": "UNCOMPRESSED", "block.size": "1kb", "page.size": "512"},
		{"compression": "gzip"}, {"compression": "brotli"}, {"compression": "lz4_raw"},
	} {
		t.Run(fmt.Sprint(opts), func(t *testing.T) {
			data := writeFile(t, names, ts, opts, rows, rows[:1])
			got, _ := readAll(t, data, names, ts, names, ts, opts, nil)
			want := normalize(ts, append(append([][]any{}, rows...), rows[0]))
			if len(got) != len(want) {
				t.Fatalf("%d rows, want %d", len(got), len(want))
			}
			for i := range want {
				for c := range names {
					if !reflect.DeepEqual(got[i][c], want[i][c]) {
						t.Errorf("row %d column %s: got %#v, want %#v", i, names[c], got[i][c], want[i][c])
					}
				}
			}
		})
	}
}

// INT64 timestamps in millis and micros keep the digits the unit holds,
// flooring before 1970 as Flink does.
func TestInt64TimestampUnits(t *testing.T) {
	names := []string{"ts"}
	ts := []*types.DataType{types.TimestampType(9)}
	v := time.Date(1969, 12, 31, 23, 59, 59, 998500000, time.UTC)
	for unit, want := range map[string]time.Time{
		"millis": time.Date(1969, 12, 31, 23, 59, 59, 998000000, time.UTC),
		"micros": v, "nanos": v,
	} {
		opts := map[string]string{"write.int64.timestamp": "true", "timestamp.time.unit": unit}
		data := writeFile(t, names, ts, opts, [][]any{{v}})
		got, _ := readAll(t, data, names, ts, names, ts, opts, nil)
		if !got[0][0].(time.Time).Equal(want) {
			t.Errorf("%s: got %v, want %v", unit, got[0][0], want)
		}
		// The Parquet type is INT64 TIMESTAMP(unit) not adjusted to UTC.
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		c := pf.MetaData().Schema.Column(0)
		if c.PhysicalType() != pq.Types.Int64 || !strings.Contains(c.LogicalType().String(), "isAdjustedToUTC=false") {
			t.Errorf("%s: stored as %s %s", unit, c.PhysicalType(), c.LogicalType())
		}
	}
}

// The Parquet schema Riffle writes is Flink's (ParquetSchemaConverter):
// INT96 timestamps, FIXED_LEN_BYTE_ARRAY decimals, INT32 TIME_MILLIS,
// INT_8/INT_16, 3-level lists, REQUIRED for NOT NULL.
func TestWrittenSchema(t *testing.T) {
	names, ts, rows := allTypes()
	data := writeFile(t, names, ts, nil, rows)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	schema.PrintSchema(pf.MetaData().Schema.Root(), &b, 1)
	s := b.String()
	for _, want := range []string{
		"optional int32 field_id=-1 ti (Int(bitWidth=8, isSigned=true));",
		"optional int32 field_id=-1 si (Int(bitWidth=16, isSigned=true));",
		"optional fixed_len_byte_array field_id=-1 d5 (Decimal(precision=5, scale=2));",
		"optional fixed_len_byte_array field_id=-1 d18 (Decimal(precision=18, scale=4));",
		"optional fixed_len_byte_array field_id=-1 d38 (Decimal(precision=38, scale=10));",
		"optional byte_array field_id=-1 s (String);",
		"optional byte_array field_id=-1 vb;",
		"optional int32 field_id=-1 dt (Date);",
		"optional int32 field_id=-1 tm3 (Time(isAdjustedToUTC=false, timeUnit=milliseconds));",
		"optional int96 field_id=-1 ts0;",
		"optional int96 field_id=-1 ts3;",
		"optional int96 field_id=-1 ltz9;",
		"optional group field_id=-1 arr (List) {",
		"repeated group field_id=-1 list {",
		"optional int32 field_id=-1 element (Int(bitWidth=32, isSigned=true));",
		"optional group field_id=-1 m (Map) {",
		"repeated group field_id=-1 key_value {",
		"required byte_array field_id=-1 key (String);",
		"required int64 field_id=-1 nn (Int(bitWidth=64, isSigned=true));",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("schema lacks %q:\n%s", want, s)
		}
	}
	// Decimal widths as Flink's computeMinBytesForDecimalPrecision.
	for name, width := range map[string]int{"d5": 3, "d18": 8, "d38": 16} {
		c := pf.MetaData().Schema.Column(pf.MetaData().Schema.ColumnIndexByName(name))
		if c.TypeLength() != width {
			t.Errorf("%s: %d bytes, want %d", name, c.TypeLength(), width)
		}
	}
}

// A file written by an independent writer (pqarrow with its own choices:
// INT64 micros timestamps adjusted to UTC, decimals as INT32/INT64,
// unannotated INT32 for TINYINT, FLOAT for DOUBLE, a missing column)
// reads into the declared types.
func TestForeignFile(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "small", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}, Nullable: true},
		{Name: "big", Type: &arrow.Decimal128Type{Precision: 18, Scale: 3}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "ratio", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "tm", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	bld.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
	bld.Field(1).(*array.Int32Builder).AppendValues([]int32{-5, 100}, nil)
	p, _ := dec("12.34").Rescale(2, 9)
	bld.Field(2).(*array.Decimal128Builder).AppendValues([]decimal128.Num{p.Unscaled, p.Unscaled}, nil)
	q, _ := dec("-7.125").Rescale(3, 18)
	bld.Field(3).(*array.Decimal128Builder).AppendValues([]decimal128.Num{q.Unscaled, q.Unscaled}, nil)
	when := time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC)
	bld.Field(4).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(when.UnixMicro()), 0}, []bool{true, false})
	bld.Field(5).(*array.Float32Builder).AppendValues([]float32{0.5, 2}, nil)
	bld.Field(6).(*array.BinaryBuilder).AppendValues([][]byte{[]byte("ann"), []byte("bob")}, nil)
	bld.Field(7).(*array.Time64Builder).AppendValues([]arrow.Time64{arrow.Time64((3600 + 1) * 1_000_000), 1}, nil)
	rec := bld.NewRecordBatch()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, pq.NewWriterProperties(pq.WithStoreDecimalAsInteger(true)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	names := []string{"id", "small", "price", "big", "ts", "ratio", "name", "tm", "missing"}
	ts := []*types.DataType{types.BigIntType(), types.TinyIntType(), types.DecimalType(10, 2), types.DecimalType(20, 4),
		types.TimestampType(3), types.DoubleType(), types.StringType(), types.TimeType(3), types.IntType()}
	got, _ := readAll(t, buf.Bytes(), names, ts, names, ts, map[string]string{"utc-timezone": "true"}, nil)
	want := [][]any{
		{int64(1), int8(-5), dec("12.34"), dec("-7.1250"), time.Date(2024, 5, 6, 7, 8, 9, 123000000, time.UTC), 0.5, "ann", types.TimeOf(1, 0, 1, 0), nil},
		{int64(2), int8(100), dec("12.34"), dec("-7.1250"), nil, 2.0, "bob", types.TimeOf(0, 0, 0, 0), nil},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
	// An incompatible type is an error naming file, column and both types.
	d, _ := Factory{}.CreateDecoder(fctx([]string{"ts"}, []*types.DataType{types.BooleanType()}, nil))
	_, err = d.(connector.FileDecoder).NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "/x/foreign.parquet", 10, nil)
	if err == nil || !strings.Contains(err.Error(), "parquet file /x/foreign.parquet: column 'ts' is stored as Parquet INT64 Timestamp(isAdjustedToUTC=true, timeUnit=microseconds") ||
		!strings.Contains(err.Error(), "cannot be read as BOOLEAN") {
		t.Fatalf("err = %v", err)
	}
}

// countingReaderAt records the byte ranges read.
type countingReaderAt struct {
	r      io.ReaderAt
	mu     sync.Mutex
	ranges [][2]int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	c.ranges = append(c.ranges, [2]int64{off, off + int64(len(p))})
	c.mu.Unlock()
	return c.r.ReadAt(p, off)
}

// overlaps reports whether any read touched [from, to).
func (c *countingReaderAt) overlaps(from, to int64) bool {
	for _, r := range c.ranges {
		if r[0] < to && from < r[1] {
			return true
		}
	}
	return false
}

// Projection: only the column chunks of the projected columns are read.
// Filters: row groups whose statistics rule the filter out are skipped.
func TestProjectionAndRowGroupSkipping(t *testing.T) {
	names := []string{"id", "name", "payload", "day"}
	ts := []*types.DataType{types.BigIntType(), types.StringType(), types.StringType(), types.DateType()}
	var batches [][][]any
	for g := 0; g < 4; g++ { // four row groups of 1000 rows (block.size is tiny)
		var rows [][]any
		for i := 0; i < 1000; i++ {
			id := int64(g*1000 + i)
			rows = append(rows, []any{id, fmt.Sprintf("name-%d", g), strings.Repeat("p", 50), types.Date(g)})
		}
		batches = append(batches, rows)
	}
	data := writeFile(t, names, ts, map[string]string{"block.size": "100"}, batches...)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if n := pf.NumRowGroups(); n != 4 {
		t.Fatalf("%d row groups, want 4", n)
	}

	open := func(proj []string, projTypes []*types.DataType, filters []*connector.Predicate) (*countingReaderAt, int64, *FileReader) {
		ctx := fctx(proj, projTypes, nil)
		ctx.AllNames, ctx.AllTypes = names, ts
		d, err := Factory{}.CreateDecoder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cr := &countingReaderAt{r: bytes.NewReader(data)}
		br, err := d.(connector.FileDecoder).NewFileReader(cr, int64(len(data)), "f", 4096, filters)
		if err != nil {
			t.Fatal(err)
		}
		var rows int64
		for {
			b, err := br.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			rows += int64(b.Len)
		}
		return cr, rows, br.(*FileReader)
	}
	chunk := func(g, c int) (int64, int64) {
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(c)
		if err != nil {
			t.Fatal(err)
		}
		start := cc.DataPageOffset()
		if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
			start = cc.DictionaryPageOffset()
		}
		return start, start + cc.TotalCompressedSize()
	}

	// Projection of "id": no byte of the other columns' chunks is read.
	cr, rows, _ := open([]string{"id"}, ts[:1], nil)
	if rows != 4000 {
		t.Fatalf("%d rows", rows)
	}
	for g := 0; g < 4; g++ {
		if from, to := chunk(g, 0); !cr.overlaps(from, to) {
			t.Errorf("row group %d: id chunk not read", g)
		}
		for c := 1; c < 4; c++ {
			if from, to := chunk(g, c); cr.overlaps(from, to) {
				t.Errorf("row group %d: chunk of unprojected column %s read", g, names[c])
			}
		}
	}

	// id >= 2500 AND day <> 3: row groups 0, 1 (ids) and 3 (day) skipped.
	filters := []*connector.Predicate{
		{Op: connector.OpGreaterEq, Column: 0, Name: "id", Value: int64(2500)},
		{Op: connector.OpNot, Args: []*connector.Predicate{{Op: connector.OpIsNull, Column: 1, Name: "name"}}},
		{Op: connector.OpNotEq, Column: 3, Name: "day", Value: types.Date(3)},
	}
	cr, rows, fr := open([]string{"name"}, ts[1:2], filters)
	if read, skipped := fr.RowGroups(); read != 1 || skipped != 3 || rows != 1000 {
		t.Fatalf("read %d row groups, skipped %d, %d rows; want 1, 3, 1000", read, skipped, rows)
	}
	for _, g := range []int{0, 1, 3} {
		if from, to := chunk(g, 1); cr.overlaps(from, to) {
			t.Errorf("skipped row group %d was read", g)
		}
	}
	// Each operator against the statistics, as (predicate, row groups read).
	for _, c := range []struct {
		p    *connector.Predicate
		read int
	}{
		{&connector.Predicate{Op: connector.OpEq, Name: "id", Value: int64(1500)}, 1},
		{&connector.Predicate{Op: connector.OpLess, Name: "id", Value: int64(1000)}, 1},
		{&connector.Predicate{Op: connector.OpLessEq, Name: "id", Value: int64(1000)}, 2},
		{&connector.Predicate{Op: connector.OpGreater, Name: "id", Value: int64(2999)}, 1},
		{&connector.Predicate{Op: connector.OpIn, Name: "id", Values: []any{int64(5), int64(3999)}}, 2},
		{&connector.Predicate{Op: connector.OpEq, Name: "name", Value: "name-2"}, 1},
		{&connector.Predicate{Op: connector.OpLike, Name: "name", Value: "name-1%"}, 1},
		{&connector.Predicate{Op: connector.OpIsNull, Name: "id"}, 0},
		{&connector.Predicate{Op: connector.OpOr, Args: []*connector.Predicate{
			{Op: connector.OpEq, Name: "day", Value: types.Date(0)}, {Op: connector.OpEq, Name: "id", Value: int64(3000)}}}, 2},
		{&connector.Predicate{Op: connector.OpNot, Args: []*connector.Predicate{{Op: connector.OpEq, Name: "id", Value: int64(1)}}}, 4},
		{&connector.Predicate{Op: connector.OpEq, Name: "payload", Value: "zzz"}, 0},
		{&connector.Predicate{Op: connector.OpEq, Name: "id", Value: "not a number"}, 4},
	} {
		_, _, fr := open([]string{"id"}, ts[:1], []*connector.Predicate{c.p})
		if read, _ := fr.RowGroups(); read != c.read {
			t.Errorf("%s: read %d row groups, want %d", c.p, read, c.read)
		}
	}
}

// A file that is not Parquet, truncated, or with flipped bytes is an error
// naming the file, never a panic.
func TestCorruptFiles(t *testing.T) {
	names, ts, rows := allTypes()
	data := writeFile(t, names, ts, nil, rows, rows, rows)
	d, err := Factory{}.CreateDecoder(fctx(names, ts, nil))
	if err != nil {
		t.Fatal(err)
	}
	read := func(b []byte) error {
		br, err := d.(connector.FileDecoder).NewFileReader(bytes.NewReader(b), int64(len(b)), "/data/bad.parquet", 2, nil)
		if err != nil {
			return err
		}
		for {
			if _, err := br.Next(); err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "parquet file /data/bad.parquet: not a readable Parquet file"},
		{"text", []byte("id,name\n1,a\n"), "parquet file /data/bad.parquet: not a readable Parquet file"},
		{"truncated footer", data[:len(data)-10], "parquet file /data/bad.parquet"},
		{"truncated half", data[:len(data)/2], "parquet file /data/bad.parquet"},
	} {
		if err := read(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// Flipped bytes anywhere: an error naming the file or (rarely, in
	// values) other data, but never a panic.
	for i := 0; i < len(data); i += 1 + len(data)/300 {
		b := append([]byte(nil), data...)
		b[i] ^= 0xff
		if err := read(b); err != nil && !strings.Contains(err.Error(), "/data/bad.parquet") {
			t.Errorf("flip at %d: error without the file name: %v", i, err)
		}
	}
}

// Unsupported types and options are clear errors.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		t    *types.DataType
		opts map[string]string
		want string
	}{
		{types.IntervalDayTimeType(types.ResDayToSecond, 2, 3), nil, "the parquet format does not support type INTERVAL DAY(2) TO SECOND(3) (column 'c')"},
		{types.ArrayType(types.IntervalYearMonthType(types.ResYearToMonth, 2)), nil, "does not support type INTERVAL YEAR(2) TO MONTH (column 'c')"},
		{types.IntType(), map[string]string{"compression": "LZO"}, "'parquet.compression' = 'LZO' is not supported by Riffle"},
		{types.IntType(), map[string]string{"compression": "foo"}, "'parquet.compression' must be one of UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW, but was: foo"},
		{types.IntType(), map[string]string{"timestamp.time.unit": "days"}, "'parquet.timestamp.time.unit' must be one of millis, micros, nanos, but was: days"},
		{types.IntType(), map[string]string{"utc-timezone": "yes"}, "'parquet.utc-timezone' must be true or false, but was: yes"},
		{types.IntType(), map[string]string{"block.size": "-1"}, "'parquet.block.size' must be a positive number of bytes, but was: -1"},
	} {
		_, err := Factory{}.CreateEncoder(fctx([]string{"c"}, []*types.DataType{c.t}, c.opts))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err = %v, want %q", c.t, c.opts, err, c.want)
		}
	}
	// Unknown parquet.* keys (Hadoop configuration) are ignored.
	if _, err := (Factory{}).CreateEncoder(fctx([]string{"c"}, []*types.DataType{types.IntType()}, map[string]string{"page.write-checksum.enabled": "true"})); err != nil {
		t.Fatal(err)
	}
}

// INT96 (through nanoseconds) holds 1678-2261; outside it writing is an
// error naming the column, and INT64 micros holds the value.
func TestInt96Range(t *testing.T) {
	names := []string{"ts"}
	ts := []*types.DataType{types.TimestampType(3)}
	old := time.Date(1500, 6, 1, 12, 0, 0, 0, time.UTC)
	enc, err := Factory{}.CreateEncoder(fctx(names, ts, nil))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := enc.NewWriter(&buf)
	bb := types.NewBatchBuilder(ts)
	_ = bb.Append(types.Insert, []any{old})
	err = w.Write(bb.Build())
	if err == nil || !strings.Contains(err.Error(), "column 'ts': timestamp 1500-06-01 12:00:00 is out of the range Parquet's nanosecond timestamps hold (1678-2261)") {
		t.Fatalf("err = %v", err)
	}
	opts := map[string]string{"write.int64.timestamp": "true", "utc-timezone": "true"}
	data := writeFile(t, names, ts, opts, [][]any{{old}})
	got, _ := readAll(t, data, names, ts, names, ts, opts, nil)
	if !got[0][0].(time.Time).Equal(old) {
		t.Fatalf("got %v", got)
	}
}

// A file whose stored Arrow schema says large_utf8 / large_binary (as
// Polars writes) reads into STRING and BYTES (offsets narrowed, values
// shared), NULLs kept.
func TestLargeStrings(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.LargeBinary, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	var want [][]any
	for i := 0; i < 20000; i++ {
		if i%5 == 2 {
			bld.Field(0).AppendNull()
			bld.Field(1).AppendNull()
			want = append(want, []any{nil, nil})
			continue
		}
		s := fmt.Sprintf("v%d-%s", i, strings.Repeat("é", i%7))
		bld.Field(0).(*array.LargeStringBuilder).Append(s)
		bld.Field(1).(*array.BinaryBuilder).Append([]byte(s))
		want = append(want, []any{s, []byte(s)})
	}
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, pq.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bld.NewRecordBatch()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := fr.Schema(); st.Field(0).Type.ID() != arrow.LARGE_STRING || st.Field(1).Type.ID() != arrow.LARGE_BINARY {
		t.Fatalf("pqarrow reads %s", st)
	}
	names := []string{"s", "b"}
	ts := []*types.DataType{types.StringType(), types.BytesType()}
	got, _ := readAll(t, buf.Bytes(), names, ts, names, ts, nil, nil)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%d rows; first %v, want %v", len(got), got[:3], want[:3])
	}
}
