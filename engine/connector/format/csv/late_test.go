package csv

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/riffle-sql/riffle/engine/types"
)

// multipleOf keeps the rows whose INT column col is a non-NULL multiple
// of k (a stand-in for the Calc's condition).
type multipleOf struct {
	col, k int
	calls  int
}

func (f *multipleOf) Columns() []bool {
	c := make([]bool, f.col+1)
	c[f.col] = true
	return c
}

func (f *multipleOf) Keep(b *types.Batch) ([]int32, bool, error) {
	f.calls++
	a := b.Cols[f.col].(*array.Int32)
	var sel []int32
	for i := 0; i < b.Len; i++ {
		if a.IsValid(i) && a.Value(i)%int32(f.k) == 0 {
			sel = append(sel, int32(i))
		}
	}
	return sel, len(sel) == b.Len, nil
}

// readFiltered decodes input with filter f set on the reader (rows as
// strings), a read buffer of bufSize bytes and reads of at most readSize
// bytes (0: whole).
func readFiltered(t *testing.T, tb table, opts map[string]string, proj []int, input string, f *multipleOf, bufSize int, oneByte bool, batch int) (rows []string, err error, skipped, nulled int64, used bool) {
	t.Helper()
	o, perr := ParseOptions(opts)
	if perr != nil {
		t.Fatal(perr)
	}
	d, derr := NewDecoder(o, tb.names, tb.types, proj)
	if derr != nil {
		t.Fatal(derr)
	}
	var in io.Reader = strings.NewReader(input)
	if oneByte {
		in = iotest.OneByteReader(in)
	}
	rd := d.newReader(in, "late.csv", batch)
	if bufSize > 0 {
		rd.buf = make([]byte, bufSize)
	}
	if f != nil {
		used = rd.SetRowFilter(f)
	}
	for {
		b, e := rd.Next()
		if e == io.EOF {
			break
		}
		if e != nil {
			err = e
			break
		}
		if b.Len == 0 {
			t.Fatal("empty batch")
		}
		for _, c := range b.Cols {
			if c.Len() != b.Len {
				t.Fatalf("column length %d != batch length %d", c.Len(), b.Len)
			}
		}
		for _, r := range b.Rows(d.Types()) {
			rows = append(rows, r.String())
		}
	}
	return rows, err, rd.SkippedRows(), rd.NulledFields(), used
}

// checkLate compares a filtered read with an unfiltered one, both
// filtered afterwards: same rows, same error, same counts.
func checkLate(t *testing.T, tb table, opts map[string]string, proj []int, input string, filterCol int, bufSize int, oneByte bool, batch int) bool {
	t.Helper()
	all, wantErr, wantSkipped, wantNulled, _ := readFiltered(t, tb, opts, proj, input, nil, bufSize, oneByte, batch)
	f := &multipleOf{col: filterCol, k: 3}
	got, gotErr, skipped, nulled, used := readFiltered(t, tb, opts, proj, input, f, bufSize, oneByte, batch)
	// the rows the filter keeps, by the filter column's text: the reader
	// may yield more (the Calc above drops them), after it stopped
	// deferring
	keep := func(rows []string) []string {
		var out []string
		for _, r := range rows {
			v := strings.Split(strings.Trim(r, "+I[]"), ", ")[filterCol]
			var n int
			if _, err := fmt.Sscan(v, &n); err == nil && v != "null" && n%3 == 0 {
				out = append(out, r)
			}
		}
		return out
	}
	want := keep(all)
	if len(got) > len(want) {
		got = keep(got)
	}
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error %v, want %v\n%q", gotErr, wantErr, input)
	}
	if wantErr == nil && strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s\ninput %q", strings.Join(got, "\n"), strings.Join(want, "\n"), input)
	}
	if skipped != wantSkipped || nulled != wantNulled {
		t.Fatalf("skipped %d nulled %d, want %d %d\n%q", skipped, nulled, wantSkipped, wantNulled, input)
	}
	return used
}

