package sql

import (
	"strings"
	"testing"
)

// Formatting keeps the comments inside a statement next to the code they
// were next to.
func TestFormatSQLKeepsCommentsInsideStatements(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{
			"select a, /* inline */ b from t -- trailing\nwhere a > 1",
			"SELECT\n  a,\n  /* inline */ b\nFROM t -- trailing\nWHERE a > 1;\n",
		},
		{
			"select a,\n  -- the second column\n  b from t",
			"SELECT\n  a,\n  -- the second column\n  b\nFROM t;\n",
		},
		{
			"-- before\nselect count(*) -- how many\nfrom t group by k",
			"-- before\nSELECT count(*) -- how many\nFROM t\nGROUP BY k;\n",
		},
	} {
		got, err := FormatSQL(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got != c.want {
			t.Errorf("FormatSQL(%q) =\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
}

// Whatever the comments, formatting keeps every one of them, in order, and
// the statements mean the same.
func TestFormatSQLWithCommentsRoundTrips(t *testing.T) {
	for _, in := range []string{
		"CREATE TABLE t (\n  a INT, -- the key\n  /* a block\n     over lines */\n  b STRING\n) WITH ('connector' = 'datagen' -- generated\n)",
		"select case /* kind */ when a > 1 then 'x' -- big\n else 'y' end as k from t",
		"insert into s -- target\nselect a, sum(b) /* total */ from t group by a",
		"select f(a, -- first\n b) from t where a in (1, /* two */ 2)",
		"select a from t where a > 1 -- last line",
	} {
		got, err := FormatSQL(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if a, b := strings.Join(commentsIn(in), "|"), strings.Join(commentsIn(got), "|"); a != b {
			t.Errorf("FormatSQL(%q) comments %q, want %q:\n%s", in, b, a, got)
		}
		st1, err1 := Parse(in)
		st2, err2 := Parse(strings.TrimSuffix(strings.TrimSpace(got), ";"))
		if err1 != nil || err2 != nil || Format(st1) != Format(st2) {
			t.Errorf("FormatSQL(%q) changed the statement (%v, %v):\n%s", in, err1, err2, got)
		}
		if got == in+";\n" {
			t.Errorf("FormatSQL(%q) did not format it", in)
		}
	}
}
