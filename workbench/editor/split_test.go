package editor

import (
	"strings"
	"testing"
)

func texts(st []Statement) []string {
	var out []string
	for _, s := range st {
		out = append(out, s.Text)
	}
	return out
}

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"simple", "SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}},
		{"no trailing semicolon", "SELECT 1;\nSELECT 2", []string{"SELECT 1", "SELECT 2"}},
		{"string", "SELECT 'a;b'; SELECT 2", []string{"SELECT 'a;b'", "SELECT 2"}},
		{"escaped quote", "SELECT 'it''s;x' FROM t; SELECT 3", []string{"SELECT 'it''s;x' FROM t", "SELECT 3"}},
		{"backquote", "SELECT `a;b` FROM `t``;`; SELECT 2", []string{"SELECT `a;b` FROM `t``;`", "SELECT 2"}},
		{"line comment", "SELECT 1 -- not here; no\n, 2; SELECT 3", []string{"SELECT 1 -- not here; no\n, 2", "SELECT 3"}},
		{"block comment", "SELECT /* ; */ 1; /* only ; a comment */; SELECT 2", []string{"SELECT /* ; */ 1", "SELECT 2"}},
		{"leading comments trimmed", "-- head\n/* x */  SELECT 1;", []string{"SELECT 1"}},
		{"comment only", "-- nothing;\n  ;;", nil},
		{"empty", "", nil},
		{"unterminated string", "SELECT 'abc; SELECT 2", []string{"SELECT 'abc; SELECT 2"}},
		{"minus is not comment", "SELECT 1-2; SELECT 3", []string{"SELECT 1-2", "SELECT 3"}},
		{"statement set", "EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;\nSELECT 3;",
			[]string{"EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND", "SELECT 3"}},
		{"client statement set", "BEGIN STATEMENT SET; INSERT INTO a SELECT 1; END;",
			[]string{"BEGIN STATEMENT SET", "INSERT INTO a SELECT 1", "END"}},
		{"unicode", "SELECT 'ä;ö', `名;前`; SELECT 2", []string{"SELECT 'ä;ö', `名;前`", "SELECT 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SplitStatements(tt.in)
			if g := texts(got); strings.Join(g, "|") != strings.Join(tt.want, "|") || len(g) != len(tt.want) {
				t.Fatalf("got %q, want %q", g, tt.want)
			}
			for _, s := range got {
				if tt.in[s.Start:s.End] != s.Text {
					t.Errorf("offsets %d:%d give %q, not %q", s.Start, s.End, tt.in[s.Start:s.End], s.Text)
				}
			}
		})
	}
}

func TestStatementAt(t *testing.T) {
	script := "SELECT 1;  \n\n-- two\nSELECT 2\n  FROM t;\nSELECT 3;\n\n"
	stmts := SplitStatements(script)
	at := func(marker string, delta int) string {
		off := strings.Index(script, marker) + delta
		st, ok := StatementAt(script, stmts, off)
		if !ok {
			t.Fatalf("no statement at %d", off)
		}
		return st.Text
	}
	cases := []struct {
		name, got, want string
	}{
		{"start", at("SELECT 1", 0), "SELECT 1"},
		{"after semicolon same line", at(";  \n", 3), "SELECT 1"},
		{"blank line goes to next", at("\n\n-- two", 1), "SELECT 2\n  FROM t"},
		{"in comment before", at("two", 0), "SELECT 2\n  FROM t"},
		{"middle of second", at("FROM", 2), "SELECT 2\n  FROM t"},
		{"right after semicolon", at("t;", 2), "SELECT 2\n  FROM t"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	if st, _ := StatementAt(script, stmts, len(script)); st.Text != "SELECT 3" {
		t.Errorf("end of script: got %q", st.Text)
	}
	if _, ok := StatementAt(script, nil, 3); ok {
		t.Error("no statements should give ok=false")
	}
}

func TestScanLineStates(t *testing.T) {
	cases := []struct {
		in   string
		from lexState
		want lexState
	}{
		{"SELECT 1", stateCode, stateCode},
		{"SELECT 'abc", stateCode, stateString},
		{"def' FROM t", stateString, stateCode},
		{"it''s", stateString, stateString},
		{"/* open", stateCode, stateComment},
		{"still */ x", stateComment, stateCode},
		{"-- /* not a comment start", stateCode, stateCode},
		{"`a", stateCode, stateQuoted},
		{"b` 'x", stateQuoted, stateString},
	}
	for _, c := range cases {
		if got := scanLine(c.in, c.from); got != c.want {
			t.Errorf("scanLine(%q, %d) = %d, want %d", c.in, c.from, got, c.want)
		}
	}
}

func FuzzSplitStatements(f *testing.F) {
	for _, s := range []string{"SELECT 1; SELECT 2", "'a;''b'", "`x;`;--;\n/*;*/;", "EXECUTE STATEMENT SET BEGIN a; END;"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, off int) {
		st := SplitStatements(s)
		prev := -1
		for _, x := range st {
			if x.Start < prev || x.End < x.Start || x.End > len(s) || s[x.Start:x.End] != x.Text || x.Text == "" {
				t.Fatalf("bad statement %+v in %q", x, s)
			}
			prev = x.End
		}
		StatementAt(s, st, off)
	})
}
