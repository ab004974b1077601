package csv

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func flushRows(d connector.MessageDecoder, ts []*types.DataType) string {
	var out []string
	for _, r := range d.Flush().Rows(ts) {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}

func TestMessageDecoder(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.DoubleType()}
	ctx := &connector.FormatContext{Names: []string{"id", "name", "score"}, Types: ts, Options: map[string]string{}}
	d, err := Factory{}.CreateMessageDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"1,a,1.5", "2,\"b,c\",2\n", "3,,"} {
		if n, err := d.Decode([]byte(m)); err != nil || n != 1 {
			t.Fatalf("%q: %d %v", m, n, err)
		}
	}
	_, err = d.Decode([]byte("4,d,x"))
	if err == nil || err.Error() != "failed to deserialize CSV row '4,d,x': column `score`: cannot parse \"x\" as DOUBLE" {
		t.Fatalf("got %v", err)
	}
	_, err = d.Decode([]byte("5,e"))
	if err == nil || err.Error() != "failed to deserialize CSV row '5,e': row has 2 fields, expected 3" {
		t.Fatalf("got %v", err)
	}
	if _, err = d.Decode(nil); err == nil || !strings.Contains(err.Error(), "holds no record") {
		t.Fatalf("got %v", err)
	}
	if got := flushRows(d, ts); got != "+I[1, a, 1.5] +I[2, b,c, 2.0] +I[3, , null]" {
		t.Fatal(got)
	}
}

func TestMessageDecoderIgnoreParseErrors(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	ctx := &connector.FormatContext{Names: []string{"id", "name"}, Types: ts, Options: map[string]string{"ignore-parse-errors": "true"}}
	d, err := Factory{}.CreateMessageDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"1,a", "x,b", "1,2,3", "", "2,c"} {
		if _, err := d.Decode([]byte(m)); err != nil {
			t.Fatalf("%q: %v", m, err)
		}
	}
	if got := flushRows(d, ts); got != "+I[1, a] +I[null, b] +I[2, c]" {
		t.Fatal(got)
	}
	if d.SkippedRows() != 2 {
		t.Fatalf("skipped %d", d.SkippedRows())
	}
}

func TestMessageEncoder(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	e, err := Factory{}.CreateMessageEncoder(&connector.FormatContext{Names: []string{"a", "b"}, Types: ts, Options: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(ts)
	_ = bb.Append(types.Insert, []any{int32(1), "x,y"})
	out, err := e.Encode(nil, bb.Build(), 0)
	// Flink 2.3.0's CsvRowDataSerializationSchema gives 1,"x,y" (no line break).
	if err != nil || string(out) != `1,"x,y"` {
		t.Fatalf("%q %v", out, err)
	}
}
