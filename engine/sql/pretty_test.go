package sql

import "testing"

func TestFormatPrettyKeepsQuoting(t *testing.T) {
	st, err := Parse("select `origin`, `date`, delay from flights where delay > 10")
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT\n  `origin`,\n  `date`,\n  delay\nFROM flights\nWHERE delay > 10"
	if got := FormatPretty(st); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// an identifier built without Quoted is quoted only when it must be
	sel := st.(*Query).Body.(*Select)
	sel.Items[0].Expr = &Identifier{Parts: []*Ident{{Name: "value"}}}
	sel.Items[1].Expr = &Identifier{Parts: []*Ident{{Name: "plain"}}}
	want = "SELECT\n  `value`,\n  plain,\n  delay\nFROM flights\nWHERE delay > 10"
	if got := FormatPretty(st); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFormatCompact(t *testing.T) {
	e, err := ParseExpr("`ts` - INTERVAL '5' SECOND + f(`value`)")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := FormatCompact(e), "`ts` - INTERVAL '5' SECOND + f(`value`)"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	e, _ = ParseExpr("ts - INTERVAL '5' SECOND")
	if got, want := FormatCompact(e), "ts - INTERVAL '5' SECOND"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
