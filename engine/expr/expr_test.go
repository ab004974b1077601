package expr

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

func call(t *testing.T, name string, args ...Expr) Expr {
	t.Helper()
	f, ok := Builtins.Lookup(name)
	if !ok {
		t.Fatalf("no function %s", name)
	}
	c, err := ResolveCall(f, name, args)
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	return c
}

func lit(v any, t *types.DataType) *Literal { return &Literal{Value: v, T: t.NotNull()} }

func testBatch(t *testing.T) (*types.Batch, []*types.DataType) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.IntType()}
	bb := types.NewBatchBuilder(ts)
	rows := [][]any{
		{int32(5), "ATL", int32(0)},
		{int32(20), "ORD", int32(4)},
		{nil, "AUS", int32(2)},
		{int32(-3), nil, nil},
	}
	for _, r := range rows {
		if err := bb.Append(types.Insert, r); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build(), ts
}

func eval(t *testing.T, e Expr, b *types.Batch) []any {
	t.Helper()
	ev, err := Compile(e)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ev(DefaultCtx(), b)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, b.Len)
	for i := range out {
		out[i] = v.Value(i)
	}
	return out
}

func TestComparisonAndLogic(t *testing.T) {
	b, ts := testBatch(t)
	delay := &InputRef{Index: 0, Name: "delay", T: ts[0]}
	origin := &InputRef{Index: 1, Name: "origin", T: ts[1]}
	pred := call(t, "AND", call(t, ">", delay, lit(int32(1), types.IntType())), call(t, "LIKE", origin, lit("A%", types.CharType(2))))
	got := eval(t, pred, b)
	want := []any{true, false, nil, false}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: got %v want %v", i, got[i], want[i])
		}
	}
	if s := pred.String(); s != "AND(>(delay, 1), LIKE(origin, _UTF-16LE'A%'))" { // Flink's plan digest
		t.Errorf("String() = %s", s)
	}
}

func TestIntegerDivisionAndLazyCase(t *testing.T) {
	b, ts := testBatch(t)
	a := &InputRef{Index: 0, Name: "a", T: ts[0]}
	d := &InputRef{Index: 2, Name: "d", T: ts[2]}
	div := call(t, "/", a, d)
	if div.Type().Root != types.Integer {
		t.Fatalf("INT / INT should be INT, got %s", div.Type())
	}
	// the unguarded division fails on row 0 (5 / 0)
	ev, _ := Compile(div)
	if _, err := ev(DefaultCtx(), b); err == nil {
		t.Fatal("expected division by zero error")
	}
	guarded := call(t, "CASE", call(t, "<>", d, lit(int32(0), types.IntType())), div, lit(int32(-1), types.IntType()))
	got := eval(t, guarded, b)
	want := []any{int32(-1), int32(5), nil, int32(-1)}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: got %v (%T) want %v", i, got[i], got[i], want[i])
		}
	}
}

func TestDecimalTypes(t *testing.T) {
	// a DECIMAL(3, 3) times a BIGINT (DECIMAL(19, 0)) is DECIMAL(23, 3):
	// precision p1 + p2 + 1 (the SQL literal 0.908 is DECIMAL(4, 3), so
	// Nexmark q1's 0.908 * price is DECIMAL(24, 3))
	price := &InputRef{Index: 0, Name: "price", T: types.BigIntType().NotNull()}
	e := call(t, "*", lit(types.MustDecimal("0.908"), types.DecimalType(3, 3)), price)
	if got := e.Type().String(); got != "DECIMAL(23, 3) NOT NULL" {
		t.Fatalf("type = %s", got)
	}
	bb := types.NewBatchBuilder([]*types.DataType{price.T})
	_ = bb.Append(types.Insert, []any{int64(1234)})
	got := eval(t, e, bb.Build())
	if d := got[0].(types.Decimal); d.String() != "1120.472" {
		t.Fatalf("0.908 * 1234 = %s", d)
	}
}

func TestIncompatibleComparison(t *testing.T) {
	f, _ := Builtins.Lookup("=")
	_, err := ResolveCall(f, "=", []Expr{lit(int32(1), types.IntType()), lit(true, types.BooleanType())})
	if err == nil {
		t.Fatal("INT = BOOLEAN must be a type error")
	}
}

func TestCastToString(t *testing.T) {
	cases := []struct {
		v    any
		from *types.DataType
		want string
	}{
		{true, types.BooleanType(), "TRUE"},
		{1.0, types.DoubleType(), "1.0"},
		{1e10, types.DoubleType(), "1.0E10"},
		{types.MustDecimal("-0.50"), types.DecimalType(5, 2), "-0.50"},
		{types.DateOf(2024, 1, 31), types.DateType(), "2024-01-31"},
	}
	for _, c := range cases {
		got, err := CastValue(c.v, c.from, types.StringType(), nil)
		if err != nil || got != c.want {
			t.Errorf("CAST(%v AS STRING) = %v, %v; want %s", c.v, got, err, c.want)
		}
	}
}

