package main

import (
	"math/big"
	"strings"
	"testing"
	"time"
)

func TestCanonicalRendersEnginesAlike(t *testing.T) {
	ts := time.Date(2001, 1, 1, 14, 5, 0, 0, time.UTC)
	// Riffle's int64 and DuckDB's int32 of the same value, a double
	// summed in another order, a timestamp in another zone
	a := canonical([]any{int64(7), 1.0 / 3, ts, "SFO", nil})
	b := canonical([]any{int32(7), 0.33333333333, ts.In(time.FixedZone("x", 3600)), []byte("SFO"), nil})
	if a != b {
		t.Fatalf("canonical differs: %q against %q", a, b)
	}
	if got, want := canonical([]any{big.NewInt(12), 2.5}), "12|2.5"; got != want {
		t.Fatalf("canonical = %q, want %q", got, want)
	}
	if canonical([]any{1.0}) == canonical([]any{1.001}) {
		t.Fatal("doubles differing in the fourth digit render alike")
	}
}

func TestFirstDiffFindsEveryDifference(t *testing.T) {
	ref := []string{"ATL|10", "BOS|20", "SFO|30"}
	for _, tc := range []struct {
		name string
		got  []string
		want string // a fragment of the description, "" for equal
	}{
		{"equal", []string{"ATL|10", "BOS|20", "SFO|30"}, ""},
		{"value", []string{"ATL|10", "BOS|21", "SFO|30"}, `row 2 of the sorted answers: "BOS|21" against DuckDB memory's "BOS|20"`},
		{"missing row", []string{"ATL|10", "BOS|20"}, "2 rows against DuckDB memory's 3"},
		{"extra row", []string{"ATL|10", "BOS|20", "SFO|30", "SJC|1"}, "4 rows against DuckDB memory's 3"},
		{"empty", nil, "0 rows against DuckDB memory's 3"},
	} {
		d := firstDiff(tc.got, ref, "DuckDB memory")
		if (d == "") != (tc.want == "") || !strings.Contains(d, tc.want) {
			t.Errorf("%s: firstDiff = %q, want %q", tc.name, d, tc.want)
		}
	}
}
