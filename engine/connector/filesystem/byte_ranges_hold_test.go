package filesystem

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
)

// holdTestFiles returns 4 MiB rangeTestFiles (four ranges at parallelism
// 2): clean, a quoted field across the boundary of ranges 0 and 1, one
// across 2 and 3, one inside range 3, a quote inside an unquoted field of
// range 1 (a value's byte to one reader, still a stop byte).
func holdTestFiles() map[string][]byte {
	const size = 4 << 20
	files := map[string][]byte{"clean": rangeTestFile(size)}
	across01 := rangeTestFile(size)
	quoteAcross(across01, 1<<20-8)
	files["across01"] = across01
	across23 := rangeTestFile(size)
	quoteAcross(across23, 3<<20-8)
	files["across23"] = across23
	inside3 := rangeTestFile(size)
	quoteAcross(inside3, 3<<20+800)
	files["inside3"] = inside3
	mid1 := rangeTestFile(size)
	mid1[1<<20+8000+5] = '"' // 12,a"aa
	files["mid1"] = mid1
	return files
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for at := 0; at <= len(p); at++ {
			q := slices.Insert(slices.Clone(p), at, n-1)
			out = append(out, q)
		}
	}
	return out
}

// The ranges' readers give one reader's rows in every order of the
// ranges' reads, one at a time and on parallel goroutines: each parses
// its range before it knows whether the ranges before it are clean.
func TestRangeHoldEveryOrder(t *testing.T) {
	dir := t.TempDir()
	for name, data := range holdTestFiles() {
		path, want := writeOneReader(t, filepath.Join(dir, name+".csv"), data)
		src := csvSource(t, path, 2, nil)
		orders := [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}}
		if (name == "across01" || name == "across23") && !testing.Short() {
			orders = permutations(4) // -short (under -race): three orders
		}
		for _, order := range orders {
			got, n, err := readSplits(t, src, order, 0)
			if err != nil || n != 4 {
				t.Fatalf("%s, order %v: %d splits, error %v", name, order, n, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s, order %v: %d rows, one reader's %d", name, order, len(got), len(want))
			}
		}
		for _, workers := range []int{2, 4} {
			for range 3 {
				got, _, err := readSplits(t, src, nil, workers)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %d workers: %d rows, one reader's %d", name, workers, len(got), len(want))
				}
			}
		}
	}
}

// The reader of range 1 finishes its parse while range 0's reader is
// still parsing: it waits for range 0's check and gives its rows only
// when range 0 is clean (with a quote across ranges 0 and 1, range 0's
// reader reads the whole file and range 1's gives none).
func TestRangeHoldWaitsForEarlierParse(t *testing.T) {
	dir := t.TempDir()
	defer func() { testCheckWait, testHoldParsed = nil, nil }()
	for _, name := range []string{"clean", "across01", "mid1"} {
		data := holdTestFiles()[name]
		path, want := writeOneReader(t, filepath.Join(dir, name+".csv"), data)
		src := csvSource(t, path, 2, nil)
		splits, err := src.Splits(context.Background())
		if err != nil || len(splits) != 4 {
			t.Fatalf("%d splits, error %v", len(splits), err)
		}
		parsed0 := make(chan struct{})  // range 0's reader has parsed, not yet published
		waiting1 := make(chan struct{}) // range 1's reader waits for range 0's check
		var once sync.Once
		var noWait atomic.Bool
		testHoldParsed = func(i int) {
			if i == 0 {
				close(parsed0)
				select {
				case <-waiting1:
				case <-time.After(30 * time.Second): // a safety net, not a timing
					noWait.Store(true)
				}
			}
		}
		testCheckWait = func(i int) {
			if i == 0 {
				once.Do(func() { close(waiting1) })
			}
		}
		readAll := func(sp connector.Split) ([]string, error) {
			r, err := src.Open(context.Background(), sp, connector.ReadSpec{})
			if err != nil {
				return nil, err
			}
			defer r.Close()
			var rows []string
			for {
				b, err := r.Next(context.Background())
				if err == io.EOF {
					return rows, nil
				}
				if err != nil {
					return nil, err
				}
				for _, row := range b.Rows(tys) {
					rows = append(rows, row.String())
				}
			}
		}
		var rows0 []string
		var err0 error
		done0 := make(chan struct{})
		go func() {
			defer close(done0)
			rows0, err0 = readAll(splits[0])
		}()
		<-parsed0 // range 0 is claimed by its parse: range 1's reader must wait
		rows1, err1 := readAll(splits[1])
		<-done0
		if noWait.Load() {
			t.Fatalf("%s: range 1's reader did not wait for range 0's check while range 0's reader held it", name)
		}
		if err0 != nil || err1 != nil {
			t.Fatalf("%s: errors %v, %v", name, err0, err1)
		}
		var got []string
		for _, sp := range splits[2:] {
			rows, err := readAll(sp)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rows...)
		}
		if name == "across01" && len(rows1) != 0 {
			t.Fatalf("%s: range 1's reader gave %d rows after range 0 held a quote, want none", name, len(rows1))
		}
		got = append(append(got, rows0...), rows1...)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows, one reader's %d", name, len(got), len(want))
		}
		testCheckWait, testHoldParsed = nil, nil
	}
}

// A checkpoint taken after the first batches a range's reader gives from
// the batches it holds names the position after those batches, not the
// range's end: resumed there, the reader gives the rest of its rows.
func TestRangeHoldPositionAfterHeldBatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	src := csvSource(t, path, 2, nil)
	rs := src.(connector.ResumableSource)
	ctx := context.Background()
	for k := range 4 {
		for _, first := range []int{1, 3} {
			splits, err := src.Splits(ctx) // a new listing: the check is the parse's
			if err != nil {
				t.Fatal(err)
			}
			r, err := src.Open(ctx, splits[k], connector.ReadSpec{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := readRest(t, r, first)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := r.(*fileReader).br.(*heldBatches); !ok {
				t.Fatalf("range %d: its reader holds no batches (%T)", k, r.(*fileReader).br)
			}
			pos, err := r.(connector.PositionReader).Position()
			if err != nil {
				t.Fatal(err)
			}
			whole, err := readRest(t, r, -1)
			if err != nil {
				t.Fatal(err)
			}
			whole = append(slices.Clone(got), whole...)
			r.Close()
			r, err = rs.OpenAt(ctx, splits[k], connector.ReadSpec{}, pos)
			if err != nil {
				t.Fatal(err)
			}
			rest, err := readRest(t, r, -1)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got = append(got, rest...); !slices.Equal(got, whole) {
				t.Fatalf("range %d resumed after %d batches: %d rows, its reader's %d", k, first, len(got), len(whole))
			}
			if want := (1 << 20) / len(rangeTestLine); len(whole) != want {
				t.Fatalf("range %d: %d rows, want %d", k, len(whole), want)
			}
		}
	}
}

// writeOneReader writes data to path and returns the rows one reader
// (parallelism 1) reads from it, the reference of the ranges' tests.
func writeOneReader(t *testing.T, path string, data []byte) (string, []string) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, err := readSplits(t, csvSource(t, path, 1, nil), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return path, want
}
