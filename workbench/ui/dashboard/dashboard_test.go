package dashboard

import (
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestPlaceFillsGaps(t *testing.T) {
	// a 2×2 tile, then three 1×1: two fill the column beside it, the third
	// goes under it
	got := Place(3, []Span{{2, 2}, {1, 1}, {1, 1}, {1, 1}, {5, 0}})
	want := []Cell{{0, 0, 2, 2}, {2, 0, 1, 1}, {2, 1, 1, 1}, {0, 2, 1, 1}, {0, 3, 3, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Place = %v, want %v", got, want)
	}
	if Rows(got) != 4 {
		t.Errorf("Rows = %d", Rows(got))
	}
}

// A tile after a wide one stays after it: the gap under the first tile
// is not filled by a later one (no dense packing), so moving a small tile
// after the wide one shows.
func TestPlaceKeepsTheReadingOrder(t *testing.T) {
	// a 1×1, a 2×2 beside it, a 3×1 under both, then a 1×1
	got := Place(3, []Span{{1, 1}, {2, 2}, {3, 1}, {1, 1}})
	want := []Cell{{0, 0, 1, 1}, {1, 0, 2, 2}, {0, 2, 3, 1}, {0, 3, 1, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Place = %v, want %v (the last tile back in the gap at column 0, row 1 undoes its move)", got, want)
	}
}

func TestMove(t *testing.T) {
	for _, c := range []struct {
		i    int
		d    Direction
		want []int
		ok   bool
	}{
		{1, Left, []int{1, 0, 2, 3, 4}, true},
		{1, Right, []int{0, 2, 1, 3, 4}, true},
		{0, Left, nil, false},
		{4, Right, nil, false},
		{4, Up, []int{0, 4, 1, 2, 3}, true},
		{0, Down, []int{1, 2, 3, 0, 4}, true},
		{3, Down, []int{0, 1, 2, 4, 3}, true},
	} {
		got, ok := Move(5, c.i, c.d, 3)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Move(5, %d, %d, 3) = %v, %v; want %v, %v", c.i, c.d, got, ok, c.want, c.ok)
		}
	}
}

// The value tile reads the latest value added (+I/+U) and the one before,
// skipping retractions, and words the change with an arrow and colour.
func TestLatestValueAndChange(t *testing.T) {
	test.NewTempApp(t)
	res := results.New([]results.Column{{Name: "airport", Type: types.StringType()}, {Name: "avg_delay", Type: types.DoubleType()}}, results.Options{})
	v := NewValueView("avg_delay")
	r := Latest(res, 1)
	v.Show(r)
	if r.OK || v.Value.Text != "…" {
		t.Fatalf("no rows: %+v, shown %q", r, v.Value.Text)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(res.Add(types.Insert, []any{"ORD", 12.5}))
	r = Latest(res, 1)
	v.Show(r)
	if !r.OK || r.HasPrev || v.Value.Text != "12.5" || v.Change.Text != "" {
		t.Fatalf("one row: %+v, shown %q %q", r, v.Value.Text, v.Change.Text)
	}
	must(res.Add(types.UpdateBefore, []any{"ORD", 12.5}))
	must(res.Add(types.UpdateAfter, []any{"ORD", 10.0}))
	r = Latest(res, 1)
	v.Show(r)
	if !r.Numeric || r.Num != 10 || r.Prev != 12.5 || v.Change.Text != "▼ 2.5" || v.Change.Color != ChangeColor(Reading{Numeric: true, HasPrev: true, Num: 0, Prev: 1}) {
		t.Errorf("after an update: %+v, shown %q %q", r, v.Value.Text, v.Change.Text)
	}
	must(res.Add(types.Insert, []any{"DFW", 14.0}))
	if r = Latest(res, 1); r.ChangeText() != "▲ 4" || r.Changes != 4 {
		t.Errorf("after an insert: %+v %q", r, r.ChangeText())
	}
	if r = Latest(res, 0); r.Text != "DFW" || r.Numeric || r.ChangeText() != "" {
		t.Errorf("a text column: %+v", r)
	}
	if r = Latest(res, 7); r.OK {
		t.Errorf("a column out of range: %+v", r)
	}
}

func TestRateMeter(t *testing.T) {
	var m RateMeter
	t0 := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	if _, ok := m.Add(t0, 0); ok {
		t.Error("a rate from one sample")
	}
	m.Add(t0.Add(time.Second), 100)
	if r, ok := m.Add(t0.Add(2*time.Second), 400); !ok || r != 200 {
		t.Errorf("rate = %v, %v; want 200", r, ok)
	}
	// the window is 5 s: the samples before 10 s - 5 s drop out
	m.Add(t0.Add(9*time.Second), 1000)
	if r, _ := m.Add(t0.Add(10*time.Second), 1000); r != 600.0/8 {
		t.Errorf("windowed rate = %v, want %v", r, 600.0/8)
	}
	if FormatRate(1234.4) != "1,234 rows/s" || FormatRate(0.25) != "0.2 rows/s" && FormatRate(0.25) != "0.3 rows/s" {
		t.Errorf("FormatRate: %q %q", FormatRate(1234.4), FormatRate(0.25))
	}
}

// Tiles fill the width; rows share a container taller than they need.
func TestGridLayoutStretchesRows(t *testing.T) {
	objs := []fyne.CanvasObject{canvas.NewRectangle(nil), canvas.NewRectangle(nil), canvas.NewRectangle(nil)}
	l := &GridLayout{Columns: 2, RowHeight: 100, Gap: 10, Spans: func(i int) Span {
		if i == 0 {
			return Span{Cols: 2}
		}
		return Span{}
	}}
	if m := l.MinSize(objs); m.Height != 210 {
		t.Errorf("MinSize %v, want height 210", m)
	}
	l.Layout(objs, fyne.NewSize(410, 610))
	want := []struct{ x, y, w, h float32 }{{0, 0, 410, 300}, {0, 310, 200, 300}, {210, 310, 200, 300}}
	for i, o := range objs {
		if p, s := o.Position(), o.Size(); p.X != want[i].x || p.Y != want[i].y || s.Width != want[i].w || s.Height != want[i].h {
			t.Errorf("tile %d at %v size %v, want %+v", i, p, s, want[i])
		}
	}
}

func TestDragHandleDrops(t *testing.T) {
	test.NewTempApp(t)
	var got []fyne.Position
	h := NewDragHandle(canvas.NewRectangle(nil))
	h.OnDrop = func(at fyne.Position) { got = append(got, at) }
	h.DragEnd() // no drag: nothing
	h.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: fyne.NewPos(10, 10)}})
	h.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: fyne.NewPos(300, 40)}})
	h.DragEnd()
	if len(got) != 1 || got[0] != fyne.NewPos(300, 40) {
		t.Errorf("drops %v", got)
	}
	if !Inside(fyne.NewPos(5, 5), fyne.NewPos(0, 0), fyne.NewSize(10, 10)) || Inside(fyne.NewPos(10, 5), fyne.NewPos(0, 0), fyne.NewSize(10, 10)) {
		t.Error("Inside")
	}
}
