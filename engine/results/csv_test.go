package results

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

var trickyCols = []Column{{"text", types.StringType()}, {"n", types.BigIntType()}, {"d", types.DecimalType(38, 10)}}

// tricky holds the values user reports 1-11 are about.
var tricky = [][]any{
	{"plain", int64(1000000), types.MustDecimal("12345678901234567890.1234567890")},
	{"a,b", int64(-9223372036854775808), types.MustDecimal("0.5")},
	{`say "hi"`, int64(0), nil},
	{"line1\nline2", nil, types.MustDecimal("-1")},
	{"crlf\r\nend", int64(2018), types.MustDecimal("1e-10")},
	{"lone\rcr", int64(7), types.MustDecimal("3.14")},
	{"", int64(1), types.MustDecimal("0")},
	{nil, int64(2), types.MustDecimal("0")},
	{"NULL", int64(3), types.MustDecimal("0")},
	{"مرحبا بالعالم", int64(4), types.MustDecimal("0")},
	{"🚀👩🏽‍💻🇩🇪", int64(5), types.MustDecimal("0")},
	{"semi;colon\ttab|pipe", int64(6), types.MustDecimal("0")},
}

func trickyRows(t testing.TB) *Frozen {
	r := New(trickyCols, Options{})
	for _, row := range tricky {
		if err := r.Add(types.Insert, row); err != nil {
			t.Fatal(err)
		}
	}
	return r.Freeze(TableView)
}

