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

// A maximum column width of 1 or 2 still lines the borders up: a cut cell
// is "...", so a column that cuts one is three columns wide (Flink's
// TableauStyle writes "..." into the narrower column and shifts that
// row's borders).
func TestTableauSmallMaxColumnWidthKeepsBordersAligned(t *testing.T) {
	for _, mode := range []string{"batch", "streaming"} {
		for _, w := range []string{"1", "2", "3"} {
			env := MustCreate(InBatchMode())
			for _, s := range []string{
				"SET 'execution.runtime-mode' = '" + mode + "'",
				"SET 'sql-client.display.max-column-width' = '" + w + "'",
			} {
				if _, err := env.ExecuteSQL(s); err != nil {
					t.Fatal(err)
				}
			}
			out := run(t, env, "SELECT * FROM (VALUES ('hello', 12345), ('ab', 1), ('日本', 2)) AS t(x, n)")
			width := -1
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if !strings.HasPrefix(l, "|") && !strings.HasPrefix(l, "+") {
					continue
				}
				if width < 0 {
					width = DisplayWidth(l)
				} else if DisplayWidth(l) != width {
					t.Errorf("%s, width %s: line %q is %d columns wide, the first %d:\n%s", mode, w, l, DisplayWidth(l), width, out)
				}
			}
			if mode == "batch" && !strings.Contains(out, "| ... | ... |\n") {
				t.Errorf("%s, width %s: no cut cells:\n%s", mode, w, out)
			}
		}
	}
}

// A maximum column width that is not an integer above 0 is an error naming
// the key and the value, not ignored (Flink's SQL Client fails reading it
// with "Could not parse value ... for key ...", and its PrintStyle refuses
// a width below 1).
func TestMaxColumnWidthBadValue(t *testing.T) {
	for _, key := range []string{"sql-client.display.max-column-width", "table.display.max-column-width"} {
		for _, v := range []string{"abc", "0", "-1", "3000000000", ""} {
			env := MustCreate(InBatchMode())
			_, err := env.ExecuteSQL("SET '" + key + "' = '" + v + "'")
			if err == nil || !strings.Contains(err.Error(), "'"+v+"' for key '"+key+"'") {
				t.Errorf("SET %s = %q: err %v", key, v, err)
			}
		}
		env := MustCreate(InBatchMode())
		if _, err := env.ExecuteSQL("SET '" + key + "' = ' 12 '"); err != nil {
			t.Errorf("SET %s = ' 12 ': %v", key, err)
		}
		// a value set past SET (the Go API) fails the next query
		env.GetConfig().GetConfiguration().SetString(key, "abc")
		if _, err := env.ExecuteSQL("SELECT 1"); err == nil || !strings.Contains(err.Error(), "'abc' for key '"+key+"'") {
			t.Errorf("query with %s = abc: err %v", key, err)
		}
	}
}

// A maximum column width of 2^31 - 1 ("never cut") neither crashes nor
// pads rows to gigabytes: streaming output sizes a string column at most
// StreamingColumnWidthBound wide (it allocated 2 GB for one row) and shows
// a longer value whole; batch output sizes columns from the data.
func TestTableauHugeMaxColumnWidth(t *testing.T) {
	long := strings.Repeat("x", StreamingColumnWidthBound+100)
	for _, mode := range []string{"streaming", "batch"} {
		env := MustCreate(InBatchMode())
		for _, s := range []string{
			"SET 'execution.runtime-mode' = '" + mode + "'",
			"SET 'sql-client.display.max-column-width' = '2147483647'",
		} {
			if _, err := env.ExecuteSQL(s); err != nil {
				t.Fatal(err)
			}
		}
		out := run(t, env, "SELECT * FROM (VALUES ('abc', 1), ('"+long+"', 2)) AS t(s, n)")
		for _, l := range strings.Split(out, "\n") {
			if len(l) > len(long)+40 {
				t.Fatalf("%s: a line is %d bytes long", mode, len(l))
			}
		}
		if !strings.Contains(out, "| "+long+" |") {
			t.Errorf("%s: the long value is not shown whole", mode)
		}
		if mode == "streaming" {
			want := "| +I | " + strings.Repeat(" ", StreamingColumnWidthBound-3) + "abc |           1 |\n"
			if !strings.Contains(out, want) {
				t.Errorf("streaming: the short row is not padded to the bound:\n%.300s", out)
			}
		}
	}
}
