package filesystem

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The ranges of odd CSV files (quotes at range edges, comments, CRLF,
// a BOM, escapes, parse errors skipped or not, no final line break) give
// one reader's rows or error.
// (-short: skipped, 25 s; under -race several minutes).
func TestRangesOddFilesReadAsOne(t *testing.T) {
	if testing.Short() {
		t.Skip("25 s")
	}
	const size = 4<<20 + 8*3
	boundary := (size/2 + 7) / 8 * 8
	q1 := (size/4 + 7) / 8 * 8
	type tc struct {
		name string
		make func() []byte
		opts map[string]string
	}
	crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
	cases := []tc{
		{"quote first byte of range", func() []byte {
			d := rangeTestFile(size)
			d[boundary+3] = '"'
			d[boundary+8+6] = '"'
			return d
		}, nil},
		{"quote last byte before range", func() []byte {
			d := rangeTestFile(size)
			d[boundary-5] = '"'
			d[boundary-2] = '"'
			return d
		}, nil},
		{"comment with quote", func() []byte {
			d := rangeTestFile(size)
			copy(d[q1:], "#\"aaaa\n")
			copy(d[boundary-8:], "#aa\"aa\n")
			return d
		}, map[string]string{"csv.allow-comments": "true"}},
		{"comment with quote across", func() []byte {
			d := rangeTestFile(size)
			copy(d[boundary-8:], "12,\"aa\n")
			copy(d[boundary:], "#aaaa\"\n")
			return d
		}, map[string]string{"csv.allow-comments": "true"}},
		{"doubled quotes", func() []byte {
			d := rangeTestFile(size)
			copy(d[q1:], "12,\"\"\"\"\n")
			return d
		}, nil},
		{"crlf quoted across", func() []byte {
			d := rangeTestFile(size)
			quoteAcross(d, boundary-8)
			return crlf(d)
		}, nil},
		{"crlf clean", func() []byte { return crlf(rangeTestFile(size)) }, nil},
		{"bom", func() []byte {
			d := rangeTestFile(size)
			return append([]byte("\xef\xbb\xbf"), d...)
		}, nil},
		{"ignore parse errors held", func() []byte {
			d := rangeTestFile(size)
			copy(d[boundary+800:], "xx,aaaa\n")
			copy(d[q1+800:], "12,\"aa\"x\n")
			return d
		}, map[string]string{"csv.ignore-parse-errors": "true"}},
		{"ignore parse errors clean bad", func() []byte {
			d := rangeTestFile(size)
			copy(d[boundary+800:], "xx,aaaa\n")
			copy(d[q1+800:], "12,a,b,c\n")
			return d
		}, map[string]string{"csv.ignore-parse-errors": "true"}},
		{"bad int no ignore", func() []byte {
			d := rangeTestFile(size)
			copy(d[boundary+800:], "xx,aaaa\n")
			return d
		}, nil},
		{"null literal", func() []byte {
			d := rangeTestFile(size)
			copy(d[boundary+800:], "12,aaaa\n12,\"aa\"\n")
			return d
		}, map[string]string{"csv.null-literal": "aaaa"}},
		{"delimiter a", func() []byte {
			d := rangeTestFile(size)
			quoteAcross(d, q1)
			return d
		}, map[string]string{"csv.field-delimiter": "a"}},
		{"no final newline", func() []byte {
			d := rangeTestFile(size)
			d = d[:len(d)-1]
			return d
		}, nil},
		{"no final newline quoted", func() []byte {
			d := rangeTestFile(size)
			d = append(d[:len(d)-1], []byte("1,\"a\nb\"")...)
			return d
		}, nil},
		{"just above 2MiB quoted", func() []byte {
			d := rangeTestFile(2<<20 + 8)
			quoteAcross(d, (1<<20)-8)
			return d
		}, nil},
		{"escape quoted range", func() []byte {
			d := rangeTestFile(size)
			copy(d[q1:], "12,aa\\\n")
			copy(d[boundary-8:], "12,a\\\"a\n")
			return d
		}, map[string]string{"csv.escape-character": "\\"}},
		{"escape no quote", func() []byte {
			d := rangeTestFile(size)
			copy(d[boundary-8:], "12,aaa\\\n")
			return d
		}, map[string]string{"csv.escape-character": "\\", "csv.disable-quote-character": "true"}},
		{"errors in 1 and 3", func() []byte {
			d := rangeTestFile(size)
			copy(d[q1+800:], "xx,aaaa\n")
			copy(d[3*q1+800:], "yy,aaaa\n")
			return d
		}, nil},
		{"quote in 0 error in 2", func() []byte {
			d := rangeTestFile(size)
			quoteAcross(d, 800)
			copy(d[boundary+800:], "xx,aaaa\n")
			return d
		}, nil},
		{"error in 0 quote across 1", func() []byte {
			d := rangeTestFile(size)
			copy(d[800:], "xx,aaaa\n")
			quoteAcross(d, q1-8)
			return d
		}, nil},
		{"quote across 2 error in 3", func() []byte {
			d := rangeTestFile(size)
			quoteAcross(d, boundary-8)
			copy(d[3*q1+800:], "yy,aaaa\n")
			return d
		}, nil},
		{"unterminated quote in 3, error in 1", func() []byte {
			d := rangeTestFile(size)
			copy(d[q1+800:], "xx,aaaa\n")
			d[3*q1+803] = '"'
			return d
		}, nil},
		{"unterminated quote in 1, error in 3", func() []byte {
			d := rangeTestFile(size)
			copy(d[3*q1+800:], "xx,aaaa\n")
			d[q1+803] = '"'
			return d
		}, nil},
		{"lone cr", func() []byte {
			return bytes.ReplaceAll(rangeTestFile(size), []byte("\n"), []byte("\r"))
		}, nil},
		{"empty tail lines", func() []byte {
			d := rangeTestFile(size)
			quoteAcross(d, q1)
			return append(d, bytes.Repeat([]byte("\n"), 1<<20)...)
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.csv")
			if err := os.WriteFile(path, c.make(), 0o644); err != nil {
				t.Fatal(err)
			}
			n := checkRangesReadAsOne(t, path, c.opts)
			t.Logf("%d ranges", n)
		})
	}
}

// 1 to 8 readers over the ranges of parallelism 2, 4 and 8 give one
// reader's rows (-short: skipped, 20 s).
func TestRangesManyReadersReadAsOne(t *testing.T) {
	if testing.Short() {
		t.Skip("20 s")
	}
	const size = 8<<20 + 8*5
	for _, q := range []int{-1, 0, size / 3 / 8 * 8, size / 2 / 8 * 8, size/8*8 - 16} {
		d := rangeTestFile(size)
		if q >= 0 {
			quoteAcross(d, q)
		}
		path, want := writeOneReader(t, filepath.Join(t.TempDir(), "f.csv"), d)
		for _, par := range []int{2, 4, 8} {
			for _, w := range []int{1, 2, 4, 8} {
				got, n, err := readSplits(t, csvSource(t, path, par, nil), nil, w)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("q %d par %d workers %d: %d rows of %d ranges, want %d", q, par, w, len(got), n, len(want))
				}
			}
		}
	}
}
