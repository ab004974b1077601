package avro

import (
	"bytes"
	"encoding/hex"
	"io"
	"math/big"
	"strings"
	"testing"
	"time"

	hamba "github.com/hamba/avro/v2"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func ctxOf(names []string, ts []*types.DataType, opts map[string]string) *connector.FormatContext {
	if opts == nil {
		opts = map[string]string{}
	}
	return &connector.FormatContext{Names: names, Types: ts, Options: opts}
}

// The schema Flink 2.3's AvroSchemaConverter derives (record names, unions
// with null first, defaults, logical types).
func TestSchema(t *testing.T) {
	names := []string{"id", "name", "price", "ts", "d", "tags", "attrs", "addr"}
	ts := []*types.DataType{
		types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2), types.TimestampType(3),
		types.DateType(), types.ArrayType(types.StringType()), types.MapType(types.StringType().NotNull(), types.IntType()),
		types.RowType(types.NewField("city", types.StringType()), types.NewField("zip", types.IntType().NotNull())),
	}
	s, err := Schema(names, ts, true)
	if err != nil {
		t.Fatal(err)
	}
	// Flink 2.3.0's AvroSchemaConverter.convertToSchema(rowType).toString() (jshell).
	want := `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[` +
		`{"name":"id","type":"long"},` +
		`{"name":"name","type":["null","string"],"default":null},` +
		`{"name":"price","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null},` +
		`{"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},` +
		`{"name":"d","type":["null",{"type":"int","logicalType":"date"}],"default":null},` +
		`{"name":"tags","type":["null",{"type":"array","items":["null","string"]}],"default":null},` +
		`{"name":"attrs","type":["null",{"type":"map","values":["null","int"]}],"default":null},` +
		`{"name":"addr","type":["null",{"type":"record","name":"record_addr","fields":[{"name":"city","type":["null","string"],"default":null},{"name":"zip","type":"int"}]}],"default":null}]}`
	if s != want {
		t.Fatalf("got\n%s\nwant\n%s", s, want)
	}
	for _, c := range []struct {
		t   *types.DataType
		err string
	}{
		{types.TimeType(6), "Avro does not support TIME type with precision: 6, it only supports precision less than 3."},
		{types.TimestampType(9), "Avro does not support TIMESTAMP type with precision: 9, it only supports precision less than 3."},
		{types.TimestampType(6), "Avro does not support TIMESTAMP type with precision: 6, it only supports precision less than 3."},
		{types.TimestampLTZType(3), "Unsupported to derive Schema for type: TIMESTAMP_LTZ(3)"},
		{types.MapType(types.IntType(), types.IntType()), "Avro format doesn't support non-string as key type of map. The key type is: INT"},
	} {
		if _, err := Schema([]string{"x"}, []*types.DataType{c.t}, true); err == nil || err.Error() != c.err {
			t.Errorf("%s: got %v, want %s", c.t, err, c.err)
		}
	}
	// avro.timestamp_mapping.legacy = false, nested rows, MULTISET.
	s, err = Schema([]string{"a", "b", "c", "d", "m", "r"}, []*types.DataType{types.TimestampType(3), types.TimestampType(6), types.TimestampLTZType(3), types.TimestampLTZType(6),
		{Root: types.MultisetRoot, Nullable: true, Elem: types.StringType()},
		types.RowType(types.NewField("q", types.RowType(types.NewField("z", types.IntType()))))}, false)
	want = `{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[` +
		`{"name":"a","type":["null",{"type":"long","logicalType":"local-timestamp-millis"}],"default":null},` +
		`{"name":"b","type":["null",{"type":"long","logicalType":"local-timestamp-micros"}],"default":null},` +
		`{"name":"c","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},` +
		`{"name":"d","type":["null",{"type":"long","logicalType":"timestamp-micros"}],"default":null},` +
		`{"name":"m","type":["null",{"type":"map","values":["null","int"]}],"default":null},` +
		`{"name":"r","type":["null",{"type":"record","name":"record_r","fields":[{"name":"q","type":["null",{"type":"record","name":"record_r_q","fields":[{"name":"z","type":["null","int"],"default":null}]}],"default":null}]}],"default":null}]}`
	if err != nil || s != want {
		t.Fatalf("got\n%s\nwant\n%s", s, want)
	}
	if _, err := Schema([]string{"x"}, []*types.DataType{types.TimestampType(9)}, false); err == nil ||
		err.Error() != "Avro does not support LOCAL TIMESTAMP type with precision: 9, it only supports precision less than 6." {
		t.Fatal(err)
	}
}

