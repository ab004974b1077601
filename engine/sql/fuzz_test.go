package sql

import (
	"strings"
	"testing"
)

// FuzzParse checks that no input makes the parser, splitter, tokenizer or
// formatter panic, that errors carry sane positions, and that whatever
// parses also round-trips through the canonical form. Invalid UTF-8 (a
// script file in another encoding) goes through the same checks.
func FuzzParse(f *testing.F) {
	for _, sp := range corpus(f) {
		f.Add(sp.Text)
	}
	for _, s := range []string{"", ";", "'", "`", "/*", "/*+", "--", "X'", "U&'", "SELECT (((", "a.b.*", "(", "CASE", "INTERVAL"} {
		f.Add(s)
	}
	f.Add("SELECT '\xff\xfe' AS x")
	f.Add("SELECT 1 -- \xc3(\n")
	f.Add("\xe2\x82")
	f.Fuzz(func(t *testing.T, text string) {
		toks := Tokenize(text)
		prev := 0
		for _, tk := range toks {
			if tk.Pos.Offset < prev || tk.End < tk.Pos.Offset || tk.End > len(text) {
				t.Fatalf("bad token bounds %+v", tk)
			}
			prev = tk.End
		}
		spans := SplitStatements(text)
		for _, sp := range spans {
			if text[sp.Start.Offset:sp.End] != sp.Text {
				t.Fatalf("span text mismatch")
			}
			_, _ = sp.Parse()
		}
		StatementAt(text, len(text)/2)
		_, _ = ParseScript(text)
		_, _ = ParseExpr(text)
		_, _ = ParseDataType(text)
		_, _ = FormatSQL(text)
		st, err := Parse(text)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error of type %T", err)
			}
			if e.Line < 1 || e.Column < 1 || e.Offset < 0 || e.Offset > len(text) {
				t.Fatalf("bad error position %+v for %q", e, text)
			}
			if strings.HasPrefix(e.Msg, "internal") {
				t.Fatalf("internal error: %v", e)
			}
			return
		}
		canon := st.String()
		st2, err := Parse(canon)
		if err != nil {
			t.Fatalf("canonical form does not parse:\n%q\n%s\n%v", text, canon, err)
		}
		if d := astDiff(st, st2); d != "" {
			t.Fatalf("round trip differs for %q:\n%s\n%s", text, canon, d)
		}
		pretty, err := FormatSQL(text)
		if err != nil {
			t.Fatalf("FormatSQL fails on parseable %q: %v", text, err)
		}
		st3, err := Parse(pretty)
		if err != nil {
			t.Fatalf("pretty form does not parse:\n%q\n%s\n%v", text, pretty, err)
		}
		if d := astDiff(st, st3); d != "" {
			t.Fatalf("pretty round trip differs for %q:\n%s\n%s", text, pretty, d)
		}
	})
}
