package csv

import (
	"math"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestEveryTypeFromText(t *testing.T) {
	tb := cols(
		"b", types.BooleanType(), "ti", types.TinyIntType(), "si", types.SmallIntType(), "i", types.IntType(),
		"bi", types.BigIntType(), "f", types.FloatType(), "d", types.DoubleType(), "dec", types.DecimalType(38, 25),
		"s", types.StringType(), "c", types.CharType(3), "bytes", types.BytesType(), "date", types.DateType(),
		"t0", types.TimeType(0), "t3", types.TimeType(3), "ts", types.TimestampType(3), "ts9", types.TimestampType(9),
		"ltz", types.TimestampLTZType(3), "arr", types.ArrayType(types.TinyIntType()),
		"row", types.RowType(types.NewField("f0", types.StringType()), types.NewField("f1", types.IntType()), types.NewField("f2", types.BooleanType())),
	)
	res := decodeString(t, tb, map[string]string{OptNullLiteral: "null"},
		`TRUE,124,10000, 1234567 ,12345678910,0.33333334,0.33333333332,"1234.0000000000000000000000001",This is a test.,abc,awML,2018-10-12,12:12:12,12:12:12.232,"2018-10-12 12:12:12.123","2018-10-12 12:12:12.123456789","1970-01-01 00:02:03.456Z",12;4;null,Hello;42;false`+"\n"+
			`null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null`+"\n"+
			`,,,,,,,,,,,,,,,,,,`+"\n")
	if res.err != nil {
		t.Fatal(res.err)
	}
	r := res.rows[0].Values
	want := []any{true, int8(124), int16(10000), int32(1234567), int64(12345678910), float32(0.33333334), 0.33333333332,
		types.MustDecimal("1234.0000000000000000000000001"), "This is a test.", "abc", []byte{107, 3, 11}, types.DateOf(2018, 10, 12),
		types.TimeOf(12, 12, 12, 0), types.TimeOf(12, 12, 12, 232_000_000),
		time.Date(2018, 10, 12, 12, 12, 12, 123_000_000, time.UTC), time.Date(2018, 10, 12, 12, 12, 12, 123456789, time.UTC),
		time.UnixMilli(123456).UTC(), []any{int8(12), int8(4), nil}, types.NewRow("Hello", int32(42), false)}
	for i := range want {
		got := r[i]
		if row, ok := got.(*types.Row); ok {
			row.Names = nil
		}
		if !types.ValuesEqual(got, want[i]) {
			t.Errorf("column %s: got %v, want %v", tb.names[i], types.FormatValue(got), types.FormatValue(want[i]))
		}
	}
	for i, v := range res.rows[1].Values {
		if v != nil {
			t.Errorf("null-literal row: column %s = %v", tb.names[i], v)
		}
	}
	// Empty fields: NULL for every non-string type, "" for strings.
	for i, v := range res.rows[2].Values {
		if tb.types[i].IsString() {
			if v != "" {
				t.Errorf("empty string column %s = %v", tb.names[i], v)
			}
		} else if v != nil {
			t.Errorf("empty column %s = %v, want NULL", tb.names[i], v)
		}
	}
}

func TestTimestampRules(t *testing.T) {
	tb := cols("ts", types.TimestampType(0))
	wantRows(t, decodeString(t, tb, nil, "2001-01-01 00:01:00\n 2001-01-01 00:01:59.999 \n"),
		"+I[2001-01-01T00:01]", "+I[2001-01-01T00:01:59]")
	// Flink's SQL timestamp format has a space; the ISO 'T' is an error.
	wantErr(t, decodeString(t, tb, nil, "2001-01-01T00:01:00\n").err, "test.csv", 1, 1, "ts", `cannot parse "2001-01-01T00:01:00" as TIMESTAMP(0)`)
	wantErr(t, decodeString(t, tb, nil, "2001-02-30 00:00:00\n").err, "test.csv", 1, 1, "ts")
	wantErr(t, decodeString(t, cols("d", types.DateType()), nil, "2001-02-30\n").err, "test.csv", 1, 1, "d")
	wantRows(t, decodeString(t, cols("d", types.DateType()), nil, "2001-2-3\n"), "+I[2001-02-03]")
}

func TestFieldErrorsNameLineAndColumn(t *testing.T) {
	tb := cols("name", types.StringType(), "n", types.IntType(), "ok", types.BooleanType())
	data := "a,1,true\n\"multi\nline\",2,false\r\nc,x3,true\n"
	res := decodeString(t, tb, nil, data)
	wantErr(t, res.err, "test.csv", 4, 2, "n", `cannot parse "x3" as INT`)
	if !strings.HasPrefix(res.err.Error(), "test.csv:4:2: column `n`: ") {
		t.Fatalf("message %q", res.err)
	}
	wantErr(t, decodeString(t, tb, nil, "a,1,yes\n").err, "test.csv", 1, 3, "ok", `"yes"`)
	wantErr(t, decodeString(t, tb, nil, "a,99999999999,true\n").err, "test.csv", 1, 2, "n")
	wantErr(t, decodeString(t, cols("d", types.DecimalType(3, 1)), nil, "123.4\n").err, "test.csv", 1, 1, "d", "does not fit DECIMAL(3, 1)")
	wantErr(t, decodeString(t, cols("b", types.BytesType()), nil, "%%%\n").err, "test.csv", 1, 1, "b", "base64")
}

func TestArity(t *testing.T) {
	tb := cols("a", types.StringType(), "b", types.IntType(), "c", types.StringType())
	wantErr(t, decodeString(t, tb, nil, "x,1,y\nx,1,y,z\n").err, "test.csv", 2, 4, "", "row has 4 fields, expected 3")
	wantErr(t, decodeString(t, tb, nil, "x,1\n").err, "test.csv", 1, 0, "", "row has 2 fields, expected 3")
	// ignore-parse-errors: too many fields skips the row, too few fills NULLs,
	// a bad field becomes NULL (Flink's CsvRowDataDeserializationSchema).
	res := decodeString(t, tb, map[string]string{OptIgnoreParseErrors: "true"}, "x,1,y\nx,1,y,z\nw\nv,bad,u\n")
	wantRows(t, res, "+I[x, 1, y]", "+I[w, null, null]", "+I[v, null, u]")
	if res.skipped != 1 || res.nulled != 1 {
		t.Fatalf("skipped %d nulled %d", res.skipped, res.nulled)
	}
}

func TestQuotingAndLineBreaks(t *testing.T) {
	tb := strTable("a", "b")
	data := "\"x,1\",\"he said \"\"hi\"\"\"\r\n\"two\r\nlines\",\"bare\rcr\"\n\"\",plain\"quote\n"
	wantRows(t, decodeString(t, tb, nil, data),
		"+I[x,1, he said \"hi\"]", "+I[two\r\nlines, bare\rcr]", "+I[, plain\"quote]")
	// The error after a multi-line record counts its physical lines: CRLF
	// and a lone CR are one line break each.
	res := decodeString(t, cols("a", types.StringType(), "b", types.IntType()), nil, "\"two\r\nlines\",1\r\"bare\rcr\",2\nz,bad\n")
	wantErr(t, res.err, "test.csv", 5, 2, "b", `"bad"`)
	wantErr(t, decodeString(t, tb, nil, "a,\"open\nnever closed\n").err, "test.csv", 1, 2, "b", "unterminated")
	wantErr(t, decodeString(t, tb, nil, "a,\"q\"x\n").err, "test.csv", 1, 2, "b", "after the closing quote")
	// Disabled quoting: quotes are data.
	wantRows(t, decodeString(t, tb, map[string]string{OptDisableQuoteCharacter: "true"}, "\"abc,d\"\n"), `+I["abc, d"]`)
	// Another quote character.
	wantRows(t, decodeString(t, tb, map[string]string{OptQuoteCharacter: "'"}, "'a,b','it''s'\n"), "+I[a,b, it's]")
}

func TestEscapeCharacter(t *testing.T) {
	// Cases of Flink's CsvRowDataSerDeSchemaTest with escape '*', quote '\'' and ';'.
	tb := strTable("f0", "f1", "f2")
	opts := map[string]string{OptEscapeCharacter: "*", OptQuoteCharacter: "'", OptFieldDelimiter: ";", OptArrayElementDelimiter: ":"}
	wantRows(t, decodeString(t, tb, opts, "BEGIN;123*'4**;END\nBEGIN;'a;b*'c';END\nBEGIN;'123''4**';END\nBEGIN;a*;b;END\n"),
		"+I[BEGIN, 123'4*, END]", "+I[BEGIN, a;b'c, END]", "+I[BEGIN, 123'4*, END]", "+I[BEGIN, a;b, END]")
	wantRows(t, decodeString(t, tb, map[string]string{OptEscapeCharacter: `\`}, `a\nb,c\,d,e`+"\n"), "+I[a\nb, c,d, e]")
}

func TestDelimiterOptions(t *testing.T) {
	tb := strTable("a", "b")
	wantRows(t, decodeString(t, tb, map[string]string{OptFieldDelimiter: `\t`}, "x\ty\n"), "+I[x, y]")
	wantRows(t, decodeString(t, tb, map[string]string{OptFieldDelimiter: `\u0001`}, "x\x01y\n"), "+I[x, y]")
	wantRows(t, decodeString(t, tb, map[string]string{OptFieldDelimiter: "|"}, "x|y\n"), "+I[x, y]")
	for _, bad := range []map[string]string{
		{OptFieldDelimiter: ",,"},
		{OptFieldDelimiter: ""},
		{OptFieldDelimiter: "§"},
		{OptQuoteCharacter: "'", OptDisableQuoteCharacter: "true"},
		{OptAllowComments: "yes"},
		{OptArrayElementDelimiter: "::"},
		{"unknown": "x"},
		{OptInvalidUTF8: "ignore"},
	} {
		if _, err := ParseOptions(bad); err == nil {
			t.Errorf("options %v accepted", bad)
		}
	}
}

func TestCommentsBlankLinesBOMAndNullLiteral(t *testing.T) {
	tb := cols("a", types.StringType(), "n", types.IntType())
	data := "\xEF\xBB\xBFa,1\n\n# a comment, with a comma\n\r\nb,2\n#c,3\n"
	wantRows(t, decodeString(t, tb, map[string]string{OptAllowComments: "true"}, data), "+I[a, 1]", "+I[b, 2]")
	// Without allow-comments '#' is data.
	wantErr(t, decodeString(t, tb, nil, data).err, "test.csv", 3, 2, "n", `" with a comma"`)
	wantRows(t, decodeString(t, tb, map[string]string{OptNullLiteral: "n/a"}, "n/a,n/a\n\"n/a\",5\n"), "+I[null, null]", "+I[n/a, 5]")
	wantRows(t, decodeString(t, tb, header, "a,n\nx,1\n"), "+I[x, 1]")
	wantRows(t, decodeString(t, tb, nil, ""))
	wantRows(t, decodeString(t, tb, nil, "x,1"), "+I[x, 1]")
	wantRows(t, decodeString(t, strTable("a", "b", "c"), nil, "x,,\n"), "+I[x, , ]")
}

func TestInvalidUTF8(t *testing.T) {
	tb := strTable("a", "b")
	res := decodeString(t, tb, nil, "ok,fine\n\"multi\nline\",caf\xE9\n")
	wantErr(t, res.err, "test.csv", 3, 2, "b", "invalid UTF-8 byte 0xE9")
	res = decodeString(t, tb, map[string]string{OptInvalidUTF8: "replace"}, "ok,fine\nx,caf\xE9\n")
	wantRows(t, res, "+I[ok, fine]", "+I[x, caf\uFFFD]")
	if res.reader.ReplacedInvalidUTF8() != 1 {
		t.Fatalf("replaced %d", res.reader.ReplacedInvalidUTF8())
	}
	res = decodeString(t, tb, map[string]string{OptIgnoreParseErrors: "true"}, "ok,fine\nx,caf\xE9\n")
	wantRows(t, res, "+I[ok, fine]")
	if res.skipped != 1 {
		t.Fatalf("skipped %d", res.skipped)
	}
	wantErr(t, decodeString(t, tb, nil, "\xFE\xFF\x00a").err, "test.csv", 1, 0, "", "UTF-16")
}

func TestProjectionParsesOnlyNeededFields(t *testing.T) {
	o := DefaultOptions()
	names := []string{"a", "b", "c"}
	ts := []*types.DataType{types.IntType(), types.IntType(), types.StringType()}
	d, err := NewDecoder(o, names, ts, []int{2, 0})
	if err != nil {
		t.Fatal(err)
	}
	rd := d.newReader(strings.NewReader("1,not-a-number,x\n2,3,y\n"), "p.csv", 0)
	b, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	got := rowStrings(b.Rows(d.Types()))
	if strings.Join(got, ";") != "+I[x, 1];+I[y, 2]" {
		t.Fatalf("got %v", got)
	}
	// The arity is still checked against all fields.
	rd = d.newReader(strings.NewReader("1,2\n"), "p.csv", 0)
	if _, err := rd.Next(); err == nil {
		t.Fatal("short row accepted")
	}
}

func TestSmallReadsAndBatches(t *testing.T) {
	// Every testdata CSV gives the same rows when read a byte at a time and
	// in batches of 7 rows as when read whole.
	files := []struct {
		path string
		n    int
	}{
		{"airports.csv", 7}, {"flights-head2000.csv", 5}, {"tweets-mayweather-mcgregor-head600.csv", 7},
		{"pollster-ratings-2019.csv", 25}, {"birdstrikes-head1000.csv", 14},
		{"csv-edge/csvkit-examples/mac_newlines.csv", 3}, {"csv-edge/csv-spectrum/csvs/quotes_and_newlines.csv", 2},
	}
	for _, f := range files {
		tb := table{}
		for i := 0; i < f.n; i++ {
			tb.names = append(tb.names, string(rune('a'+i)))
			tb.types = append(tb.types, types.StringType())
		}
		whole := decodeFile(t, tb, header, f.path)
		if whole.err != nil {
			t.Fatalf("%s: %v", f.path, whole.err)
		}
		data := readTestFile(t, f.path)
		small := decodeReader(t, tb, header, iotest.OneByteReader(strings.NewReader(data)), f.path, 7)
		if small.err != nil {
			t.Fatalf("%s: %v", f.path, small.err)
		}
		a, b := rowStrings(whole.rows), rowStrings(small.rows)
		if len(a) != len(b) {
			t.Fatalf("%s: %d rows vs %d", f.path, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s row %d: %q vs %q", f.path, i, a[i], b[i])
			}
		}
	}
}

func TestIntervalsAndSpecialFloats(t *testing.T) {
	tb := cols("ym", types.IntervalYearMonthType(types.ResYearToMonth, 2), "dt", types.IntervalDayTimeType(types.ResDayToSecond, 2, 3), "d", types.DoubleType())
	res := decodeString(t, tb, nil, "14,90000,NaN\n0,0,-Infinity\n")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.rows[0].Values[0] != types.Months(14) || res.rows[0].Values[1] != 90*time.Second || !math.IsNaN(res.rows[0].Values[2].(float64)) {
		t.Fatalf("got %v", res.rows[0])
	}
	if !math.IsInf(res.rows[1].Values[2].(float64), -1) {
		t.Fatalf("got %v", res.rows[1])
	}
}

func TestUnsupportedTypes(t *testing.T) {
	for _, ty := range []*types.DataType{
		types.MapType(types.StringType(), types.IntType()),
		types.MultisetType(types.IntType()),
		types.ArrayType(types.ArrayType(types.IntType())),
		types.RowType(types.NewField("r", types.RowType(types.NewField("x", types.IntType())))),
	} {
		if _, err := NewDecoder(DefaultOptions(), []string{"x"}, []*types.DataType{ty}, nil); err == nil {
			t.Errorf("%s accepted by the decoder", ty)
		}
		if _, err := NewEncoder(DefaultOptions(), []string{"x"}, []*types.DataType{ty}); err == nil {
			t.Errorf("%s accepted by the encoder", ty)
		}
	}
}

func TestIgnoreParseErrorsSkipsMalformedQuoting(t *testing.T) {
	tb := strTable("a", "b")
	opts := map[string]string{OptIgnoreParseErrors: "true"}
	res := decodeString(t, tb, opts, "x,\"q\"junk,more\ny,z\n\"open,never\nclosed\n")
	wantRows(t, res, "+I[y, z]")
	if res.skipped != 2 {
		t.Fatalf("skipped %d", res.skipped)
	}
	res = decodeReader(t, tb, opts, iotest.OneByteReader(strings.NewReader("x,\"q\"junk\r\ny,z\r\n")), "t.csv", 1)
	wantRows(t, res, "+I[y, z]")
}

// A record the byte-wise scanner takes (a quoted field) looks for bytes
// that are not ASCII only a bounded way past itself: bad UTF-8 far after
// it, in a record of the same kind, is still found, from a stream and in
// place.
func TestInvalidUTF8FarAfterQuotedRecord(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("\"q\",1\n")
	lines := 3*asciiAhead/len("plain,1\n") + 5
	for range lines {
		sb.WriteString("plain,1\n")
	}
	sb.WriteString("\"caf\xe9\",2\n")
	res := decodeString(t, cols("a", types.StringType(), "b", types.IntType()), nil, sb.String())
	wantErr(t, res.err, "test.csv", int64(lines+2), 1, "a", "invalid UTF-8 byte 0xE9")
	// and the plain records before a far quoted one do not hide its bad byte
	sb.Reset()
	for range lines {
		sb.WriteString("plain,1\n")
	}
	sb.WriteString("\"caf\xe9\",2\n")
	res = decodeString(t, cols("a", types.StringType(), "b", types.IntType()), nil, sb.String())
	wantErr(t, res.err, "test.csv", int64(lines+1), 1, "a", "invalid UTF-8 byte 0xE9")
}
