package table

import (
	"bytes"
	"strings"
	"testing"
)

func collectRows(t *testing.T, tab *Table) string {
	t.Helper()
	res, err := tab.Execute()
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		out = append(out, it.Row().String())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, "\n")
}

func printed(t *testing.T, tab *Table) string {
	t.Helper()
	res, err := tab.Execute()
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	var b bytes.Buffer
	if err := res.PrintTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSelectWhereBasic(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromElements([]any{[]any{1, "Hi"}, []any{2, "Hello"}, []any{3, "Hey"}}, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	got := printed(t, tab.Where(Col("a").IsGreater(1)).Select(Col("a").Plus(1), Col("b"), Lit("abc")))
	t.Log("\n" + got)
	t.Log(tab.Schema())
}
