package config

import "testing"

func TestParseMemorySize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"17", 17}, {"17 b", 17}, {"2bytes", 2}, {"128MB", 128 << 20}, {"1 mb", 1 << 20},
		{"3k", 3 << 10}, {"4 KiBiBytes", 4 << 10}, {" 5 gb ", 5 << 30}, {"1t", 1 << 40},
	} {
		if got, err := ParseMemorySize(c.in); err != nil || got != c.want {
			t.Errorf("ParseMemorySize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "mb", "-1", "1.5 mb", "lots", "12 parsecs", "9223372036854775807 kb", "99999999999999999999"} {
		if got, err := ParseMemorySize(bad); err == nil {
			t.Errorf("ParseMemorySize(%q) = %d, want an error", bad, got)
		}
	}
}
