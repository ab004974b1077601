package filesystem

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// badLine makes the 8-byte line at off of a rangeTestFile one whose id
// does not parse (xx,aaaa).
func badLine(data []byte, off int) {
	off = off / 8 * 8
	data[off], data[off+1] = 'x', 'x'
}

// The error of a file read in ranges is the one a single reader reports
// first, with its line, whichever range's reader fails first: a bad line
// in each of two ranges (the later range read first names the earlier
// line), a bad line before the range holding a quote and one after it,
// a UTF-16 byte order mark (the first range's error) and a later bad
// line, and lone CRs (line ends of the csv reader, as LF and CRLF) before a
// later range's bad line.
func TestRangesReportOneReadersFirstError(t *testing.T) {
	const size = 4<<20 + 8*3 // four ranges of about 1 MiB
	for _, c := range []struct {
		name string
		edit func(data []byte)
	}{
		{"bad lines in the second and fourth ranges", func(data []byte) {
			badLine(data, size/4+8*1000)
			badLine(data, size/4*3+8*1000)
		}},
		{"bad line before the quoted range and after it", func(data []byte) {
			badLine(data, size/4+8*1000)
			quoteAcross(data, (size/2+8*10)/8*8)
			badLine(data, size/4*3+8*1000)
		}},
		{"UTF-16 byte order mark and a later range's bad line", func(data []byte) {
			data[0], data[1] = 0xFF, 0xFE // the one reader's error: line 1
			badLine(data, size/4*3+8*1000)
		}},
		{"lone CRs before a later range's bad line", func(data []byte) {
			for i := range 10 {
				data[8*(100+i)+7] = '\r' // 12,aaaa<CR>: the line ends there
			}
			badLine(data, size/4*3+8*1000)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := rangeTestFile(size)
			c.edit(data)
			path := filepath.Join(t.TempDir(), "f.csv")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := readSplits(t, csvSource(t, path, 1, nil), nil, 0)
			var de *connector.DataError
			if !errors.As(err, &de) {
				t.Fatalf("one reader: %v, want a data error", err)
			}
			if n := checkRangesReadAsOne(t, path, nil); n != 4 {
				t.Fatalf("%d ranges, want 4", n)
			}
		})
	}
}

// A read with a row limit (a LIMIT pushed into the scan) gives the first
// lines of the file and no error from a bad line the one reader does not
// reach, whichever range is read first: the first range's reader reads
// from the start of the file, the others give no row.
func TestRangesWithLimitReadAsOne(t *testing.T) {
	const size = 4<<20 + 8*3
	data := rangeTestFile(size)
	for i := range 4 {
		data[8*i+3] = 'b' + byte(i) // 12,baaa 12,caaa ...: the first lines tell apart
	}
	badLine(data, size/2+8*10) // in the third range's first batch
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(par int, reverse bool) []string {
		src := csvSource(t, path, par, nil)
		ctx := context.Background()
		splits, err := src.Splits(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if reverse {
			slices.Reverse(splits)
		}
		var rows []string
		for _, sp := range splits {
			r, err := src.Open(ctx, sp, connector.ReadSpec{Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			for {
				b, err := r.Next(ctx)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("parallelism %d: %v, want the first 3 rows", par, err)
				}
				for _, row := range b.Rows(tys) {
					rows = append(rows, row.String())
				}
			}
			r.Close()
		}
		return rows
	}
	want := read(1, false)
	if len(want) != 3 {
		t.Fatalf("one reader: %d rows, want 3", len(want))
	}
	for _, reverse := range []bool{false, true} {
		if got := read(2, reverse); !slices.Equal(got, want) {
			t.Fatalf("ranges (last first %v): %v, want one reader's %v", reverse, got, want)
		}
	}
}

// linesBefore counts LF, CRLF and lone CR as one line break each for csv
// (a CRLF split between two of its 64 KiB reads too), only LF for json.
func TestLinesBeforeCountsTheReadersLineBreaks(t *testing.T) {
	data := []byte("a\rb\r\nc\n")
	pad := make([]byte, 64<<10-1-len(data)) // the next CR is the 64 KiB read's last byte
	for i := range pad {
		pad[i] = 'x'
	}
	data = append(append(data, pad...), "\r\nd\re\n"...)
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		loneCR bool
		want   int64
	}{{true, 6}, {false, 4}} {
		if got, err := linesBefore(f, int64(len(data)), c.loneCR); err != nil || got != c.want {
			t.Errorf("loneCR %v: %d lines (%v), want %d", c.loneCR, got, err, c.want)
		}
	}
}

// A file renamed over while its byte ranges are read: a range opened
// after the rename gives an error naming the path, not the other file's
// lines after the first file's; one reader (no ranges) reads on from the
// file it opened.
func TestRangesOfAFileRenamedOverFail(t *testing.T) {
	const size = 4<<20 + 8*3
	dir := t.TempDir()
	path := filepath.Join(dir, "f.csv")
	if err := os.WriteFile(path, rangeTestFile(size), 0o644); err != nil {
		t.Fatal(err)
	}
	other := rangeTestFile(size)
	for i := 0; i+8 <= len(other); i += 8 {
		other[i+3] = 'z' // 12,zaaa: the other file's lines tell apart
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
	r, err := src.Open(ctx, splits[0], connector.ReadSpec{})
	if err != nil {
		t.Fatalf("range 0 before the rename: %v", err)
	}
	if _, err := r.Next(ctx); err != nil {
		t.Fatalf("range 0 before the rename: %v", err)
	}
	r.Close()
	tmp := filepath.Join(dir, "g.csv")
	if err := os.WriteFile(tmp, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	_, err = src.Open(ctx, splits[1], connector.ReadSpec{})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "another file was put at its path") {
		t.Fatalf("range 1 after the rename: %v, want an error naming %s replaced", err, path)
	}
	// the new file listed again reads whole
	rows, n, err := readSplits(t, csvSource(t, path, 2, nil), nil, 0)
	if err != nil || n != 4 || len(rows) != size/8 {
		t.Fatalf("listed again: %d rows in %d ranges, %v; want %d in 4", len(rows), n, err, size/8)
	}
}
