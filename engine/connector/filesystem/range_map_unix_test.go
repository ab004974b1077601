//go:build unix

package filesystem

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// A byte range is mapped, not copied; a file that becomes shorter while
// its ranges are read gives an error naming it, where reading a page the
// file no longer has would crash the process (SIGBUS).
func TestMappedRangeOfTruncatedFileIsAnError(t *testing.T) {
	const size = 4 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(size), 0o644); err != nil {
		t.Fatal(err)
	}
	src := csvSource(t, path, 2, nil)
	ctx := context.Background()
	splits, err := src.Splits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 4 {
		t.Fatalf("%d splits, want 4 ranges", len(splits))
	}
	r, err := src.Open(ctx, splits[3], connector.ReadSpec{}) // checks ranges 0-3, maps range 3
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.(*fileReader).mapping == nil {
		t.Fatal("the last range is not mapped")
	}
	if err := os.Truncate(path, size/2); err != nil {
		t.Fatal(err)
	}
	_, err = r.Next(ctx)
	if err == nil || err == io.EOF || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("reading a range the file no longer has: %v, want an error naming %s", err, path)
	}

	// a panic that is not a fault of the mapping goes on
	m, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if p := recover(); p != "not a fault" {
			t.Fatalf("recovered %v, want the read's own panic", p)
		}
	}()
	mappedRead(path, m, func() error { panic("not a fault") })
}

// The check of a range that another reader maps faults the same way: an
// error naming the file.
func TestMappedRangeCheckOfTruncatedFileIsAnError(t *testing.T) {
	const size = 2 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := loadRange(f, 100, size)
	if err != nil {
		t.Fatal(err)
	}
	defer d.free()
	if d.mapping == nil || len(d.b) != size-100 || string(d.b[:8]) != "aaa\n12,a" {
		t.Fatalf("range [100, %d): mapped %v, %d bytes %q...", size, d.mapping != nil, len(d.b), d.b[:8])
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	err = mappedRead(path, d.mapping, func() error {
		n := 0
		for _, b := range d.b {
			n += int(b)
		}
		t.Logf("read %d", n)
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("reading a mapped range of a truncated file: %v, want an error naming %s", err, path)
	}
}
