package runtime

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestCalcConjunctsMatchOneCondition checks that WHERE a AND (b AND c),
// applied term by term, keeps exactly the rows (in order, with their
// RowKinds) and projected values that evaluating the whole condition
// keeps, with NULLs in every column, for a projection of some columns
// and for SELECT *.
func TestCalcConjunctsMatchOneCondition(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.IntType(), types.StringType(), types.IntType()}
	r := rand.New(rand.NewSource(8))
	bb := types.NewBatchBuilder(ts)
	for i := 0; i < 3000; i++ {
		row := []any{int32(r.Intn(100)), int32(r.Intn(2000)), []string{"ATL", "ORD", "LAX"}[r.Intn(3)], int32(i)}
		for c := 0; c < 3; c++ {
			if r.Intn(12) == 0 {
				row[c] = nil
			}
		}
		kind := types.Insert
		if i%7 == 0 {
			kind = types.UpdateAfter
		}
		if err := bb.Append(kind, row); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	call := func(name string, args ...expr.Expr) expr.Expr { return builtinCall(t, name, args...) }
	ref := func(i int) expr.Expr { return &expr.InputRef{Index: i, T: ts[i]} }
	lit := func(v any, t *types.DataType) expr.Expr { return &expr.Literal{Value: v, T: t.NotNull()} }
	cond := call("AND",
		call(">", ref(0), lit(int32(30), types.IntType())),
		call("AND",
			call("<", ref(1), lit(int32(1000), types.IntType())),
			call("<>", ref(2), lit("LAX", types.StringType()))))
	projs := [][]expr.Expr{
		{ref(2), ref(3)},
		{call("+", ref(3), lit(int32(1), types.IntType()))},
		nil,
	}
	for _, ps := range projs {
		split, err := NewCalc(cond, ps)
		if err != nil {
			t.Fatal(err)
		}
		if len(split.conjuncts) != 3 {
			t.Fatalf("%d terms, want 3", len(split.conjuncts))
		}
		// a constant term: TRUE keeps the rows, FALSE drops them all
		for _, c := range []bool{true, false} {
			cc, err := NewCalc(call("AND", cond, lit(c, types.BooleanType())), ps)
			if err != nil {
				t.Fatal(err)
			}
			withConst, err := cc.Apply(&expr.Ctx{}, b)
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := split.Apply(&expr.Ctx{}, b)
			if want := map[bool]int{true: ref.Len, false: 0}[c]; withConst.Len != want {
				t.Fatalf("AND %v: %d rows, want %d", c, withConst.Len, want)
			}
		}
		whole, err := NewCalc(cond, ps)
		if err != nil {
			t.Fatal(err)
		}
		whole.conjuncts = nil // evaluate the AND as one condition
		got, err := split.Apply(&expr.Ctx{}, b)
		if err != nil {
			t.Fatal(err)
		}
		want, err := whole.Apply(&expr.Ctx{}, b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Len != want.Len || want.Len == 0 {
			t.Fatalf("%d rows, want %d", got.Len, want.Len)
		}
		outTypes := ts
		if ps != nil {
			outTypes = make([]*types.DataType, len(ps))
			for i, p := range ps {
				outTypes[i] = p.Type()
			}
		}
		for i := 0; i < got.Len; i++ {
			g, w := got.Row(i, outTypes), want.Row(i, outTypes)
			if g.Kind != w.Kind || !reflect.DeepEqual(g.Values, w.Values) {
				t.Fatalf("row %d: %v %v, want %v %v", i, g.Kind, g.Values, w.Kind, w.Values)
			}
		}
	}
}
