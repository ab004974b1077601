package completion_test

import (
	. "github.com/riffle-sql/riffle/engine/completion"
	"os"
	"path/filepath"
	"testing"
)

// TestNoPanicAnywhere completes at every byte offset of the parser's
// corpus (valid SQL, Nexmark queries): partial words, strings, comments,
// hints and the space between statements must never panic.
func TestNoPanicAnywhere(t *testing.T) {
	cat := testEnv(t)
	files, _ := filepath.Glob(filepath.Join("..", "sql", "testdata", "*", "*.sql"))
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	calls := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		step := 1
		if len(text) > 500 {
			step = len(text) / 500
		}
		for off := 0; off <= len(text); off += step {
			r := Complete(text, off, cat)
			if r.Start > off || r.End < r.Start || r.End > len(text) {
				t.Fatalf("%s@%d: range %d-%d", f, off, r.Start, r.End)
			}
			AutoTrigger(text, off)
			calls++
		}
	}
	if calls < 1000 {
		t.Errorf("only %d positions", calls)
	}
}
