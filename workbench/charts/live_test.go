package charts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestLiveStep(t *testing.T) {
	r := windowed(t, 3, "AA")
	var frames []Frame
	l := NewLive(r, Settings{Kind: Line, X: "window_start", Y: []string{"flights"}}, RenderOptions{}, func(f Frame) { frames = append(frames, f) })
	if l.Step() {
		t.Fatal("rendered with no size")
	}
	l.SetOptions(RenderOptions{Width: 200, Height: 100})
	if !l.Step() || len(frames) != 1 || frames[0].Model.Points() != 3 || frames[0].Image.Bounds().Dx() != 200 {
		t.Fatalf("first frame: %d frames", len(frames))
	}
	if l.Step() {
		t.Error("rendered again without a change")
	}
	ws := t0.Add(3 * time.Minute)
	r.Add(types.Insert, []any{ws, ws.Add(time.Minute), "AA", int64(3), 1.5})
	if !l.Step() || frames[1].Model.Points() != 4 {
		t.Errorf("after a row: %d frames", len(frames))
	}
	r.SetPaused(true)
	r.Add(types.Insert, []any{ws, ws.Add(time.Minute), "AA", int64(4), 1.5})
	if l.Step() {
		t.Error("rendered while paused")
	}
	r.SetPaused(false)
	if !l.Step() || frames[2].Model.Points() != 5 {
		t.Error("resume did not render")
	}
	l.SetSettings(Settings{Kind: Line, X: "window_start", Y: []string{"carrier"}})
	if !l.Step() || frames[3].Err == nil || !strings.Contains(frames[3].Err.Error(), "not a number") || frames[3].Image == nil {
		t.Errorf("bad settings frame: %+v", frames[3])
	}
	if l.Step() {
		t.Error("an error frame is rendered again and again")
	}
	l.SetOptions(RenderOptions{Width: 300, Height: 100})
	if !l.Step() || frames[4].Image.Bounds().Dx() != 300 {
		t.Error("resize did not render")
	}
}

func TestLiveRun(t *testing.T) {
	r := windowed(t, 3, "AA")
	got := make(chan Frame, 16)
	l := NewLive(r, Settings{Kind: Line, X: "window_start", Y: []string{"flights"}}, RenderOptions{Width: 120, Height: 80}, func(f Frame) { got <- f })
	l.SetInterval(10 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	wait := func() Frame {
		select {
		case f := <-got:
			return f
		case <-time.After(10 * time.Second):
			t.Fatal("no frame")
		}
		return Frame{}
	}
	if f := wait(); f.Model.Points() != 3 {
		t.Errorf("first frame %d points", f.Model.Points())
	}
	ws := t0.Add(3 * time.Minute)
	r.Add(types.Insert, []any{ws, ws.Add(time.Minute), "AA", int64(3), 1.5})
	if f := wait(); f.Model.Points() != 4 {
		t.Errorf("second frame %d points", f.Model.Points())
	}
	cancel()
	<-done
}
