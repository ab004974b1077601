package ui

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/charts"
)

// BenchmarkChartLive10k measures one live frame of a line chart of
// 10,000 points at the size of the workbench's chart area (1,100 × 400
// px), on the chart's own goroutine: a new row arrives, the result is
// read, the model built and drawn (charts.Live.Step). The UI goroutine
// only swaps the finished image in.
func BenchmarkChartLive10k(b *testing.B) {
	r := results.New([]results.Column{
		{Name: "window_start", Type: types.TimestampType(3)},
		{Name: "sensor", Type: types.StringType()},
		{Name: "reading", Type: types.DoubleType()},
	}, results.Options{})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 10_000 {
		_ = r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), "s", float64(i%500) + float64(i)/100})
	}
	s := charts.Settings{Kind: charts.Line, X: "window_start", Y: []string{"reading"}}
	l := charts.NewLive(r, s, charts.RenderOptions{Width: 1100, Height: 400, Theme: charts.DarkTheme()}, nil)
	i := 10_000
	for b.Loop() {
		_ = r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), "s", float64(i % 500)})
		i++
		if !l.Step() {
			b.Fatal("no frame")
		}
	}
}
