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
