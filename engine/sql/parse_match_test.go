package sql

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMatchRecognize(t *testing.T) {
	q := `SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS startPrice, LAST(A.price, 1) AS prevTop, MATCH_ROWTIME() AS rt
  ONE ROW PER MATCH
  AFTER MATCH SKIP TO LAST A
  PATTERN (A+? B{2,} C{,3}? D{2} E? F* G{1,4})
  WITHIN INTERVAL '1' HOUR
  DEFINE A AS A.price > PREV(A.price), B AS B.price < 10
) AS T`
	st, err := Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := st.(*Query).Body.(*Select).From.(*MatchRecognize)
	if !ok {
		t.Fatalf("FROM is %T", st.(*Query).Body.(*Select).From)
	}
	if len(m.PartitionBy) != 1 || len(m.OrderBy) != 1 || len(m.Measures) != 3 || !m.OneRow || m.Within == nil || len(m.Defines) != 2 {
		t.Fatalf("clauses: %+v", m)
	}
	if m.After.Kind != SkipToLast || m.After.Var.Name != "A" || m.Alias.Name != "T" {
		t.Errorf("after %+v alias %v", m.After, m.Alias)
	}
	want := []struct {
		v         string
		min, max  int
		reluctant bool
	}{{"A", 1, -1, true}, {"B", 2, -1, false}, {"C", 0, 3, true}, {"D", 2, 2, false}, {"E", 0, 1, false}, {"F", 0, -1, false}, {"G", 1, 4, false}}
	if len(m.Pattern) != len(want) {
		t.Fatalf("pattern has %d elements", len(m.Pattern))
	}
	for i, w := range want {
		e := m.Pattern[i]
		if e.Var.Name != w.v || e.Min != w.min || e.Max != w.max || e.Reluctant != w.reluctant {
			t.Errorf("element %d: %s{%d,%d} reluctant %v, want %+v", i, e.Var.Name, e.Min, e.Max, e.Reluctant, w)
		}
	}
	// the canonical form parses to the same canonical form
	f := Format(st)
	if !strings.Contains(f, "PATTERN (`A`+? `B`{2,} `C`{,3}? `D`{2} `E`? `F`* `G`{1,4}) WITHIN INTERVAL '1' HOUR") {
		t.Errorf("format: %s", f)
	}
	st2, err := Parse(f)
	if err != nil {
		t.Fatalf("reparse %s: %v", f, err)
	}
	if g := Format(st2); g != f {
		t.Errorf("round trip:\n%s\n%s", f, g)
	}
	pretty, err := FormatSQL(q)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pretty, "\n  AFTER MATCH SKIP TO LAST A\n") || !strings.Contains(pretty, "\n    B AS B.price < 10\n) AS T;") {
		t.Errorf("pretty:\n%s", pretty)
	}
	// skip forms
	for in, kind := range map[string]string{"PAST LAST ROW": SkipPastLastRow, "TO NEXT ROW": SkipToNextRow, "TO FIRST B": SkipToFirst, "TO B": SkipToLast} {
		st, err := Parse("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts AFTER MATCH SKIP " + in + " PATTERN (A B) DEFINE A AS TRUE)")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if k := st.(*Query).Body.(*Select).From.(*MatchRecognize).After.Kind; k != kind {
			t.Errorf("%s: kind %s", in, k)
		}
	}
}

func TestParseMatchRecognizeErrors(t *testing.T) {
	pre := "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts "
	tests := []struct {
		tail      string
		line, col int
		msg       string
	}{
		{"PATTERN (A | B) DEFINE A AS TRUE)", 1, 57, "Alternation in PATTERN ('|') is not supported at line 1, column 57."},
		{"PATTERN (A (B C)+) DEFINE A AS TRUE)", 1, 57, "Pattern groups in PATTERN are not supported"},
		{"PATTERN (^ A) DEFINE A AS TRUE)", 1, 55, "Anchors in PATTERN are not supported"},
		{"PATTERN (PERMUTE(A, B)) DEFINE A AS TRUE)", 1, 55, "PERMUTE in PATTERN is not supported"},
		{"PATTERN (A{3,1}) DEFINE A AS TRUE)", 1, 56, "Invalid quantifier {3,1}: the upper bound is below the lower bound"},
		{"PATTERN (A{0}) DEFINE A AS TRUE)", 1, 56, "Invalid quantifier {0}: the upper bound must be positive"},
		{"PATTERN (A) SUBSET S = (A) DEFINE A AS TRUE)", 1, 58, "SUBSET is not supported in MATCH_RECOGNIZE"},
		{"PATTERN (A)\nDEFINE A TRUE)", 2, 10, "Encountered \"TRUE\" at line 2, column 10."},
		{"MEASURES A.x PATTERN (A) DEFINE A AS TRUE)", 1, 59, "Encountered \"PATTERN\" at line 1, column 59."},
		{"AFTER MATCH SKIP PATTERN (A) DEFINE A AS TRUE)", 1, 63, "Encountered \"PATTERN\" at line 1, column 63.\nWas expecting one of:\n    \"PAST\" ...\n    \"TO\" ..."},
	}
	for _, tc := range tests {
		_, err := Parse(pre + tc.tail)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v", tc.tail, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.col || !strings.HasPrefix(e.Msg, tc.msg) {
			t.Errorf("%s: got %d:%d %q, want %d:%d %q", tc.tail, e.Line, e.Column, e.Msg, tc.line, tc.col, tc.msg)
		}
	}
}

// MATCH_RECOGNIZE where an expression is expected is an error at the
// keyword.
func TestParseMatchRecognizeAsExpression(t *testing.T) {
	_, err := Parse("SELECT MATCH_RECOGNIZE FROM t")
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || e.Column != 8 || !strings.HasPrefix(e.Msg, "MATCH_RECOGNIZE follows a table in FROM") {
		t.Fatalf("error %v", err)
	}
}

// A MATCH_RECOGNIZE over a parenthesised join keeps its parentheses.
func TestFormatMatchRecognizeOverJoin(t *testing.T) {
	st, err := Parse("SELECT * FROM (a JOIN b ON a.x = b.x) MATCH_RECOGNIZE (ORDER BY ts PATTERN (A) DEFINE A AS TRUE) AS m")
	if err != nil {
		t.Fatal(err)
	}
	f := Format(st)
	st2, err := Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	if _, ok := st2.(*Query).Body.(*Select).From.(*MatchRecognize).Input.(*Join); !ok || Format(st2) != f {
		t.Fatalf("round trip: %s -> %s", f, Format(st2))
	}
}
