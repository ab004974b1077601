package chartview

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/charts"
)

// fakeHost keeps the settings the view hands it and runs Do at once.
type fakeHost struct {
	kept  []charts.Settings
	saved charts.Settings
	has   bool
}

func (h *fakeHost) Do(f func())                            { f() }
func (h *fakeHost) Window() fyne.Window                    { return nil }
func (h *fakeHost) SavedSettings() (charts.Settings, bool) { return h.saved, h.has }
func (h *fakeHost) KeepSettings(s charts.Settings)         { h.kept = append(h.kept, s) }
func (h *fakeHost) TabClosed() bool                        { return false }
func (h *fakeHost) FileName() string                       { return "result.csv" }
func (h *fakeHost) LastDir() string                        { return "" }
func (h *fakeHost) ChartSaved(string, error)               {}

func TestWindowTitle(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "All rows", 5 * time.Minute: "Last 5 min", 2 * time.Hour: "Last 2 h", 90 * time.Second: "Last 1m30s"} {
		if got := WindowTitle(d); got != want {
			t.Errorf("WindowTitle(%v) = %q, want %q", d, got, want)
		}
	}
}

// A new view detects its settings, draws a frame when shown, and hands
// a changed choice to the host to keep.
func TestViewDetectsDrawsAndKeeps(t *testing.T) {
	test.NewTempApp(t)
	r := results.New([]results.Column{
		{Name: "window_start", Type: types.TimestampType(3)},
		{Name: "n", Type: types.BigIntType()},
	}, results.Options{})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		_ = r.Add(types.Insert, []any{t0.Add(time.Duration(i) * time.Second), int64(i)})
	}
	h := &fakeHost{}
	cv := New(r, h, false)
	defer cv.Close()
	w := test.NewWindow(cv.Content())
	defer w.Close()
	w.Resize(fyne.NewSize(800, 500))
	if s := cv.Settings(); s.X != "window_start" || len(s.Y) != 1 || s.Y[0] != "n" || !s.Auto {
		t.Fatalf("detected %+v", s)
	}
	cv.SetVisible(true)
	if !cv.Step() || cv.Frames() != 1 || !cv.HasImage() {
		t.Fatalf("frames %d, image %v", cv.Frames(), cv.HasImage())
	}
	cv.Kind.SetSelected("Bar")
	if len(h.kept) != 1 || h.kept[0].Kind != charts.Bar || h.kept[0].Auto {
		t.Errorf("kept %+v", h.kept)
	}
}
