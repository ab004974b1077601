package results

import (
	"bytes"
	"context"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// A VARIANT column is exported as its JSON text (keys sorted, as it
// prints): a string in JSON Lines, the text itself in CSV.
func TestExportVariantAsJSONText(t *testing.T) {
	v, err := types.ParseJSONVariant(`{"b":[1.50,"x"],"a":null}`, false)
	if err != nil {
		t.Fatal(err)
	}
	r := New([]Column{{"id", types.IntType()}, {"v", types.VariantType()}}, Options{})
	if err := r.Add(types.Insert, []any{int32(1), v}); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(types.Insert, []any{int32(2), nil}); err != nil {
		t.Fatal(err)
	}
	rows := r.Freeze(TableView)
	var b bytes.Buffer
	if _, err := Write(context.Background(), &b, rows, FormatJSONLines, CSVOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `{"id":1,"v":"{\"a\":null,\"b\":[1.5,\"x\"]}"}`+"\n"+`{"id":2,"v":null}`+"\n"; got != want {
		t.Errorf("JSON Lines: got\n%s\nwant\n%s", got, want)
	}
	b.Reset()
	if _, err := Write(context.Background(), &b, rows, FormatCSV, CSVOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !bytes.Contains([]byte(got), []byte(`{""a"":null,""b"":[1.5,""x""]}`)) {
		t.Errorf("CSV: got\n%s", got)
	}
}

// Rows that arrive as Arrow records (a query's batches) keep their VARIANT
// values: the Binary column is read by the column's logical type.
func TestAddRecordReadsVariant(t *testing.T) {
	v, err := types.ParseJSONVariant(`{"b":2,"a":[1.50]}`, false)
	if err != nil {
		t.Fatal(err)
	}
	ts := []*types.DataType{types.VariantType(), types.ArrayType(types.VariantType())}
	bb := types.NewBatchBuilder(ts)
	if err := bb.Append(types.Insert, []any{v, []any{v, nil}}); err != nil {
		t.Fatal(err)
	}
	if err := bb.Append(types.Insert, []any{nil, nil}); err != nil {
		t.Fatal(err)
	}
	b := bb.Build()
	r := New([]Column{{"v", ts[0]}, {"l", ts[1]}}, Options{})
	if err := r.AddRecord(b.Record(types.ArrowSchema([]string{"v", "l"}, ts)), nil); err != nil {
		t.Fatal(err)
	}
	f := r.Freeze(TableView)
	if got := f.Value(0, 0); got != v {
		t.Errorf("row 0: %#v, want the variant", got)
	}
	if l, ok := f.Value(0, 1).([]any); !ok || len(l) != 2 || l[0] != v || l[1] != nil {
		t.Errorf("row 0 list: %#v", f.Value(0, 1))
	}
	if f.Value(1, 0) != nil || f.Value(1, 1) != nil {
		t.Errorf("row 1: %v %v", f.Value(1, 0), f.Value(1, 1))
	}
}
