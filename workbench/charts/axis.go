package charts

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// AxisKind is how an axis maps values to positions and labels them.
type AxisKind uint8

// The axis kinds.
const (
	// CategoryAxis places distinct text values at 0, 1, 2, ...
	CategoryAxis AxisKind = iota
	// NumberAxis is a linear axis of numbers.
	NumberAxis
	// TimeAxis is a linear axis of Unix seconds labelled as dates and times
	// (or of seconds since midnight for TIME columns).
	TimeAxis
)

func (k AxisKind) String() string {
	return [...]string{"category", "number", "time"}[k]
}

// AxisKindOf returns the axis kind of a column type: DATE, TIME and
// TIMESTAMP(_LTZ) are times; integers, floats, decimals and intervals are
// numbers; everything else is a category.
func AxisKindOf(t *types.DataType) AxisKind {
	switch t.Root {
	case types.DateRoot, types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		return TimeAxis
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double,
		types.DecimalRoot, types.IntervalDayTimeRoot, types.IntervalYearMonthRoot:
		return NumberAxis
	}
	return CategoryAxis
}

// unitSuffixes map column-name endings to units.
var unitSuffixes = []struct{ suffix, unit string }{
	{"_ms", "ms"}, {"_millis", "ms"}, {"_milliseconds", "ms"},
	{"_us", "µs"}, {"_micros", "µs"}, {"_ns", "ns"}, {"_nanos", "ns"},
	{"_s", "s"}, {"_sec", "s"}, {"_secs", "s"}, {"_seconds", "s"},
	{"_min", "min"}, {"_mins", "min"}, {"_minutes", "min"},
	{"_h", "h"}, {"_hours", "h"}, {"_days", "days"},
	{"_bytes", "bytes"}, {"_kb", "KB"}, {"_mb", "MB"}, {"_gb", "GB"},
	{"_pct", "%"}, {"_percent", "%"}, {"_ratio", "ratio"},
	{"_km", "km"}, {"_miles", "miles"}, {"_m", "m"},
	{"_usd", "USD"}, {"_eur", "EUR"}, {"_per_sec", "/s"}, {"_per_second", "/s"},
}

// UnitOf guesses the unit of a column from its type and name: intervals
// are seconds or months, and names ending in _ms, _sec, _min, _bytes,
// _pct, _km, ... carry those units. It returns "" when unknown.
func UnitOf(name string, t *types.DataType) string {
	switch t.Root {
	case types.IntervalDayTimeRoot:
		return "s"
	case types.IntervalYearMonthRoot:
		return "months"
	}
	if AxisKindOf(t) != NumberAxis {
		return ""
	}
	lower := strings.ToLower(name)
	for _, u := range unitSuffixes {
		if strings.HasSuffix(lower, u.suffix) && len(lower) > len(u.suffix) {
			return u.unit
		}
	}
	return ""
}

// axisLabel joins column names and a shared unit: "avg_delay_min (min)".
func axisLabel(names []string, units []string) string {
	label := strings.Join(names, ", ")
	if unit := sharedUnit(units); unit != "" {
		label += " (" + unit + ")"
	}
	return label
}

// sharedUnit returns the unit all columns share, or "".
func sharedUnit(units []string) string {
	if len(units) == 0 {
		return ""
	}
	for _, u := range units[1:] {
		if u != units[0] {
			return ""
		}
	}
	return units[0]
}

// Tick is a labelled position on an axis.
type Tick struct {
	Value float64
	Label string // "" for a minor tick
}

