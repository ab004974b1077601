package sql

import (
	"strings"
	"testing"
)

// A table function called in FROM without TABLE(...) (Flink 2's form for
// process table functions) parses, keeps its form when formatted (the
// formatted text parses to the same text again), and takes an alias.
func TestParseBareTableFunctionCall(t *testing.T) {
	for in, bare := range map[string]bool{
		"SELECT * FROM f(r => TABLE t PARTITION BY k, i => 1)":                  true,
		"SELECT * FROM TO_CHANGELOG(input => TABLE t PARTITION BY (a, b)) AS c": true,
		"SELECT * FROM f(TABLE t, DESCRIPTOR(ts), uid => 'x')":                  true,
		"SELECT * FROM TABLE(f(TABLE t PARTITION BY k))":                        false,
		"SELECT * FROM db.f(r => (SELECT * FROM t) PARTITION BY k) x (a, b)":    true,
		"SELECT * FROM f((SELECT * FROM t), 1)":                                 true,
	} {
		st, err := Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		tf, ok := st.(*Query).Body.(*Select).From.(*TableFunc)
		if !ok || tf.Bare != bare {
			t.Fatalf("%s: FROM is %#v", in, st.(*Query).Body.(*Select).From)
		}
		got := Format(st)
		if strings.HasPrefix(got, "SELECT * FROM TABLE(") == bare {
			t.Errorf("%s formats as %s", in, got)
		}
		again, err := Parse(got)
		if err != nil {
			t.Fatalf("%s: the formatted text does not parse: %v", got, err)
		}
		if Format(again) != got {
			t.Errorf("%s: formats as %s, then as %s", in, got, Format(again))
		}
	}
}

// A query as a table argument is written (SELECT ...): Calcite's parser
// (and so Flink's) refuses TABLE (SELECT ...) at the parenthesis.
func TestParseTableKeywordBeforeQuery(t *testing.T) {
	_, err := Parse("SELECT * FROM FROM_CHANGELOG(input => TABLE (SELECT 1 AS id, 'x' AS op))")
	if err == nil || !strings.Contains(err.Error(), `Encountered "(" at line 1, column 45`) {
		t.Fatalf("got %v", err)
	}
}
