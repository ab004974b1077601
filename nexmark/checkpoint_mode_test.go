package nexmark

import (
	"testing"
	"time"
)

func TestParseCheckpointInterval(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"": 0, "0": 0, "1 s": time.Second, "1s": time.Second, "500 ms": 500 * time.Millisecond, " 2 min ": 2 * time.Minute,
	} {
		got, err := ParseCheckpointInterval(in)
		if err != nil || got != want {
			t.Errorf("ParseCheckpointInterval(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"-1 s", "s", "1 fortnight", "500 us"} {
		if _, err := ParseCheckpointInterval(in); err == nil {
			t.Errorf("ParseCheckpointInterval(%q) accepted", in)
		}
	}
}
