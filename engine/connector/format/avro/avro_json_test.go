package avro

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Messages of Flink 2.3.0's AvroRowDataSerializationSchema with
// AvroEncoding.JSON (jshell). Flink's encoder puts a line break before
// every record after the first one it writes (Avro's JsonEncoder separates
// root values) and writes MAP entries in hash order; Riffle writes no line
// break and keeps the map's order.
func TestJSONEncoding(t *testing.T) {
	names := []string{"id", "name", "price", "ts", "d", "tm", "ok", "score", "f", "b", "tags", "attrs", "addr"}
	ts := []*types.DataType{types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2), types.TimestampType(3),
		types.DateType(), types.TimeType(3), types.BooleanType(), types.DoubleType(), types.FloatType(), types.BytesType(),
		types.ArrayType(types.StringType()), types.MapType(types.StringType(), types.IntType()),
		types.RowType(types.NewField("city", types.StringType()), types.NewField("zip", types.IntType().NotNull()))}
	ctx := ctxOf(names, ts, map[string]string{"encoding": "json"})
	bb := types.NewBatchBuilder(ts)
	dec, _ := types.ParseDecimal("-12345.67")
	nan, inf := math.NaN(), float32(math.Inf(-1))
	rows := [][]any{
		{int64(1), "al\"iceé\n", dec, time.UnixMilli(1706704245123).UTC(), types.Date(19753), types.LocalTime(45045123 * 1_000_000), true, 1.5, float32(1e10), []byte{0, 65, 200, 255},
			[]any{"x", nil}, &types.Map{Keys: []any{"n", "k"}, Values: []any{nil, int32(5)}}, &types.Row{Values: []any{"Paris", int32(75001)}}},
		{int64(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{int64(3), nil, nil, nil, nil, nil, nil, nan, inf, nil, nil, nil, nil},
	}
	for _, r := range rows {
		if err := bb.Append(types.Insert, r); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	flink := []string{
		`{"id":1,"name":{"string":"al\"iceé\n"},"price":{"bytes":"í)y"},"ts":{"long":1706704245123},"d":{"int":19753},"tm":{"int":45045123},"ok":{"boolean":true},"score":{"double":1.5},"f":{"float":1.0E10},"b":{"bytes":"\u0000AÈÿ"},"tags":{"array":[{"string":"x"},null]},"attrs":{"map":{"n":null,"k":{"int":5}}},"addr":{"org.apache.flink.avro.generated.record_addr":{"city":{"string":"Paris"},"zip":75001}}}`,
		`{"id":2,"name":null,"price":null,"ts":null,"d":null,"tm":null,"ok":null,"score":null,"f":null,"b":null,"tags":null,"attrs":null,"addr":null}`,
		`{"id":3,"name":null,"price":null,"ts":null,"d":null,"tm":null,"ok":null,"score":{"double":"NaN"},"f":{"float":"-Infinity"},"b":null,"tags":null,"attrs":null,"addr":null}`,
	}
	e, err := Factory{}.CreateMessageEncoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Factory{}.CreateMessageDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range flink {
		got, err := e.Encode(nil, b, i)
		if err != nil || string(got) != want {
			t.Fatalf("row %d: %v\ngot  %s\nwant %s", i, err, got, want)
		}
		if _, err := d.Decode([]byte("\n" + want)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := rowsOf(d.Flush(), ts), rowsOf(b, ts); got != want {
		t.Fatalf("decoded\n%s\nwant\n%s", got, want)
	}
	// Flink's decoder: field order free, extra fields ignored; every field
	// required, union branches as {"type": value} with full record names.
	for _, c := range []struct{ msg, err string }{
		{`{"name":null,"id":7,"price":null,"ts":null,"d":null,"tm":null,"ok":null,"score":null,"f":null,"b":null,"tags":null,"attrs":null,"addr":null,"extra":1}`, ""},
		{`{"id":1}`, "column `name`: missing"},
		{`{"id":1,"name":"a","price":null,"ts":null,"d":null,"tm":null,"ok":null,"score":null,"f":null,"b":null,"tags":null,"attrs":null,"addr":null}`, "column `name`: expected null or a union branch {\"string\": ...}"},
		{`{"id":1,"name":null,"price":null,"ts":null,"d":null,"tm":null,"ok":null,"score":null,"f":null,"b":null,"tags":null,"attrs":null,"addr":{"record_addr":{"city":null,"zip":3}}}`, "column `addr`: unknown union branch record_addr (expected org.apache.flink.avro.generated.record_addr)"},
	} {
		_, err := d.Decode([]byte(c.msg))
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.msg, err, c.err)
		}
	}
	if got := rowsOf(d.Flush(), ts); got != "+I[7, null, null, null, null, null, null, null, null, null, null, null, null]" {
		t.Fatal(got)
	}
}
