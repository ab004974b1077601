package state

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// A VARIANT in saved state reads back as the same value, alone and inside
// an ARRAY; a damaged encoding is an error, not a panic later.
func TestVariantValueRoundTrip(t *testing.T) {
	v, err := types.ParseJSONVariant(`{"b":[1.50,2e0],"a":null}`, false)
	if err != nil {
		t.Fatal(err)
	}
	vt, at := types.VariantType(), types.ArrayType(types.VariantType())
	w := NewWriter(0)
	w.Header("Variant", 1)
	w.Value(v, vt)
	w.Value([]any{v, nil}, at)
	w.Value(nil, vt)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(w.Data())
	r.Header("Variant", 1)
	if got := r.Value(vt); got != v {
		t.Errorf("read %v, wrote %v", got, v)
	}
	if got, ok := r.Value(at).([]any); !ok || len(got) != 2 || got[0] != v || got[1] != nil {
		t.Errorf("array read %v", got)
	}
	if got := r.Value(vt); got != nil {
		t.Errorf("NULL read %v", got)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}

	w = NewWriter(0)
	w.Header("Variant", 1)
	w.Value(types.Variant("O\x05"), vt) // an object cut short
	r = NewReader(w.Data())
	r.Header("Variant", 1)
	r.Value(vt)
	if err := r.Done(); err == nil || !strings.Contains(err.Error(), "invalid VARIANT encoding") {
		t.Errorf("damaged encoding: %v", err)
	}
}
