package sql

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestCorpus(t *testing.T) {
	spans := corpus(t)
	if len(spans) < 300 {
		t.Errorf("corpus has only %d statements", len(spans))
	}
	for _, sp := range spans {
		checkRoundTrip(t, sp.Text)
	}
	t.Logf("%d statements parsed and round-tripped", len(spans))
}

// TestScriptVsSplit checks that ParseScript and SplitStatements agree on
// every corpus file, including positions: parsing each span with its
// offset yields exactly the statement ParseScript produced.
func TestScriptVsSplit(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.sql")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := placeholder.ReplaceAllString(string(b), "$1")
		sts, err := ParseScript(text)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		spans := SplitStatements(text)
		if len(spans) != len(sts) {
			t.Errorf("%s: %d statements, %d spans", f, len(sts), len(spans))
			continue
		}
		for i, sp := range spans {
			st, err := sp.Parse()
			if err != nil {
				t.Errorf("%s: span %d: %v", f, i, err)
				continue
			}
			if !reflect.DeepEqual(st, sts[i]) {
				t.Errorf("%s: span %d parses differently from the script (positions?)", f, i)
			}
			if st.Pos() != sp.Start || st.End() != sp.End && st.End() != sp.End-0 {
				t.Errorf("%s: span %d: statement span %v-%d vs split %v-%d", f, i, st.Pos(), st.End(), sp.Start, sp.End)
			}
		}
	}
}
