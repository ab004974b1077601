package main

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The speed-up mode runs a query at one thread and at two over the bundled
// flights data, in memory and over CSV: one table line per source with the
// answers the same at both, and GOMAXPROCS left at two.
func TestSpeedupInterleavesThreadCounts(t *testing.T) {
	flights, _ := filepath.Abs("../assets/flights-2001-01-01_14.csv")
	airports, _ := filepath.Abs("../assets/airports.csv")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	envs, _, err := newRiffleInMemoryEnvs(flights, airports, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	one, err := newRiffle(flights, airports, 1)
	if err != nil {
		t.Fatal(err)
	}
	par, err := newRiffle(flights, airports, 2)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok := runSpeedup(&out, 2, 2, "count distinct", []speedupSource{
		{name: "memory", one: envs[0], par: envs[1]}, {name: "CSV", one: one, par: par}}, "test", "")
	if !ok {
		t.Fatalf("runSpeedup failed:\n%s", out.String())
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "| count distinct |") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "| memory | 223 |") || !strings.Contains(lines[1], "| CSV | 223 |") {
		t.Fatalf("want a memory and a CSV line of 223 rows, got:\n%s", out.String())
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, "| same at both |") {
			t.Errorf("answers differ: %s", l)
		}
	}
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS %d after the runs, want 2", got)
	}
}
