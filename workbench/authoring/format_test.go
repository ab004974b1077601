package authoring

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
)

var placeholder = regexp.MustCompile(`\$\{([A-Z_]+)\}`)

// canonical parses a script and renders every statement canonically:
// equal results mean equal trees (positions and quoting aside).
func canonical(t *testing.T, script string) []string {
	t.Helper()
	sts, err := sql.ParseScript(script)
	if err != nil {
		t.Fatalf("%v\n%s", err, script)
	}
	out := make([]string, len(sts))
	for i, st := range sts {
		out[i] = sql.Format(st)
	}
	return out
}

func TestFormatRangeStatementUnderCursor(t *testing.T) {
	script := "select 1;\nselect origin, count(*) as n from flights where delay>60 group by origin;\n-- done\n"
	cursor := strings.Index(script, "count")
	start, end, text, err := FormatRange(script, 0, 0, cursor)
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT\n  origin,\n  count(*) AS n\nFROM flights\nWHERE delay > 60\nGROUP BY origin"
	if text != want {
		t.Fatalf("got\n%s", text)
	}
	out := script[:start] + text + script[end:]
	if out != "select 1;\n"+want+";\n-- done\n" {
		t.Fatalf("script became\n%s", out)
	}
	if a, b := canonical(t, script), canonical(t, out); strings.Join(a, ";") != strings.Join(b, ";") {
		t.Fatalf("meaning changed:\n%v\n%v", a, b)
	}
}

func TestFormatRangeSelection(t *testing.T) {
	script := "  select a from t where b = 'x;y'  \n\nnext"
	start, end, text, err := FormatRange(script, 0, strings.Index(script, "next"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if start != 0 || text != "  SELECT a\nFROM t\nWHERE b = 'x;y'  \n\n" {
		t.Fatalf("got %q", text)
	}
	_ = end
	// a selection with two statements keeps their semicolons
	script = "select 1; select 2;"
	_, _, text, err = FormatRange(script, 0, len(script), 0)
	if err != nil {
		t.Fatal(err)
	}
	if text != "SELECT 1;\n\nSELECT 2;" {
		t.Fatalf("got %q", text)
	}
}

func TestFormatRangeErrors(t *testing.T) {
	script := "select 1;\nselect from where;"
	_, _, _, err := FormatRange(script, 0, 0, len(script)-2)
	se, ok := err.(*sql.Error)
	if !ok {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(se.Error(), "line 2") {
		t.Errorf("position not in script coordinates: %v", se)
	}
	_, _, _, err = FormatRange(script, 10, len(script), 0)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("selection error: %v", err)
	}
	if s, e, text, err := FormatRange("   ", 0, 0, 1); err != nil || text != "" || s != e {
		t.Errorf("empty script: %d %d %q %v", s, e, text, err)
	}
}

// TestFormatNeverChangesMeaning formats every statement of the parser's
// corpus (one by one, under the cursor, and as one selection) and checks
// that the result parses to the same trees.
func TestFormatNeverChangesMeaning(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "engine", "sql", "testdata", "valid", "*.sql"))
	nex, _ := filepath.Glob(filepath.Join("..", "..", "engine", "sql", "testdata", "nexmark", "*.sql"))
	files = append(files, nex...)
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// ${VAR} placeholders outside strings become identifiers
		script := placeholder.ReplaceAllString(string(b), "$1")
		before := canonical(t, script)
		_, _, all, err := FormatRange(script, 0, len(script), 0)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if after := canonical(t, all); strings.Join(after, "\n") != strings.Join(before, "\n") {
			t.Errorf("%s: formatting the whole script changed its meaning", f)
		}
		for _, sp := range sql.SplitStatements(script) {
			s, e, text, err := FormatRange(script, 0, 0, sp.Start.Offset)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			a := canonical(t, script[s:e])
			b := canonical(t, text)
			if strings.Join(a, "") != strings.Join(b, "") {
				t.Errorf("%s: %q changed meaning:\n%s", f, script[s:e], text)
			}
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d statements checked", n)
	}
}
