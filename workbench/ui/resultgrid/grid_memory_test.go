package resultgrid

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
)

// objectsOf counts the canvas objects of the grid's tree that match.
func objectsOf(o fyne.CanvasObject, match func(fyne.CanvasObject) bool) int {
	n := 0
	if match(o) {
		n++
	}
	var kids []fyne.CanvasObject
	switch c := o.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(c).Objects()
	}
	for _, k := range kids {
		n += objectsOf(k, match)
	}
	return n
}

// A grid whose rows arrived before its first layout (New refreshes it at
// once) draws, once laid out, the separators and cells of the rows it
// shows, not one separator per row of its page (grid_memory.go).
func TestUnsizedGridMakesNoSeparatorPerRow(t *testing.T) {
	test.NewTempApp(t)
	r := bigResult(t, 20_000)
	g := New(r, results.TableView)
	w := test.NewWindow(container.NewWithoutLayout(g)) // g is not sized yet
	defer w.Close()
	w.Resize(fyne.NewSize(1200, 500))
	g.RefreshFrame() // rows arrive before the first layout
	g.Resize(fyne.NewSize(1100, 400))
	g.RefreshFrame()
	seps := objectsOf(g, func(o fyne.CanvasObject) bool { _, ok := o.(*widget.Separator); return ok })
	if seps == 0 || seps > 100 {
		t.Errorf("%d separators in a 400 px grid of %d rows", seps, g.Total())
	}
	first := objectsOf(g, func(o fyne.CanvasObject) bool {
		c, ok := o.(*Cell)
		return ok && c.ID() == widget.TableCellID{Row: 0, Col: 1} && c.Text() == "0"
	})
	if first != 1 {
		t.Errorf("the first row's id cell is drawn %d times, want 1", first)
	}
	if rows, _ := g.Shape(); rows != 20_000 {
		t.Errorf("Shape has %d rows", rows)
	}
}
