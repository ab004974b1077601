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

// The harness refuses flags it would otherwise ignore or misread, naming
// the flag; the flags of the documented commands pass.
func TestFlagsThatWouldBeIgnoredAreRefused(t *testing.T) {
	for _, c := range []struct {
		args                 []string
		speedup, sprocs, prc int
		profile, only, want  string
	}{
		{args: []string{"extra"}, profile: "csv", want: `unexpected argument "extra"`},
		{speedup: -3, profile: "csv", want: "-speedup -3"},
		{speedup: 1, profile: "csv", want: "-speedup 1"},
		{speedup: 2, sprocs: -1, profile: "csv", want: "-speedup-procs -1"},
		{prc: -7, profile: "csv", want: "-procs -7"},
		{profile: "foo", want: `-profile "foo"`},
		{profile: "csv", only: "OVER ", want: `-only "OVER " matches no query`},
		{profile: "csv", only: "nosuchquery", want: "hourly EXTRACT"},
	} {
		err := checkFlags(c.args, c.speedup, c.sprocs, c.prc, c.profile, c.only)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error with %q", c, err, c.want)
		}
	}
	for _, c := range []struct {
		speedup, sprocs, prc int
		profile, only        string
	}{
		{0, 0, -1, "csv", ""}, {2, 0, -1, "csv", "group"}, {2, 1, -1, "mem", "OVER"},
		{0, 0, 0, "parquet", "hourly"}, {0, 0, 2, "csv", "join"},
	} {
		if err := checkFlags(nil, c.speedup, c.sprocs, c.prc, c.profile, c.only); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// The speed-up report says what its columns are, so a table pasted into
// an issue explains itself.
func TestSpeedupReportExplainsItsColumns(t *testing.T) {
	flights, _ := filepath.Abs("../assets/flights-2001-01-01_14.csv")
	airports, _ := filepath.Abs("../assets/airports.csv")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	one, err := newRiffle(flights, airports, 1)
	if err != nil {
		t.Fatal(err)
	}
	par, err := newRiffle(flights, airports, 2)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if !runSpeedup(&out, 2, 1, "group-by", []speedupSource{{name: "CSV", one: one, par: par}}, "test", "") {
		t.Fatalf("runSpeedup failed:\n%s", out.String())
	}
	for _, want := range []string{"(median of pairs): the median of each pair's own ratio", "CPU 2 / 1: the CPU medians' ratio", "-speedup-procs 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
}

// A report whose calibration found the second core busy says so under its
// table; a quiet one, or one not calibrated, says nothing.
func TestSpeedupReportFlagsABusyMachine(t *testing.T) {
	if note := busyMachineNote(&calibration{alu: 1.00, memory: 0.9}); !strings.Contains(note, "Not a measure of the engine") || !strings.Contains(note, "1.00×") {
		t.Errorf("a 1.00× calibration: note %q", note)
	}
	for _, c := range []*calibration{{alu: 1.98, memory: 1.9}, {alu: 1.8, memory: 0.9}, nil} {
		if note := busyMachineNote(c); note != "" {
			t.Errorf("calibration %v: note %q, want none", c, note)
		}
	}
}
