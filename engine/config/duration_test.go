package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
	}{
		{"0", 0}, {"250", 250 * time.Millisecond}, {"2 s", 2 * time.Second}, {"3min", 3 * time.Minute},
		{"1 h", time.Hour}, {"2 d", 48 * time.Hour}, {"7 ns", 7}, {"106751 d", 106751 * 24 * time.Hour},
		{"9223372036854775807 ns", 1<<63 - 1},
	} {
		if got, err := ParseDuration(c.in); err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	// a value past 2^63 - 1 ns is an error, not a wrapped-around duration
	for _, bad := range []string{"106752 d", "18446744075 s", "18446744074210 ms", "9223372036854776 ms", "99999999999999999999"} {
		if got, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", bad, got)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseDuration(%q): the error does not name the value: %v", bad, err)
		}
	}
}
