package types

import (
	"strconv"
	"testing"
)

func TestDecimalFloat64CorrectlyRounded(t *testing.T) {
	for _, s := range []string{"41.979595", "-87.90446417", "0.1", "0.3", "-0.000001", "123456789012345678.9",
		"12345678901234567890.123456789", "9007199254740993", "1", "0", "-1.5", "1e-30", "3.14159265358979323846264338327950288"} {
		d, err := ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := strconv.ParseFloat(s, 64)
		if got := d.Float64(); got != want {
			t.Errorf("%s: got %v, want %v", s, got, want)
		}
	}
}
