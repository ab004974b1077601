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
