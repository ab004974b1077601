package sql

import "testing"

func TestDayTimeInterval(t *testing.T) {
	for _, c := range []struct {
		ms   int64
		want string
	}{
		{5_400_005, "INTERVAL '0 01:30:00.005' DAY TO SECOND(3)"},
		{-86_400_000, "INTERVAL - '1 00:00:00.000' DAY TO SECOND(3)"},
		{999 * 86_400_000, "INTERVAL '999 00:00:00.000' DAY(3) TO SECOND(3)"},
		{1000*86_400_000 + 1, "INTERVAL '1' DAY * 1000 + INTERVAL '0 00:00:00.001' DAY TO SECOND(3)"},
	} {
		if got := Format(DayTimeInterval(c.ms)); got != c.want {
			t.Errorf("%d: got %s, want %s", c.ms, got, c.want)
		}
	}
}
