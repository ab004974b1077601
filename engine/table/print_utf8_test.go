package table

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/types"
)

// A string with bytes that are not UTF-8 prints in the tableau layout with
// one U+FFFD for each such byte (as --format csv and json write it), in a
// plain value, inside an ARRAY and in a column name, in batch and in
// streaming output, and the borders still line up.
func TestTableauInvalidUTF8(t *testing.T) {
	const query = "SELECT 'a\xffb' AS s, ARRAY['\xfe\xfd'] AS arr, 'ok' AS `c\xff`"
	t.Run("batch", func(t *testing.T) {
		env := MustCreate(InBatchMode())
		res, err := env.ExecuteSQL(query)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := res.PrintTo(&b); err != nil {
			t.Fatal(err)
		}
		want := "+-----+------+----+\n" +
			"|   s |  arr | c\uFFFD |\n" +
			"+-----+------+----+\n" +
			"| a\uFFFDb | [\uFFFD\uFFFD] | ok |\n" +
			"+-----+------+----+\n" +
			"1 row in set\n"
		if b.String() != want {
			t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
		}
	})
	t.Run("streaming", func(t *testing.T) {
		env := MustCreate(InStreamingMode())
		res, err := env.ExecuteSQL(query)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := res.PrintTo(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !utf8.ValidString(out) {
			t.Fatalf("output is not UTF-8: %q", out)
		}
		for _, want := range []string{"a\uFFFDb |", "[\uFFFD\uFFFD] |", "c\uFFFD |"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
}

// A value cut at the column width counts an invalid byte as the one
// column and one byte it takes (it used to count the 3 bytes of U+FFFD,
// keeping bytes past the cut).
func TestTruncateInvalidUTF8(t *testing.T) {
	if got := truncateToWidth("ab\xffcdef", 3); got != "ab\xff" {
		t.Errorf("got %q, want %q", got, "ab\xff")
	}
	if got := FormatCell(strings.Repeat("\xff", 3), types.StringType(), time.UTC); got != "\uFFFD\uFFFD\uFFFD" {
		t.Errorf("FormatCell: got %q", got)
	}
}
