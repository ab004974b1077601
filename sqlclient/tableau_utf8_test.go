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
