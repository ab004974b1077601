package charts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// Kind is a chart type.
type Kind string

// The chart types.
const (
	Line       Kind = "line"
	Bar        Kind = "bar"
	StackedBar Kind = "stacked-bar"
	Scatter    Kind = "scatter"
	Area       Kind = "area"
	Histogram  Kind = "histogram"
)

// Kinds lists the chart types in the order a menu shows them.
var Kinds = []Kind{Line, Area, Bar, StackedBar, Scatter, Histogram}

// Valid reports whether k is a known chart type.
func (k Kind) Valid() bool { return slices.Contains(Kinds, k) }

// Title is the human name of the chart type ("Stacked bar").
func (k Kind) Title() string {
	switch k {
	case StackedBar:
		return "Stacked bar"
	case "":
		return ""
	}
	return strings.ToUpper(string(k[:1])) + string(k[1:])
}

// settingsVersion is written into every encoded Settings.
const settingsVersion = 1

// Settings choose what a chart shows. They are what a result tab stores
// in the workspace (as JSON, see Marshal and ParseSettings).
//
// For a histogram X names the column whose values are binned and Y is
// ignored; for the other kinds X gives the horizontal position and each Y
// column one series (times each value of Series, when set).
type Settings struct {
	Kind Kind `json:"kind"`
	// X is the column on the horizontal axis.
	X string `json:"x,omitempty"`
	// Y are the columns plotted against X (numeric columns).
	Y []string `json:"y,omitempty"`
	// Series, when set, splits the rows by the value of this column: one
	// line (bar group, ...) per distinct value.
	Series string `json:"series,omitempty"`
	// Window, when positive and X is a time column, shows only the last
	// Window of event time: rows whose X is within Window of the largest X.
	Window Duration `json:"window,omitempty"`
	// Bins is the number of histogram bins (0 = chosen from the data).
	Bins int `json:"bins,omitempty"`
	// Title is drawn above the chart (empty = none).
	Title string `json:"title,omitempty"`
	// Auto marks settings chosen by Detect rather than by the user: a UI
	// may re-detect them when the result's columns change.
	Auto bool `json:"auto,omitempty"`
}

type encodedSettings struct {
	V int `json:"v"`
	Settings
}

// Marshal encodes the settings as a JSON document with a version field.
func (s Settings) Marshal() ([]byte, error) {
	return json.Marshal(encodedSettings{V: settingsVersion, Settings: s})
}

// ParseSettings decodes settings written by Marshal. An empty document
// gives the zero Settings (no chart chosen yet); an unknown kind or a
// newer version is an error, so a caller can fall back to Detect.
func ParseSettings(b []byte) (Settings, error) {
	if len(bytes.TrimSpace(b)) == 0 || string(bytes.TrimSpace(b)) == "null" {
		return Settings{}, nil
	}
	var e encodedSettings
	if err := json.Unmarshal(b, &e); err != nil {
		return Settings{}, fmt.Errorf("chart settings: %w", err)
	}
	if e.V > settingsVersion {
		return Settings{}, fmt.Errorf("chart settings: version %d is newer than this Riffle (%d)", e.V, settingsVersion)
	}
	if e.Kind != "" && !e.Kind.Valid() {
		return Settings{}, fmt.Errorf("chart settings: unknown chart type %q", e.Kind)
	}
	if e.Bins < 0 {
		e.Bins = 0
	}
	return e.Settings, nil
}

// Duration is a time.Duration that encodes to JSON as Go duration text
// ("5m0s"); it decodes that text or a number of seconds.
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("duration: want text such as \"5m\" or seconds, got %s", b)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// maxDetectY caps the Y columns Detect picks.
const maxDetectY = 4

// Detect chooses settings for a result's columns, as a chart tab does on
// first opening:
//
//   - a time column (window_start, window_end, then any other) and numeric
//     columns: a line chart over time of the measures (the numeric columns
//     that are not keys) or, when there is a key column (a text column, or
//     an integer id such as id or sensor_id, as GROUP BY keys are), of the
//     first measure with one line per key;
//   - a text column and numeric columns: a bar chart of the measures per
//     text value;
//   - two or more numeric columns: a scatter of the second against the
//     first;
//   - one numeric column: its histogram.
//
// ok is false when nothing can be charted (no numeric column).
func Detect(cols []results.Column) (s Settings, ok bool) {
	var times, nums, texts, keys, measures []string
	for _, c := range cols {
		switch AxisKindOf(c.Type) {
		case TimeAxis:
			times = append(times, c.Name)
		case NumberAxis:
			nums = append(nums, c.Name)
			if isKeyLike(c) {
				keys = append(keys, c.Name)
			} else {
				measures = append(measures, c.Name)
			}
		default:
			if c.Type.Root != types.Boolean {
				texts = append(texts, c.Name)
				keys = append(keys, c.Name)
			}
		}
	}
	if len(measures) == 0 {
		// only ids: chart them rather than nothing
		measures = nums
		keys = texts
	}
	s.Auto = true
	switch {
	case len(times) > 0 && len(nums) > 0:
		s.Kind, s.X = Line, pickTime(times)
		s.Y = measures[:min(len(measures), maxDetectY)]
		if len(keys) > 0 {
			// one line per key of the first measure; more columns times
			// more keys would be a tangle
			s.Series, s.Y = keys[0], measures[:1]
		}
	case len(times) > 1:
		// a time column may be charted against another (say, event time
		// against processing time)
		s.Kind, s.X, s.Y = Scatter, times[0], times[1:2]
	case len(texts) > 0 && len(nums) > 0:
		s.Kind, s.X, s.Y = Bar, texts[0], measures[:min(len(measures), maxDetectY)]
	case len(nums) > 1:
		s.Kind, s.X, s.Y = Scatter, nums[0], nums[1:2]
	case len(nums) == 1:
		s.Kind, s.X = Histogram, nums[0]
	case len(times) == 1:
		s.Kind, s.X = Histogram, times[0]
	default:
		return Settings{}, false
	}
	return s, true
}

