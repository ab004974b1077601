package charts

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// Source is what a chart reads: a query's result (*results.Result).
type Source interface {
	Columns() []results.Column
	ReadValues(v results.View, cols []int, maxRows int, dst *results.Values) *results.Values
	Formatter() results.Formatter
}

var _ Source = (*results.Result)(nil)

// Model is a chart's data, computed from a result and settings and
// independent of drawing: axes with kinds, labels and ranges, and the
// series with their points (or histogram bins). Tests and tooltips read
// it; Render draws it.
type Model struct {
	Settings Settings
	X, Y     Axis
	Series   []Series
	// Rows is the number of rows read, Total the rows of the result's
	// table view (Rows < Total when only the latest MaxRows are read).
	Rows, Total int
	// Skipped counts rows left out: NULL or NaN values, or outside the
	// event-time window.
	Skipped int
	// HiddenSeries counts series beyond MaxSeries that are not drawn.
	HiddenSeries int
	// Version is the result version the model was built from.
	Version uint64
}

// Axis describes one axis of a Model.
type Axis struct {
	Kind  AxisKind
	Label string
	Unit  string
	// Min and Max are the range shown.
	Min, Max float64
	// Categories name positions 0, 1, ... of a category axis.
	Categories []string
	// Location is the zone times are shown in (time axes).
	Location *time.Location
	// TimeOfDay marks an axis of TIME values (seconds since midnight).
	TimeOfDay bool
	// Integer marks a number axis of whole values (counts): its ticks
	// are at least 1 apart.
	Integer bool
}

// Ticks returns about n labelled ticks for the axis range.
func (a *Axis) Ticks(n int) []Tick {
	switch a.Kind {
	case TimeAxis:
		loc := a.Location
		if a.TimeOfDay {
			loc = time.UTC
		}
		return timeTicks(a.Min, a.Max, n, loc, a.TimeOfDay)
	case CategoryAxis:
		step := 1
		if n > 0 && len(a.Categories) > n {
			step = (len(a.Categories) + n - 1) / n
		}
		var ticks []Tick
		for i := 0; i < len(a.Categories); i += step {
			ticks = append(ticks, Tick{Value: float64(i), Label: shorten(a.Categories[i], 18)})
		}
		return ticks
	}
	ticks := numberTicks(a.Min, a.Max, n)
	if a.Integer && len(ticks) > 1 && ticks[1].Value-ticks[0].Value < 1 {
		ticks = numberTicks(a.Min, a.Max, max(int(a.Max-a.Min), 1))
	}
	return ticks
}

