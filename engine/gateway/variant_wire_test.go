package gateway

import (
	"testing"

	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/types"
)

// A VARIANT travels in the JSON row format as a string of JSON text that
// gives the same value back: each number keeps its kind (a double stays a
// double, a decimal a decimal) and each object its key order, so that the
// client's equality and printing are the server's.
func TestVariantWireFormRoundTrips(t *testing.T) {
	for _, in := range []string{`{"b":[1e3,1.50,100.0,-0.0,7],"a":{"z":1E400,"y":"s\n"}}`, `null`, `"x"`, `[]`} {
		v, err := types.ParseJSONVariant(in, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, vt := range []*types.DataType{types.VariantType(), types.ArrayType(types.VariantType())} {
			var val any = v
			if vt.Root == types.ArrayRoot {
				val = []any{v, nil}
			}
			wire := jsonformat.AppendGoValue(nil, val, vt, true)
			back := decodeValue(&jreader{data: wire}, vt)
			if vt.Root == types.ArrayRoot {
				l, _ := back.([]any)
				if len(l) != 2 || l[1] != nil {
					t.Fatalf("%s: %#v", wire, back)
				}
				back = l[0]
			}
			if back != v {
				t.Errorf("%s: %s comes back as %v (%T)", in, wire, back, back)
			}
		}
	}
	if got, want := AppendLogicalType(nil, types.VariantType().NotNull()), `{"type":"VARIANT","nullable":false}`; string(got) != want {
		t.Errorf("logical type %s, want %s", got, want)
	}
	if lt, err := ParseLogicalType([]byte(`{"type":"VARIANT","nullable":true}`)); err != nil || lt.Root != types.VariantRoot {
		t.Errorf("parse: %v %v", lt, err)
	}
}
