package runtime

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestScanRowFilterKeepsWhatCalcKeeps: the row filter a scan gets from a
// Calc's condition keeps exactly the rows the Calc keeps (NULLs
// included), reads only the condition's columns, and is declined for
// conditions whose value may depend on where they are evaluated.
func TestScanRowFilterKeepsWhatCalcKeeps(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.BigIntType(), types.StringType(), types.StringType()}
	r := rand.New(rand.NewSource(3))
	bb := types.NewBatchBuilder(ts)
	for i := 0; i < 2000; i++ {
		row := []any{int32(r.Intn(100)), int64(r.Intn(2000)), []string{"ATL", "ORD", "LAX"}[r.Intn(3)], "x"}
		for c := 0; c < 3; c++ {
			if r.Intn(10) == 0 {
				row[c] = nil
			}
		}
		if err := bb.Append(types.Insert, row); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	call := func(name string, args ...expr.Expr) expr.Expr { return builtinCall(t, name, args...) }
	ref := func(i int) expr.Expr { return &expr.InputRef{Index: i, T: ts[i]} }
	lit := func(v any, t *types.DataType) expr.Expr { return &expr.Literal{Value: v, T: t.NotNull()} }
	cond := call("AND",
		call(">", ref(0), lit(int32(30), types.IntType())),
		call("OR",
			call("<", ref(1), lit(int64(1000), types.BigIntType())),
			call("=", ref(2), lit("LAX", types.StringType()))))
	f, ok := NewScanRowFilter(cond)
	if !ok {
		t.Fatal("declined a comparison condition")
	}
	if got, want := f.Columns(), []bool{true, true, true}; !reflect.DeepEqual(got, want) {
		t.Fatalf("columns %v, want %v", got, want)
	}
	// the scan leaves the columns the filter does not read unbuilt
	partial := types.NewBatch(append(b.Cols[:3:3], nil), nil, b.Len)
	sel, all, err := f.Keep(partial)
	if err != nil || all {
		t.Fatalf("keep: %v, all %v", err, all)
	}
	c, err := NewCalc(cond, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Apply(expr.DefaultCtx(), b)
	if err != nil {
		t.Fatal(err)
	}
	if got := TakeRows(b, sel); !reflect.DeepEqual(got.Rows(ts), want.Rows(ts)) || len(sel) == 0 {
		t.Fatalf("kept %d rows, the Calc %d", len(sel), want.Len)
	}
	for _, bad := range []expr.Expr{
		call("=", call("UPPER", ref(2)), lit("LAX", types.StringType())),
		lit(true, types.BooleanType()),
	} {
		if _, ok := NewScanRowFilter(bad); ok {
			t.Fatalf("took %s", bad)
		}
	}
}

// builtinCall resolves the built-in function name over args, failing the
// test when it does not exist or does not take them.
func builtinCall(t *testing.T, name string, args ...expr.Expr) expr.Expr {
	t.Helper()
	f, ok := expr.Builtins.Lookup(name)
	if !ok {
		t.Fatalf("no function %s", name)
	}
	c, err := expr.ResolveCall(f, name, args)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
