package filesystem

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// holdsNoneOf finds a stop byte wherever it is (first byte, a share's
// boundary, last byte) on 1 to 4 goroutines, and reports a file without
// one as clean.
func TestHoldsNoneOfParallelShares(t *testing.T) {
	const size = 3<<20 + 5 // three 1 MiB shares and a few bytes
	clean := bytes.Repeat([]byte("abc,12\n"), size/7+1)[:size]
	for _, at := range []int{-1, 0, size/3 - 1, size / 3, size/2 + 1, 2 * size / 3, size - 1} {
		data := append([]byte(nil), clean...)
		if at >= 0 {
			data[at] = '"'
		}
		path := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for workers := 1; workers <= 4; workers++ {
			if got, want := holdsNoneOf(path, size, []byte{'"', '\\'}, workers), at < 0; got != want {
				t.Errorf("quote at %d, %d workers: holdsNoneOf = %v, want %v", at, workers, got, want)
			}
		}
	}
	if holdsNoneOf(filepath.Join(t.TempDir(), "missing.csv"), size, []byte{'"'}, 2) {
		t.Error("a file that cannot be read was reported clean")
	}
}