// The bytes of Flink 2.3.0's AvroRowDataSerializationSchema for one row
// (jshell), and back.
func TestFlinkBytes(t *testing.T) {
	names := []string{"id", "name", "price", "ts", "d", "tags", "attrs", "addr"}
	ts := []*types.DataType{
		types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2), types.TimestampType(3),
		types.DateType(), types.ArrayType(types.StringType()), types.MapType(types.StringType().NotNull(), types.IntType()),
		types.RowType(types.NewField("city", types.StringType()), types.NewField("zip", types.IntType().NotNull())),
	}
	bb := types.NewBatchBuilder(ts)
	dec, _ := types.ParseDecimal("-12345.67")
	if err := bb.Append(types.Insert, []any{int64(42), "héllo", dec, time.UnixMilli(1706704245123).UTC(), types.Date(19753),
		[]any{"a", nil}, &types.Map{Keys: []any{"k"}, Values: []any{int32(5)}}, &types.Row{Values: []any{"x", int32(7)}}}); err != nil {
		t.Fatal(err)
	}
	b := bb.Build()
	ctx := ctxOf(names, ts, nil)
	e, _ := Factory{}.CreateMessageEncoder(ctx)
	got, err := e.Encode(nil, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	const flink = "54020c68c3a96c6c6f0206ed29790286c680f8ab6302d2b402020402026100000202026b020a00020202780e"
	if hex.EncodeToString(got) != flink {
		t.Fatalf("got  %x\nwant %s", got, flink)
	}
	d, _ := Factory{}.CreateMessageDecoder(ctx)
	raw, _ := hex.DecodeString(flink)
	if _, err := d.Decode(raw); err != nil {
		t.Fatal(err)
	}
	if g, w := rowsOf(d.Flush(), ts), rowsOf(b, ts); g != w {
		t.Fatalf("got %s want %s", g, w)
	}
}

var allNames = []string{"b", "ti", "si", "i", "l", "f", "d", "s", "by", "dec", "dt", "tm", "ts", "tsu", "arr", "m", "r"}
var allTypes = []*types.DataType{
	types.BooleanType(), types.TinyIntType(), types.SmallIntType(), types.IntType().NotNull(), types.BigIntType(),
	types.FloatType(), types.DoubleType(), types.StringType(), types.BytesType(), types.DecimalType(20, 3),
	types.DateType(), types.TimeType(3), types.TimestampType(3), types.TimestampType(3),
	types.ArrayType(types.IntType()), types.MapType(types.StringType().NotNull(), types.StringType()),
	types.RowType(types.NewField("x", types.IntType()), types.NewField("y", types.StringType())),
}

func sampleBatch(t *testing.T) *types.Batch { return sampleBatchF() }

func sampleBatchF() *types.Batch {
	bb := types.NewBatchBuilder(allTypes)
	dec, _ := types.ParseDecimal("-12345.678")
	ts := time.Date(2024, 1, 31, 12, 30, 45, 123_000_000, time.UTC)
	tsu := time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC)
	m := &types.Map{Keys: []any{"k1", "k2"}, Values: []any{"v1", nil}}
	row := &types.Row{Values: []any{int32(7), "seven"}}
	if err := bb.Append(types.Insert, []any{true, int8(-5), int16(300), int32(-1), int64(1) << 40, float32(1.5), -2.25, "héllo", []byte{0, 1, 255},
		dec, types.Date(19753), types.LocalTime(45_296_789_000_000), ts, tsu, []any{int32(1), nil, int32(3)}, m, row}); err != nil {
		panic(err)
	}
	vals := make([]any, len(allTypes))
	vals[3] = int32(0)
	if err := bb.Append(types.Insert, vals); err != nil {
		panic(err)
	}
	return bb.Build()
}

