package binder

import "testing"

func TestSuggest(t *testing.T) {
	cands := []string{"date", "delay", "distance", "origin", "destination"}
	for _, c := range []struct{ in, want string }{
		{"dely", "delay"}, {"Origin", "origin"}, {"dest", "destination"}, {"d", ""}, {"xyz", ""}, {"de", ""},
	} {
		if got := suggest(c.in, cands); got != c.want {
			t.Errorf("suggest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
