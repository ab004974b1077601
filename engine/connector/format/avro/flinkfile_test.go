package avro

import (
	"io"
	"os"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

var fileNames = []string{"id", "name", "price", "ts", "d", "tm", "ok", "score", "tags", "attrs", "addr"}
var fileTypes = []*types.DataType{types.BigIntType().NotNull(), types.StringType(), types.DecimalType(10, 2), types.TimestampType(3),
	types.DateType(), types.TimeType(3), types.BooleanType(), types.DoubleType(), types.ArrayType(types.StringType()),
	types.MapType(types.StringType(), types.IntType()),
	types.RowType(types.NewField("city", types.StringType()), types.NewField("zip", types.IntType()))}

const fileRows = `+I[1, alice, 10.50, 2024-01-31T12:30:45.123, 2024-01-31, 12:30:45.123, true, 1.5, [x, null], {k=5}, +I[Paris, 75001]]
+I[2, null, null, null, null, null, null, null, null, null, null]
+I[3, héllo, -0.01, 1969-12-31T23:59:59.999, 1900-01-01, 00:00, false, -2.25E10, [], {a=null, b=2}, +I[null, 0]]`

// testdata/flink_snappy.avro was written by Flink 2.3.0's avro classes
// (AvroSchemaConverter's schema, RowDataToAvroConverters, Avro's
// DataFileWriter with the snappy codec, as Flink's filesystem sink writes
// 'format' = 'avro'), in jshell.
func TestReadFlinkFile(t *testing.T) {
	f, err := os.Open("testdata/flink_snappy.avro")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec, err := Factory{}.CreateDecoder(ctxOf(fileNames, fileTypes, nil))
	if err != nil {
		t.Fatal(err)
	}
	r := dec.NewReader(f, "flink_snappy.avro", 0)
	b, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(b, fileTypes); got != fileRows {
		t.Fatalf("got\n%s\nwant\n%s", got, fileRows)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatal(err)
	}
}

// TestWriteForFlink writes the same rows with each codec into
// $RIFFLE_AVRO_OUT-<codec>.avro for reading back with Flink's classes
// (a manual cross-check; skipped without the variable).
func TestWriteForFlink(t *testing.T) {
	out := os.Getenv("RIFFLE_AVRO_OUT")
	if out == "" {
		t.Skip("RIFFLE_AVRO_OUT not set")
	}
	f, _ := os.Open("testdata/flink_snappy.avro")
	defer f.Close()
	dec, _ := Factory{}.CreateDecoder(ctxOf(fileNames, fileTypes, nil))
	b, err := dec.NewReader(f, "flink_snappy.avro", 0).Next()
	if err != nil {
		t.Fatal(err)
	}
	for _, codec := range []string{"null", "deflate", "snappy", "zstandard"} {
		enc, _ := Factory{}.CreateEncoder(ctxOf(fileNames, fileTypes, map[string]string{"codec": codec}))
		w, err := os.Create(out + "-" + codec + ".avro")
		if err != nil {
			t.Fatal(err)
		}
		bw := enc.NewWriter(w)
		if err := bw.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
}