// isKeyLike reports a numeric column that identifies rather than
// measures: an integer named id, or ending in _id or _key (sensor_id,
// auction_id), as the keys of a GROUP BY usually are. A result schema
// carries no upsert key to go by.
func isKeyLike(c results.Column) bool {
	switch c.Type.Root {
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
	default:
		return false
	}
	n := strings.ToLower(c.Name)
	return n == "id" || n == "key" || strings.HasSuffix(n, "_id") || strings.HasSuffix(n, "_key")
}

// WithoutSeriesInY drops the Series column from the Y columns: a column
// that splits the rows into lines is not also one of the lines.
func (s Settings) WithoutSeriesInY() Settings {
	if s.Series == "" || !slices.Contains(s.Y, s.Series) {
		return s
	}
	s.Y = slices.DeleteFunc(slices.Clone(s.Y), func(y string) bool { return y == s.Series })
	return s
}

// MaxScaleRatio is how many times larger than the first Y column's values
// another Y column's may be (or smaller) and still share its axis with
// them: beyond, one of the two is a flat line at the bottom.
const MaxScaleRatio = 10

// FitScales narrows the Y columns of detected settings (Auto) to those on
// the scale of the first one, judged by the largest absolute value of each
// in m, the chart built with s: flights (15,000 an hour) and an average
// delay (0 to 170 minutes) on one axis leave the delay invisible. It
// returns the settings and the columns left out (none: s unchanged).
// Settings a user chose, histograms and charts split by a Series column
// (one Y) are left alone.
func FitScales(s Settings, m *Model) (Settings, []string) {
	if !s.Auto || s.Kind == Histogram || s.Series != "" || len(s.Y) < 2 || m == nil || len(m.Series) != len(s.Y) {
		return s, nil
	}
	top := make([]float64, len(s.Y))
	for k, ser := range m.Series {
		for _, p := range ser.Points {
			top[k] = max(top[k], math.Abs(p.Y))
		}
	}
	if top[0] == 0 {
		return s, nil // nothing to judge by yet
	}
	keep := []string{s.Y[0]}
	var out []string
	for k := 1; k < len(s.Y); k++ {
		if r := top[k] / top[0]; top[k] > 0 && (r > MaxScaleRatio || r < 1.0/MaxScaleRatio) {
			out = append(out, s.Y[k])
		} else {
			keep = append(keep, s.Y[k])
		}
	}
	if len(out) == 0 {
		return s, nil
	}
	s.Y = keep
	return s, out
}

// pickTime prefers the window columns of a window TVF aggregate, the
// window's start first (as the SQL Client's examples plot them).
func pickTime(names []string) string {
	for _, pref := range []string{"window_start", "window_end", "window_time", "rowtime", "ts"} {
		for _, n := range names {
			if strings.EqualFold(n, pref) {
				return n
			}
		}
	}
	return names[0]
}

// Validate checks the settings against a result's columns: the columns
// exist, Y columns are numeric (or times), and the kind fits the X axis.
func (s Settings) Validate(cols []results.Column) error {
	if !s.Kind.Valid() {
		return fmt.Errorf("unknown chart type %q", s.Kind)
	}
	find := func(role, name string) (*results.Column, error) {
		for i := range cols {
			if cols[i].Name == name {
				return &cols[i], nil
			}
		}
		if name == "" {
			return nil, fmt.Errorf("choose a column for %s", role)
		}
		return nil, fmt.Errorf("%s column %q is not in the result", role, name)
	}
	x, err := find("X", s.X)
	if err != nil {
		return err
	}
	if s.Kind == Histogram {
		if !results.IsNumeric(x.Type) {
			return fmt.Errorf("a histogram needs a numeric column; %q is %s", x.Name, x.Type)
		}
	} else {
		if len(s.Y) == 0 {
			return fmt.Errorf("choose at least one Y column")
		}
		for _, y := range s.Y {
			c, err := find("Y", y)
			if err != nil {
				return err
			}
			if !results.IsNumeric(c.Type) {
				return fmt.Errorf("Y column %q is %s, not a number", c.Name, c.Type)
			}
		}
	}
	if s.Series != "" {
		if _, err := find("series", s.Series); err != nil {
			return err
		}
	}
	if s.Window < 0 {
		return fmt.Errorf("the time window must not be negative")
	}
	return nil
}
