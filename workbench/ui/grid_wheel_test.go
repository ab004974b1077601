package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
)

// topDrawnRow is the first data row drawn in the grid.
func topDrawnRow(g *resultgrid.Grid) int {
	top := -1
	for id := range drawnCells(g) {
		if id.Col > 0 && (top < 0 || id.Row < top) {
			top = id.Row
		}
	}
	return top
}

// A wheel notch over the grid scrolls three rows, back and forth;
// Ctrl+End and Ctrl+Home go to the last and first row, End and Home to
// the last and first column (issue 21).
func TestGridWheelScrollsRowsAndCtrlEndGoesToTheLastRow(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SELECT origin, delay FROM flights LIMIT 300")
	g := rt.Grid()
	if top := topDrawnRow(g); top != 0 {
		t.Fatalf("first drawn row %d", top)
	}
	var cell *resultgrid.Cell
	for id, c := range drawnCells(g) {
		if id.Col == 1 && id.Row == 2 {
			cell = c
		}
	}
	if cell == nil {
		t.Fatal("row 3 is not drawn")
	}
	// Fyne clips pointer events at each fyne.Scrollable: a scrollable cell
	// of a row hanging below the viewport took the clicks meant for the
	// Data / Chart / Plan bar under it, so the wheel is caught over the
	// grid instead
	if _, ok := any(cell).(fyne.Scrollable); ok {
		t.Error("a grid cell is fyne.Scrollable")
	}
	// the wheel where Fyne's driver gives it: the scrollable under the
	// pointer, over row 3
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(cell).Add(fyne.NewPos(5, 5))
	notch := func(dy float32) {
		test.Scroll(h.w.Canvas(), at, 0, dy)
	}
	notch(-resultgrid.WheelNotch) // one notch down
	if top := topDrawnRow(g); top != resultgrid.WheelRows {
		t.Errorf("after one notch the first drawn row is %d, want %d", top, resultgrid.WheelRows)
	}
	notch(-resultgrid.WheelNotch)
	notch(-resultgrid.WheelNotch)
	if top := topDrawnRow(g); top != 3*resultgrid.WheelRows {
		t.Errorf("after three notches the first drawn row is %d, want %d", top, 3*resultgrid.WheelRows)
	}
	notch(3 * resultgrid.WheelNotch)
	if top := topDrawnRow(g); top != 0 {
		t.Errorf("back up: first drawn row %d", top)
	}

	g.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEnd, Modifier: fyne.KeyModifierControl})
	if cursor, sel := g.Selection(); !sel || cursor.Row != 299 || cursor.Col != 1 {
		t.Errorf("Ctrl+End selected %+v (selection %v), want row 299", cursor, sel)
	}
	if _, ok := drawnCells(g)[widget.TableCellID{Row: 299, Col: 1}]; !ok {
		t.Error("Ctrl+End did not scroll to the last row")
	}
	g.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyHome, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	if r1, _, r2, _, ok := g.SelectionBounds(); !ok || r1 != 0 || r2 != 299 {
		t.Errorf("Ctrl+Shift+Home selected rows %d..%d", r1, r2)
	}
	if top := topDrawnRow(g); top != 0 {
		t.Errorf("Ctrl+Home: first drawn row %d", top)
	}
	// End and Home go to the last and first column of the row
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if cursor, sel := g.Selection(); !sel || cursor.Row != 1 || cursor.Col != 2 {
		t.Errorf("End selected %+v, want row 1, column 2 (delay)", cursor)
	}
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if cursor, sel := g.Selection(); !sel || cursor.Row != 1 || cursor.Col != 1 {
		t.Errorf("Home selected %+v, want row 1, column 1 (origin)", cursor)
	}
}

// menuTexts lists the texts shown in the canvas's top overlay.
func menuTexts(c fyne.Canvas) []string {
	var out []string
	if top := c.Overlays().Top(); top != nil {
		for _, o := range shown(top) {
			switch x := o.(type) {
			case *canvas.Text:
				out = append(out, x.Text)
			case *widget.Label:
				out = append(out, x.Text)
			}
		}
	}
	return out
}

// A right-click on a cell that is not selected selects it and shows the
// filter entries at once; Filter keeps the query's text as written and
// opens a new result beside the old one (issue 21).
func TestRightClickOnAnUnselectedCellOffersFilters(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("select origin, delay from flights where delay > 300 limit 5")
	g := rt.Grid()
	var cell *resultgrid.Cell
	for id, c := range drawnCells(g) {
		if id.Col == 1 && id.Row == 1 {
			cell = c
		}
	}
	if _, sel := g.Selection(); cell == nil || sel {
		t.Fatalf("cell %v, selection %v", cell != nil, sel)
	}
	cell.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonSecondary})
	cell.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(300, 400)})
	if cursor, sel := g.Selection(); !sel || cursor != (widget.TableCellID{Row: 1, Col: 1}) {
		t.Errorf("the right-clicked cell is not selected: %+v", cursor)
	}
	texts := strings.Join(menuTexts(h.w.Canvas()), "|")
	origin, _, _ := g.CellText(1, 1)
	for _, want := range []string{"Filter = " + origin, "Filter ≠ " + origin, "Filter > " + origin, "Filter < " + origin, "Copy"} {
		if !strings.Contains(texts, want) {
			t.Errorf("menu lacks %q: %s", want, texts)
		}
	}
	h.w.Canvas().Overlays().Top().Hide()
	h.w.Canvas().Overlays().Remove(h.w.Canvas().Overlays().Top())
	rt2 := h.action(rt.cellActions(widget.TableCellID{Row: 1, Col: 1}), "Filter = "+origin)
	// the user's text is kept as written, lower case included
	want := "select origin, delay from flights where delay > 300 AND origin = '" + origin + "' limit 5"
	if got := h.tab().ed.Text(); got != want {
		t.Errorf("after Filter =: %q, want %q", got, want)
	}
	if h.wb.resultFor(rt.Item()) == nil || rt2 == rt {
		t.Error("the previous result was replaced")
	}
	// a query written on several lines keeps the multi-line style
	rt3 := h.runBatch("SELECT origin, delay\nFROM flights\nWHERE delay > 300 LIMIT 5")
	h.action(rt3.cellActions(widget.TableCellID{Row: 0, Col: 1}), "Filter ≠")
	if got := h.tab().ed.Text(); !strings.Contains(got, "\nFROM flights\nWHERE delay > 300 AND origin <> ") {
		t.Errorf("multi-line query after Filter ≠: %q", got)
	}
}
