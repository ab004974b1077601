package expr

import (
	"slices"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
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

// TestShareSubexpressions checks what a Calc computes once per batch: ROW
// field accesses and repeated calls that cannot fail, not a regular
// expression (left to lazy evaluation) nor a call that can fail.
func TestShareSubexpressions(t *testing.T) {
	rowT := types.RowType(types.NewField("channel", types.StringType()), types.NewField("url", types.StringType()))
	row := &InputRef{Index: 1, Name: "bid", T: rowT}
	n := &InputRef{Index: 0, Name: "n", T: types.IntType()}
	ch := call(t, "GET_FIELD", row, lit("channel", types.StringType()))
	url := call(t, "GET_FIELD", row, lit("url", types.StringType()))
	lower := call(t, "LOWER", ch)
	re := func() Expr { return call(t, "REGEXP_EXTRACT", url, lit("a(b)", types.StringType())) }
	quot := func() Expr { return call(t, "/", lit(int32(10), types.IntType()), n) }
	cond := call(t, "OR", call(t, "IS NOT NULL", re()), call(t, "=", lower, lit("apple", types.StringType())))
	projs := []Expr{
		call(t, "CASE", call(t, "=", lower, lit("google", types.StringType())), lit("1", types.StringType()), re()),
		quot(), quot(),
	}
	shared, out := ShareSubexpressions(append([]Expr{cond}, projs...), 2)
	var got []string
	for _, e := range shared {
		got = append(got, e.String())
	}
	// LOWER(bid.channel) as a whole (the field inside is read only there)
	want := []string{url.String(), lower.String()}
	if len(got) != len(want) {
		t.Fatalf("shared %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("shared %v, want %v", got, want)
		}
	}
	// the rewritten condition reads the url as column 2 and LOWER as 3
	if s := out[0].String(); s != "OR(IS NOT NULL(REGEXP_EXTRACT($2, _UTF-16LE'a(b)')), =($3, _UTF-16LE'apple'))" {
		t.Errorf("rewritten condition %s", s)
	}
	if out[2].String() != quot().String() {
		t.Errorf("a division (can fail) was shared: %s", out[2])
	}
}

// TestInStrings checks IN over a string column (origin ATL, ORD, AUS,
// NULL) against short and long constant lists, with and without NULL.
func TestInStrings(t *testing.T) {
	b, ts := testBatch(t)
	origin := &InputRef{Index: 1, Name: "origin", T: ts[1]}
	s := func(v string) Expr { return lit(v, types.StringType()) }
	null := &Literal{Value: nil, T: types.StringType()}
	long := []Expr{origin}
	for _, v := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "ORD"} {
		long = append(long, s(v))
	}
	for _, c := range []struct {
		e    Expr
		want []any
	}{
		{call(t, "IN", origin, s("ORD"), s("ATL")), []any{true, true, false, nil}},
		{call(t, "IN", origin, s("ORD"), null), []any{nil, true, nil, nil}},
		{call(t, "IN", long...), []any{false, true, false, nil}},
		{call(t, "IN", append(long, null)...), []any{nil, true, nil, nil}},
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

// TestMemoize follows a Calc through one batch: the filter OR evaluates
// REGEXP_EXTRACT on the rows whose channel is not 'x', the projection's
// CASE on the selected rows whose channel is not 'y'; with the memo each
// row's value is computed once, the projection computing only the rows
// the filter did not need.
func TestMemoize(t *testing.T) {
	str := types.StringType()
	bb := types.NewBatchBuilder([]*types.DataType{str, str, types.IntType().NotNull()})
	rows := [][]any{
		{"x", "a&id=1"}, // passes by channel, RE not needed by the filter
		{"y", "a&id=2"}, // passes by RE, CASE takes 'Y'
		{"z", "a&id=3"}, // passes by RE, CASE takes RE (memo)
		{"z", "nothing"},
		{nil, "id=5"}, // passes by RE (^), CASE takes RE (memo)
		{"x", nil},    // passes by channel, CASE takes RE: NULL
	}
	for i, r := range rows {
		if err := bb.Append(types.Insert, []any{r[0], r[1], int32(i)}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	ch := &InputRef{Index: 0, Name: "channel", T: str}
	url := &InputRef{Index: 1, Name: "url", T: str}
	re := func() Expr {
		return call(t, "REGEXP_EXTRACT", url, lit("(&|^)id=([^&]*)", str), lit(int32(2), types.IntType()))
	}
	cond := call(t, "OR", call(t, "IS NOT NULL", re()), call(t, "=", ch, lit("x", str)))
	proj := call(t, "CASE", call(t, "=", ch, lit("y", str)), lit("Y", str), re())
	memo, out := Memoize([]Expr{cond, proj}, 2)
	if memo == nil {
		t.Fatal("REGEXP_EXTRACT should be memoized")
	}
	condEv, err := Compile(out[0])
	if err != nil {
		t.Fatal(err)
	}
	projEv, err := Compile(out[1])
	if err != nil {
		t.Fatal(err)
	}
	memo.Reset(b.Len)
	pred, err := condEv(DefaultCtx(), b)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := vector.SelectionFromBools(pred.Arr)
	if want := []int32{0, 1, 2, 4, 5}; !slices.Equal(sel, want) {
		t.Fatalf("filter selects %v, want %v", sel, want)
	}
	fb := &types.Batch{Len: len(sel)}
	for _, c := range b.Cols {
		fb.Cols = append(fb.Cols, vector.Take(c, sel))
	}
	v, err := projEv(DefaultCtx(), fb)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"1", "Y", "3", "5", nil}
	for i := range want {
		if v.Value(i) != want[i] {
			t.Fatalf("projection row %d = %v, want %v", i, v.Value(i), want[i])
		}
	}
	// computed rows: the filter 1, 2, 3, 4 (channel not 'x'; row 4's
	// channel NULL), the projection 0 and 5 (not computed by the filter)
	computed := 0
	for _, p := range memo.slots[0].parts {
		computed += p.Arr.Len()
	}
	if computed != 6 || len(memo.slots[0].parts) != 2 {
		t.Errorf("%d rows computed in %d parts, want 6 in 2", computed, len(memo.slots[0].parts))
	}
}

// TestLowerUpper checks LOWER and UPPER on ASCII strings with and without
// letters to change, non-ASCII strings and NULL.
func TestLowerUpper(t *testing.T) {
	str := types.StringType()
	bb := types.NewBatchBuilder([]*types.DataType{str})
	in := []any{"Apple", "channel-12", "ÄBc Ö", nil, "", "MiXeD_9"}
	for _, v := range in {
		if err := bb.Append(types.Insert, []any{v}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	x := &InputRef{Index: 0, Name: "x", T: str}
	for name, want := range map[string][]any{
		"LOWER": {"apple", "channel-12", "äbc ö", nil, "", "mixed_9"},
		"UPPER": {"APPLE", "CHANNEL-12", "ÄBC Ö", nil, "", "MIXED_9"},
	} {
		got := eval(t, call(t, name, x), b)
		if !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// TestAndOrDense checks AND and OR when the cheap operand leaves most rows
// undecided, so the regular expression runs on every row (EvalCovering):
// the values are SQL's three-valued logic all the same, row by row.
func TestAndOrDense(t *testing.T) {
	str, boolT := types.StringType(), types.BooleanType()
	bb := types.NewBatchBuilder([]*types.DataType{boolT, str})
	flags := []any{true, false, nil, false, nil, false, false, nil, true, false, nil, false, false, false, false, nil}
	urls := []any{"x", "x", "x", "y", "y", nil, "x", nil, nil, "y", "x", "x", "y", nil, "x", "y"}
	for i := range flags {
		if err := bb.Append(types.Insert, []any{flags[i], urls[i]}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	f := &InputRef{Index: 0, Name: "f", T: boolT}
	re := call(t, "REGEXP", &InputRef{Index: 1, Name: "u", T: str}, lit("x", str))
	tri := func(v any) int { // 0 false, 1 true, 2 unknown
		if v == nil {
			return 2
		}
		if v.(bool) {
			return 1
		}
		return 0
	}
	val := []any{false, true, nil}
	for _, isAnd := range []bool{false, true} {
		name := "OR"
		if isAnd {
			name = "AND"
		}
		// the written order puts the regular expression first
		got := eval(t, call(t, name, re, f), b)
		for i := range flags {
			x := tri(flags[i])
			y := 2
			if urls[i] != nil {
				y = tri(urls[i] == "x")
			}
			var w int
			switch {
			case isAnd && (x == 0 || y == 0):
				w = 0
			case !isAnd && (x == 1 || y == 1):
				w = 1
			case x == 2 || y == 2:
				w = 2
			case isAnd:
				w = 1
			default:
				w = 0
			}
			if got[i] != val[w] {
				t.Errorf("%s row %d (f=%v, url=%v) = %v, want %v", name, i, flags[i], urls[i], got[i], val[w])
			}
		}
	}
}

// TestCaseDenseConditions checks a CASE whose later conditions are
// evaluated on every row (most rows are still undecided) next to one
// evaluated on a subset: NULL conditions fall through, and every row takes
// the first TRUE branch.
func TestCaseDenseConditions(t *testing.T) {
	str := types.StringType()
	bb := types.NewBatchBuilder([]*types.DataType{str, str})
	chans := []any{"a", "b", "c", nil, "b", "c", "d", "c", "a", nil, "d", "c", "c", "b", "d", "c"}
	urls := []any{"u0", nil, "u2", "u3", "u4", "u5", nil, "u7", "u8", "u9", "u10", "u11", "u12", "u13", "u14", "u15"}
	for i := range chans {
		if err := bb.Append(types.Insert, []any{chans[i], urls[i]}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	ch := &InputRef{Index: 0, Name: "c", T: str}
	url := &InputRef{Index: 1, Name: "u", T: str}
	s := func(v string) Expr { return lit(v, str) }
	e := call(t, "CASE", call(t, "=", ch, s("a")), s("A"), call(t, "=", ch, s("b")), s("B"),
		call(t, "=", ch, s("c")), call(t, "UPPER", url), s("other"))
	got := eval(t, e, b)
	for i := range chans {
		var want any
		switch chans[i] {
		case "a":
			want = "A"
		case "b":
			want = "B"
		case "c":
			if urls[i] != nil {
				want = "U" + urls[i].(string)[1:]
			}
		default:
			want = "other"
		}
		if got[i] != want {
			t.Errorf("row %d (c=%v, u=%v) = %v, want %v", i, chans[i], urls[i], got[i], want)
		}
	}
}
