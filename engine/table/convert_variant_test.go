package table

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// Go values for a VARIANT column: a types.Variant as it is, other values
// as encoding/json writes them; a value JSON cannot write is an error.
func TestConvertValueToVariant(t *testing.T) {
	v, _ := types.ParseJSONVariant(`[1]`, false)
	for _, c := range []struct {
		in   any
		want string
	}{
		{v, `[1]`},
		{map[string]any{"b": []int{1, 2}, "a": "x"}, `{"a":"x","b":[1,2]}`},
		{"s<>", `"s<>"`},
		{2.5, `2.5`},
		{true, `true`},
	} {
		got, err := convertValue(c.in, types.VariantType())
		if err != nil {
			t.Errorf("%v: %v", c.in, err)
			continue
		}
		if x, ok := got.(types.Variant); !ok || x.String() != c.want {
			t.Errorf("%v: got %#v, want %s", c.in, got, c.want)
		}
	}
	if _, err := convertValue(make(chan int), types.VariantType()); err == nil {
		t.Error("a channel became a VARIANT")
	}
}
