package json

import (
	"math"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestAppendString(t *testing.T) {
	cases := map[string]string{
		"plain":           `"plain"`,
		`q"b\`:            `"q\"b\\"`,
		"a\nb\r\t\b\f":    `"a\nb\r\t\b\f"`,
		"\x01\x1f":        `"\u0001\u001F"`,
		"é€😀":             `"é€😀"`,
		"bad\xffbyte\xc3": `"bad\ufffdbyte\ufffd"`,
		"":                `""`,
	}
	for in, want := range cases {
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestAppendGoValue(t *testing.T) {
	ts := time.Date(2024, 1, 31, 12, 0, 0, 123_000_000, time.UTC)
	row := types.RowType(types.NewField("a", types.IntType()), types.NewField("b", types.ArrayType(types.StringType())))
	cases := []struct {
		v        any
		t        *types.DataType
		sql, iso string
	}{
		{nil, types.IntType(), `null`, `null`},
		{true, types.BooleanType(), `true`, `true`},
		{int64(-42), types.BigIntType(), `-42`, `-42`},
		{float64(1e10), types.DoubleType(), `1.0E10`, `1.0E10`},
		{float32(0.5), types.FloatType(), `0.5`, `0.5`},
		{math.NaN(), types.DoubleType(), `"NaN"`, `"NaN"`},
		{types.MustDecimal("12.30"), types.DecimalType(5, 2), `12.30`, `12.30`},
		{[]byte("hi"), types.BytesType(), `"aGk="`, `"aGk="`},
		{types.Date(19753), types.DateType(), `"2024-01-31"`, `"2024-01-31"`},
		{types.LocalTime(12*3600e9 + 5e8), types.TimeType(3), `"12:00:00.5"`, `"12:00:00.5"`},
		{ts, types.TimestampType(3), `"2024-01-31 12:00:00.123"`, `"2024-01-31T12:00:00.123"`},
		{ts, types.TimestampLTZType(3), `"2024-01-31 12:00:00.123Z"`, `"2024-01-31T12:00:00.123Z"`},
		{90 * time.Second, types.IntervalDayTimeType(types.ResDayToSecond, 2, 3), `90000`, `90000`},
		{&types.Map{Keys: []any{int32(1), nil}, Values: []any{"x", nil}}, types.MapType(types.IntType(), types.StringType()),
			`{"1":"x","null":null}`, `{"1":"x","null":null}`},
		{types.NewRow(int32(7), []any{"p", nil}), row, `{"a":7,"b":["p",null]}`, `{"a":7,"b":["p",null]}`},
	}
	for _, c := range cases {
		if got := string(AppendGoValue(nil, c.v, c.t, false)); got != c.sql {
			t.Errorf("SQL standard %v (%s) = %s, want %s", c.v, c.t, got, c.sql)
		}
		if got := string(AppendGoValue([]byte("x"), c.v, c.t, true)); got != "x"+c.iso {
			t.Errorf("ISO-8601 %v (%s) = %s, want x%s", c.v, c.t, got, c.iso)
		}
	}
}
