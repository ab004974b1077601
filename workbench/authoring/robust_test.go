package authoring

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestCorpusNeverPanics reads every query of the parser's corpus into the
// builder and applies each grid action to it: each either works (and the
// result parses) or returns an error.
func TestCorpusNeverPanics(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "engine", "sql", "testdata", "*", "*.sql"))
	queries, built := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := placeholder.ReplaceAllString(string(b), "$1")
		for _, sp := range sql.SplitStatements(text) {
			st, err := sp.Parse()
			if err != nil {
				continue
			}
			if _, ok := st.(*sql.Query); !ok {
				continue
			}
			queries++
			if q, err := ParseQuery(sp.Text); err == nil {
				built++
				if s, err := q.SQL(); err == nil {
					if _, err := sql.Parse(s); err != nil {
						t.Errorf("builder SQL does not parse: %v\n%s", err, s)
					}
				}
				q.Go()
			}
			check := func(out string, err error) {
				if err != nil {
					return
				}
				if _, err := sql.Parse(out); err != nil {
					t.Errorf("grid action output does not parse: %v\n%s", err, out)
				}
			}
			for _, col := range []string{"a", "EXPR$0", "window_start"} {
				check(FilterByValue(sp.Text, col, OpEq, int64(1), types.BigIntType()))
				check(FilterByValue(sp.Text, col, OpNe, nil, types.StringType()))
				check(GroupByColumn(sp.Text, col))
				check(CountDistinct(sp.Text, col))
				check(SortBy(sp.Text, col, true))
				check(HideColumn(sp.Text, col, []string{"a", "b", "EXPR$0", "window_start"}))
			}
		}
	}
	if queries < 20 || built == 0 {
		t.Errorf("%d queries, %d read by the builder", queries, built)
	}
}
