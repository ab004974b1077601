package filesystem

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// holdsNoneOf checks the file again at every call: a quote written after
// a check that found none is seen, whether the file was rewritten with an
// old modification time or replaced by a copy of the same size and
// modification time (as cp -p or rsync -t makes).
func TestHoldsNoneOfChecksEveryTime(t *testing.T) {
	const size = 2 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	clean := bytes.Repeat([]byte("abc,12\n"), size/7+1)[:size]
	write := func(data []byte, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	stops := []byte{'"', '\\'}

	hourAgo := time.Now().Add(-time.Hour)
	write(clean, hourAgo)
	if !holdsNoneOf(path, size, stops, 2) {
		t.Fatal("a clean file was reported to hold a quote")
	}
	quoted := append([]byte(nil), clean...)
	quoted[size/2] = '"'
	write(quoted, hourAgo)
	if holdsNoneOf(path, size, stops, 2) {
		t.Fatal("a file with a quote written after the first check (same size and modification time) was reported clean")
	}

	write(clean, hourAgo)
	if !holdsNoneOf(path, size, stops, 2) {
		t.Fatal("a clean file was reported to hold a quote")
	}
	copyPath := path + ".new"
	if err := os.WriteFile(copyPath, quoted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(copyPath, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(copyPath, path); err != nil {
		t.Fatal(err)
	}
	if holdsNoneOf(path, size, stops, 2) {
		t.Fatal("a copy with a quote, of the same size and modification time, was reported clean")
	}
}
