package infer

import (
	"encoding/binary"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	hamba "github.com/hamba/avro/v2"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/avro"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// writeParquet writes a Parquet file of every kind of column with pqarrow,
// the way other tools (Spark, DuckDB, pandas) write them: 3 rows, the
// event times out of order by 90 s.
func writeParquet(t *testing.T, path string) {
	t.Helper()
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: false},
		{Name: "tiny", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "small", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "big_unsigned", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "d", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "payload", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "code", Type: &arrow.FixedSizeBinaryType{ByteWidth: 4}, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "at", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
		{Name: "event_time", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "logged", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "origin", Type: arrow.StructOf(
			arrow.Field{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "lat", Type: arrow.PrimitiveTypes.Float64, Nullable: false}), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	base := time.Date(2001, 1, 1, 14, 0, 0, 0, time.UTC)
	for i, sec := range []int{0, 120, 30} { // 30 s after a 120 s row: 90 s late
		b.Field(0).(*array.Int64Builder).Append(int64(i + 1))
		b.Field(1).(*array.Int8Builder).Append(int8(i))
		b.Field(2).(*array.Int16Builder).Append(int16(i * 100))
		if i == 1 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Int32Builder).Append(int32(i * 7))
		}
		b.Field(4).(*array.Uint64Builder).Append(1<<62 + uint64(i))
		b.Field(5).(*array.Float32Builder).Append(1.5)
		b.Field(6).(*array.Float64Builder).Append(2.25 * float64(i))
		b.Field(7).(*array.StringBuilder).Append([]string{"ABQ", "BOS", "SFO"}[i])
		b.Field(8).(*array.BinaryBuilder).Append([]byte{byte(i), 0xff})
		b.Field(9).(*array.FixedSizeBinaryBuilder).Append([]byte("ab" + string(rune('0'+i)) + "z"))
		b.Field(10).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(1999 + i)))
		b.Field(11).(*array.Date32Builder).Append(arrow.Date32FromTime(base))
		b.Field(12).(*array.Time32Builder).Append(arrow.Time32(3_600_000 * (i + 1)))
		ts := base.Add(time.Duration(sec) * time.Second)
		b.Field(13).(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMilli()))
		b.Field(14).(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMicro()))
		lb := b.Field(15).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
		mb := b.Field(16).(*array.MapBuilder)
		mb.Append(true)
		mb.KeyBuilder().(*array.StringBuilder).Append("k")
		mb.ItemBuilder().(*array.Int32Builder).Append(int32(i))
		sb := b.Field(17).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.StringBuilder).Append("Albuquerque")
		sb.FieldBuilder(1).(*array.Float64Builder).Append(35.04)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParquetFromItsSchema(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events-2001.parquet")
	writeParquet(t, path)
	r, err := File(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != "parquet" || r.Name != "events_2001" || r.Records != 3 || !r.Complete {
		t.Fatalf("format %s name %s records %d complete %v", r.Format, r.Name, r.Records, r.Complete)
	}
	want := []string{
		"id BIGINT NOT NULL", "tiny TINYINT", "small SMALLINT", "n INT", "big_unsigned BIGINT",
		"f FLOAT", "d DOUBLE", "name STRING", "payload BYTES", "code BINARY(4)", "price DECIMAL(10, 2)",
		"day DATE", "at TIME(3)", "event_time TIMESTAMP(3)", "logged TIMESTAMP_LTZ(6)", "tags ARRAY<STRING>",
		"attrs MAP<STRING NOT NULL, INT>", "origin ROW<`city` STRING, `lat` DOUBLE NOT NULL>",
	}
	if len(r.Columns) != len(want) {
		t.Fatalf("%d columns, want %d", len(r.Columns), len(want))
	}
	for i, c := range r.Columns {
		if got := c.Name + " " + c.Type.String(); got != want[i] {
			t.Errorf("column %d: %s, want %s", i, got, want[i])
		}
	}
	if v, _ := r.Option("format"); v != "parquet" {
		t.Errorf("format option %q", v)
	}
	byName := map[string]Column{}
	for _, c := range r.Columns {
		byName[c.Name] = c
	}
	if c := byName["n"]; c.Nulls != 1 || c.Example != "0" {
		t.Errorf("n: nulls %d example %q", c.Nulls, c.Example)
	}
	if c := byName["name"]; c.Example != "ABQ" {
		t.Errorf("name example %q", c.Example)
	}
	if !strings.Contains(byName["big_unsigned"].Note, "9223372036854775807") {
		t.Errorf("big_unsigned note %q", byName["big_unsigned"].Note)
	}
	rt := r.Rowtime
	if rt == nil || rt.Column != "event_time" || rt.Order != "out of order" || rt.MaxLateness != 90_000 || rt.Delay != "90" || rt.Unit != "SECOND" {
		t.Fatalf("rowtime %+v", rt)
	}
	ddl := r.CreateTable("", true)
	for _, s := range []string{"CREATE TABLE events_2001 (", "'format' = 'parquet'", "'connector' = 'filesystem'",
		"WATERMARK FOR event_time AS event_time - INTERVAL '90' SECOND"} {
		if !strings.Contains(ddl, s) {
			t.Errorf("CREATE TABLE lacks %q:\n%s", s, ddl)
		}
	}
	// the same file without its extension is recognized by its magic bytes
	other := filepath.Join(dir, "events.bin")
	data, _ := os.ReadFile(path)
	os.WriteFile(other, data, 0o644)
	if r2, err := File(other, Options{}); err != nil || r2.Format != "parquet" {
		t.Errorf("by magic: %v", err)
	}
	// once the parquet format is registered, the proposal reads the file
	if _, err := connector.LookupFormat("parquet"); err == nil {
		if n := countWithEngine(t, r, true); n != 3 {
			t.Errorf("the engine reads %d rows", n)
		}
		// every column, with its values
		env := table.MustCreate(table.InBatchMode())
		if _, err := env.ExecuteSQL(r.CreateTable("t", false)); err != nil {
			t.Fatal(err)
		}
		res, err := env.ExecuteSQL("SELECT * FROM t")
		if err != nil {
			t.Fatal(err)
		}
		it, err := res.Collect()
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var rows []string
		for it.Next() {
			rows = append(rows, it.Row().String())
		}
		if err := it.Err(); err != nil {
			t.Fatalf("SELECT * of the proposed table: %v", err)
		}
		if len(rows) != 3 || !strings.Contains(rows[0], "4611686018427387904") || !strings.Contains(rows[2], "SFO") {
			t.Errorf("rows %q", rows)
		}
	}
}

func TestParquetDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.parquet")
	writeParquet(t, path)
	data, _ := os.ReadFile(path)
	// cut the footer off
	bad := filepath.Join(dir, "cut.parquet")
	os.WriteFile(bad, data[:len(data)/2], 0o644)
	if _, err := File(bad, Options{}); err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "cut.parquet") {
		t.Errorf("cut file: %v", err)
	}
	// a damaged footer length
	bad2 := filepath.Join(dir, "len.parquet")
	d2 := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(d2[len(d2)-8:], 7)
	os.WriteFile(bad2, d2, 0o644)
	if _, err := File(bad2, Options{}); err == nil || !errors.Is(err, ErrUnsupported) {
		t.Errorf("damaged footer: %v", err)
	}
}

