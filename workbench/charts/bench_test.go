package charts

import (
	"math"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// series10k is a result of n rows: one per second of event time with a
// noisy value, split over the given number of keys.
func series10k(b *testing.B, n, keys int) *results.Result {
	r := results.New([]results.Column{
		{Name: "window_end", Type: types.TimestampType(3)},
		{Name: "sensor", Type: types.StringType()},
		{Name: "reading", Type: types.DoubleType()},
	}, results.Options{})
	for i := range n {
		ts := t0.Add(time.Duration(i/keys) * time.Second)
		k := string(rune('a' + i%keys))
		if err := r.Add(types.Insert, []any{ts, k, math.Sin(float64(i)/50) + float64(i%7)/10}); err != nil {
			b.Fatal(err)
		}
	}
	return r
}

// BenchmarkLiveLine10k measures one frame of a live line chart of 10,000
// points: reading the result, building the model and drawing 800x450 px.
func BenchmarkLiveLine10k(b *testing.B) {
	for _, keys := range []int{1, 4} {
		r := series10k(b, 10_000, keys)
		s := Settings{Kind: Line, X: "window_end", Y: []string{"reading"}}
		if keys > 1 {
			s.Series = "sensor"
		}
		b.Run(map[int]string{1: "1series", 4: "4series"}[keys], func(b *testing.B) {
			var bld Builder
			o := RenderOptions{Width: 800, Height: 450, Theme: DarkTheme()}
			for b.Loop() {
				m, err := bld.Build(r, s)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Render(m, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuild10k measures reading 10,000 rows into a model alone.
func BenchmarkBuild10k(b *testing.B) {
	r := series10k(b, 10_000, 4)
	s := Settings{Kind: Line, X: "window_end", Y: []string{"reading"}, Series: "sensor"}
	var bld Builder
	for b.Loop() {
		if _, err := bld.Build(r, s); err != nil {
			b.Fatal(err)
		}
	}
}
