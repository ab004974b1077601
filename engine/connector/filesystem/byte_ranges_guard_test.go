package filesystem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// rangeTestLine is one 8-byte line of the guard tests' files: id 12,
// name "aaaa".
const rangeTestLine = "12,aaaa\n"

// rangeTestFile is size bytes of rangeTestLine.
func rangeTestFile(size int) []byte {
	return bytes.Repeat([]byte(rangeTestLine), size/len(rangeTestLine)+1)[:size]
}

// quoteAcross makes the lines at off and off+8 of a rangeTestFile one
// record whose name is a quoted field holding a line break:
// 12,"aaa\n12,aaa"\n is the row (12, "aaa\n12,aaa"). The file keeps its
// size.
func quoteAcross(data []byte, off int) {
	data[off+3] = '"'
	data[off+8+7-1] = '"'
}

// csvSource is a batch CSV source over path at parallelism par, with the
// extra format options.
func csvSource(t *testing.T, path string, par int, opts map[string]string) connector.Source {
	t.Helper()
	o := map[string]string{"path": path, "format": "csv"}
	for k, v := range opts {
		o[k] = v
	}
	ctx := newCtx(o, names, tys)
	ctx.Config.Set(config.RuntimeMode.Key, "batch")
	ctx.Config.Set(config.Parallelism.Key, fmt.Sprint(par))
	src, err := Factory{}.CreateSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// readSplits reads the splits of one listing of src: in the order given
// by order (indexes into the splits; nil: each in turn), or, with
// workers > 0, on that many goroutines taking the next split as the
// runtime's instances do. It returns the rows as strings, sorted, and the
// number of splits.
func readSplits(t *testing.T, src connector.Source, order []int, workers int) ([]string, int, error) {
	t.Helper()
	ctx := context.Background()
	splits, err := src.Splits(ctx)
	if err != nil {
		return nil, 0, err
	}
	var mu sync.Mutex
	var out []string
	readOne := func(sp connector.Split) error {
		r, err := src.Open(ctx, sp, connector.ReadSpec{})
		if err != nil {
			return err
		}
		defer r.Close()
		for {
			b, err := r.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			mu.Lock()
			for _, row := range b.Rows(tys) {
				out = append(out, row.String())
			}
			mu.Unlock()
		}
	}
	if workers > 0 {
		var next atomic.Int64
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(next.Add(1) - 1); i < len(splits) && errs[w] == nil; i = int(next.Add(1) - 1) {
					errs[w] = readOne(splits[i])
				}
			}()
		}
		wg.Wait()
		// the workers' errors, each once: the job fails with the first
		// reported, so every worker must report the one reader's
		seen := map[string]bool{}
		for _, e := range errs {
			if e != nil && !seen[e.Error()] {
				seen[e.Error()] = true
				err = errors.Join(err, e)
			}
		}
	} else {
		if order == nil {
			for i := range splits {
				order = append(order, i)
			}
		}
		for _, i := range order {
			if err = readOne(splits[i]); err != nil {
				break
			}
		}
	}
	slices.Sort(out)
	return out, len(splits), err
}

// checkRangesReadAsOne reads path at parallelism 2 (the splits in turn,
// last first, and on two goroutines; the ranges mapped and read) and at
// parallelism 1, and fails unless every way gives the one reader's rows
// (or its error). It returns the number of ranges.
func checkRangesReadAsOne(t *testing.T, path string, opts map[string]string) int {
	t.Helper()
	defer func() { noRangeMap = false }()
	noRangeMap = true
	n := checkRangesReadAsOneNow(t, path, opts)
	noRangeMap = false
	return min(n, checkRangesReadAsOneNow(t, path, opts))
}

func checkRangesReadAsOneNow(t *testing.T, path string, opts map[string]string) int {
	t.Helper()
	want, n, wantErr := readSplits(t, csvSource(t, path, 1, opts), nil, 0)
	if wantErr != nil {
		t.Logf("one reader's error: %v", wantErr)
	}
	if n != 1 {
		t.Fatalf("%d splits at parallelism 1, want the file whole", n)
	}
	var ranges int
	for _, way := range []struct {
		name    string
		reverse bool
		workers int
	}{{"in turn", false, 0}, {"last first", true, 0}, {"two goroutines", false, 2}} {
		src := csvSource(t, path, 2, opts)
		var order []int
		if way.reverse {
			splits, err := src.Splits(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for i := len(splits) - 1; i >= 0; i-- {
				order = append(order, i)
			}
		}
		got, n, err := readSplits(t, src, order, way.workers)
		ranges = n
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("%s: error %v, one reader's %v", way.name, err, wantErr)
		}
		if wantErr != nil {
			continue // the rows before the error depend on the batches: the query fails
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows from %d ranges, want one reader's %d rows (first differing: %s)", way.name, len(got), n, len(want), firstDiffering(got, want))
		}
	}
	return ranges
}

