package resulttab

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// fakeHost counts what the tab asks of it.
type fakeHost struct {
	exports, stops, closes, icons, states int
	status                                string
}

func (h *fakeHost) Export()                                            { h.exports++ }
func (h *fakeHost) Stop()                                              { h.stops++ }
func (h *fakeHost) Close()                                             { h.closes++ }
func (h *fakeHost) CellActions(widget.TableCellID) []*fyne.MenuItem    { return nil }
func (h *fakeHost) HeaderActions(int) []*fyne.MenuItem                 { return nil }
func (h *fakeHost) WrapViews(body fyne.CanvasObject) fyne.CanvasObject { return body }
func (h *fakeHost) TickViews(bool)                                     {}
func (h *fakeHost) StatusNote() string                                 { return " · note" }
func (h *fakeHost) IconChanged()                                       { h.icons++ }
func (h *fakeHost) StateChanged()                                      { h.states++ }
func (h *fakeHost) SetStatus(s string)                                 { h.status = s }
func (h *fakeHost) Shortcut(fyne.Shortcut) bool                        { return false }
func (h *fakeHost) Do(f func())                                        { f() }

func intResult() *results.Result {
	return results.New([]results.Column{{Name: "k", Type: types.IntType()}}, results.Options{})
}

// A cancelled query is STOPPING until its reader has ended, then CANCELED.
func TestCanceledQueryIsStoppingUntilItEnds(t *testing.T) {
	r := intResult()
	rt := &Tab{Res: r}
	if got := rt.State(); got != Running {
		t.Fatalf("state %s", got)
	}
	rt.canceled.Store(true)
	if got := rt.State(); got != Stopping || !rt.Stopping() {
		t.Errorf("state %s after Stop", got)
	}
	r.Finish(context.Canceled)
	if got := rt.State(); got != Canceled || rt.Stopping() {
		t.Errorf("state %s after the end", got)
	}
}

func TestShortTitle(t *testing.T) {
	if !strings.HasPrefix((&Tab{N: 12, Title: "#12 SELECT origin, COUNT(*) FROM x"}).ShortTitle(), "#12 SELECT origin") {
		t.Errorf("short title %q", (&Tab{N: 12, Title: "#12 SELECT origin, COUNT(*) FROM x"}).ShortTitle())
	}
	if got := (&Tab{N: 3, Title: "#3"}).ShortTitle(); got != "#3" {
		t.Errorf("short title %q", got)
	}
}

// A live query's tab: the badge, Pause, Stop, Export and × reach the
// host; the end is FINISHED with the buttons disabled.
func TestTabButtonsReachTheHost(t *testing.T) {
	test.NewTempApp(t)
	r := intResult()
	h := &fakeHost{}
	rt := &Tab{N: 1, Title: "#1 t", Res: r, JobID: "j1", Started: time.Now()}
	rt.Build(h)
	rt.Tick(true)
	if rt.StateLabel().Text != Running || h.states != 1 || rt.StopButton().Disabled() {
		t.Fatalf("badge %q, state changes %d, Stop disabled %v", rt.StateLabel().Text, h.states, rt.StopButton().Disabled())
	}
	if rt.EmptyLabel().Text != "Waiting for rows…" || !strings.HasSuffix(rt.StatusLabel().Text, " · note") {
		t.Errorf("empty %q, status %q", rt.EmptyLabel().Text, rt.StatusLabel().Text)
	}
	test.Tap(rt.PauseButton())
	if rt.State() != Paused || rt.PauseButton().Text != "Resume" {
		t.Errorf("after Pause: %s, %q", rt.State(), rt.PauseButton().Text)
	}
	test.Tap(rt.PauseButton())
	test.Tap(rt.StopButton())
	test.Tap(rt.ExportButton())
	test.Tap(rt.CloseButton())
	if h.stops != 1 || h.exports != 1 || h.closes != 1 {
		t.Errorf("stops %d, exports %d, closes %d", h.stops, h.exports, h.closes)
	}
	if err := r.AddRows([]*types.Row{types.NewRow(int32(1))}); err != nil {
		t.Fatal(err)
	}
	r.Finish(nil)
	rt.SetEnded(time.Now())
	rt.Tick(true)
	if rt.StateLabel().Text != Finished || !rt.StopButton().Disabled() || !rt.PauseButton().Disabled() {
		t.Errorf("after the end: badge %q, Stop disabled %v", rt.StateLabel().Text, rt.StopButton().Disabled())
	}
	if !strings.HasPrefix(rt.StatusLabel().Text, "1 row") || rt.EmptyLabel().Visible() {
		t.Errorf("status %q, empty label shown %v", rt.StatusLabel().Text, rt.EmptyLabel().Visible())
	}
}