// numberTicks returns about n major ticks at 1, 2 or 5 times a power of
// ten covering [lo, hi], with labels that show just enough digits.
func numberTicks(lo, hi float64, n int) []Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return []Tick{{Value: lo, Label: formatNumber(lo, 0)}}
	}
	step := niceStep((hi - lo) / float64(max(n, 1)))
	prec := max(0, -int(math.Floor(math.Log10(step))))
	first := math.Ceil(lo/step-1e-9) * step
	var ticks []Tick
	for v := first; v <= hi+step*1e-9; v += step {
		x := math.Round(v/step) * step // keep 0.1+0.2 from printing as 0.30000000000000004
		if math.Abs(x) < step*1e-9 {
			x = 0
		}
		ticks = append(ticks, Tick{Value: x, Label: formatNumber(x, prec)})
	}
	return ticks
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// formatNumber prints v with prec decimals, with k/M/G suffixes for large
// whole numbers so tick labels stay short (12k, 1.5M).
func formatNumber(v float64, prec int) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9 && prec == 0:
		return trimZeros(strconv.FormatFloat(v/1e9, 'f', 2, 64)) + "G"
	case a >= 1e6 && prec == 0:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', 2, 64)) + "M"
	case a >= 1e4 && prec == 0:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "k"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// timeStep is a candidate spacing of time ticks with its label layout.
type timeStep struct {
	d      time.Duration // fixed steps; 0 for months and years
	months int
	layout string
}

var timeSteps = []timeStep{
	{d: time.Millisecond, layout: "15:04:05.000"},
	{d: 10 * time.Millisecond, layout: "15:04:05.00"},
	{d: 100 * time.Millisecond, layout: "15:04:05.0"},
	{d: time.Second, layout: "15:04:05"},
	{d: 2 * time.Second, layout: "15:04:05"},
	{d: 5 * time.Second, layout: "15:04:05"},
	{d: 10 * time.Second, layout: "15:04:05"},
	{d: 15 * time.Second, layout: "15:04:05"},
	{d: 30 * time.Second, layout: "15:04:05"},
	{d: time.Minute, layout: "15:04"},
	{d: 2 * time.Minute, layout: "15:04"},
	{d: 5 * time.Minute, layout: "15:04"},
	{d: 10 * time.Minute, layout: "15:04"},
	{d: 15 * time.Minute, layout: "15:04"},
	{d: 30 * time.Minute, layout: "15:04"},
	{d: time.Hour, layout: "15:04"},
	{d: 2 * time.Hour, layout: "15:04"},
	{d: 3 * time.Hour, layout: "15:04"},
	{d: 6 * time.Hour, layout: "Jan 2 15:04"},
	{d: 12 * time.Hour, layout: "Jan 2 15:04"},
	{d: 24 * time.Hour, layout: "Jan 2"},
	{d: 2 * 24 * time.Hour, layout: "Jan 2"},
	{d: 7 * 24 * time.Hour, layout: "Jan 2"},
	{months: 1, layout: "Jan 2006"},
	{months: 3, layout: "Jan 2006"},
	{months: 6, layout: "Jan 2006"},
	{months: 12, layout: "2006"},
	{months: 24, layout: "2006"},
	{months: 60, layout: "2006"},
	{months: 120, layout: "2006"},
}