// writeAvroWithEngine writes an Avro container file with the engine's avro
// format (the schema Flink derives for the columns).
func writeAvroWithEngine(t *testing.T, path string, names []string, ts []*types.DataType, opts map[string]string, rows [][]any) {
	t.Helper()
	enc, err := avro.Factory{}.CreateEncoder(&connector.FormatContext{Names: names, Types: ts, AllNames: names, AllTypes: ts, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bb := types.NewBatchBuilder(ts)
	for _, row := range rows {
		bb.AppendRow(types.NewRow(row...))
	}
	w := enc.NewWriter(f)
	if err := w.Write(bb.Build()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if c, ok := w.(connector.ClosingBatchWriter); ok {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAvroWrittenByTheFormat(t *testing.T) {
	dir := t.TempDir()
	for _, legacy := range []bool{true, false} {
		names := []string{"id", "name", "price", "day", "ts", "tags", "attrs", "origin"}
		tsType := types.TimestampType(3)
		if !legacy {
			tsType = types.TimestampType(6)
		}
		ts := []*types.DataType{types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2), types.DateType(),
			tsType, types.ArrayType(types.StringType()), types.MapType(types.StringType().NotNull(), types.IntType()),
			types.RowType(types.NewField("city", types.StringType()), types.NewField("lat", types.DoubleType().NotNull()))}
		opts := map[string]string{}
		if !legacy {
			opts["timestamp_mapping.legacy"] = "false"
		}
		base := time.Date(2001, 1, 1, 14, 0, 0, 0, time.UTC)
		var rows [][]any
		for i := range 5 {
			rows = append(rows, []any{int64(i), "n" + string(rune('a'+i)), types.MustDecimal("19.99"), types.DateOf(2001, 1, 1),
				base.Add(time.Duration(i*60) * time.Second), []any{"x"}, &types.Map{Keys: []any{"k"}, Values: []any{int32(i)}},
				types.NewRow("Albuquerque", 35.04)})
		}
		path := filepath.Join(dir, map[bool]string{true: "legacy.avro", false: "micros.avro"}[legacy])
		writeAvroWithEngine(t, path, names, ts, opts, rows)
		r, err := File(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Format != "avro" || r.Records != 5 || !r.Complete {
			t.Fatalf("format %s records %d complete %v", r.Format, r.Records, r.Complete)
		}
		for i, c := range r.Columns {
			if c.Name != names[i] || !c.Type.Equals(ts[i]) {
				t.Errorf("legacy %v: column %s %s, want %s %s", legacy, c.Name, c.Type, names[i], ts[i])
			}
		}
		for _, n := range r.Notes {
			if strings.Contains(n, "cannot read") {
				t.Errorf("note: %s", n)
			}
		}
		v, ok := r.Option("avro.timestamp_mapping.legacy")
		if legacy == ok || (!legacy && v != "false") {
			t.Errorf("legacy %v: option %q %v", legacy, v, ok)
		}
		if r.Columns[1].Example != "na" {
			t.Errorf("example %q", r.Columns[1].Example)
		}
		if rt := r.Rowtime; rt == nil || rt.Source != "ts" || rt.Order != "ascending" {
			t.Errorf("rowtime %+v", rt)
		}
		if n := countWithEngine(t, r, true); n != 5 {
			t.Errorf("the engine reads %d rows", n)
		}
	}
}

// writeForeignAvro writes a container file as other tools do (own record
// names, enums, fixed, logical types) with hamba's binary encoding.
func writeForeignAvro(t *testing.T, path, schema string, records []map[string]any) {
	t.Helper()
	s := hamba.MustParse(schema)
	var out []byte
	long := func(n int64) { out = binary.AppendVarint(out, n) }
	str := func(b []byte) { long(int64(len(b))); out = append(out, b...) }
	out = append(out, 'O', 'b', 'j', 1)
	long(2)
	str([]byte("avro.schema"))
	str([]byte(schema))
	str([]byte("avro.codec"))
	str([]byte("null"))
	long(0)
	sync := []byte("0123456789abcdef")
	out = append(out, sync...)
	for _, half := range [][]map[string]any{records[:1], records[1:]} { // two blocks
		var blk []byte
		for _, rec := range half {
			b, err := hamba.Marshal(s, rec)
			if err != nil {
				t.Fatal(err)
			}
			blk = append(blk, b...)
		}
		long(int64(len(half)))
		str(blk)
		out = append(out, sync...)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAvroForeignSchema(t *testing.T) {
	schema := `{"type":"record","name":"Flight","namespace":"com.example","fields":[
	 {"name":"id","type":"long"},
	 {"name":"origin","type":["null","string"]},
	 {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["SCHEDULED","CHARTER"]}},
	 {"name":"tail","type":{"type":"fixed","name":"Tail","size":6}},
	 {"name":"fare","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
	 {"name":"day","type":{"type":"int","logicalType":"date"}},
	 {"name":"dep","type":{"type":"int","logicalType":"time-millis"}},
	 {"name":"departed_at","type":{"type":"long","logicalType":"timestamp-micros"}},
	 {"name":"seen","type":["null",{"type":"long","logicalType":"local-timestamp-millis"}]},
	 {"name":"crew","type":{"type":"array","items":"string"}},
	 {"name":"extras","type":{"type":"map","values":["null","double"]}},
	 {"name":"gate","type":{"type":"record","name":"Gate","fields":[{"name":"terminal","type":"string"},{"name":"no","type":"int"}]}}
	]}`
	base := time.Date(2001, 1, 1, 14, 0, 0, 0, time.UTC)
	var recs []map[string]any
	for i := range 3 {
		recs = append(recs, map[string]any{"id": int64(i), "origin": map[string]any{"string": "ABQ"}, "kind": "CHARTER",
			"tail": [6]byte{'N', '1', '2', '3', 'A', 'B'}, "fare": bigRat(1999 + int64(i)), "day": base, "dep": time.Duration(i) * time.Hour,
			"departed_at": base.Add(time.Duration(i) * time.Minute), "seen": nil, "crew": []string{"a"},
			"extras": map[string]any{"x": nil}, "gate": map[string]any{"terminal": "A", "no": 3}})
	}
	path := filepath.Join(t.TempDir(), "flights.avro")
	writeForeignAvro(t, path, schema, recs)
	r, err := File(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"id BIGINT NOT NULL", "origin STRING", "kind STRING NOT NULL", "tail VARBINARY(6) NOT NULL",
		"fare DECIMAL(9, 2) NOT NULL", "day DATE NOT NULL", "dep TIME(3) NOT NULL", "departed_at TIMESTAMP_LTZ(6) NOT NULL",
		"seen TIMESTAMP(3)", "crew ARRAY<STRING NOT NULL> NOT NULL", "extras MAP<STRING NOT NULL, DOUBLE> NOT NULL",
		"gate ROW<`terminal` STRING NOT NULL, `no` INT NOT NULL> NOT NULL"}
	if len(r.Columns) != len(want) {
		t.Fatalf("%d columns", len(r.Columns))
	}
	for i, c := range r.Columns {
		if got := c.Name + " " + c.Type.String(); got != want[i] {
			t.Errorf("column %d: %s, want %s", i, got, want[i])
		}
	}
	if v, _ := r.Option("avro.timestamp_mapping.legacy"); v != "false" {
		t.Errorf("timestamp mapping %q", v)
	}
	if r.Records != 3 || !r.Complete {
		t.Errorf("records %d complete %v", r.Records, r.Complete)
	}
	found := false
	for _, n := range r.Notes {
		if strings.Contains(n, "cannot read this file yet") && strings.Contains(n, "differs") {
			found = true
		}
	}
	if !found {
		t.Errorf("no note on the reader's limit: %q", r.Notes)
	}
	if !strings.Contains(r.Columns[2].Note, "SCHEDULED, CHARTER") {
		t.Errorf("enum note %q", r.Columns[2].Note)
	}

	// a union of two types has no Flink type
	bad := filepath.Join(t.TempDir(), "union.avro")
	writeForeignAvro(t, bad, `{"type":"record","name":"R","fields":[{"name":"v","type":["int","string"]}]}`,
		[]map[string]any{{"v": map[string]any{"int": 1}}, {"v": map[string]any{"string": "x"}}})
	if _, err := File(bad, Options{}); err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "union of int, string") {
		t.Errorf("union: %v", err)
	}
	// not a container file
	junk := filepath.Join(t.TempDir(), "junk.avro")
	os.WriteFile(junk, []byte("Obj\x01garbage"), 0o644)
	if _, err := File(junk, Options{}); err == nil || !errors.Is(err, ErrUnsupported) {
		t.Errorf("junk: %v", err)
	}
}

func bigRat(cents int64) *big.Rat { return big.NewRat(cents, 100) }

// TestParquetFlights3M reads the 3 M-row flights file of the bench (made
// by `cd bench && go run ./flightsdata`; skipped without it): a file
// written by Polars, with a stored Arrow schema and dictionary pages.
func TestParquetFlights3M(t *testing.T) {
	home, _ := os.UserHomeDir()
	path := filepath.Join(home, ".cache", "riffle", "bench", "flights-3m.parquet")
	if _, err := os.Stat(path); err != nil {
		t.Skip("no ", path, " (cd bench && go run ./flightsdata makes it)")
	}
	r, err := File(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Columns {
		got = append(got, c.Name+" "+c.Type.String())
	}
	if strings.Join(got, ", ") != "date TIMESTAMP(6), delay BIGINT, distance BIGINT, origin STRING, destination STRING" || r.Records != 3_000_000 {
		t.Errorf("%s; %d rows", strings.Join(got, ", "), r.Records)
	}
	if rt := r.Rowtime; rt == nil || rt.Source != "date" || rt.Expr != "CAST(`date` AS TIMESTAMP(3))" {
		t.Errorf("rowtime %+v", rt)
	}
	if testing.Short() {
		return
	}
	if n := countWithEngine(t, r, true); n != 3_000_000 {
		t.Errorf("the engine reads %d rows", n)
	}
}

// TestAvroForeignNamesRead: a file whose schema has the shape Flink
// derives but its own record names (as Java or Python writers name them)
// is proposed and read.
func TestAvroForeignNamesRead(t *testing.T) {
	schema := `{"type":"record","name":"User","namespace":"com.example","doc":"users","fields":[
	 {"name":"id","type":"long"},
	 {"name":"name","type":["null","string"],"default":null},
	 {"name":"born","type":["null",{"type":"int","logicalType":"date"}]},
	 {"name":"address","type":["null",{"type":"record","name":"Address","fields":[{"name":"city","type":["null","string"]}]}]}
	]}`
	recs := []map[string]any{
		{"id": int64(1), "name": map[string]any{"string": "Ada"}, "born": map[string]any{"int.date": time.Date(1815, 12, 10, 0, 0, 0, 0, time.UTC)},
			"address": map[string]any{"com.example.Address": map[string]any{"city": map[string]any{"string": "London"}}}},
		{"id": int64(2), "name": nil, "born": nil, "address": nil},
	}
	path := filepath.Join(t.TempDir(), "users.avro")
	writeForeignAvro(t, path, schema, recs)
	r, err := File(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Columns {
		got = append(got, c.Name+" "+c.Type.String())
	}
	if strings.Join(got, ", ") != "id BIGINT NOT NULL, name STRING, born DATE, address ROW<`city` STRING>" || r.Records != 2 {
		t.Errorf("%s; %d records", strings.Join(got, ", "), r.Records)
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "cannot read") {
			t.Errorf("note: %s", n)
		}
	}
	if r.Columns[1].Example != "Ada" {
		t.Errorf("example %q", r.Columns[1].Example)
	}
	if n := countWithEngine(t, r, false); n != 2 {
		t.Errorf("the engine reads %d rows", n)
	}
}
