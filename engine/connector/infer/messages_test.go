package infer

import (
	"errors"
	"strings"
	"testing"
)

func TestJSONObjectsInfersColumnsFromMessages(t *testing.T) {
	msgs := [][]byte{
		[]byte(`{"id": 1, "name": "a", "price": 2.5, "ts": "2024-01-02 03:04:05.123"}`),
		[]byte("{\n  \"id\": 2,\n  \"name\": \"b\",\n  \"price\": 3,\n  \"ts\": \"2024-01-02 03:04:06.000\"\n}"),
		[]byte(`not json`),
	}
	r, err := JSONObjects("orders", "topic orders", msgs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Columns {
		got = append(got, c.Name+" "+c.Type.String())
	}
	if want := "id BIGINT, name STRING, price DOUBLE, ts TIMESTAMP(3)"; strings.Join(got, ", ") != want {
		t.Errorf("columns %q, want %q", strings.Join(got, ", "), want)
	}
	if r.Records != 2 || r.Skipped != 1 {
		t.Errorf("records %d skipped %d, want 2 and 1", r.Records, r.Skipped)
	}
	if v, _ := r.Option("format"); v != "json" {
		t.Errorf("format %q", v)
	}
	if _, ok := r.Option("connector"); ok {
		t.Errorf("options %v: no connector expected", r.Options)
	}
	if v, _ := r.Option("json.ignore-parse-errors"); v != "true" {
		t.Errorf("options %v: want json.ignore-parse-errors", r.Options)
	}
	if _, err := JSONObjects("x", "topic x", [][]byte{[]byte("1"), []byte("abc")}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("no objects: %v, want ErrUnsupported", err)
	}
}
