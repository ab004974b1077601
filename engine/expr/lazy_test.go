package expr

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// TestCostOrder checks which operands of AND/OR are moved: a regular
// expression goes after a comparison, but nothing moves when an operand
// can fail (a division by zero must stay guarded by what precedes it).
func TestCostOrder(t *testing.T) {
	b, ts := testBatch(t)
	delay := &InputRef{Index: 0, Name: "delay", T: ts[0]}
	origin := &InputRef{Index: 1, Name: "origin", T: ts[1]}
	div := &InputRef{Index: 2, Name: "d", T: ts[2]}
	re := call(t, "REGEXP", origin, lit("^A", types.StringType()))
	cmp := call(t, ">", delay, lit(int32(0), types.IntType()))
	low := call(t, "=", call(t, "LOWER", origin), lit("ord", types.StringType()))
	got := costOrder([]Expr{re, low, cmp})
	if got[0] != cmp || got[1] != low || got[2] != re {
		t.Errorf("costOrder = %v, want cmp, lower, regexp", got)
	}
	quot := call(t, ">", call(t, "/", delay, div), lit(int32(1), types.IntType()))
	args := []Expr{re, quot, cmp}
	if got := costOrder(args); got[0] != re || got[1] != quot || got[2] != cmp {
		t.Errorf("costOrder moved operands around a division: %v", got)
	}
	// same values whatever the written order: delay 5, 20, NULL, -3 and
	// origin ATL, ORD, AUS, NULL
	for _, c := range []struct {
		e    Expr
		want []any
	}{
		{call(t, "OR", re, cmp), []any{true, true, true, nil}},
		{call(t, "OR", cmp, re), []any{true, true, true, nil}},
		{call(t, "AND", re, cmp), []any{true, false, nil, false}},
		{call(t, "AND", cmp, re), []any{true, false, nil, false}},
		{call(t, "AND", re, low, cmp), []any{false, false, false, false}},
		{call(t, "OR", re, low, cmp), []any{true, true, true, nil}},
	} {
		got := eval(t, c.e, b)
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s = %v, want %v", c.e, got, c.want)
				break
			}
		}
	}
}

// TestLazyHoistsFieldAccess checks a lazy call over a field of a ROW
// (which it reads as a column of its own, computed on the whole batch):
// the branches evaluated on subsets, NULL for a NULL ROW.
func TestLazyHoistsFieldAccess(t *testing.T) {
	rowT := types.RowType(types.NewField("a", types.IntType()), types.NewField("s", types.StringType()))
	bb := types.NewBatchBuilder([]*types.DataType{rowT, types.IntType()})
	for _, r := range [][]any{
		{&types.Row{Values: []any{int32(1), "x"}}, int32(0)},
		{&types.Row{Values: []any{int32(2), "y"}}, int32(1)},
		{nil, int32(1)},
	} {
		if err := bb.Append(types.Insert, r); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	row := &InputRef{Index: 0, Name: "r", T: rowT}
	k := &InputRef{Index: 1, Name: "k", T: types.IntType()}
	s := call(t, "GET_FIELD", row, lit("s", types.StringType()))
	e := call(t, "CASE", call(t, "=", k, lit(int32(1), types.IntType())), call(t, "UPPER", s), s)
	got := eval(t, e, b)
	want := []any{"x", "Y", nil}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("CASE = %v, want %v", got, want)
		}
	}
}