// timeTicks returns about n ticks on calendar boundaries of loc between
// Unix seconds lo and hi. The first tick's label carries the date when
// the layout shows only the time of day, so the reader knows the day.
func timeTicks(lo, hi float64, n int, loc *time.Location, timeOfDay bool) []Tick {
	if loc == nil {
		loc = time.UTC
	}
	if !(hi > lo) {
		t := unixTime(lo, loc)
		layout := "2006-01-02 15:04:05"
		if timeOfDay {
			layout = "15:04:05"
		}
		return []Tick{{Value: lo, Label: t.Format(layout)}}
	}
	span := time.Duration((hi - lo) * float64(time.Second))
	want := span / time.Duration(max(n, 1))
	st := timeSteps[len(timeSteps)-1]
	for _, s := range timeSteps {
		if timeOfDay && s.d == 0 {
			break
		}
		d := s.d
		if d == 0 {
			d = time.Duration(s.months) * 30 * 24 * time.Hour
		}
		st = s
		if d >= want {
			break
		}
	}
	var ticks []Tick
	start := unixTime(lo, loc)
	var t time.Time
	if st.d > 0 {
		t = truncateIn(start, st.d, loc)
	} else {
		t = time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, loc)
		if st.months >= 12 {
			y := start.Year() - start.Year()%(st.months/12)
			t = time.Date(y, 1, 1, 0, 0, 0, 0, loc)
		} else {
			m := int(start.Month()-1) / st.months * st.months
			t = time.Date(start.Year(), time.Month(m+1), 1, 0, 0, 0, 0, loc)
		}
	}
	for i := 0; i < 1000; i++ {
		v := float64(t.Unix()) + float64(t.Nanosecond())/1e9
		if v > hi+1e-9 {
			break
		}
		if v >= lo-1e-9 {
			ticks = append(ticks, Tick{Value: v, Label: t.Format(st.layout)})
		}
		if st.d > 0 {
			next := t.Add(st.d)
			if st.d >= time.Hour && st.d <= 24*time.Hour {
				// follow wall-clock boundaries across DST changes
				next = truncateIn(next.Add(st.d/2), st.d, loc)
			}
			t = next
		} else {
			t = t.AddDate(0, st.months, 0)
		}
	}
	if len(ticks) > 0 && !timeOfDay && st.d > 0 && st.d < 6*time.Hour {
		first := unixTime(ticks[0].Value, loc)
		ticks[0].Label = first.Format("Jan 2 ") + ticks[0].Label
	}
	return ticks
}

// truncateIn rounds t down to a multiple of d in wall-clock time of loc
// (so hourly ticks fall on the hour of that zone, daily ones at midnight).
func truncateIn(t time.Time, d time.Duration, loc *time.Location) time.Time {
	t = t.In(loc)
	if d >= 24*time.Hour {
		days := int(d / (24 * time.Hour))
		day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		yd := day.YearDay() - 1
		return day.AddDate(0, 0, -(yd % days))
	}
	_, off := t.Zone()
	shifted := t.Add(time.Duration(off) * time.Second)
	trunc := shifted.Truncate(d)
	return trunc.Add(-time.Duration(off) * time.Second).In(loc)
}

// unixTime converts Unix seconds to a time in loc.
func unixTime(v float64, loc *time.Location) time.Time {
	sec := math.Floor(v)
	return time.Unix(int64(sec), int64(math.Round((v-sec)*1e9))).In(loc)
}

// formatTime renders an axis value for a tooltip or a category label.
func formatTime(v float64, loc *time.Location, timeOfDay bool) string {
	if timeOfDay {
		return unixTime(v, time.UTC).Format("15:04:05")
	}
	t := unixTime(v, loc)
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.000")
	}
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04:05")
}

// timeLabels labels distinct sorted times (bar categories) as briefly as
// they allow: dates alone when all are midnights, times of day when all
// fall on one day (the first with its date), date and time otherwise.
func timeLabels(vs []float64, loc *time.Location, timeOfDay bool) []string {
	if loc == nil || timeOfDay {
		loc = time.UTC
	}
	out := make([]string, len(vs))
	if len(vs) == 0 {
		return out
	}
	midnights, seconds, frac := true, false, false
	first, last := unixTime(vs[0], loc), unixTime(vs[len(vs)-1], loc)
	for _, v := range vs {
		t := unixTime(v, loc)
		if t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
			midnights = false
		}
		seconds = seconds || t.Second() != 0
		frac = frac || t.Nanosecond() != 0
	}
	clock := "15:04"
	switch {
	case frac:
		clock = "15:04:05.000"
	case seconds:
		clock = "15:04:05"
	}
	sameDay := first.Year() == last.Year() && first.YearDay() == last.YearDay()
	for i, v := range vs {
		t := unixTime(v, loc)
		switch {
		case timeOfDay:
			out[i] = t.Format(clock)
		case midnights:
			out[i] = t.Format("2006-01-02")
		case sameDay && i > 0:
			out[i] = t.Format(clock)
		default:
			out[i] = t.Format("Jan 2 " + clock)
		}
	}
	return out
}