func writeString(t *testing.T, rows Rows, o CSVOptions) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := WriteCSV(context.Background(), &b, rows, o, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestCSVAsNeededByteForByte(t *testing.T) {
	got := writeString(t, trickyRows(t), DefaultCSVOptions())
	want := "text,n,d\n" +
		"plain,1000000,12345678901234567890.1234567890\n" +
		"\"a,b\",-9223372036854775808,0.5000000000\n" +
		"\"say \"\"hi\"\"\",0,\n" +
		"\"line1\nline2\",,-1.0000000000\n" +
		"\"crlf\r\nend\",2018,0.0000000001\n" +
		"\"lone\rcr\",7,3.1400000000\n" +
		"\"\",1,0.0000000000\n" + // the empty string is quoted, NULL is not
		",2,0.0000000000\n" +
		"NULL,3,0.0000000000\n" +
		"مرحبا بالعالم,4,0.0000000000\n" +
		"🚀👩🏽‍💻🇩🇪,5,0.0000000000\n" +
		"semi;colon\ttab|pipe,6,0.0000000000\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestCSVQuotePolicies(t *testing.T) {
	r := New([]Column{{"s", types.StringType()}, {"i", types.IntType()}}, Options{})
	r.Add(types.Insert, []any{"", int32(1)})
	r.Add(types.Insert, []any{nil, nil})
	r.Add(types.Insert, []any{"NULL", int32(-2)})
	rows := r.Freeze(TableView)
	for _, tc := range []struct {
		policy   QuotePolicy
		nullText string
		want     string
	}{
		{QuoteAsNeeded, "", "s,i\n\"\",1\n,\nNULL,-2\n"},
		{QuoteAsNeeded, "NULL", "s,i\n,1\nNULL,NULL\n\"NULL\",-2\n"},
		{QuoteAll, "", "\"s\",\"i\"\n\"\",\"1\"\n\"\",\"\"\n\"NULL\",\"-2\"\n"}, // report 5: numbers quoted too
		{QuoteAll, "NULL", "\"s\",\"i\"\n\"\",\"1\"\n\"NULL\",\"NULL\"\n\"NULL\",\"-2\"\n"},
		{QuoteAllButNulls, "", "\"s\",\"i\"\n\"\",\"1\"\n,\n\"NULL\",\"-2\"\n"},
		{QuoteAllButNulls, "NULL", "\"s\",\"i\"\n\"\",\"1\"\nNULL,NULL\n\"NULL\",\"-2\"\n"}, // report 4
		{QuoteNever, `\N`, "s,i\n,1\n\\N,\\N\nNULL,-2\n"},
	} {
		o := DefaultCSVOptions()
		o.Policy, o.NullText = tc.policy, tc.nullText
		if got := writeString(t, rows, o); got != tc.want {
			t.Errorf("%v null=%q:\n got %q\nwant %q", tc.policy, tc.nullText, got, tc.want)
		}
	}
}

func TestCSVNeverRefusesAmbiguousFields(t *testing.T) {
	o := DefaultCSVOptions()
	o.Policy = QuoteNever
	_, err := WriteCSV(context.Background(), &bytes.Buffer{}, trickyRows(t), o, nil)
	var nq *errNeedsQuotes
	if !errors.As(err, &nq) || nq.row != 2 || nq.col != 0 {
		t.Fatalf("err %v", err)
	}
	// Empty string vs NULL with an empty NULL text is ambiguous too.
	r := New([]Column{{"s", types.StringType()}}, Options{})
	r.Add(types.Insert, []any{""})
	if _, err := WriteCSV(context.Background(), &bytes.Buffer{}, r.Freeze(TableView), o, nil); !errors.As(err, &nq) {
		t.Errorf("empty string written bare under 'never' with empty NULL text: %v", err)
	}
}

func TestCSVBOMAndCRLF(t *testing.T) {
	r := New([]Column{{"名前", types.StringType()}}, Options{})
	r.Add(types.Insert, []any{"x\ny"})
	rows := r.Freeze(TableView)
	o := DefaultCSVOptions()
	o.BOM, o.CRLF = true, true
	got := writeString(t, rows, o)
	if got != "\xEF\xBB\xBF名前\r\n\"x\ny\"\r\n" {
		t.Errorf("got %q", got)
	}
	o.BOM = false
	if got := writeString(t, rows, o); strings.HasPrefix(got, "\xEF") || !strings.HasPrefix(got, "名前\r\n") {
		t.Errorf("BOM off: %q", got)
	}
	// Report 9: the first header cell decodes to the exact column name.
	o.BOM = true
	rd := csv.NewReader(strings.NewReader(strings.TrimPrefix(writeString(t, rows, o), "\uFEFF")))
	if rec, err := rd.Read(); err != nil || rec[0] != "名前" {
		t.Errorf("header %q %v", rec, err)
	}
}

func TestCSVReplaceNewlinesAndDecimalSeparator(t *testing.T) {
	r := New([]Column{{"s", types.StringType()}, {"x", types.DoubleType()}, {"n", types.IntType()}}, Options{})
	r.Add(types.Insert, []any{"a\r\nb\nc\rd", 1.5, int32(1000)})
	o := DefaultCSVOptions()
	o.ReplaceNewlines, o.NewlineReplacement = true, " ⏎ "
	o.Delimiter, o.DecimalSeparator = ';', ','
	if got := writeString(t, r.Freeze(TableView), o); got != "s;x;n\na ⏎ b ⏎ c ⏎ d;1,5;1000\n" {
		t.Errorf("got %q", got)
	}
	o.Delimiter = ','
	if got := writeString(t, r.Freeze(TableView), o); got != "s,x,n\na ⏎ b ⏎ c ⏎ d,\"1,5\",1000\n" {
		t.Errorf("comma decimal under comma delimiter: %q", got)
	}
}

func TestCSVRejectsBadOptions(t *testing.T) {
	for _, o := range []CSVOptions{
		{Delimiter: '"'},
		{Delimiter: '\n'},
		{Quote: '\r'},
		{NullText: "a,b"},
		{NullText: "x\ny"},
		{ReplaceNewlines: true, NewlineReplacement: "\n"},
		{Policy: 9},
	} {
		if _, err := WriteCSV(context.Background(), &bytes.Buffer{}, trickyRows(t), o, nil); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// Reports 1, 2 and 6: encoding/csv reads back exactly the cells, for each
// delimiter and line ending (it turns CR LF inside a field into LF).
func TestCSVRoundTripWithEncodingCSV(t *testing.T) {
	rows := trickyRows(t)
	for _, delim := range []rune{',', ';', '\t', '|'} {
		for _, crlf := range []bool{false, true} {
			for _, policy := range []QuotePolicy{QuoteAsNeeded, QuoteAllButNulls} {
				o := DefaultCSVOptions()
				o.Delimiter, o.CRLF, o.Policy, o.BOM = delim, crlf, policy, true
				out := strings.TrimPrefix(writeString(t, rows, o), "\uFEFF")
				rd := csv.NewReader(strings.NewReader(out))
				rd.Comma = delim
				recs, err := rd.ReadAll()
				if err != nil {
					t.Fatalf("%q crlf=%v: %v", delim, crlf, err)
				}
				if len(recs) != len(tricky)+1 || !slices.Equal(recs[0], []string{"text", "n", "d"}) {
					t.Fatalf("%q: %d records, header %q", delim, len(recs), recs[0])
				}
				for i := range tricky {
					for c := range trickyCols {
						want, null := rows.Text(i, c)
						if null {
							want = ""
						}
						want = strings.ReplaceAll(want, "\r\n", "\n")
						if got := recs[i+1][c]; got != want {
							t.Errorf("%q crlf=%v row %d col %d: got %q want %q", delim, crlf, i, c, got, want)
						}
					}
				}
			}
		}
	}
}

func TestExportCSVFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	rows := trickyRows(t)
	var calls [][2]int
	if err := ExportCSV(context.Background(), rows, path, DefaultCSVOptions(), func(w, n int) { calls = append(calls, [2]int{w, n}) }); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != writeString(t, rows, DefaultCSVOptions()) {
		t.Error("file differs from WriteCSV output")
	}
	if len(calls) == 0 || calls[len(calls)-1] != [2]int{len(tricky), len(tricky)} {
		t.Errorf("progress %v", calls)
	}
	assertOnly(t, dir, "out.csv")
}

func bigRows(n int) *Frozen {
	r := New(benchCols, Options{MaxTableRows: -1})
	fillBench(r, n)
	r.Finish(nil)
	return r.Freeze(TableView)
}

func TestExportCSVCancelLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.csv")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := ExportCSV(ctx, bigRows(50000), path, DefaultCSVOptions(), func(w, n int) {
		if w < n {
			cancel() // the user presses Cancel after the first progress report
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	assertOnly(t, dir)
}

func TestExportCSVErrorLeavesTargetUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.csv")
	os.WriteFile(path, []byte("old contents\n"), 0o644)
	r := New(kvCols, Options{})
	for i := range 30000 {
		s := "v"
		if i == 25000 {
			s = "has,comma"
		}
		r.Add(types.Insert, []any{s, int64(i)})
	}
	o := DefaultCSVOptions()
	o.Policy = QuoteNever
	if err := ExportCSV(context.Background(), r.Freeze(TableView), path, o, nil); err == nil || !strings.Contains(err.Error(), "row 25001") {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old contents\n" {
		t.Errorf("target changed: %q", got)
	}
	assertOnly(t, dir, "keep.csv")
	if err := ExportCSV(context.Background(), r.Freeze(TableView), filepath.Join(dir, "no/such/dir.csv"), o, nil); err == nil {
		t.Error("export into a missing folder succeeded")
	}
}

// A running streaming result exports the rows it has at that moment.
func TestExportRunningResult(t *testing.T) {
	r := New(kvCols, Options{})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			r.Add(types.Insert, []any{"k", int64(i)})
			if i%2 == 1 {
				r.Add(types.UpdateBefore, []any{"k", int64(i)})
			}
		}
	}()
	waitChanges(r, 1000) // some rows, the writer still writing
	f := r.Freeze(TableView)
	n := f.Len()
	path := filepath.Join(t.TempDir(), "live.csv")
	if err := ExportCSV(context.Background(), f, path, DefaultCSVOptions(), nil); err != nil {
		t.Fatal(err)
	}
	close(stop)
	<-done
	b, _ := os.ReadFile(path)
	if lines := bytes.Count(b, []byte("\n")); lines != n+1 {
		t.Errorf("%d lines for %d rows", lines, n)
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, names) {
		t.Errorf("files in %s: %q, want %q", dir, got, names)
	}
}

