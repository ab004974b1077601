package types

import (
	"errors"
	"strings"
	"testing"
)

func TestParseJSONVariantPrints(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"b":[1,2,"x"],"c":{"d":null}}`, `{"a":1,"b":[1,2,"x"],"c":{"d":null}}`},
		{`{ "b" : 2, "a" : 1, "c": {"z":1, "y":2} }`, `{"a":1,"b":2,"c":{"y":2,"z":1}}`},
		{`1.50`, `1.5`},
		{`1e3`, `1000.0`},
		{`12345678901234567890`, `12345678901234567890`},
		{`-0.0`, `0`},
		{`1.0E-5`, `1.0E-5`},
		{`123456789012345678901234567890123456789012`, `1.2345678901234568E41`},
		{`0.000000000000000000000000000000000000000001`, `1.0E-42`},
		{`1E400`, `Infinity`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`"a\u00e9\n\"q\t\\"`, `"aé\n\"q\t\\"`},
		{`"\u0001\u001f"`, `"\u0001\u001F"`},
		{`"x/y<>&"`, `"x/y<>&"`},
		{`  [ 1 , {"k" : [ ] } , { } ]  `, `[1,{"k":[]},{}]`},
		{`true`, `true`},
		{`null`, `null`},
		{`1 2`, `1`}, // Flink reads the first value only
		{`{"a":1}}`, `{"a":1}`},
		{`100.0`, `100`},
		{`-1E400`, `-Infinity`},
		{`{"z":[1.0,2e0,3],"a":-0.0}`, `{"a":0,"z":[1,2.0,3]}`},
	} {
		v, err := ParseJSONVariant(c.in, false)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := v.String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
		if !v.Valid() {
			t.Errorf("%s: encoding not valid", c.in)
		}
		if back, err := ParseJSONVariant(v.OrderedJSON(), false); err != nil || back != v {
			t.Errorf("%s: OrderedJSON %s does not give it back (%v)", c.in, v.OrderedJSON(), err)
		}
	}
}

func TestParseJSONVariantErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{bad`, "Unexpected character ('b' (code 98)): was expecting double-quote to start field name\n at [Source: UNKNOWN; line: 1, column: 2]"},
		{``, "Unexpected null token\n at [Source: UNKNOWN; line: 1, column: 1]"},
		{`[1,]`, "Unexpected character (']' (code 93)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n at [Source: UNKNOWN; line: 1, column: 4]"},
		{`nope`, "Unrecognized token 'nope': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n at [Source: UNKNOWN; line: 1, column: 5]"},
		{"{\"a\":1,\n\"b\":x}", "Unrecognized token 'x'"},
		{"{\"a\":1,\n\"b\":x}", "line: 2, column: 6]"},
		{`01`, "Invalid numeric value: Leading zeroes not allowed\n at [Source: UNKNOWN; line: 1, column: 2]"},
		{`[`, "Unexpected end-of-input: expected close marker for Array"},
		{`{"a":1,"a":2}`, "VARIANT_DUPLICATE_KEY"},
	} {
		_, err := ParseJSONVariant(c.in, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := ParseJSONVariant(`{"a":1,"a":2}`, false); !errors.Is(err, ErrVariantDuplicateKey) {
		t.Errorf("duplicate key: %v", err)
	}
}

func TestVariantAccessAndEquality(t *testing.T) {
	v, err := ParseJSONVariant(`{"b":[10,"x",{"c":true}],"a":{"1":"one"}}`, false)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := v.Field("b")
	if !ok || b.String() != `[10,"x",{"c":true}]` {
		t.Fatalf("b = %s, %v", b, ok)
	}
	for i, want := range map[int64]string{1: "10", 2: `"x"`, 3: `{"c":true}`} {
		if e, ok := b.Index(i); !ok || e.String() != want {
			t.Errorf("b[%d] = %s, %v; want %s", i, e, ok, want)
		}
	}
	for _, i := range []int64{0, 4, -1} {
		if _, ok := b.Index(i); ok {
			t.Errorf("b[%d] found", i)
		}
	}
	if _, ok := v.Field("B"); ok {
		t.Error("keys are case-sensitive")
	}
	if one, _ := v.Field("a"); one.String() != `{"1":"one"}` {
		t.Errorf("a = %s", one)
	}
	last, err := ParseJSONVariant(`{"a":1,"b":3,"a":2}`, true)
	if err != nil || last.String() != `{"a":2,"b":3}` {
		t.Errorf("duplicates allowed: %s, %v", last, err)
	}
	eq := func(x, y string) bool {
		a, _ := ParseJSONVariant(x, false)
		b, _ := ParseJSONVariant(y, false)
		return a == b
	}
	// Flink: equal when the binary values are; key order and number kind count
	if !eq(`{"a":1}`, `{ "a" : 1 }`) || eq(`1`, `1.0`) || eq(`1`, `1e0`) || eq(`{"a":1,"b":2}`, `{"b":2,"a":1}`) || eq(`"1"`, `1`) {
		t.Error("equality differs from Flink's")
	}
	if Variant("O\x05").Valid() || Variant("").Valid() {
		t.Error("truncated encodings pass Valid")
	}
}
