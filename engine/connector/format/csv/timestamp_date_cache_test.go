package csv

import (
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// TestTimestampSameDateFastPath reads timestamps whose dates repeat (the
// parser reuses the previous row's date) and checks every value against
// Go's time package, and that an invalid time on a cached date is still an
// error naming its line.
func TestTimestampSameDateFastPath(t *testing.T) {
	values := []string{
		"2001-01-01 00:01:00", "2001-01-01 23:59:59", "2001-01-01 12:00:00",
		"1969-12-31 23:59:59", "1969-12-31 00:00:00", "1969-12-31 00:00:01",
		"2024-02-29 06:30:00", "2024-02-29 06:30:01", "2024-03-01 00:00:00",
		"2024-03-01 00:00:00.250", "2024-03-01 00:00:01",
	}
	tb := table{names: []string{"ts"}, types: []*types.DataType{types.TimestampType(3)}}
	res := decodeReader(t, tb, nil, strings.NewReader(strings.Join(values, "\n")+"\n"), "ts.csv", 4)
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != len(values) {
		t.Fatalf("%d rows, want %d", len(res.rows), len(values))
	}
	for i, v := range values {
		want, err := time.Parse("2006-01-02 15:04:05.999", v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := res.rows[i].Values[0].(time.Time)
		if !ok || !got.Equal(want) {
			t.Errorf("row %d %q: got %v, want %v", i+1, v, res.rows[i].Values[0], want)
		}
	}
	bad := decodeReader(t, tb, nil, strings.NewReader("2001-01-01 10:00:00\n2001-01-01 24:00:00\n"), "ts.csv", 4)
	if bad.err == nil || !strings.Contains(bad.err.Error(), "ts.csv:2:1") {
		t.Fatalf("invalid hour on a cached date: err %v, want an error at line 2", bad.err)
	}
}
