package table

import (
	"slices"
	"strings"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/types"
)

func mustTable(t *testing.T, tab *Table, err error) *Table {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if tab.Err() != nil {
		t.Fatal(tab.Err())
	}
	return tab
}

func wantRows(t *testing.T, tab *Table, want ...string) {
	t.Helper()
	if err := tab.Err(); err != nil {
		t.Fatalf("table error: %v", err)
	}
	got := collectRows(t, tab)
	w := strings.Join(want, "\n")
	if got != w {
		t.Fatalf("got\n%s\nwant\n%s\nquery: %s", got, w, tab.QueryString())
	}
}

// wantRowsAnyOrder is wantRows for a table read by several source
// instances (a datagen sequence at the default parallelism): its rows in
// any order.
func wantRowsAnyOrder(t *testing.T, tab *Table, want ...string) {
	t.Helper()
	if err := tab.Err(); err != nil {
		t.Fatalf("table error: %v", err)
	}
	got := strings.Split(collectRows(t, tab), "\n")
	slices.Sort(got)
	w := slices.Clone(want)
	slices.Sort(w)
	if !slices.Equal(got, w) {
		t.Fatalf("got (sorted)\n%s\nwant\n%s\nquery: %s", strings.Join(got, "\n"), strings.Join(w, "\n"), tab.QueryString())
	}
}

func orders(t *testing.T, env *TableEnvironment) *Table {
	tab, err := env.FromElements([]any{
		[]any{1, "Alice", 10},
		[]any{2, "Bob", 20},
		[]any{3, "Alice", 30},
		[]any{4, "Carol", 40},
	}, "id", "name", "amount")
	return mustTable(t, tab, err)
}

func TestTableOperations(t *testing.T) {
	env := MustCreate(InBatchMode())
	o := orders(t, env)
	wantRows(t, o.Where(Col("name").IsEqual("Alice")).Select(Col("id")), "+I[1]", "+I[3]")
	wantRows(t, o.GroupBy(Col("name")).Select(Col("name"), Col("amount").Sum().As("total")).OrderBy(Col("name")),
		"+I[Alice, 40]", "+I[Bob, 20]", "+I[Carol, 40]")
	wantRows(t, o.Select(Col("name")).Distinct().OrderBy(Col("name").Desc()), "+I[Carol]", "+I[Bob]", "+I[Alice]")
	wantRows(t, o.OrderBy(Col("id")).Offset(1).Fetch(2), "+I[2, Bob, 20]", "+I[3, Alice, 30]")
	wantRows(t, o.OrderBy(Col("id")).Limit(1, 3), "+I[4, Carol, 40]")
	wantRows(t, o.AddColumns(Col("amount").Times(2).As("double")).Select(Col("double")).Limit(1), "+I[20]")
	wantRows(t, o.AddOrReplaceColumns(Lit(0).As("amount")).Select(Col("amount")).Limit(1), "+I[0]")
	wantRows(t, o.DropColumns(Col("name"), Col("amount")).Limit(1), "+I[1]")
	wantRows(t, o.RenameColumns(Col("id").As("k")).Select(Col("k")).Limit(1), "+I[1]")
	wantRows(t, o.Alias("a", "b", "c").Select(Col("c")).Limit(1), "+I[10]")
	wantRows(t, o.Select(WithColumns(Range(2, 3))).Limit(1), "+I[Alice, 10]")
	wantRows(t, o.Select(WithoutColumns(Range("id", "name"))).Limit(1), "+I[10]")
	if err := o.AddColumns(Lit(1).As("id")).Err(); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("AddColumns duplicate: %v", err)
	}
	// joins
	names, err := env.FromElements([]any{[]any{"Alice", "A"}, []any{"Bob", "B"}}, "n", "initial")
	mustTable(t, names, err)
	wantRows(t, o.Join(names, Col("name").IsEqual(Col("n"))).Select(Col("id"), Col("initial")).OrderBy(Col("id")),
		"+I[1, A]", "+I[2, B]", "+I[3, A]")
	wantRows(t, o.LeftOuterJoin(names, Col("name").IsEqual(Col("n"))).Select(Col("id"), Col("initial")).OrderBy(Col("id")),
		"+I[1, A]", "+I[2, B]", "+I[3, A]", "+I[4, null]")
	wantRows(t, o.Join(names).Where(Col("name").IsEqual(Col("n"))).Select(Col("id")).OrderBy(Col("id")), "+I[1]", "+I[2]", "+I[3]")
	if err := o.Join(o).Err(); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Fatalf("self join: %v", err)
	}
	// set operations
	a, _ := env.FromElements([]any{1, 1, 1, 2, 3}, "x")
	b, _ := env.FromElements([]any{1, 2, 2, 4}, "x")
	wantRows(t, a.UnionAll(b).OrderBy(Col("x")), "+I[1]", "+I[1]", "+I[1]", "+I[1]", "+I[2]", "+I[2]", "+I[2]", "+I[3]", "+I[4]")
	wantRows(t, a.Union(b).OrderBy(Col("x")), "+I[1]", "+I[2]", "+I[3]", "+I[4]")
	if sqlSupports(env, "SELECT 1 INTERSECT SELECT 1") {
		wantRows(t, a.Intersect(b).OrderBy(Col("x")), "+I[1]", "+I[2]")
		wantRows(t, a.IntersectAll(b).OrderBy(Col("x")), "+I[1]", "+I[2]")
		wantRows(t, a.Minus(b).OrderBy(Col("x")), "+I[3]")
		wantRows(t, a.MinusAll(b).OrderBy(Col("x")), "+I[1]", "+I[1]", "+I[3]")
	}
}

// sqlSupports reports whether the engine can plan a query yet (features
// other branches add: INTERSECT, LATERAL TABLE, OVER, ...).
func sqlSupports(env *TableEnvironment, query string) bool {
	res, err := env.ExecuteSQL(query)
	if err != nil {
		return false
	}
	it, err := res.Collect()
	if err != nil {
		return false
	}
	defer it.Close()
	for it.Next() {
	}
	return it.Err() == nil
}

func TestScalarUDF(t *testing.T) {
	env := MustCreate(InBatchMode())
	o := orders(t, env)
	add := UDF(func(a, b int64) int64 { return a + b }, WithName("add"))
	wantRows(t, o.Select(add.Call(Col("id"), Col("amount"))).Limit(2), "+I[11]", "+I[22]")
	if err := env.CreateTemporarySystemFunction("add", add); err != nil {
		t.Fatal(err)
	}
	wantRows(t, o.Select(Call("add", Col("id"), 100)).Limit(1), "+I[101]")
	tab, err := env.SQLQuery("SELECT add(id, 1) FROM " + o.String() + " WHERE id = 4")
	mustTable(t, tab, err)
	wantRows(t, tab, "+I[5]")
	// a panicking UDF fails the job with its name
	boom := UDF(func(a int64) int64 { panic("kaput") }, WithName("boom"))
	res, err := o.Select(boom.Call(Col("id"))).Execute()
	if err == nil {
		it, _ := res.Collect()
		for it.Next() {
		}
		err = it.Err()
	}
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "boom") || !strings.Contains(err.Error(), "kaput") {
		t.Fatalf("panicking UDF: %v", err)
	}
	_ = types.IntType()
}
