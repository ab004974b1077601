package csv

import "testing"

// FieldWriter's rules, one configuration at a time: quoting as needed,
// forced quoting, escaping with quoting disabled, multi-byte delimiter and
// quote (the export allows any rune), edge spaces, a leading '#', NULL and
// invalid UTF-8.
func TestFieldWriter(t *testing.T) {
	rfc := FieldWriter{Delimiter: ",", Quote: `"`}
	esc := FieldWriter{Delimiter: ";", Escape: `\`}
	escQuoted := FieldWriter{Delimiter: ",", Quote: `'`, Escape: `\`, QuoteLeadingHash: true}
	wide := FieldWriter{Delimiter: "§", Quote: "«", NullText: `\N`}
	cli := FieldWriter{Delimiter: ",", Quote: `"`, QuoteEdgeSpaces: true, ReplaceInvalidUTF8: true}
	for _, c := range []struct {
		name  string
		w     FieldWriter
		val   string
		force bool
		want  string
	}{
		{"plain", rfc, "abc", false, "abc"},
		{"delimiter", rfc, "a,b", false, `"a,b"`},
		{"quote doubled", rfc, `a"b`, false, `"a""b"`},
		{"CR", rfc, "a\rb", false, "\"a\rb\""},
		{"empty bare", rfc, "", false, ""},
		{"empty forced", rfc, "", true, `""`},
		{"hash not quoted by default", rfc, "#x", false, "#x"},
		{"spaces not quoted by default", rfc, " x ", false, " x "},
		{"invalid UTF-8 kept by default", rfc, "a\xffb", false, "a\xffb"},
		{"escaped delimiter", esc, "a;b", false, `a\;b`},
		{"escaped escape", esc, `a\b`, false, `a\\b`},
		{"escaped line breaks", esc, "a\nb\rc", false, `a\nb\rc`},
		{"no quoting: forced empty is empty", esc, "", true, ""},
		{"no quoting and no escape: as is", FieldWriter{Delimiter: ","}, "a,b", false, "a,b"},
		{"escape doubled inside quotes", escQuoted, `a\b`, false, `'a\\b'`},
		{"quote doubled, other quote kept", escQuoted, `it's "x"`, false, `'it''s "x"'`},
		{"leading hash", escQuoted, "#c", false, "'#c'"},
		{"wide delimiter", wide, "a§b", false, "«a§b«"},
		{"wide quote doubled", wide, "a«b", false, "«a««b«"},
		{"first byte of the wide delimiter alone", wide, "a\xc2b", false, "a\xc2b"},
		{"edge space", cli, " x", false, `" x"`},
		{"trailing space", cli, "x ", false, `"x "`},
		{"invalid UTF-8 replaced", cli, "a\xff\xfeb", false, "a\uFFFD\uFFFDb"},
		{"invalid UTF-8 replaced and quoted", cli, "a\xff,b", false, "\"a\uFFFD,b\""},
	} {
		if got := string(c.w.AppendField([]byte(">"), []byte(c.val), c.force)); got != ">"+c.want {
			t.Errorf("%s: AppendField(%q) = %q, want %q", c.name, c.val, got[1:], c.want)
		}
	}
	if got := string(wide.AppendNull(nil, false)); got != `\N` {
		t.Errorf("AppendNull = %q", got)
	}
	if got := string(wide.AppendNull(nil, true)); got != `«\N«` {
		t.Errorf("AppendNull(quoted) = %q", got)
	}
	if got := string(rfc.AppendRecord(nil, [][]byte{[]byte("a"), nil, []byte(""), []byte("b,c")}, []bool{false, true, false, false}, true)); got != `a,,"","b,c"` {
		t.Errorf("AppendRecord = %q", got)
	}
}
