package charts

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestEmptyAndDegenerate(t *testing.T) {
	r := windowed(t, 0, "AA")
	s, _ := Detect(r.Columns())
	m, err := Build(r, s)
	if err != nil {
		t.Fatal(err)
	}
	if m.Points() != 0 || m.Rows != 0 {
		t.Errorf("empty: %d points", m.Points())
	}
	if _, err := Render(m, RenderOptions{Width: 200, Height: 100}); err != nil {
		t.Errorf("empty render: %v", err)
	}
	// one row: the axes get a visible range around it
	r = windowed(t, 1, "AA")
	m, _ = Build(r, Settings{Kind: Line, X: "window_start", Y: []string{"avg_delay_min"}})
	if m.X.Max-m.X.Min != 60 || m.Y.Max <= m.Y.Min {
		t.Errorf("one row: x %v..%v y %v..%v", m.X.Min, m.X.Max, m.Y.Min, m.Y.Max)
	}
	if _, err := Render(m, RenderOptions{Width: 200, Height: 100}); err != nil {
		t.Error(err)
	}
	// NULLs and infinities are skipped and counted
	r = results.New([]results.Column{{Name: "x", Type: types.DoubleType()}, {Name: "y", Type: types.DoubleType()}}, results.Options{})
	for _, row := range [][]any{{1.0, 2.0}, {nil, 3.0}, {2.0, nil}, {3.0, math.Inf(1)}, {math.NaN(), 1.0}, {4.0, 5.0}} {
		r.Add(types.Insert, row)
	}
	m, err = Build(r, Settings{Kind: Scatter, X: "x", Y: []string{"y"}})
	if err != nil || m.Points() != 2 || m.Skipped != 4 {
		t.Errorf("nulls: %v %d points %d skipped", err, m.Points(), m.Skipped)
	}
	m, err = Build(r, Settings{Kind: Histogram, X: "y", Bins: 3})
	if err != nil || m.Skipped != 2 || m.Series[0].Bins[2].Max != 5 {
		t.Errorf("histogram with NULL and Inf: %v %+v skipped %d", err, m.Series, m.Skipped)
	}
}

func TestTooManySeries(t *testing.T) {
	r := results.New([]results.Column{{Name: "ts", Type: types.TimestampType(3)}, {Name: "k", Type: types.IntType()}, {Name: "v", Type: types.BigIntType()}}, results.Options{})
	for i := range 300 {
		k := int32(i % 30)
		if k < 5 {
			r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), k, int64(i)}) // keys 0..4 get an extra row
		}
		r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), k, int64(i)})
	}
	b := Builder{MaxSeries: 8}
	m, err := b.Build(r, Settings{Kind: Line, X: "ts", Y: []string{"v"}, Series: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Series) != 8 || m.HiddenSeries != 22 {
		t.Fatalf("%d series, %d hidden", len(m.Series), m.HiddenSeries)
	}
	// the busiest keys are kept (0..4 have 20 rows, the rest 10), in
	// numeric order, so 10 sorts after 2
	var names []string
	for _, s := range m.Series {
		names = append(names, s.Name)
	}
	if fmt.Sprint(names[:5]) != "[0 1 2 3 4]" || len(m.Series[0].Points) != 20 {
		t.Errorf("series %v", names)
	}
}

func TestTimeKinds(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone data")
	}
	r := results.New([]results.Column{
		{Name: "at", Type: types.TimestampLTZType(3)},
		{Name: "day", Type: types.DateType()},
		{Name: "tod", Type: types.TimeType(0)},
		{Name: "n", Type: types.IntType()},
	}, results.Options{Location: ny})
	for i := range 3 {
		at := time.Date(2024, 7, 1, 12+i, 0, 0, 0, time.UTC)
		r.Add(types.Insert, []any{at, types.Date(19900 + i), types.LocalTime(time.Duration(8+i) * time.Hour), int32(i)})
	}
	m, err := Build(r, Settings{Kind: Line, X: "at", Y: []string{"n"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.X.Label != "at (America/New_York)" || m.X.Ticks(3)[0].Label != "Jul 1 08:00" {
		t.Errorf("LTZ axis %q ticks %v", m.X.Label, m.X.Ticks(3))
	}
	m, _ = Build(r, Settings{Kind: Bar, X: "day", Y: []string{"n"}})
	if fmt.Sprint(m.X.Categories) != "[2024-06-26 2024-06-27 2024-06-28]" {
		t.Errorf("date categories %v", m.X.Categories)
	}
	m, _ = Build(r, Settings{Kind: Line, X: "tod", Y: []string{"n"}})
	if !m.X.TimeOfDay || m.X.Min != 8*3600 || m.X.Ticks(3)[0].Label != "08:00" || m.X.Format(9*3600+30) != "09:00:30" {
		t.Errorf("time of day axis %+v %v", m.X, m.X.Ticks(3))
	}
}

// Random settings over a random result never panic and always render.
func TestRandomChartsRender(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cols := []results.Column{
		{Name: "ts", Type: types.TimestampType(3)},
		{Name: "k", Type: types.StringType()},
		{Name: "a", Type: types.IntType()},
		{Name: "b", Type: types.DoubleType()},
		{Name: "d", Type: types.DecimalType(8, 2)},
	}
	r := results.New(cols, results.Options{})
	for range 200 {
		var b any = rng.NormFloat64() * 1e3
		if rng.IntN(10) == 0 {
			b = nil
		}
		r.Add(types.Insert, []any{t0.Add(time.Duration(rng.IntN(3600)) * time.Second), string(rune('a' + rng.IntN(5))),
			int32(rng.IntN(100) - 50), b, types.DecimalFromInt64(int64(rng.IntN(100000)), 2)})
	}
	names := []string{"ts", "k", "a", "b", "d"}
	for i := range 60 {
		s := Settings{Kind: Kinds[rng.IntN(len(Kinds))], X: names[rng.IntN(5)], Y: []string{names[2+rng.IntN(3)]}}
		if rng.IntN(2) == 0 {
			s.Series = "k"
		}
		if rng.IntN(3) == 0 {
			s.Window = Duration(time.Duration(rng.IntN(30)) * time.Minute)
		}
		m, err := Build(r, s)
		if err != nil {
			if s.Validate(cols) == nil {
				t.Errorf("%d: %+v: %v", i, s, err)
			}
			continue
		}
		if _, err := Render(m, RenderOptions{Width: 160 + rng.IntN(400), Height: 90 + rng.IntN(300), DPI: float64(72 + rng.IntN(100))}); err != nil {
			t.Errorf("%d: %+v: render: %v", i, s, err)
		}
	}
}

// TestLongAxisLabelShortened: a Y label longer than a short chart is
// shortened rather than squeezing the data area.
func TestLongAxisLabelShortened(t *testing.T) {
	r := windowed(t, 5, "UA")
	m, err := Build(r, Settings{Kind: Line, X: "window_start", Y: []string{"flights", "avg_delay_min"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Plot(RenderOptions{Width: 900, Height: 120})
	if err != nil {
		t.Fatal(err)
	}
	if l := p.Y.Label.Text; !strings.HasSuffix(l, "…") || len(l) >= len(m.Y.Label) {
		t.Errorf("Y label %q not shortened from %q", l, m.Y.Label)
	}
	p, _ = m.Plot(RenderOptions{Width: 900, Height: 600})
	if p.Y.Label.Text != m.Y.Label {
		t.Errorf("Y label %q shortened on a tall chart", p.Y.Label.Text)
	}
}
