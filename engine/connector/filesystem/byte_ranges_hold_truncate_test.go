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

// A range's reader that held its bytes at Open but finds its check made
// by another reader's search maps its range again: a file truncated in
// between fails its read with an error naming the file (the fault is in
// the new mapping), as the reader that mapped at Open does, never with a
// panic. The bytes it held at Open were read into a buffer (mmap(2)
// failed) or mapped at another address.
func TestRangeHoldRemappedTruncated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	src := csvSource(t, path, 2, nil)
	ctx := context.Background()
	splits, err := src.Splits(ctx)
	if err != nil || len(splits) != 4 {
		t.Fatalf("%d splits, error %v", len(splits), err)
	}
	// range 1's bytes read into a buffer at Open (as where mmap(2)
	// fails), mapped when the reader maps them again
	noRangeMap = true
	r1, err := src.Open(ctx, splits[1], connector.ReadSpec{})
	noRangeMap = false
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	if r1.(*fileReader).hold == nil {
		t.Fatal("range 1's reader holds nothing")
	}
	// range 2's reader parses its range, then searches ranges 0 and 1
	r2, err := src.Open(ctx, splits[2], connector.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := r2.Next(ctx); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	r2.Close()
	if err := os.Truncate(path, 1<<20+100); err != nil { // range 1 all but its first line gone
		t.Fatal(err)
	}
	var nextErr error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("range 1's read panicked: %v", p)
			}
		}()
		for {
			if _, nextErr = r1.Next(ctx); nextErr != nil {
				return
			}
		}
	}()
	if nextErr == io.EOF || !strings.Contains(nextErr.Error(), "changed while it was read") {
		t.Fatalf("range 1's read: %v, want the file named as changed", nextErr)
	}
}
