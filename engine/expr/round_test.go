package expr

import "testing"

func TestRoundFloatGivesTheNearestDouble(t *testing.T) {
	for _, c := range []struct {
		x      float64
		digits int
		want   float64
	}{
		{13.700000000000001, 1, 13.7},
		{7.3000001, 1, 7.3},
		{2.675, 2, 2.68}, // Flink rounds the shortest decimal form, HALF_UP
		{-0.05, 1, -0.1},
		{1234.5, -2, 1200},
	} {
		if got := roundFloat(c.x, c.digits); got != c.want {
			t.Errorf("roundFloat(%v, %d) = %v, want %v", c.x, c.digits, got, c.want)
		}
	}
}