func rowsOf(b *types.Batch, ts []*types.DataType) string {
	var out []string
	for _, r := range b.Rows(ts) {
		out = append(out, r.String())
	}
	return strings.Join(out, "\n")
}

// Encoding matches hamba/avro's encoding of the same values with the
// derived schema, and decoding gives the rows back.
func TestMessageRoundTrip(t *testing.T) {
	ctx := ctxOf(allNames, allTypes, nil)
	e, err := Factory{}.CreateMessageEncoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Factory{}.CreateMessageDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := sampleBatch(t)
	var msgs [][]byte
	for i := 0; i < b.Len; i++ {
		m, err := e.Encode(nil, b, i)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
		if n, err := d.Decode(m); n != 1 || err != nil {
			t.Fatal(n, err)
		}
	}
	got := rowsOf(d.Flush(), allTypes)
	if want := rowsOf(b, allTypes); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// hamba/avro, an independent implementation, reads the first message.
	s, _ := Schema(allNames, allTypes, true)
	schema := hamba.MustParse(s)
	var v map[string]any
	if err := hamba.Unmarshal(schema, msgs[0], &v); err != nil {
		t.Fatal(err)
	}
	if v["s"] != "héllo" || v["l"] != int64(1)<<40 || v["i"] != -1 {
		t.Fatalf("%v", v)
	}
	if r, ok := v["dec"].(*big.Rat); !ok || r.FloatString(3) != "-12345.678" {
		t.Fatalf("dec %v", v["dec"])
	}
	if ts, ok := v["ts"].(time.Time); !ok || !ts.Equal(time.Date(2024, 1, 31, 12, 30, 45, 123_000_000, time.UTC)) {
		t.Fatalf("ts %v", v["ts"])
	}
	// And hamba's encoding of that value decodes to the same row (hamba
	// writes array blocks with a negative count and a byte size, Java's
	// Avro and Riffle with a positive count).
	// hamba writes a Go map's entries in Go's random order, so the map
	// keeps one entry here and the expected row says so.
	// (A nullable map is a union, which hamba gives as {"map": {...}}.)
	union, _ := v["m"].(map[string]any)
	m, ok := union["map"].(map[string]any)
	if !ok || len(m) != 2 || m["k1"] != "v1" {
		t.Fatalf("m %#v", v["m"])
	}
	delete(m, "k2")
	again, err := hamba.Marshal(schema, v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decode(again); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(rowsOf(b.Slice(0, 1), allTypes), "{k1=v1, k2=null}", "{k1=v1}", 1)
	if !strings.Contains(want, "{k1=v1}") {
		t.Fatalf("expected row has no map {k1=v1, k2=null}: %s", want)
	}
	if got := rowsOf(d.Flush(), allTypes); got != want {
		t.Fatalf("hamba's bytes: got\n%s\nwant\n%s", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	ts := []*types.DataType{types.IntType().NotNull(), types.StringType(), types.DecimalType(3, 0)}
	d, err := Factory{}.CreateMessageDecoder(ctxOf([]string{"a", "b", "c"}, ts, nil))
	if err != nil {
		t.Fatal(err)
	}
	// a=1, b="x", c=NULL
	if n, err := d.Decode([]byte{2, 2, 2, 'x', 0}); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	// truncated string: nothing appended
	if _, err := d.Decode([]byte{4, 2, 10, 'x'}); err == nil || err.Error() != "failed to deserialize Avro record: unexpected end of the Avro data" {
		t.Fatal(err)
	}
	// union index 5
	if _, err := d.Decode([]byte{4, 10}); err == nil || !strings.Contains(err.Error(), "column `b`: union index out of range") {
		t.Fatal(err)
	}
	// 1000 does not fit DECIMAL(3, 0): 0x03E8
	if _, err := d.Decode([]byte{4, 0, 2, 4, 0x03, 0xe8}); err == nil || !strings.Contains(err.Error(), "column `c`: the value does not fit DECIMAL(3, 0)") {
		t.Fatal(err)
	}
	if n, err := d.Decode([]byte{6, 0, 2, 2, 0x85}); n != 1 || err != nil { // c = -123
		t.Fatal(n, err)
	}
	if got := rowsOf(d.Flush(), ts); got != "+I[1, x, null]\n+I[3, null, -123]" {
		t.Fatal(got)
	}
}

func TestContainerFile(t *testing.T) {
	for _, codec := range []string{"null", "deflate", "snappy", "zstandard"} {
		ctx := ctxOf(allNames, allTypes, map[string]string{"codec": codec})
		enc, err := Factory{}.CreateEncoder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := enc.NewWriter(&buf)
		b := sampleBatch(t)
		for k := 0; k < 3000; k++ { // several blocks
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		dec, _ := Factory{}.CreateDecoder(ctx)
		r := dec.NewReader(bytes.NewReader(buf.Bytes()), "f.avro", 1000)
		n := 0
		var first *types.Batch
		for {
			bt, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(codec, err)
			}
			if first == nil {
				first = bt
			}
			n += bt.Len
		}
		if n != 6000 || rowsOf(first.Slice(0, 2), allTypes) != rowsOf(b, allTypes) {
			t.Fatalf("%s: %d rows", codec, n)
		}
	}
	// A file of another schema is refused with both schemas named.
	enc, _ := Factory{}.CreateEncoder(ctxOf([]string{"a"}, []*types.DataType{types.IntType()}, nil))
	var buf bytes.Buffer
	w := enc.NewWriter(&buf)
	_ = w.Flush()
	dec, _ := Factory{}.CreateDecoder(ctxOf([]string{"a"}, []*types.DataType{types.BigIntType()}, nil))
	if _, err := dec.NewReader(&buf, "g.avro", 0).Next(); err == nil || !strings.Contains(err.Error(), "g.avro: the file's Avro schema differs from the table's") {
		t.Fatal(err)
	}
}

// TestSameShape: a writer schema that differs from the table's only in
// names, defaults and docs decodes as it is; other differences do not.
func TestSameShape(t *testing.T) {
	table := hamba.MustParse(`{"type":"record","name":"record","namespace":"org.apache.flink.avro.generated","fields":[
	 {"name":"id","type":"long"},{"name":"d","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null},
	 {"name":"r","type":["null",{"type":"record","name":"record_r","fields":[{"name":"x","type":["null","int"],"default":null}]}],"default":null}]}`)
	for _, c := range []struct {
		writer string
		same   bool
	}{
		{`{"type":"record","name":"User","doc":"x","fields":[{"name":"id","type":"long"},{"name":"d","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}]},
		  {"name":"r","type":["null",{"type":"record","name":"Inner","namespace":"a.b","fields":[{"name":"x","type":["null","int"]}]}]}]}`, true},
		// a union in the other order has other branch numbers
		{`{"type":"record","name":"User","fields":[{"name":"id","type":"long"},{"name":"d","type":[{"type":"bytes","logicalType":"decimal","precision":10,"scale":2},"null"]},
		  {"name":"r","type":["null",{"type":"record","name":"Inner","fields":[{"name":"x","type":["null","int"]}]}]}]}`, false},
		// another scale
		{`{"type":"record","name":"User","fields":[{"name":"id","type":"long"},{"name":"d","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":3}]},
		  {"name":"r","type":["null",{"type":"record","name":"Inner","fields":[{"name":"x","type":["null","int"]}]}]}]}`, false},
		// another field name
		{`{"type":"record","name":"User","fields":[{"name":"key","type":"long"},{"name":"d","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}]},
		  {"name":"r","type":["null",{"type":"record","name":"Inner","fields":[{"name":"x","type":["null","int"]}]}]}]}`, false},
	} {
		if got := sameShape(hamba.MustParse(c.writer), table, 0); got != c.same {
			t.Errorf("sameShape = %v for %s", got, c.writer)
		}
	}
}