// Format renders a value of the axis as text (for tooltips).
func (a *Axis) Format(v float64) string {
	switch a.Kind {
	case TimeAxis:
		return formatTime(v, a.Location, a.TimeOfDay)
	case CategoryAxis:
		if i := int(math.Round(v)); i >= 0 && i < len(a.Categories) {
			return a.Categories[i]
		}
		return ""
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Series is one line, set of bars or histogram of a Model.
type Series struct {
	Name string
	// Points in X order for lines and areas, in row order for scatters;
	// for bars X is the category index and every category has a point.
	Points []Point
	// Bins of a histogram (all series share the bin edges).
	Bins []Bin
}

// Point is one (x, y) value of a series.
type Point struct{ X, Y float64 }

// Bin is one histogram bin: values in [Min, Max) (the last bin includes
// Max) and their count.
type Bin struct {
	Min, Max float64
	Count    float64
}

// Limits of Build.
const (
	// DefaultMaxRows is how many of the latest rows a chart reads.
	DefaultMaxRows = 200_000
	// DefaultMaxSeries is how many series a chart draws.
	DefaultMaxSeries = 24
	// DefaultMaxCategories is how many categories a bar chart draws.
	DefaultMaxCategories = 500
)

// Builder builds Models, reusing its buffers between builds (a live chart
// keeps one). The zero value is ready; it is not safe for concurrent use.
type Builder struct {
	// MaxRows, MaxSeries and MaxCategories override the defaults when > 0.
	MaxRows, MaxSeries, MaxCategories int

	vals results.Values
}

// Build reads src and returns the chart of the settings (checked with
// Validate first).
func Build(src Source, s Settings) (*Model, error) {
	var b Builder
	return b.Build(src, s)
}

// Build reads src and returns the chart of the settings.
func (b *Builder) Build(src Source, s Settings) (m *Model, err error) {
	defer func() {
		// a chart must never take the workbench down
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("chart: internal error: %v", r)
		}
	}()
	cols := src.Columns()
	if err := s.Validate(cols); err != nil {
		return nil, err
	}
	index := func(name string) int {
		return slices.IndexFunc(cols, func(c results.Column) bool { return c.Name == name })
	}
	xi := index(s.X)
	read := []int{xi}
	yis := []int{}
	if s.Kind != Histogram {
		for _, y := range s.Y {
			yis = append(yis, index(y))
		}
		read = append(read, yis...)
	}
	si := -1
	if s.Series != "" {
		si = index(s.Series)
		read = append(read, si)
	}
	maxRows := cmp.Or(b.MaxRows, DefaultMaxRows)
	v := src.ReadValues(results.TableView, read, maxRows, &b.vals)

	loc := src.Formatter().Location
	if loc == nil {
		loc = time.UTC
	}
	xcol := cols[xi]
	m = &Model{Settings: s, Rows: v.Len, Total: v.Total, Version: v.Version}
	m.X = Axis{Kind: AxisKindOf(xcol.Type), Unit: UnitOf(xcol.Name, xcol.Type), Location: time.UTC,
		TimeOfDay: xcol.Type.Root == types.TimeRoot}
	m.X.Label = axisLabel([]string{xcol.Name}, []string{m.X.Unit})
	if xcol.Type.Root == types.TimestampLTZRoot {
		m.X.Location = loc
	}
	if m.X.Kind == TimeAxis && !m.X.TimeOfDay && m.X.Location != time.UTC {
		m.X.Label += " (" + m.X.Location.String() + ")"
	}

	xv := &v.Cols[0]
	var sv *results.ColumnValues
	if si >= 0 {
		sv = &v.Cols[len(v.Cols)-1]
	}
	// rows kept: X not NULL and inside the event-time window
	keep := make([]bool, v.Len)
	cutoff := math.Inf(-1)
	if s.Window > 0 && m.X.Kind == TimeAxis {
		hi := math.Inf(-1)
		for i := range v.Len {
			if !xv.Nulls[i] && xv.Nums[i] > hi {
				hi = xv.Nums[i]
			}
		}
		cutoff = hi - time.Duration(s.Window).Seconds()
	}
	for i := range v.Len {
		keep[i] = !xv.Nulls[i] && !(xv.Numeric && (math.IsNaN(xv.Nums[i]) || xv.Nums[i] < cutoff))
	}

	// series keys per row, and the series kept
	groups := b.groups(v.Len, sv, keep)
	if s.Kind == Histogram {
		m.buildHistogram(s, xv, keep, groups)
		return m, nil
	}

	ycols := make([]results.Column, len(yis))
	names, units := make([]string, len(yis)), make([]string, len(yis))
	for k, yi := range yis {
		ycols[k] = cols[yi]
		names[k], units[k] = cols[yi].Name, UnitOf(cols[yi].Name, cols[yi].Type)
	}
	m.Y = Axis{Kind: NumberAxis, Label: axisLabel(names, units), Unit: sharedUnit(units), Location: time.UTC,
		Integer: allInteger(ycols)}
	if allTime(ycols) {
		m.Y.Kind = TimeAxis
		m.Y.TimeOfDay = ycols[0].Type.Root == types.TimeRoot
		if ycols[0].Type.Root == types.TimestampLTZRoot {
			m.Y.Location = loc
		}
	}

	// X positions: category axes (and bars on any axis) use indexes
	xpos := make([]float64, v.Len)
	bars := s.Kind == Bar || s.Kind == StackedBar
	if m.X.Kind == CategoryAxis || bars {
		m.categorize(xv, keep, xpos, cmp.Or(b.MaxCategories, DefaultMaxCategories))
	} else {
		copy(xpos, xv.Nums)
	}

	var out []Series
	for _, gname := range groups.names {
		for k := range yis {
			name := names[k]
			if sv != nil {
				name = gname
				if len(yis) > 1 {
					name = gname + " · " + names[k]
				}
			}
			out = append(out, Series{Name: name})
		}
	}
	skipped := make([]bool, v.Len)
	for i := range v.Len {
		if !keep[i] {
			skipped[i] = true
			continue
		}
		g := groups.of[i]
		if g < 0 {
			continue // a hidden series
		}
		plotted := false
		for k := range yis {
			yc := &v.Cols[1+k]
			y := yc.Nums[i]
			if yc.Nulls[i] || math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			plotted = true
			ser := &out[g*len(yis)+k]
			ser.Points = append(ser.Points, Point{xpos[i], y})
		}
		if !plotted {
			skipped[i] = true
		}
	}
	for _, sk := range skipped {
		if sk {
			m.Skipped++
		}
	}
	m.HiddenSeries = groups.hidden * len(yis)

	switch {
	case bars:
		n := len(m.X.Categories)
		for i := range out {
			sums := make([]Point, n)
			for c := range sums {
				sums[c].X = float64(c)
			}
			for _, p := range out[i].Points {
				sums[int(p.X)].Y += p.Y
			}
			out[i].Points = sums
		}
	case s.Kind == Line || s.Kind == Area:
		for i := range out {
			slices.SortStableFunc(out[i].Points, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
		}
	}
	m.Series = out
	m.setRanges()
	return m, nil
}

func allInteger(cols []results.Column) bool {
	for _, c := range cols {
		switch c.Type.Root {
		case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		default:
			return false
		}
	}
	return len(cols) > 0
}

func allTime(cols []results.Column) bool {
	for _, c := range cols {
		if AxisKindOf(c.Type) != TimeAxis {
			return false
		}
	}
	return len(cols) > 0
}

// grouping assigns rows to series.
type grouping struct {
	names  []string // shown series, sorted
	of     []int    // row -> index into names; -1 = hidden or no value
	hidden int
}

// groups splits rows by the series column: one group per distinct value
// (NULL reads as "NULL"), sorted by value (numbers numerically), keeping
// the maxSeries groups with the most rows.
func (b *Builder) groups(n int, sv *results.ColumnValues, keep []bool) grouping {
	g := grouping{of: make([]int, n)}
	if sv == nil {
		g.names = []string{""}
		return g
	}
	type group struct {
		name  string
		num   float64
		count int
		id    int
	}
	byName := map[string]*group{}
	var all []*group
	keys := make([]*group, n)
	var buf []byte
	for i := range n {
		if !keep[i] {
			continue
		}
		var name string
		num := math.NaN()
		switch {
		case sv.Nulls[i]:
			name = "NULL"
		case sv.Numeric:
			num = sv.Nums[i]
			buf = strconv.AppendFloat(buf[:0], num, 'g', -1, 64)
			name = string(buf)
		default:
			name = sv.Texts[i]
		}
		gr := byName[name]
		if gr == nil {
			gr = &group{name: name, num: num}
			byName[name] = gr
			all = append(all, gr)
		}
		gr.count++
		keys[i] = gr
	}
	maxSeries := cmp.Or(b.MaxSeries, DefaultMaxSeries)
	if len(all) > maxSeries {
		slices.SortStableFunc(all, func(a, b *group) int { return cmp.Compare(b.count, a.count) })
		g.hidden = len(all) - maxSeries
		all = all[:maxSeries]
	}
	slices.SortFunc(all, func(a, b *group) int {
		if c := cmp.Compare(a.num, b.num); c != 0 && !math.IsNaN(a.num) && !math.IsNaN(b.num) {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	for i, gr := range all {
		gr.id = i
		g.names = append(g.names, gr.name)
	}
	for i := range n {
		g.of[i] = -1
		if gr := keys[i]; gr != nil && gr.id < len(all) && all[gr.id] == gr {
			g.of[i] = gr.id
		}
	}
	return g
}

// categorize sets X categories: text values in order of first
// appearance, numbers and times sorted; xpos gets each row's index. Rows
// of categories beyond max are dropped from keep.
func (m *Model) categorize(xv *results.ColumnValues, keep []bool, xpos []float64, maxCats int) {
	if !xv.Numeric {
		at := map[string]int{}
		for i, ok := range keep {
			if !ok {
				continue
			}
			c, seen := at[xv.Texts[i]]
			if !seen {
				if len(m.X.Categories) >= maxCats {
					keep[i] = false
					continue
				}
				c = len(m.X.Categories)
				at[xv.Texts[i]] = c
				m.X.Categories = append(m.X.Categories, xv.Texts[i])
			}
			xpos[i] = float64(c)
		}
	} else {
		var distinct []float64
		for i, ok := range keep {
			if ok {
				distinct = append(distinct, xv.Nums[i])
			}
		}
		slices.Sort(distinct)
		distinct = slices.Compact(distinct)
		if len(distinct) > maxCats {
			// keep the latest values (for times: the most recent windows)
			distinct = distinct[len(distinct)-maxCats:]
		}
		for i, ok := range keep {
			if !ok {
				continue
			}
			c, found := slices.BinarySearch(distinct, xv.Nums[i])
			if !found {
				keep[i] = false
				continue
			}
			xpos[i] = float64(c)
		}
		if m.X.Kind == TimeAxis {
			m.X.Categories = timeLabels(distinct, m.X.Location, m.X.TimeOfDay)
		} else {
			for _, d := range distinct {
				m.X.Categories = append(m.X.Categories, m.X.Format(d))
			}
		}
	}
	m.X.Kind = CategoryAxis
}

// buildHistogram bins the X values of each series.
func (m *Model) buildHistogram(s Settings, xv *results.ColumnValues, keep []bool, groups grouping) {
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	for i, ok := range keep {
		if ok && groups.of[i] >= 0 {
			x := xv.Nums[i]
			if math.IsInf(x, 0) {
				keep[i] = false
				continue
			}
			lo, hi = min(lo, x), max(hi, x)
			n++
		}
	}
	for _, ok := range keep {
		if !ok {
			m.Skipped++
		}
	}
	m.HiddenSeries = groups.hidden
	bins := s.Bins
	if bins <= 0 {
		// Sturges' rule, at least 5 and at most 60 bins
		bins = min(max(int(math.Ceil(math.Log2(float64(max(n, 1)))))+1, 5), 60)
	}
	if n == 0 {
		lo, hi = 0, 1
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	width := (hi - lo) / float64(bins)
	m.Series = make([]Series, len(groups.names))
	for g, name := range groups.names {
		m.Series[g].Name = name
		if name == "" {
			m.Series[g].Name = s.X
		}
		m.Series[g].Bins = make([]Bin, bins)
		for k := range bins {
			m.Series[g].Bins[k] = Bin{Min: lo + float64(k)*width, Max: lo + float64(k+1)*width}
		}
		m.Series[g].Bins[bins-1].Max = hi
	}
	for i, ok := range keep {
		if !ok || groups.of[i] < 0 {
			continue
		}
		k := min(int((xv.Nums[i]-lo)/width), bins-1)
		m.Series[groups.of[i]].Bins[k].Count++
	}
	m.Y = Axis{Kind: NumberAxis, Label: "count", Location: time.UTC, Integer: true}
	m.setRanges()
}

// setRanges sets the axis ranges from the data: X spans the data (or the
// categories), Y spans the data extended to nice tick values and, for
// bars, areas and histograms, to zero. A scatter's ranges leave a margin
// (scatterMargin of the span) beyond its outermost points, so that their
// marks are drawn whole.
func (m *Model) setRanges() {
	s := m.Settings
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	switch s.Kind {
	case Histogram:
		for _, ser := range m.Series {
			for _, b := range ser.Bins {
				xlo, xhi = min(xlo, b.Min), max(xhi, b.Max)
				ylo, yhi = min(ylo, b.Count), max(yhi, b.Count)
			}
		}
	case StackedBar:
		// bars stack in series order, each on the sum of those before it
		n := len(m.X.Categories)
		for c := range n {
			sum := 0.0
			for _, ser := range m.Series {
				sum += ser.Points[c].Y
				ylo, yhi = min(ylo, sum), max(yhi, sum)
			}
		}
	default:
		for _, ser := range m.Series {
			for _, p := range ser.Points {
				xlo, xhi = min(xlo, p.X), max(xhi, p.X)
				ylo, yhi = min(ylo, p.Y), max(yhi, p.Y)
			}
		}
	}
	if m.X.Kind == CategoryAxis {
		xlo, xhi = -0.5, float64(len(m.X.Categories))-0.5
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi = 0, 1
	}
	if math.IsInf(ylo, 0) {
		ylo, yhi = 0, 1
	}
	switch s.Kind {
	case Bar, StackedBar, Area, Histogram:
		ylo, yhi = min(ylo, 0), max(yhi, 0)
	}
	if xhi == xlo {
		xlo, xhi = widen(xlo, m.X.Kind)
	}
	if yhi == ylo {
		ylo, yhi = widen(ylo, m.Y.Kind)
	}
	dylo, dyhi := ylo, yhi // the data's (widened) span
	if m.Y.Kind == NumberAxis {
		step := niceStep((yhi - ylo) / 5)
		if m.Y.Integer {
			step = max(step, 1)
		}
		ylo = math.Floor(ylo/step+1e-9) * step
		yhi = math.Ceil(yhi/step-1e-9) * step
	}
	if s.Kind == Scatter {
		if m.X.Kind != CategoryAxis {
			pad := (xhi - xlo) * scatterMargin
			xlo, xhi = xlo-pad, xhi+pad
		}
		pad := (dyhi - dylo) * scatterMargin
		ylo, yhi = min(ylo, dylo-pad), max(yhi, dyhi+pad)
	}
	m.X.Min, m.X.Max = xlo, xhi
	m.Y.Min, m.Y.Max = ylo, yhi
}

// scatterMargin is the share of an axis's span left free beyond a
// scatter's outermost points.
const scatterMargin = 0.03

// widen gives a single value a visible range.
func widen(v float64, k AxisKind) (float64, float64) {
	switch {
	case k == TimeAxis:
		return v - 30, v + 30
	case v == 0:
		return 0, 1
	}
	d := math.Abs(v) * 0.1
	return v - d, v + d
}

// Points returns the number of points (or bins) over all series.
func (m *Model) Points() int {
	n := 0
	for _, s := range m.Series {
		n += len(s.Points) + len(s.Bins)
	}
	return n
}

// NewModel builds a model from series computed elsewhere (a watermark-lag
// history, say): the axes keep their kinds and labels and get their
// ranges from the data as Build sets them. Points of lines and areas must
// be in X order.
func NewModel(s Settings, x, y Axis, series []Series) *Model {
	if x.Location == nil {
		x.Location = time.UTC
	}
	if y.Location == nil {
		y.Location = time.UTC
	}
	m := &Model{Settings: s, X: x, Y: y, Series: series}
	for _, ser := range series {
		m.Rows += len(ser.Points)
	}
	m.Total = m.Rows
	m.setRanges()
	return m
}
