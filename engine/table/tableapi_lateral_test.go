package table

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// top2 keeps the two largest values (PyFlink's Top2 example).
type top2 struct{}

func (top2) CreateAccumulator() any { return &[2]*int64{} }
func (top2) Accumulate(acc any, args ...any) error {
	a := acc.(*[2]*int64)
	if args[0] == nil {
		return nil
	}
	v := args[0].(int64)
	switch {
	case a[0] == nil || v > *a[0]:
		a[1], a[0] = a[0], &v
	case a[1] == nil || v > *a[1]:
		a[1] = &v
	}
	return nil
}
func (top2) EmitValue(acc any, out *Collector) error {
	a := acc.(*[2]*int64)
	for _, p := range a {
		if p == nil {
			out.Collect(nil)
		} else {
			out.Collect(*p)
		}
	}
	return nil
}

func TestLateralAndFlatOperations(t *testing.T) {
	env := MustCreate(InBatchMode())
	if !sqlSupports(env, "SELECT * FROM (VALUES (ARRAY[1,2])) AS t(a) CROSS JOIN UNNEST(a) AS u(x)") {
		t.Skip("UNNEST / LATERAL TABLE not available yet")
	}
	tab, err := env.FromElements([]any{[]any{1, "a,b"}, []any{2, ""}, []any{3, "c"}}, "id", "text")
	mustTable(t, tab, err)
	split := UDTF(func(s string, emit func(string)) {
		for _, p := range strings.Split(s, ",") {
			if p != "" {
				emit(p)
			}
		}
	}, WithName("split"))
	wantRows(t, tab.JoinLateral(split.Call(Col("text")).As("word")).Select(Col("id"), Col("word")),
		"+I[1, a]", "+I[1, b]", "+I[3, c]")
	wantRows(t, tab.LeftOuterJoinLateral(split.Call(Col("text")).As("word")).Select(Col("id"), Col("word")),
		"+I[1, a]", "+I[1, b]", "+I[2, null]", "+I[3, c]")
	wantRows(t, tab.FlatMap(split.Call(Col("text"))), "+I[a]", "+I[b]", "+I[c]")
	wantRows(t, tab.JoinLateral(split.Call(Col("text")).As("word"), Col("word").IsEqual("b")).Select(Col("id")), "+I[1]")
	// a whole-row table function
	pairs := UDTF(func(r *types.Row, emit func(int64, string)) { emit(r.Values[0].(int64)*10, r.Values[1].(string)) },
		WithResultTypes(types.BigIntType(), types.StringType()))
	wantRows(t, tab.FlatMap(pairs.Alias("x", "y")).Select(Col("x")).OrderBy(Col("x")), "+I[10]", "+I[20]", "+I[30]")
	// table aggregate: top 2 per group
	nums, err := env.FromElements([]any{[]any{"a", 1}, []any{"a", 5}, []any{"a", 3}, []any{"b", 7}}, "k", "v")
	mustTable(t, nums, err)
	t2 := UDTAF(top2{}, WithResultType(types.RowType(types.NewField("top", types.BigIntType()))))
	wantRows(t, nums.GroupBy(Col("k")).FlatAggregate(t2.Call(Col("v")).As("t")).Select(Col("k"), Col("t")).OrderBy(Col("k")),
		"+I[a, 5]", "+I[a, 3]", "+I[b, 7]", "+I[b, null]")
}

func TestFlatAggregateStreaming(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if !sqlSupports(env, "SELECT * FROM (VALUES (ARRAY[1,2])) AS t(a) CROSS JOIN UNNEST(a) AS u(x)") {
		t.Skip("UNNEST not available yet")
	}
	nums, err := env.FromElements([]any{[]any{"a", 1}, []any{"a", 5}}, "k", "v")
	mustTable(t, nums, err)
	t2 := UDTAF(top2{}, WithResultType(types.RowType(types.NewField("top", types.BigIntType()))))
	// each update retracts the group's previous rows and emits the new ones
	wantRows(t, nums.GroupBy(Col("k")).FlatAggregate(t2.Call(Col("v")).As("t")).Select(Col("k"), Col("t")),
		"+I[a, 1]", "+I[a, null]", "-U[a, 1]", "-U[a, null]", "+U[a, 5]", "+U[a, 1]")
}
