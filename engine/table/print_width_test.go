package table

import (
	"strings"
	"testing"
)

func TestDisplayWidth(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"日本語", 6}, // Wide
		{"ＡＢ", 4},  // Fullwidth
		{"ｱｲ", 2},  // Halfwidth katakana
		{"é", 1},   // Ambiguous/neutral count one, as in Flink
		{"a日b", 4},
	} {
		if got := DisplayWidth(c.s); got != c.want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

func TestTruncateToWidth(t *testing.T) {
	// a wide character that does not fit leaves a blank on the left
	if got := truncateToWidth("日本語", 5); got != " 日本" {
		t.Errorf("got %q", got)
	}
	if got := truncateToWidth("abcdef", 4); got != "abcd" {
		t.Errorf("got %q", got)
	}
}

// Full-width characters take two columns in the tableau layout, so the
// borders of every line line up.
func TestTableauFullWidth(t *testing.T) {
	env := MustCreate(InBatchMode())
	res, err := env.ExecuteSQL("SELECT '日本語' AS j, 'a' AS b")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.PrintTo(&b); err != nil {
		t.Fatal(err)
	}
	want := `+--------+---+
|      j | b |
+--------+---+
| 日本語 | a |
+--------+---+
1 row in set
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	// truncation at the maximum column width counts columns too: the value
	// is 31 columns wide; 13 wide characters (26 columns) fit in 30 - 3,
	// the 14th does not
	res, err = env.ExecuteSQL("SELECT '日本語日本語日本語日本語日本語x' AS j")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := res.PrintTo(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "|  日本語日本語日本語日本語日... |\n") {
		t.Fatalf("got\n%s", b.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if strings.HasPrefix(l, "|") || strings.HasPrefix(l, "+") {
			if DisplayWidth(l) != 34 {
				t.Errorf("line %q is %d columns wide, want 34", l, DisplayWidth(l))
			}
		}
	}
}