func firstDiffering(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("%q against %q", a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

// A CSV file's ranges give the rows of one reader whether or not it holds
// a quoted line break, wherever it is: in the first range, across the
// line start where a range begins (the place a blind split would cut the
// field), inside a middle range, in the last bytes; with an escape
// character too. A clean file's rows come from every range.
func TestRangesOfQuotedFileReadAsOne(t *testing.T) {
	const size = 4<<20 + 8*3         // four ranges of about 1 MiB
	boundary := (size/2 + 7) / 8 * 8 // the third range's first line: the first line start at or after its Start
	for _, c := range []struct {
		name  string
		quote int // the line of quoteAcross; -1: none
	}{
		{"clean", -1},
		{"first line", 0},
		{"across a range start", boundary - 8},
		{"middle of a range", size/8*3/8*8 + 800},
		{"last two lines", size/8*8 - 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := rangeTestFile(size)
			if c.quote >= 0 {
				quoteAcross(data, c.quote)
			}
			path := filepath.Join(t.TempDir(), "f.csv")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if n := checkRangesReadAsOne(t, path, nil); n != 4 {
				t.Fatalf("%d ranges, want 4", n)
			}
		})
	}
	t.Run("escape character", func(t *testing.T) {
		data := rangeTestFile(size)
		// 12,aaa\<line break>12xaaaa: the escaped line break is in the name
		off := boundary - 8
		data[off+6] = '\\'
		data[off+10] = 'x'
		path := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkRangesReadAsOne(t, path, map[string]string{"csv.escape-character": "\\"})
	})
	t.Run("unclosed quote", func(t *testing.T) {
		// the one reader's error, not a range's
		data := rangeTestFile(size)
		data[size/2+3] = '"'
		path := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkRangesReadAsOne(t, path, nil)
	})
}

// Each listing checks the file again: a quote written after a read that
// found none is seen by the next, whether the file was rewritten with its
// old modification time or replaced by a copy of the same size and time.
func TestRangesCheckEveryListing(t *testing.T) {
	const size = 2 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	clean := rangeTestFile(size)
	quoted := append([]byte(nil), clean...)
	quoteAcross(quoted, size/2-8) // across the second range's start
	stat := func() os.FileInfo {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if err := os.WriteFile(path, clean, 0o644); err != nil {
		t.Fatal(err)
	}
	checkRangesReadAsOne(t, path, nil)
	old := stat().ModTime()
	if err := os.WriteFile(path, quoted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	checkRangesReadAsOne(t, path, nil)

	if err := os.WriteFile(path, clean, 0o644); err != nil {
		t.Fatal(err)
	}
	checkRangesReadAsOne(t, path, nil)
	copyPath := path + ".new"
	if err := os.WriteFile(copyPath, quoted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(copyPath, stat().ModTime(), stat().ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(copyPath, path); err != nil {
		t.Fatal(err)
	}
	checkRangesReadAsOne(t, path, nil)
}

// A range's own reader parses the bytes its check read; the reader of a
// later range that checked it first keeps none of them (with one split
// list per instance, another instance's ranges would hold their bytes to
// the end), and that range's reader reads them again, as does a split
// opened again.
func TestRangeCheckKeepsOnlyOwnBytes(t *testing.T) {
	const size = 3 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(size), 0o644); err != nil {
		t.Fatal(err)
	}
	src := csvSource(t, path, 2, nil)
	splits, err := src.Splits(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 3 {
		t.Fatalf("%d splits, want 3 ranges", len(splits))
	}
	g := splits[0].(*FileSplit).guard
	open := func(i int) connector.Reader {
		r, err := src.Open(context.Background(), splits[i], connector.ReadSpec{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := func(r connector.Reader) int {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return b.Len
	}
	count := func(r connector.Reader) int {
		defer r.Close()
		n := 0
		for {
			b, err := r.Next(context.Background())
			if err == io.EOF {
				return n
			}
			if err != nil {
				t.Fatal(err)
			}
			n += b.Len
		}
	}
	r0 := open(0)
	n := first(r0) // checks range 0 by its parse
	if g.ranges[0].data != nil {
		t.Fatal("range 0's bytes held by its check")
	}
	r2 := open(2)
	n += first(r2) // checks range 1 for its own sake: keeps nothing of it
	for i := range 3 {
		c := &g.ranges[i]
		if c.dirty || c.err != nil || c.data != nil || c.to <= c.from {
			t.Fatalf("range %d: dirty %v, error %v, bytes held %v, lines [%d, %d): want checked clean, no bytes held", i, c.dirty, c.err, c.data != nil, c.from, c.to)
		}
	}
	got := n + count(r0) + count(r2) + count(open(1)) + count(open(1)) // the second range twice
	if want := size/len(rangeTestLine) + size/len(rangeTestLine)/3; got < want-2 || got > want+2 {
		t.Fatalf("%d rows, want about %d (every line once, the second range's twice)", got, want)
	}
}