// Found by the differential run against Flink (interop/diff_flink_test.go):
// INITCAP cases ASCII letters only and treats every other character as a
// word separator (Calcite's SqlFunctions.initcap); UPPER and LOWER use
// Java's full case mappings (Flink 2.3.0: UPPER('straße') = 'STRASSE',
// LOWER('ΣΑΣ') = 'σας').
func TestStringCaseAsFlink(t *testing.T) {
	ts := []*types.DataType{types.StringType()}
	bb := types.NewBatchBuilder(ts)
	in := []string{"ünï", "élan vital ßx 3abc ab-cd o'neil", "straße", "ΣΑΣ", "cherry PIE", "a,b"}
	for _, s := range in {
		if err := bb.Append(types.Insert, []any{s}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	s := &InputRef{Index: 0, Name: "s", T: ts[0]}
	cases := map[string][]any{
		"INITCAP": {"üNï", "éLan Vital ßX 3abc Ab-Cd O'Neil", "StraßE", "ΣΑΣ", "Cherry Pie", "A,B"},
		"UPPER":   {"ÜNÏ", "ÉLAN VITAL SSX 3ABC AB-CD O'NEIL", "STRASSE", "ΣΑΣ", "CHERRY PIE", "A,B"},
		"LOWER":   {"ünï", "élan vital ßx 3abc ab-cd o'neil", "straße", "σας", "cherry pie", "a,b"},
	}
	for fn, want := range cases {
		got := eval(t, call(t, fn, s), b)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s(%q) = %q, want %q", fn, in[i], got[i], want[i])
			}
		}
	}
}

// Found by the differential run: Flink 2.3.0's ASCII returns the first
// UTF-8 byte as a signed Java byte (ASCII('ü') = -61, ASCII('Σx') = -50).
func TestASCIIAsFlink(t *testing.T) {
	ts := []*types.DataType{types.StringType()}
	bb := types.NewBatchBuilder(ts)
	in := []any{"ü", "Σx", "", "A", nil}
	for _, s := range in {
		if err := bb.Append(types.Insert, []any{s}); err != nil {
			t.Fatal(err)
		}
	}
	got := eval(t, call(t, "ASCII", &InputRef{Index: 0, Name: "s", T: ts[0]}), bb.Build())
	want := []any{int32(-61), int32(-50), int32(0), int32(65), nil}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ASCII(%v) = %v, want %v", in[i], got[i], want[i])
		}
	}
}

// TestToTimestampLTZIsNullable: Flink 2.3.0 types TO_TIMESTAMP_LTZ nullable
// whatever its arguments (ToTimestampLtzTypeStrategy; its SQL Gateway
// describes TO_TIMESTAMP_LTZ(1000, 3), (1000), ('2024-01-01 00:00:00'),
// (CAST(1000 AS BIGINT), 0) and (1.5, 3) all as nullable TIMESTAMP_LTZ(3)).
func TestToTimestampLTZIsNullable(t *testing.T) {
	ms := &InputRef{Index: 0, Name: "ms", T: types.BigIntType().NotNull()}
	for _, args := range [][]Expr{
		{lit(int32(1000), types.IntType()), lit(int32(3), types.IntType())},
		{lit(int32(1000), types.IntType())},
		{ms, lit(int32(0), types.IntType())},
		{lit(types.MustDecimal("1.5"), types.DecimalType(2, 1)), lit(int32(3), types.IntType())},
		{lit("2024-01-01 00:00:00", types.StringType())},
		{lit("2024-01-01", types.StringType()), lit("yyyy-MM-dd", types.StringType())},
	} {
		e := call(t, "TO_TIMESTAMP_LTZ", args...)
		if got := e.Type().String(); got != "TIMESTAMP_LTZ(3)" {
			t.Errorf("TO_TIMESTAMP_LTZ(%v) type = %s, want TIMESTAMP_LTZ(3)", args, got)
		}
	}
}

// Found by the differential run: after a join two columns can have the
// same name (a.g and b.g are both "g" in the join's row); sharing and
// hoisting subexpressions keyed them by their text, so >(g, s) over column
// 1 and >(g, s) over column 4 became one shared column and the filter
// a.g > a.s AND b.g > a.s kept rows where only the first held.
func TestSharedSubexpressionsKeepColumnsWithTheSameNameApart(t *testing.T) {
	st := types.StringType()
	g1 := &InputRef{Index: 1, Name: "g", T: st}
	g4 := &InputRef{Index: 4, Name: "g", T: st}
	s := &InputRef{Index: 2, Name: "s", T: st}
	e1, e2 := call(t, ">", g1, s), call(t, ">", g4, s)
	if shared, _ := ShareSubexpressions([]Expr{call(t, "AND", e1, e2)}, 5); len(shared) != 0 {
		t.Fatalf("shared %v: two different comparisons taken for one", shared)
	}
	if shared, _ := ShareSubexpressions([]Expr{e1, call(t, "NOT", e1)}, 5); len(shared) != 1 {
		t.Fatalf("shared %v: the repeated comparison is not shared", shared)
	}
}
