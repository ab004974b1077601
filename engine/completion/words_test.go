package completion_test

import (
	"slices"
	"testing"

	. "github.com/riffle-sql/riffle/engine/completion"
)

// TestWords checks the gateway's shape of the completion: words, what the
// position expects first, catalog objects only where they are expected,
// nothing inside a literal or comment.
func TestWords(t *testing.T) {
	cat := testEnv(t)
	cases := []struct {
		text  string
		want  []string // exactly, or (prefix) first
		exact bool
	}{
		{"SELECT * FROM fl|", []string{"flights"}, true},
		{"SELECT * FROM archive.|", []string{"`old flights`"}, true},
		{"SELECT dela| FROM flights", []string{"delay", "delayed"}, false},
		{"SELECT UPP|", []string{"UPPER"}, false},
		{"SELECT 'x|", []string{}, true},
		{"SELECT 1 -- SEL|", []string{}, true},
	}
	for _, c := range cases {
		i := slices.Index([]byte(c.text), '|')
		text := c.text[:i] + c.text[i+1:]
		got := Words(text, i, cat)
		if got == nil {
			t.Errorf("%q: nil, want a list", c.text)
		}
		if c.exact && !slices.Equal(got, c.want) || !c.exact && (len(got) < len(c.want) || !slices.Equal(got[:len(c.want)], c.want)) {
			t.Errorf("%q: %q, want %q (exact %v)", c.text, got, c.want, c.exact)
		}
	}
	if n := len(Words("", 0, cat)); n == 0 || n > MaxWords {
		t.Errorf("empty statement: %d words", n)
	}
}
