package results

import (
	"math"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Expected strings follow Flink's CastRulesTest (cast to STRING, non-legacy);
// binary strings print as x'hex' (BinaryToStringCastRule in printing mode).
func TestFormatFollowsFlinkCastToString(t *testing.T) {
	cet, err := time.LoadLocation("CET")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	f := Formatter{Location: cet}
	ts := time.Date(2021, 9, 24, 12, 34, 56, 123456000, time.UTC)
	cases := []struct {
		v    any
		t    *types.DataType
		want string
	}{
		{true, types.BooleanType(), "TRUE"},
		{false, types.BooleanType(), "FALSE"},
		{int8(-125), types.TinyIntType(), "-125"},
		{int16(32767), types.SmallIntType(), "32767"},
		{int32(-12345678), types.IntType(), "-12345678"},
		{int64(1234567891234), types.BigIntType(), "1234567891234"},
		{int64(1000000), types.BigIntType(), "1000000"}, // never grouped
		{float32(-123.456), types.FloatType(), "-123.456"},
		{12345.678901, types.DoubleType(), "12345.678901"},
		{1e10, types.DoubleType(), "1.0E10"},
		{0.0001, types.DoubleType(), "1.0E-4"},
		{math.Inf(-1), types.DoubleType(), "-Infinity"},
		{types.MustDecimal("9.87"), types.DecimalType(4, 3), "9.870"},
		{types.MustDecimal("12345678901234567890.1234567890"), types.DecimalType(38, 10), "12345678901234567890.1234567890"},
		{types.MustDecimal("-0.5"), types.DecimalType(5, 2), "-0.50"},
		{"Apache Flink", types.StringType(), "Apache Flink"},
		{"", types.StringType(), ""},
		{[]byte{0, 1, 2}, types.VarBinaryType(3), "x'000102'"},
		{[]byte{0, 0xff, 0xfe}, types.BytesType(), "x'00fffe'"},
		{[]byte{0x85, 0x2b, 0xfc, 0x7d, 0x05}, types.BytesType(), "x'852bfc7d05'"},
		{types.DateOf(2021, 9, 24), types.DateType(), "2021-09-24"},
		{types.TimeOf(12, 34, 56, 123_000_000), types.TimeType(5), "12:34:56.123"},
		{types.TimeOf(12, 34, 56, 100_000_000), types.TimeType(3), "12:34:56.1"},
		{types.TimeOf(12, 34, 56, 0), types.TimeType(0), "12:34:56"},
		{ts, types.TimestampType(6), "2021-09-24 12:34:56.123456"},
		{ts, types.TimestampType(9), "2021-09-24 12:34:56.123456000"},
		{ts, types.TimestampType(7), "2021-09-24 12:34:56.1234560"},
		{time.Date(2021, 9, 24, 12, 34, 56, 100_000_000, time.UTC), types.TimestampType(3), "2021-09-24 12:34:56.100"},
		{time.Date(2001, 1, 1, 0, 1, 0, 0, time.UTC), types.TimestampType(0), "2001-01-01 00:01:00"},
		{ts, types.TimestampLTZType(6), "2021-09-24 14:34:56.123456"},
		{ts, types.TimestampLTZType(9), "2021-09-24 14:34:56.123456000"},
		{types.Months(84), types.IntervalYearMonthType(types.ResYear, 2), "+7-00"},
		{types.Months(123), types.IntervalYearMonthType(types.ResMonth, 2), "+10-03"},
		{time.Duration(123456789) * time.Millisecond, types.IntervalDayTimeType(types.ResDay, 2, 3), "+1 10:17:36.789"},
		{[]any{int32(-123), int32(456)}, types.ArrayType(types.IntType()), "[-123, 456]"},
		{[]any{nil, int32(456)}, types.ArrayType(types.IntType()), "[NULL, 456]"},
		{[]any{}, types.ArrayType(types.IntType()), "[]"},
		{[]any{types.Months(-123), types.Months(123)}, types.ArrayType(types.IntervalYearMonthType(types.ResMonth, 2)), "[-10-03, +10-03]"},
		{&types.Map{Keys: []any{nil, "b"}, Values: []any{types.Months(-123), nil}},
			types.MapType(types.StringType(), types.IntervalYearMonthType(types.ResMonth, 2)), "{NULL=-10-03, b=NULL}"},
		{&types.Map{Keys: []any{"a", "b"}, Values: []any{int32(1), int32(1)}}, types.MultisetType(types.StringType()), "{a=1, b=1}"},
		{types.NewRow(int32(123), "abc"), types.RowType(types.NewField("f0", types.IntType()), types.NewField("f1", types.StringType())), "(123, abc)"},
		{types.NewRow(nil, "abc"), types.RowType(types.NewField("f0", types.IntType()), types.NewField("f1", types.StringType())), "(NULL, abc)"},
		{types.NewRow(), types.RowType(), "()"},
		{nil, types.StringType(), "NULL"},
	}
	for _, c := range cases {
		if got := f.Format(c.v, c.t); got != c.want {
			t.Errorf("Format(%#v, %s) = %q, want %q", c.v, c.t, got, c.want)
		}
		// The columnar store renders the same text.
		if c.v == nil {
			continue
		}
		r := New([]Column{{"c", c.t}}, Options{Location: cet})
		if err := r.Add(types.Insert, []any{c.v}); err != nil {
			t.Errorf("Add(%#v, %s): %v", c.v, c.t, err)
			continue
		}
		s := r.Snapshot(TableView, 0, 1, nil)
		if s.Cells[0][0] != c.want || s.Nulls[0][0] {
			t.Errorf("stored %#v as %s shows %q (null %v), want %q", c.v, c.t, s.Cells[0][0], s.Nulls[0][0], c.want)
		}
	}
}

func TestFormatWithoutLocationIsUTC(t *testing.T) {
	ts := time.Date(2024, 1, 31, 12, 0, 0, 123_000_000, time.FixedZone("X", 3600))
	if got := Format(ts, types.TimestampLTZType(3)); got != "2024-01-31 11:00:00.123" {
		t.Errorf("got %q", got)
	}
}
