package jobs

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/workbench/monitor"
)

// A replay's spark line charts how far its watermark advanced ("wm
// +1h00m"), rising left to right beside its label; a live lag charts the
// lag, scaled to its maximum.
func TestLagSparkReplayAndLive(t *testing.T) {
	now := time.Now()
	wm := time.Date(2001, 1, 1, 6, 0, 0, 0, time.UTC)
	// the spark line of the replay charts the watermark's advance
	s := NewLagSpark()
	pts := []monitor.LagPoint{
		{Time: now, Watermark: wm.UnixMilli(), Lag: now.Sub(wm)},
		{Time: now.Add(3 * time.Second), Watermark: wm.Add(time.Hour).UnixMilli(), Lag: now.Add(3 * time.Second).Sub(wm.Add(time.Hour))},
	}
	s.Set(pts, true)
	s.Resize(fyne.NewSize(150, 24))
	test.WidgetRenderer(s).Layout(s.Size())
	if s.label.Text != "wm +1h00m" {
		t.Errorf("replay spark label %q", s.label.Text)
	}
	if l := s.lines[0]; l.Position1.Y <= l.Position2.Y || l.Position2.X+s.label.MinSize().Width > 150 {
		t.Errorf("the line %v–%v does not rise, or the label overlaps it", l.Position1, l.Position2)
	}
	// a live lag charts the lag, scaled to its maximum
	s.Set([]monitor.LagPoint{{Time: now, Lag: 2 * time.Second}, {Time: now.Add(time.Second), Lag: 1500 * time.Millisecond}}, true)
	test.WidgetRenderer(s).Layout(s.Size())
	if s.label.Text != "max 2.0s" {
		t.Errorf("live spark label %q", s.label.Text)
	}
}
