package table

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SQL over a CSV file with quoted line breaks in odd places, at
// parallelism 1, 2 and 4, gives the same answers.
func TestCSVRangesSQLAsOne(t *testing.T) {
	dir := t.TempDir()
	for _, variant := range []string{"lf", "crlf", "comments"} {
		var b strings.Builder
		const n = 300000
		for i := 0; i < n; i++ {
			s := fmt.Sprintf("s%d", i%97)
			switch {
			case i%50000 == 49999:
				s = "\"multi\nline " + s + "\""
			case i%77777 == 0:
				s = "\"q\"\"d\""
			}
			if variant == "comments" && i%40000 == 39999 {
				b.WriteString("# a \"comment\n")
			}
			fmt.Fprintf(&b, "%d,%s,%d\n", i, s, i%13)
		}
		text := b.String()
		if variant == "crlf" {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		text = strings.TrimSuffix(text, "\n")
		path := filepath.Join(dir, variant+".csv")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		opts := ""
		if variant == "comments" {
			opts = ", 'csv.allow-comments' = 'true'"
		}
		ddl := fmt.Sprintf("CREATE TABLE f (id BIGINT, s STRING, k INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)", path, opts)
		for _, q := range []string{
			"SELECT COUNT(*), SUM(id), SUM(CHAR_LENGTH(s)), SUM(k) FROM f",
			"SELECT id, s FROM f WHERE s LIKE '%line%' ORDER BY id",
			"SELECT id, s FROM f ORDER BY id DESC LIMIT 3",
			"SELECT id FROM f LIMIT 4",
			"SELECT k, COUNT(*) FROM f WHERE k > 5 GROUP BY k ORDER BY k",
		} {
			var want string
			for _, par := range []string{"1", "2", "4"} {
				env := MustCreate(InBatchMode())
				env.Config().Set("parallelism.default", par)
				mustExec(t, env, ddl)
				got := strings.Join(collectStrings(t, mustQuery(t, env, q)), "|")
				if par == "1" {
					want = got
				} else if got != want {
					t.Errorf("%s %q parallelism %s: got %.300s, want %.300s", variant, q, par, got, want)
				}
			}
		}
	}
}

// A bad row in the second of three byte ranges fails the query at
// parallelism 2 and 4 with the message of parallelism 1: file, line and
// column (a bad number; one with a quote later in its range; an
// unterminated quote).
func TestCSVRangesSQLErrorAsOne(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 300000; i++ {
		fmt.Fprintf(&b, "%d,s%d,%d\n", i, i%97, i%13)
	}
	if b.Len() < 3<<20 || b.Len() >= 4<<20 {
		t.Fatalf("file of %d bytes, want three ranges", b.Len())
	}
	for i, c := range []struct{ edit, want string }{
		{"\n150000,|\nx,", `:150001:1: column ` + "`id`" + `: cannot parse "x" as BIGINT`},
		{"\n150000,|\nx,|\n150005,s|\n150005,\"s\"", `:150001:1: column ` + "`id`" + `: cannot parse "x" as BIGINT`},
		{"\n150000,s|\n150000,\"s", ":150001:2: column `s`: unterminated quoted field"},
	} {
		text := b.String()
		e := strings.Split(c.edit, "|")
		for j := 0; j < len(e); j += 2 {
			text = strings.Replace(text, e[j], e[j+1], 1)
		}
		path := filepath.Join(dir, fmt.Sprintf("bad%d.csv", i))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		ddl := fmt.Sprintf("CREATE TABLE f (id BIGINT, s STRING, k INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-parse-errors' = 'false')", path)
		var want string
		for _, par := range []string{"1", "2", "4"} {
			err := batchQueryError(t, par, ddl, "SELECT SUM(id) FROM f")
			if err == nil {
				t.Fatalf("%d parallelism %s: no error", i, par)
			}
			if par == "1" {
				want = err.Error()
				if !strings.Contains(want, path+c.want) {
					t.Errorf("%d parallelism 1: %v, want %s%s", i, err, path, c.want)
				}
			} else if err.Error() != want {
				t.Errorf("%d parallelism %s: %v, want %s", i, par, err, want)
			}
		}
	}
}
