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
	path, src, splits := fourRanges(t)
	ctx := context.Background()
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

// An error a held range's reader meets in the check of an earlier range
// (what the old path met at Open, which names the table) names the table
// too: range 0's reader faults in its parse of a file truncated after
// Open, and range 1's reader, which had its bytes read into a buffer,
// parses them and then takes range 0's failed check.
func TestRangeHoldCheckErrorNamesTable(t *testing.T) {
	path, src, splits := fourRanges(t)
	ctx := context.Background()
	r0, err := src.Open(ctx, splits[0], connector.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	defer r0.Close()
	noRangeMap = true
	r1, err := src.Open(ctx, splits[1], connector.ReadSpec{})
	noRangeMap = false
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	if r0.(*fileReader).hold == nil || r1.(*fileReader).hold == nil {
		t.Fatal("ranges 0 and 1 not held")
	}
	if r0.(*fileReader).mapping == nil {
		t.Skip("range 0 not mapped (mmap(2) failed): no fault to make")
	}
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	read := func(r connector.Reader) (err error) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("read panicked: %v", p)
			}
		}()
		for {
			if _, err = r.Next(ctx); err != nil {
				return err
			}
		}
	}
	if err := read(r0); err == io.EOF || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("range 0's read: %v, want the file named as changed", err)
	}
	err = read(r1)
	want := "table `default_catalog`.`default_database`.`t`: file " + path + " changed while it was read (byte range 0)"
	if err == nil || err.Error() != want {
		t.Fatalf("range 1's read: %v, want %q", err, want)
	}
}

// fourRanges writes a 4 MiB CSV file and returns its path and a source of
// it read at parallelism 2, with its four byte ranges.
func fourRanges(t *testing.T) (string, connector.Source, []connector.Split) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	src := csvSource(t, path, 2, nil)
	splits, err := src.Splits(context.Background())
	if err != nil || len(splits) != 4 {
		t.Fatalf("%d splits, error %v", len(splits), err)
	}
	return path, src, splits
}
