package csv

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func encode(t testing.TB, tb table, opts map[string]string, rows ...*types.Row) string {
	t.Helper()
	o, err := ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEncoder(o, tb.names, tb.types)
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(tb.types)
	for _, r := range rows {
		if err := bb.AppendRow(r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	w := e.NewWriter(&buf)
	if err := w.Write(bb.Build()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestEncoderFormatsLikeFlink(t *testing.T) {
	tb := cols("a", types.StringType(), "b", types.DecimalType(10, 3), "c", types.BooleanType())
	row := types.NewRow("abc", types.MustDecimal("100000"), false)
	if got := encode(t, tb, map[string]string{OptFieldDelimiter: ";"}, row); got != "abc;1E+5;false\n" {
		t.Fatalf("got %q", got)
	}
	if got := encode(t, tb, map[string]string{OptWriteBigDecimalSci: "false"}, row); got != "abc,100000,false\n" {
		t.Fatalf("got %q", got)
	}
	tb = cols("ts", types.TimestampType(3), "ltz", types.TimestampLTZType(0), "d", types.DoubleType(), "f", types.FloatType(),
		"date", types.DateType(), "time", types.TimeType(3), "bytes", types.BytesType(), "arr", types.ArrayType(types.IntType()),
		"row", types.RowType(types.NewField("x", types.StringType()), types.NewField("y", types.IntType())))
	got := encode(t, tb, nil, types.NewRow(time.Date(2018, 10, 12, 12, 12, 12, 120_000_000, time.UTC), time.Unix(123, 0).UTC(),
		1e10, float32(0.1), types.DateOf(2018, 10, 12), types.TimeOf(12, 12, 12, 0), []byte{107, 3, 11}, []any{int32(1), nil, int32(3)},
		types.NewRow("Hello", int32(42))))
	want := "2018-10-12 12:12:12.12,1970-01-01 00:02:03Z,1.0E10,0.1,2018-10-12,12:12:12,awML,1;;3,Hello;42\n"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// Quoting: only where needed; the empty string is "" and NULL is empty.
	tb = strTable("a", "b", "c", "d", "e")
	got = encode(t, tb, nil, types.NewRow("x,y", `say "hi"`, "", nil, "#tag"), types.NewRow("two\nlines", "cr\r", "plain", "ünï", " sp "))
	want = "\"x,y\",\"say \"\"hi\"\"\",\"\",,\"#tag\"\n\"two\nlines\",\"cr\r\",plain,ünï, sp \n"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// Header row with the ignore-first-line extension, null literal.
	got = encode(t, cols("id", types.IntType(), "name", types.StringType()), map[string]string{OptIgnoreFirstLine: "true", OptNullLiteral: `\N`},
		types.NewRow(int32(1), nil))
	if got != "id,name\n1,\\N\n" {
		t.Fatalf("got %q", got)
	}
}

func TestRoundTripEveryType(t *testing.T) {
	tb := cols(
		"b", types.BooleanType(), "ti", types.TinyIntType(), "si", types.SmallIntType(), "i", types.IntType(),
		"bi", types.BigIntType(), "f", types.FloatType(), "d", types.DoubleType(), "dec", types.DecimalType(38, 10),
		"dec0", types.DecimalType(10, 0), "s", types.StringType(), "vc", types.VarCharType(20), "bytes", types.BytesType(),
		"date", types.DateType(), "t0", types.TimeType(0), "t3", types.TimeType(3), "ts0", types.TimestampType(0),
		"ts3", types.TimestampType(3), "ts6", types.TimestampType(6), "ts9", types.TimestampType(9), "ltz", types.TimestampLTZType(3),
		"ym", types.IntervalYearMonthType(types.ResYearToMonth, 2), "dt", types.IntervalDayTimeType(types.ResDayToSecond, 2, 3),
		"arr", types.ArrayType(types.DoubleType()), "sarr", types.ArrayType(types.StringType()),
		"row", types.RowType(types.NewField("x", types.StringType()), types.NewField("y", types.DecimalType(5, 2)), types.NewField("z", types.TimestampType(3))),
	)
	ts := time.Date(2024, 2, 29, 23, 59, 58, 123456789, time.UTC)
	tricky := []string{"", "a,b", `"quoted"`, "line\nbreak", "crlf\r\nx", "cr\ronly", "#not a comment", "tab\there", "ünïcødé 🦩", "null", "\\N", " padded ", "a;b"}
	var rows []*types.Row
	for k, s := range tricky {
		rows = append(rows, types.NewRow(k%2 == 0, int8(-128+k), int16(32767-k), int32(-2147483648+k), int64(math.MaxInt64-int64(k)),
			float32(0.1)*float32(k), math.Pi*float64(k)*1e-9, types.MustDecimal("-1234567890123456789012345678.0123456789"),
			types.MustDecimal("100000"), s, "v"+s[:0], []byte(s), types.DateOf(1969, 12, 31+k), types.TimeOf(23, 59, k, 0),
			types.TimeOf(0, 0, 1, 5_000_000*k), ts.Truncate(time.Second), ts.Truncate(time.Millisecond), ts.Truncate(time.Microsecond),
			ts.Add(time.Duration(k)), ts.Truncate(time.Millisecond).AddDate(-60*k, 0, 0), types.Months(k-5),
			time.Duration(k-3)*time.Hour, []any{1.5, nil, -0.0, math.Inf(1)}, []any{"x", nil, ""}[:k%3],
			types.NewRow("s", types.MustDecimal("-1.5"), ts.Truncate(time.Millisecond))))
	}
	rows = append(rows, types.NewRow(make([]any, len(tb.types))...))
	for _, opts := range []map[string]string{
		{OptNullLiteral: `\N`},
		{OptNullLiteral: `\N`, OptFieldDelimiter: `\t`, OptQuoteCharacter: "'", OptArrayElementDelimiter: "|", OptWriteBigDecimalSci: "false"},
		{OptNullLiteral: "NULL", OptEscapeCharacter: `\`, OptIgnoreFirstLine: "true"},
	} {
		text := encode(t, tb, opts, rows...)
		res := decodeString(t, tb, opts, text)
		if res.err != nil {
			t.Fatalf("%v: %v\n%s", opts, res.err, text)
		}
		if len(res.rows) != len(rows) {
			t.Fatalf("%v: %d rows, want %d", opts, len(res.rows), len(rows))
		}
		for i := range rows {
			got := res.rows[i]
			if r, ok := got.Values[len(got.Values)-1].(*types.Row); ok {
				r.Names = nil
			}
			if !got.Equal(rows[i]) {
				t.Fatalf("%v row %d:\n got %s\nwant %s\ntext:\n%s", opts, i, got, rows[i], text)
			}
		}
	}
	// Without a null literal, NULL and the empty string are both written as
	// nothing and read back as "" for strings (Flink's rule), NULL otherwise.
	text := encode(t, cols("s", types.StringType(), "n", types.IntType()), nil, types.NewRow(nil, nil), types.NewRow("", int32(1)))
	if text != ",\n\"\",1\n" || !strings.Contains(text, `""`) {
		t.Fatalf("got %q", text)
	}
	wantRows(t, decodeString(t, cols("s", types.StringType(), "n", types.IntType()), nil, text), "+I[, null]", "+I[, 1]")
}
