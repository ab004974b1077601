package types

import (
	"testing"
	"time"
)

func TestFormatValueJava(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{[]byte{1, 0xFF}, "[1, -1]"},
		{90 * time.Minute, "PT1H30M"},
		{time.Millisecond, "PT0.001S"},
		{-90 * time.Minute, "PT-1H-30M"},
		{time.Duration(0), "PT0S"},
		{48 * time.Hour, "PT48H"},
		{-1500 * time.Millisecond, "PT-1.5S"},
		{Months(14), "P1Y2M"},
		{Months(-3), "P-3M"},
		{Months(0), "P0D"},
		{MustDecimal("0.00000001"), "1E-8"},
		{MustDecimal("-0.000000150"), "-1.50E-7"},
		{MustDecimal("1.50"), "1.50"},
		{MustDecimal("0.000001"), "0.000001"},
	}
	for _, c := range cases {
		if got := FormatValue(c.v); got != c.want {
			t.Errorf("FormatValue(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	ts := time.Date(2024, 1, 31, 12, 0, 0, 0, time.UTC)
	if got := FormatValueAs(ts, TimestampLTZType(3)); got != "2024-01-31T12:00:00Z" {
		t.Errorf("LTZ: %q", got)
	}
	if got := FormatValueAs(ts.Add(456*time.Millisecond), TimestampLTZType(3)); got != "2024-01-31T12:00:00.456Z" {
		t.Errorf("LTZ: %q", got)
	}
	if got := FormatValueAs(ts, TimestampType(3)); got != "2024-01-31T12:00" {
		t.Errorf("TIMESTAMP: %q", got)
	}
	rt := RowType(NewField("a", ArrayType(TimestampLTZType(0))))
	if got := FormatValueAs(NewRow([]any{ts}), rt); got != "+I[[2024-01-31T12:00:00Z]]" {
		t.Errorf("nested: %q", got)
	}
}
