package charts

import (
	"bytes"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

var t0 = time.Date(2001, 1, 1, 12, 0, 0, 0, time.UTC)

// windowed returns a result shaped like a tumbling-window aggregate: one
// row per minute and carrier with a count and an average delay.
func windowed(t *testing.T, minutes int, carriers ...string) *results.Result {
	t.Helper()
	r := results.New([]results.Column{
		{Name: "window_start", Type: types.TimestampType(3)},
		{Name: "window_end", Type: types.TimestampType(3)},
		{Name: "carrier", Type: types.StringType()},
		{Name: "flights", Type: types.BigIntType()},
		{Name: "avg_delay_min", Type: types.DoubleType()},
	}, results.Options{})
	for m := range minutes {
		for k, c := range carriers {
			ws := t0.Add(time.Duration(m) * time.Minute)
			if err := r.Add(types.Insert, []any{ws, ws.Add(time.Minute), c, int64(10*k + m), float64(m) / 2}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r
}

func TestDetect(t *testing.T) {
	r := windowed(t, 1, "AA")
	s, ok := Detect(r.Columns())
	if !ok || s.Kind != Line || s.X != "window_start" || !slices.Equal(s.Y, []string{"flights"}) || s.Series != "carrier" || !s.Auto {
		t.Errorf("windowed aggregate: %+v %v", s, ok)
	}
	cases := []struct {
		cols []results.Column
		want Settings
		ok   bool
	}{
		{[]results.Column{{Name: "state", Type: types.StringType()}, {Name: "departures", Type: types.BigIntType()}, {Name: "avg_delay_min", Type: types.DoubleType()}},
			Settings{Kind: Bar, X: "state", Y: []string{"departures", "avg_delay_min"}, Auto: true}, true},
		{[]results.Column{{Name: "distance", Type: types.IntType()}, {Name: "delay", Type: types.IntType()}},
			Settings{Kind: Scatter, X: "distance", Y: []string{"delay"}, Auto: true}, true},
		{[]results.Column{{Name: "delay", Type: types.IntType()}, {Name: "ok", Type: types.BooleanType()}},
			Settings{Kind: Histogram, X: "delay", Auto: true}, true},
		{[]results.Column{{Name: "name", Type: types.StringType()}}, Settings{}, false},
		{[]results.Column{{Name: "ts", Type: types.TimestampLTZType(3)}, {Name: "n", Type: types.DecimalType(10, 2)}, {Name: "w", Type: types.TimestampType(3)}},
			Settings{Kind: Line, X: "ts", Y: []string{"n"}, Auto: true}, true},
		// a HOP aggregate grouped by window and an integer id: one line per id
		{[]results.Column{{Name: "window_end", Type: types.TimestampType(3)}, {Name: "window_start", Type: types.TimestampType(3)},
			{Name: "id", Type: types.BigIntType()}, {Name: "cnt", Type: types.BigIntType()}},
			Settings{Kind: Line, X: "window_start", Y: []string{"cnt"}, Series: "id", Auto: true}, true},
		{[]results.Column{{Name: "sensor_id", Type: types.IntType()}, {Name: "avg_temp", Type: types.DoubleType()}, {Name: "station", Type: types.StringType()}},
			Settings{Kind: Bar, X: "station", Y: []string{"avg_temp"}, Auto: true}, true},
		// nothing but ids: they are charted
		{[]results.Column{{Name: "ts", Type: types.TimestampType(3)}, {Name: "id", Type: types.IntType()}},
			Settings{Kind: Line, X: "ts", Y: []string{"id"}, Auto: true}, true},
	}
	for _, c := range cases {
		got, ok := Detect(c.cols)
		if ok != c.ok || got.Kind != c.want.Kind || got.X != c.want.X || !slices.Equal(got.Y, c.want.Y) || got.Series != c.want.Series {
			t.Errorf("Detect(%v) = %+v, %v; want %+v, %v", c.cols, got, ok, c.want, c.ok)
		}
	}
}

// A column chosen as Series leaves the Y columns.
func TestWithoutSeriesInY(t *testing.T) {
	s := Settings{Kind: Line, X: "window_start", Y: []string{"id", "cnt"}, Series: "id"}
	got := s.WithoutSeriesInY()
	if !slices.Equal(got.Y, []string{"cnt"}) || !slices.Equal(s.Y, []string{"id", "cnt"}) {
		t.Errorf("Y %v (was %v)", got.Y, s.Y)
	}
	s.Series = ""
	if got := s.WithoutSeriesInY(); !slices.Equal(got.Y, []string{"id", "cnt"}) {
		t.Errorf("no series: Y %v", got.Y)
	}
}

func TestSettingsJSON(t *testing.T) {
	s := Settings{Kind: StackedBar, X: "window_start", Y: []string{"a", "b"}, Series: "c", Window: Duration(5 * time.Minute), Bins: 12, Title: "T"}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"v":1,"kind":"stacked-bar","x":"window_start","y":["a","b"],"series":"c","window":"5m0s","bins":12,"title":"T"}`; string(b) != want {
		t.Errorf("Marshal = %s\nwant %s", b, want)
	}
	got, err := ParseSettings(b)
	if err != nil || got.Kind != s.Kind || got.Window != s.Window || !slices.Equal(got.Y, s.Y) || got.Series != "c" || got.Bins != 12 {
		t.Errorf("round trip: %+v, %v", got, err)
	}
	if got, err := ParseSettings([]byte(`{"kind":"line","window":90}`)); err != nil || got.Window != Duration(90*time.Second) {
		t.Errorf("seconds window: %+v, %v", got, err)
	}
	for _, bad := range []string{`{"kind":"pie"}`, `{"v":2,"kind":"line"}`, `{"kind":`, `{"window":"soon"}`} {
		if _, err := ParseSettings([]byte(bad)); err == nil {
			t.Errorf("ParseSettings(%s) did not fail", bad)
		}
	}
	if got, err := ParseSettings(nil); err != nil || got.Kind != "" {
		t.Errorf("empty: %+v, %v", got, err)
	}
}

func TestValidate(t *testing.T) {
	cols := windowed(t, 1, "AA").Columns()
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Kind: Line, X: "window_start", Y: []string{"flights"}}, ""},
		{Settings{Kind: Line, X: "nope", Y: []string{"flights"}}, `X column "nope" is not in the result`},
		{Settings{Kind: Line, X: "window_start"}, "choose at least one Y column"},
		{Settings{Kind: Bar, X: "carrier", Y: []string{"carrier"}}, `Y column "carrier" is STRING, not a number`},
		{Settings{Kind: Histogram, X: "carrier"}, "a histogram needs a numeric column"},
		{Settings{Kind: "pie", X: "carrier"}, `unknown chart type "pie"`},
		{Settings{Kind: Line, X: "window_start", Y: []string{"flights"}, Series: "x"}, `series column "x" is not in the result`},
	} {
		err := c.s.Validate(cols)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want %q", c.s, err, c.want)
		}
	}
}

func TestLineChartModel(t *testing.T) {
	r := windowed(t, 30, "UA", "AA", "DL")
	s, _ := Detect(r.Columns())
	s.X, s.Y = "window_end", []string{"flights"}
	m, err := Build(r, s)
	if err != nil {
		t.Fatal(err)
	}
	if m.X.Kind != TimeAxis || m.Y.Kind != NumberAxis {
		t.Fatalf("axes %v %v", m.X.Kind, m.Y.Kind)
	}
	var names []string
	for _, ser := range m.Series {
		names = append(names, ser.Name)
		if len(ser.Points) != 30 {
			t.Errorf("series %s has %d points", ser.Name, len(ser.Points))
		}
	}
	if !slices.Equal(names, []string{"AA", "DL", "UA"}) {
		t.Errorf("series %v", names)
	}
	start := float64(t0.Add(time.Minute).Unix())
	if m.X.Min != start || m.X.Max != start+29*60 {
		t.Errorf("x range %v..%v, want %v..%v", m.X.Min, m.X.Max, start, start+29*60)
	}
	// AA has flights 10*1+m? no: carriers in order UA(0) AA(1) DL(2): flights = 10k+m, so 0..49
	if m.Y.Min != 0 || m.Y.Max != 50 {
		t.Errorf("y range %v..%v, want 0..50", m.Y.Min, m.Y.Max)
	}
	if m.X.Label != "window_end" || m.Y.Label != "flights" {
		t.Errorf("labels %q %q", m.X.Label, m.Y.Label)
	}
	ticks := m.X.Ticks(6)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if want := []string{"Jan 1 12:05", "12:10", "12:15", "12:20", "12:25", "12:30"}; !slices.Equal(labels, want) {
		t.Errorf("x ticks %q, want %q", labels, want)
	}
	// the plot uses the model's ranges and ticks
	p, err := m.Plot(RenderOptions{Width: 800, Height: 400})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != m.X.Min || p.X.Max != m.X.Max || p.Y.Min != 0 || p.Y.Max != 50 {
		t.Errorf("plot ranges x %v..%v y %v..%v", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	img, err := Render(m, RenderOptions{Width: 800, Height: 400, Theme: DarkTheme()})
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 400 {
		t.Errorf("image %v", b)
	}
	if dir := os.Getenv("CHART_OUT"); dir != "" {
		Save(filepath.Join(dir, "line.png"), m, RenderOptions{Width: 800, Height: 400, Theme: DarkTheme()})
	}
}

func TestEventTimeWindow(t *testing.T) {
	r := windowed(t, 60, "AA")
	s := Settings{Kind: Line, X: "window_start", Y: []string{"flights"}, Window: Duration(10 * time.Minute)}
	m, err := Build(r, s)
	if err != nil {
		t.Fatal(err)
	}
	// window starts 12:00..12:59; the last 10 minutes are 12:49..12:59
	if got := len(m.Series[0].Points); got != 11 || m.Skipped != 49 {
		t.Errorf("points %d skipped %d", got, m.Skipped)
	}
	if m.X.Min != float64(t0.Add(49*time.Minute).Unix()) {
		t.Errorf("x min %v", unixTime(m.X.Min, time.UTC))
	}
}

func TestBarCharts(t *testing.T) {
	r := results.New([]results.Column{
		{Name: "state", Type: types.StringType()},
		{Name: "kind", Type: types.StringType()},
		{Name: "n", Type: types.IntType()},
	}, results.Options{})
	for _, row := range [][]any{{"CA", "a", int32(5)}, {"TX", "a", int32(3)}, {"CA", "b", int32(12)}, {"NY", "b", int32(7)}, {"CA", "a", int32(1)}} {
		r.Add(types.Insert, row)
	}
	m, err := Build(r, Settings{Kind: StackedBar, X: "state", Y: []string{"n"}, Series: "kind"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.X.Categories, []string{"CA", "TX", "NY"}) {
		t.Errorf("categories %v", m.X.Categories)
	}
	got := map[string][]float64{}
	for _, s := range m.Series {
		for _, p := range s.Points {
			got[s.Name] = append(got[s.Name], p.Y)
		}
	}
	if !slices.Equal(got["a"], []float64{6, 3, 0}) || !slices.Equal(got["b"], []float64{12, 0, 7}) {
		t.Errorf("bars %v", got)
	}
	// stacked: CA = 6+12 = 18 is the tallest, rounded up to the tick step 5
	if m.X.Min != -0.5 || m.X.Max != 2.5 || m.Y.Min != 0 || m.Y.Max != 20 {
		t.Errorf("ranges x %v..%v y %v..%v", m.X.Min, m.X.Max, m.Y.Min, m.Y.Max)
	}
	m.Settings.Kind = Bar
	m.setRanges()
	if m.Y.Max != 15 { // 12 rounded up to the tick step 5
		t.Errorf("grouped bars y max %v", m.Y.Max)
	}
	for _, k := range []Kind{Bar, StackedBar} {
		if _, err := Render(m, RenderOptions{Width: 400, Height: 300, Theme: LightTheme()}); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	// bars over a time axis use one category per distinct time
	w := windowed(t, 5, "AA", "UA")
	m, err = Build(w, Settings{Kind: Bar, X: "window_start", Y: []string{"flights"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.X.Categories) != 5 || !slices.Equal(m.X.Categories, []string{"Jan 1 12:00", "12:01", "12:02", "12:03", "12:04"}) || len(m.Series) != 1 || m.Series[0].Points[1].Y != 1+11 {
		t.Errorf("time bars: %v %+v", m.X.Categories, m.Series)
	}
}

func TestHistogram(t *testing.T) {
	r := results.New([]results.Column{{Name: "delay", Type: types.IntType()}}, results.Options{})
	for i := range 100 {
		r.Add(types.Insert, []any{int32(i)})
	}
	r.Add(types.Insert, []any{nil})
	m, err := Build(r, Settings{Kind: Histogram, X: "delay", Bins: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Series) != 1 || len(m.Series[0].Bins) != 10 || m.Skipped != 1 {
		t.Fatalf("series %d skipped %d", len(m.Series), m.Skipped)
	}
	total := 0.0
	for _, b := range m.Series[0].Bins {
		total += b.Count
	}
	if total != 100 || m.Series[0].Bins[0].Count != 10 || m.Series[0].Bins[9].Count != 10 || m.Series[0].Bins[9].Max != 99 {
		t.Errorf("bins %+v", m.Series[0].Bins)
	}
	if m.X.Min != 0 || m.X.Max != 99 || m.Y.Min != 0 || m.Y.Max != 10 || m.Y.Label != "count" || m.X.Label != "delay" {
		t.Errorf("axes %+v %+v", m.X, m.Y)
	}
	m, _ = Build(r, Settings{Kind: Histogram, X: "delay"})
	if n := len(m.Series[0].Bins); n != 8 { // Sturges: ceil(log2 100)+1
		t.Errorf("auto bins %d", n)
	}
}

func TestScatterAndArea(t *testing.T) {
	r := results.New([]results.Column{
		{Name: "distance_miles", Type: types.IntType()},
		{Name: "delay_min", Type: types.IntType()},
		{Name: "late_min", Type: types.IntType()},
	}, results.Options{})
	for i := range 50 {
		r.Add(types.Insert, []any{int32(100 * i), int32(i % 7), int32(i % 3)})
	}
	m, err := Build(r, Settings{Kind: Scatter, X: "distance_miles", Y: []string{"delay_min", "late_min"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Series) != 2 || m.Points() != 100 || m.X.Label != "distance_miles (miles)" || m.Y.Label != "delay_min, late_min (min)" || m.Y.Unit != "min" {
		t.Errorf("scatter: %d series %d points labels %q %q", len(m.Series), m.Points(), m.X.Label, m.Y.Label)
	}
	// a margin of 3% beyond the outermost points: their marks are whole
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(m.X.Min, -147) || !near(m.X.Max, 5047) || !near(m.Y.Min, -0.18) || !near(m.Y.Max, 6.18) {
		t.Errorf("ranges x %v..%v y %v..%v", m.X.Min, m.X.Max, m.Y.Min, m.Y.Max)
	}
	m.Settings.Kind = Area
	if _, err := Render(m, RenderOptions{Width: 300, Height: 200}); err != nil {
		t.Error(err)
	}
}

func TestNumberTicks(t *testing.T) {
	var got []string
	for _, tk := range numberTicks(0, 1, 5) {
		got = append(got, tk.Label)
	}
	if want := []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}; !slices.Equal(got, want) {
		t.Errorf("0..1: %q", got)
	}
	got = nil
	for _, tk := range numberTicks(0, 250000, 5) {
		got = append(got, tk.Label)
	}
	if want := []string{"0", "50k", "100k", "150k", "200k", "250k"}; !slices.Equal(got, want) {
		t.Errorf("0..250k: %q", got)
	}
}

func TestTimeTicksZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone data")
	}
	lo := float64(time.Date(2024, 3, 10, 0, 0, 0, 0, ny).Unix())
	hi := float64(time.Date(2024, 3, 10, 12, 0, 0, 0, ny).Unix())
	var got []string
	for _, tk := range timeTicks(lo, hi, 6, ny, false) {
		got = append(got, tk.Label)
	}
	// DST starts at 02:00 (there is no 02:00 that day): ticks stay on
	// even wall-clock hours
	if want := []string{"Mar 10 00:00", "04:00", "06:00", "08:00", "10:00", "12:00"}; !slices.Equal(got, want) {
		t.Errorf("ticks %q", got)
	}
	got = nil
	for _, tk := range timeTicks(0, 86400*365*3, 5, time.UTC, false) {
		got = append(got, tk.Label)
	}
	if want := []string{"1970", "1971", "1972"}; !slices.Equal(got, want) {
		t.Errorf("years %q", got)
	}
}

func TestDecimate(t *testing.T) {
	pts := make([]Point, 10000)
	for i := range pts {
		pts[i] = Point{float64(i), math.Sin(float64(i) / 100)}
	}
	pts[5000].Y = 42 // a spike survives
	out := decimate(pts, 500)
	if len(out) > 2000 || len(out) < 500 {
		t.Errorf("decimated to %d points", len(out))
	}
	if !slices.ContainsFunc(out, func(p Point) bool { return p.Y == 42 }) {
		t.Error("the spike was lost")
	}
	if out[0] != pts[0] || out[len(out)-1] != pts[len(pts)-1] {
		t.Error("ends lost")
	}
}

func TestSaveAndMessages(t *testing.T) {
	r := windowed(t, 10, "AA")
	m, err := Build(r, Settings{Kind: Line, X: "window_start", Y: []string{"flights"}, Title: "Flights"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := RenderOptions{Width: 320, Height: 200, Theme: LightTheme()}
	if err := Save(filepath.Join(dir, "c.png"), m, o); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "c.png")); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("saved file mode %v (%v), want the ordinary -rw-r--r--", st.Mode(), err)
	}
	f, _ := os.ReadFile(filepath.Join(dir, "c.png"))
	img, err := png.Decode(bytes.NewReader(f))
	if err != nil || img.Bounds().Dx() != 320 || img.Bounds().Dy() != 200 {
		t.Errorf("png: %v %v", err, img)
	}
	if err := Save(filepath.Join(dir, "c.svg"), m, o); err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "c.svg"))
	if !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("Flights")) {
		t.Errorf("svg starts %q", svg[:min(len(svg), 80)])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left files: %v", entries)
	}
	if err := Save(filepath.Join(dir, "missing", "c.png"), m, o); err == nil {
		t.Error("saving into a missing directory did not fail")
	}
	if _, err := Render(m, RenderOptions{}); err == nil {
		t.Error("empty size did not fail")
	}
	img2, err := RenderMessage("Choose a Y column", o)
	if err != nil || img2.Bounds().Dx() != 320 {
		t.Errorf("message: %v", err)
	}
	// the background is the theme's
	if c := img2.RGBAAt(2, 2); c.R != 0xff || c.G != 0xff || c.B != 0xff {
		t.Errorf("light background pixel %v", c)
	}
	img3, _ := Render(m, RenderOptions{Width: 100, Height: 80, Theme: DarkTheme()})
	if c := img3.RGBAAt(1, 1); c.R != 0x17 || c.B != 0x18 {
		t.Errorf("dark background pixel %v", c)
	}
}

// TestGallery writes one chart of each kind to $CHART_OUT for looking at.
func TestGallery(t *testing.T) {
	dir := os.Getenv("CHART_OUT")
	if dir == "" {
		t.Skip("set CHART_OUT to a directory to write the gallery")
	}
	r := windowed(t, 20, "UA", "AA", "DL")
	for _, k := range Kinds {
		s := Settings{Kind: k, X: "window_start", Y: []string{"flights"}, Series: "carrier", Title: k.Title()}
		if k == Histogram {
			s.X = "avg_delay_min"
		}
		m, err := Build(r, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, th := range []struct {
			name  string
			theme Theme
		}{{"dark", DarkTheme()}, {"light", LightTheme()}} {
			if err := Save(filepath.Join(dir, string(k)+"-"+th.name+".png"), m, RenderOptions{Width: 640, Height: 360, Theme: th.theme}); err != nil {
				t.Error(err)
			}
		}
	}
}

func TestFitScales(t *testing.T) {
	series := func(tops ...float64) *Model {
		m := &Model{}
		for _, top := range tops {
			m.Series = append(m.Series, Series{Points: []Point{{0, top / 2}, {1, -top}, {2, 0}}})
		}
		return m
	}
	s := Settings{Kind: Bar, X: "hour", Y: []string{"flights", "avg_delay", "worst_delay", "cancelled"}, Auto: true}
	got, out := FitScales(s, series(15000, 170, 2000, 0))
	if !slices.Equal(got.Y, []string{"flights", "worst_delay", "cancelled"}) || !slices.Equal(out, []string{"avg_delay"}) || !got.Auto {
		t.Errorf("Y %v, left out %v", got.Y, out)
	}
	// a larger column is left out as well: the first one decides
	if got, out = FitScales(s, series(100, 5000, 20, 1)); !slices.Equal(got.Y, []string{"flights", "worst_delay"}) || len(out) != 2 {
		t.Errorf("Y %v, left out %v", got.Y, out)
	}
	// comparable scales, a user's choice, a split chart: unchanged
	for _, c := range []struct {
		s Settings
		m *Model
	}{
		{s, series(100, 20, 900, 50)},
		{Settings{Kind: Bar, X: "hour", Y: s.Y}, series(15000, 170, 1400, 0)},
		{Settings{Kind: Line, X: "t", Y: []string{"n"}, Series: "k", Auto: true}, series(15000, 1)},
		{s, series(0, 170, 1400, 5)},
	} {
		if got, out := FitScales(c.s, c.m); out != nil || !slices.Equal(got.Y, c.s.Y) {
			t.Errorf("%+v: Y %v, left out %v", c.s, got.Y, out)
		}
	}
}

// Twelve series get twelve different colours; the next twelve are dashed.
func TestSeriesColoursDoNotRepeatSoon(t *testing.T) {
	th := DarkTheme()
	seen := map[color.Color]bool{}
	for i := range 12 {
		seen[th.SeriesColor(i)] = true
		if th.SeriesDashes(i) != nil {
			t.Errorf("series %d dashed", i)
		}
	}
	if len(seen) != 12 {
		t.Errorf("%d colours for 12 series", len(seen))
	}
	if th.SeriesDashes(12) == nil || th.SeriesColor(12) != th.SeriesColor(0) {
		t.Error("series 13 is not a dashed first colour")
	}
}
