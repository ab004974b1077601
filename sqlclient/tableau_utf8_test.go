package sqlclient

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// riffle sql's default output, the tableau layout, writes U+FFFD for each
// byte that is not UTF-8 as --format csv and json do (it used to copy the
// raw bytes), in batch and in streaming mode.
func TestInvalidUTF8IsReplacementCharacterInTableau(t *testing.T) {
	stmt := "SELECT 'a\xffb\xfe\xfd' AS s, 'ok\xc3' AS `n\xff`;"
	for _, mode := range []string{ModeBatch, ModeStreaming} {
		code, out, errs := runClient(t, Options{Mode: mode, Format: FormatTableau, Statements: stmt}, "")
		if code != 0 || !utf8.ValidString(out) {
			t.Fatalf("%s: code %d, stdout not UTF-8: %q\nstderr:\n%s", mode, code, out, errs)
		}
		for _, want := range []string{"a\uFFFDb\uFFFD\uFFFD |", "ok\uFFFD |", "n\uFFFD |"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: stdout lacks %q:\n%s", mode, want, out)
			}
		}
	}
}

// An error quoting a literal or a name with invalid bytes shows U+FFFD for
// each on stderr too, not the raw bytes.
func TestInvalidUTF8IsReplacementCharacterInErrors(t *testing.T) {
	for stmt, want := range map[string]string{
		"SELECT CAST('\xff' AS INT);": "'\uFFFD'",
		"SELECT * FROM `t\xfe\xfd`;":  "t\uFFFD\uFFFD",
	} {
		code, _, errs := runClient(t, Options{Mode: ModeBatch, Statements: stmt}, "")
		if code == 0 || !utf8.ValidString(errs) || !strings.Contains(errs, want) {
			t.Errorf("%q: code %d, stderr (want %q, valid UTF-8):\n%q", stmt, code, want, errs)
		}
	}
}