func BenchmarkExportCSV(b *testing.B) {
	rows := bigRows(200_000)
	path := filepath.Join(b.TempDir(), "bench.csv")
	b.ResetTimer()
	for b.Loop() {
		if err := ExportCSV(context.Background(), rows, path, DefaultCSVOptions(), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*rows.Len())/b.Elapsed().Seconds(), "rows/s")
}

// waitChanges waits until r has published more than n changes or ended
// (the writer's progress: no sleeping for it).
func waitChanges(r *Result, n int64) {
	for r.Stats().Changes <= n {
		if st, _ := r.State(); st != Running {
			return
		}
		runtime.Gosched()
	}
}

// Bytes that are not UTF-8 in a value or a column name are written as
// U+FFFD, one per byte, under every quote policy (the JSON export and
// riffle sql write them the same way); valid text, U+FFFD itself included,
// is kept.
func TestCSVInvalidUTF8IsReplacementCharacter(t *testing.T) {
	r := New([]Column{{"s\xff", types.StringType()}, {"n", types.IntType()}}, Options{})
	for _, row := range [][]any{{"a\xffb\xfe\xfd", int32(1)}, {"ok\xc3", int32(2)}, {"\uFFFD kept, é", int32(3)}, {"\xff", int32(4)}} {
		if err := r.Add(types.Insert, row); err != nil {
			t.Fatal(err)
		}
	}
	rows := r.Freeze(TableView)
	for _, c := range []struct {
		o    CSVOptions
		want string
	}{
		{DefaultCSVOptions(), "s\uFFFD,n\na\uFFFDb\uFFFD\uFFFD,1\nok\uFFFD,2\n\"\uFFFD kept, é\",3\n\uFFFD,4\n"},
		{CSVOptions{Header: true, Policy: QuoteAll}, "\"s\uFFFD\",\"n\"\n\"a\uFFFDb\uFFFD\uFFFD\",\"1\"\n\"ok\uFFFD\",\"2\"\n\"\uFFFD kept, é\",\"3\"\n\"\uFFFD\",\"4\"\n"},
		{CSVOptions{Policy: QuoteNever, NullText: "\\N", Delimiter: ';'}, "a\uFFFDb\uFFFD\uFFFD;1\nok\uFFFD;2\n\uFFFD kept, é;3\n\uFFFD;4\n"},
	} {
		if got := writeString(t, rows, c.o); got != c.want {
			t.Errorf("%v: got\n%q\nwant\n%q", c.o.Policy, got, c.want)
		}
	}
}