// TestRowFilterDefersStringColumns: of the filtered reader's rows, the
// filter keeps exactly the unfiltered rows it keeps, with the same errors (file, line,
// column) and counts, across quoting, escapes, comments, blank lines,
// CRLF, null literals, short rows, bad values, tiny read buffers,
// one-byte reads and small batches.
func TestRowFilterDefersStringColumns(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 19))
	strs := []string{"", "a", "SFO", `"q,uo""ted"`, `"multi` + "\n" + `line"`, `es\,c`, "null", "é", "#x", `"null"`}
	ints := []string{"0", "3", "4", "9", "-6", "", "x", "12", "null", "2147483648"}
	tb := cols("s1", types.StringType(), "n", types.IntType(), "s2", types.StringType(), "m", types.IntType())
	usedOnce := false
	for iter := 0; iter < 400; iter++ {
		var sb strings.Builder
		for r := rnd.IntN(40); r >= 0; r-- {
			switch rnd.IntN(12) {
			case 0:
				sb.WriteString("\n")
				continue
			case 1:
				sb.WriteString("# comment\n")
				continue
			case 2:
				sb.WriteString(strs[rnd.IntN(len(strs))] + "," + ints[rnd.IntN(len(ints))] + "\n") // short row
				continue
			}
			sb.WriteString(strs[rnd.IntN(len(strs))] + "," + ints[rnd.IntN(4)] + "," + strs[rnd.IntN(len(strs))] + "," + ints[rnd.IntN(len(ints))])
			if rnd.IntN(4) == 0 {
				sb.WriteString("\r\n")
			} else {
				sb.WriteString("\n")
			}
		}
		opts := map[string]string{OptAllowComments: "true"}
		if rnd.IntN(2) == 0 {
			opts[OptEscapeCharacter] = `\`
		}
		if rnd.IntN(2) == 0 {
			opts[OptIgnoreParseErrors] = "true"
		}
		if rnd.IntN(3) == 0 {
			opts[OptNullLiteral] = "null"
		}
		var proj []int
		filterCol := 1
		if rnd.IntN(2) == 0 {
			proj = []int{2, 1, 0} // s2, n, s1: the filter reads output column 1
		}
		bufSize := []int{0, 16, 64}[rnd.IntN(3)]
		batch := []int{0, 1, 3}[rnd.IntN(3)]
		if checkLate(t, tb, opts, proj, sb.String(), filterCol, bufSize, rnd.IntN(3) == 0, batch) {
			usedOnce = true
		}
	}
	if !usedOnce {
		t.Fatal("the reader never took the row filter")
	}
}

// TestRowFilterLongInput runs the filter over many batches and buffer
// refills (records held across refills, batches ended early when held
// records fill half the buffer).
func TestRowFilterLongInput(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&sb, "o%d,%d,\"d,%d\",%d\n", i%97, i, i, i%7)
	}
	tb := cols("s1", types.StringType(), "n", types.IntType(), "s2", types.StringType(), "m", types.IntType())
	for _, bufSize := range []int{0, 1024} {
		if !checkLate(t, tb, nil, nil, sb.String(), 1, bufSize, false, 0) {
			t.Fatal("the reader did not take the row filter")
		}
	}
}

// TestRowFilterDeclined: no string column outside the filter, or
// csv.invalid-utf8 = 'replace', and the reader reads every row.
func TestRowFilterDeclined(t *testing.T) {
	o := DefaultOptions()
	d, err := NewDecoder(o, []string{"a", "b"}, []*types.DataType{types.IntType(), types.IntType()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.newReader(strings.NewReader("1,2\n"), "x.csv", 0).SetRowFilter(&multipleOf{col: 0, k: 3}) {
		t.Fatal("took a filter with nothing to defer")
	}
	o, err = ParseOptions(map[string]string{OptInvalidUTF8: "replace"})
	if err != nil {
		t.Fatal(err)
	}
	d, err = NewDecoder(o, []string{"a", "b"}, []*types.DataType{types.IntType(), types.StringType()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.newReader(strings.NewReader("1,x\n"), "x.csv", 0).SetRowFilter(&multipleOf{col: 0, k: 3}) {
		t.Fatal("took a filter under invalid-utf8 = 'replace'")
	}
}

// FuzzDecodeFiltered checks that a filtered read keeps the unfiltered rows
// the filter keeps, with the same error.
func FuzzDecodeFiltered(f *testing.F) {
	for _, s := range []string{"a,3,b\n", "\"a\nb\",6,c\r\n", "x,\"9\"y,z\n", "#c\n\n\r\r\n,12,2", "a\\,b,3,c", "s,x,t\n"} {
		f.Add(s, false, false)
	}
	f.Fuzz(func(t *testing.T, input string, escape, ignore bool) {
		tb := cols("s1", types.StringType(), "n", types.IntType(), "s2", types.StringType())
		opts := map[string]string{OptAllowComments: "true"}
		if escape {
			opts[OptEscapeCharacter] = `\`
		}
		if ignore {
			opts[OptIgnoreParseErrors] = "true"
		}
		checkLate(t, tb, opts, nil, input, 1, 32, false, 2)
	})
}

// TestRowFilterStopsWhenDense: a filter that keeps almost every row
// turns deferring off after the first batch and denseBatches more, and
// the rows stay those it keeps (the Calc above filters the rest).
func TestRowFilterStopsWhenDense(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		n := i * 3
		if i%10 == 0 {
			n++ // dropped
		}
		fmt.Fprintf(&sb, "o%d,%d,d%d,%d\n", i, n, i, i)
	}
	tb := cols("s1", types.StringType(), "n", types.IntType(), "s2", types.StringType(), "m", types.IntType())
	o := DefaultOptions()
	d, err := NewDecoder(o, tb.names, tb.types, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd := d.newReader(strings.NewReader(sb.String()), "dense.csv", 100)
	f := &multipleOf{col: 1, k: 3}
	if !rd.SetRowFilter(f) {
		t.Fatal("declined")
	}
	rows := 0
	for {
		b, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rows += b.Len
	}
	// 10 rows of each batch read under the filter dropped
	if want := 1000 - 10*(1+denseBatches); rows != want || f.calls != 1+denseBatches {
		t.Fatalf("%d rows, filter called %d times, want %d and %d", rows, f.calls, want, 1+denseBatches)
	}
}
