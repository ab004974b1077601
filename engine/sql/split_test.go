package sql

import (
	"strings"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" ; ;; ", nil},
		{"SELECT 1", []string{"SELECT 1"}},
		{"SELECT 1;SELECT 2;", []string{"SELECT 1", "SELECT 2"}},
		{"SELECT ';' ; SELECT `a;b`", []string{"SELECT ';'", "SELECT `a;b`"}},
		{"SELECT 1 -- c;\n; /* ; */ SELECT 2", []string{"SELECT 1", "SELECT 2"}},
		{"-- only a comment;\n/* and; another */", nil},
		{"SELECT /*+ OPTIONS('a'=';') */ 1; X", []string{"SELECT /*+ OPTIONS('a'=';') */ 1", "X"}},
		{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END; SELECT 3",
			[]string{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END", "SELECT 3"}},
		{"EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; END;", []string{"EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; END"}},
		{"BEGIN STATEMENT SET; INSERT INTO a SELECT 1; END;", []string{"BEGIN STATEMENT SET", "INSERT INTO a SELECT 1", "END"}},
		{"STATEMENT SET BEGIN INSERT INTO a SELECT 1; END; X", []string{"STATEMENT SET BEGIN INSERT INTO a SELECT 1; END", "X"}},
		{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT CASE WHEN x THEN 1 END FROM s; INSERT INTO b SELECT 2; END; Y",
			[]string{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT CASE WHEN x THEN 1 END FROM s; INSERT INTO b SELECT 2; END", "Y"}},
		{"SELECT 'unterminated; SELECT 2", []string{"SELECT 'unterminated; SELECT 2"}},
		{"SELECT 1 /* unterminated; SELECT 2", []string{"SELECT 1 /* unterminated; SELECT 2"}},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range SplitStatements(tc.in) {
			got = append(got, s.Text)
			if tc.in[s.Start.Offset:s.End] != s.Text {
				t.Errorf("%q: span offsets do not match text", tc.in)
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	spans := SplitStatements("SELECT 1;\n\n  SELECT\n 2;")
	if p := spans[1].Start; p.Line != 3 || p.Column != 3 || p.Offset != 13 {
		t.Errorf("start %+v", p)
	}
}

func TestStatementAt(t *testing.T) {
	script := "SELECT 1;  \nSELECT 2;\n\nSELECT 3"
	tests := []struct {
		off  int
		want string
	}{
		{0, "SELECT 1"},
		{5, "SELECT 1"},
		{8, "SELECT 1"},  // just before ;
		{10, "SELECT 1"}, // after ; on the same line
		{12, "SELECT 2"},
		{21, "SELECT 2"},
		{23, "SELECT 3"},
		{len(script), "SELECT 3"},
	}
	for _, tc := range tests {
		s, ok := StatementAt(script, tc.off)
		if !ok || s.Text != tc.want {
			t.Errorf("offset %d: got %q", tc.off, s.Text)
		}
	}
	if _, ok := StatementAt("  -- nothing", 3); ok {
		t.Errorf("empty script has a statement")
	}
}

func TestTokenize(t *testing.T) {
	toks := Tokenize("SELECT `a`, count(x), CAST(b AS INT) -- hi\nFROM t /*+ OPTIONS('k'='v') */ WHERE c >= 1.5 # z")
	var got []string
	for _, tk := range toks {
		got = append(got, tk.Text+":"+tk.Class.String())
	}
	want := []string{"SELECT:keyword", "`a`:quoted identifier", ",:punctuation", "count:function name", "(:punctuation",
		"x:identifier", "):punctuation", ",:punctuation", "CAST:function name", "(:punctuation", "b:identifier",
		"AS:keyword", "INT:type name", "):punctuation", "-- hi:comment", "FROM:keyword", "t:identifier",
		"/*+:hint", "OPTIONS:function name", "(:punctuation", "'k':string", "=:operator", "'v':string",
		"):punctuation", "*/:hint", "WHERE:keyword", "c:identifier", ">=:operator", "1.5:number", "#:error", "z:identifier"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tokens:\n%q\nwant\n%q", got, want)
	}
	// an unterminated string runs to the end
	toks = Tokenize("SELECT 'abc")
	if last := toks[len(toks)-1]; last.Class != ClassError || last.Text != "'abc" {
		t.Errorf("unterminated: %+v", last)
	}
}

func TestKeywords(t *testing.T) {
	for _, w := range []string{"date", "time", "user", "value", "year", "SELECT", "timestamp", "string", "bytes", "comment", "watermark"} {
		if !IsReserved(w) {
			t.Errorf("%s should be reserved", w)
		}
	}
	for _, w := range []string{"name", "data", "key", "temporary", "hop", "tumble", "session", "map", "json", "type", "final", "desc"} {
		if IsReserved(w) || !IsKeyword(w) {
			t.Errorf("%s should be a non-reserved keyword", w)
		}
	}
	if IsKeyword("price") {
		t.Errorf("price is no keyword")
	}
	kws := Keywords()
	if len(kws) < 600 || kws[0].Word != "A" {
		t.Errorf("keywords: %d, first %v", len(kws), kws[0])
	}
	for in, want := range map[string]string{"price": "price", "Price": "Price", "date": "`date`", "my col": "`my col`", "a`b": "`a``b`", "1a": "`1a`", "": "``", "naïve": "naïve"} {
		if got := QuoteIdentIfNeeded(in); got != want {
			t.Errorf("QuoteIdentIfNeeded(%q) = %q, want %q", in, got, want)
		}
	}
	// every reserved word is accepted when quoted and rejected bare as a column
	for _, k := range kws {
		if !k.Reserved {
			continue
		}
		if _, err := Parse("SELECT " + QuoteIdent(k.Word) + " FROM t"); err != nil {
			t.Errorf("quoted %s: %v", k.Word, err)
		}
	}
	for _, k := range kws {
		if k.Reserved {
			continue
		}
		if _, err := Parse("SELECT a AS " + k.Word + " FROM " + k.Word); err != nil {
			t.Errorf("non-reserved %s as identifier: %v", k.Word, err)
		}
	}
}
