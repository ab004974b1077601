package dashboard

import "fyne.io/fyne/v2"

// Span is how many grid cells a tile covers across (Cols) and down (Rows);
// values below 1 read as 1.
type Span struct{ Cols, Rows int }

// Cell is where Place put a tile: its top-left cell and its span, in grid
// cells (0-based).
type Cell struct{ Col, Row, Cols, Rows int }

func (s Span) norm(columns int) Span {
	s.Cols = min(max(s.Cols, 1), columns)
	s.Rows = max(s.Rows, 1)
	return s
}

// Place lays tiles with spans out on a grid columns cells wide, in order,
// each at the first free cell where its span fits at or after the place
// of the tile before it (row by row, left to right): the auto-placement
// of a CSS grid without "dense" packing, so the order is the reading
// order and a tile moved after a wide one shows after it (a gap it leaves
// stays empty, where dense packing would put a later, smaller tile back
// into it and undo the move). A span wider than the grid is cut to its
// width; columns below 1 read as 1.
func Place(columns int, spans []Span) []Cell {
	columns = max(columns, 1)
	var used [][]bool // used[row][col]
	free := func(r, c int, s Span) bool {
		for y := r; y < r+s.Rows; y++ {
			for x := c; x < c+s.Cols; x++ {
				if y < len(used) && used[y][x] {
					return false
				}
			}
		}
		return true
	}
	out := make([]Cell, len(spans))
	cr, cc := 0, 0 // the cursor: just after the tile placed last
	for i, s := range spans {
		s = s.norm(columns)
	search:
		for r := cr; ; r++ {
			c0 := 0
			if r == cr {
				c0 = cc
			}
			for c := c0; c+s.Cols <= columns; c++ {
				if free(r, c, s) {
					for len(used) < r+s.Rows {
						used = append(used, make([]bool, columns))
					}
					for y := r; y < r+s.Rows; y++ {
						for x := c; x < c+s.Cols; x++ {
							used[y][x] = true
						}
					}
					out[i] = Cell{Col: c, Row: r, Cols: s.Cols, Rows: s.Rows}
					cr, cc = r, c+s.Cols
					break search
				}
			}
		}
	}
	return out
}

// Rows is the number of grid rows cells take.
func Rows(cells []Cell) int {
	n := 0
	for _, c := range cells {
		n = max(n, c.Row+c.Rows)
	}
	return n
}

// GridLayout is a fyne.Layout that places its objects (the tiles, in
// order) with Place: Columns cells across the container's width, each row
// RowHeight high, or more when the container is taller than the rows
// (they share its height), Gap between cells. Spans gives each object's
// span (nil: every object one cell).
type GridLayout struct {
	Columns   int
	RowHeight float32
	Gap       float32
	Spans     func(i int) Span
}

func (l *GridLayout) cells(objs []fyne.CanvasObject) []Cell {
	spans := make([]Span, len(objs))
	for i := range objs {
		if l.Spans != nil {
			spans[i] = l.Spans(i)
		}
	}
	return Place(l.Columns, spans)
}

// Layout implements fyne.Layout.
func (l *GridLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	cols := max(l.Columns, 1)
	cw := (size.Width - l.Gap*float32(cols-1)) / float32(cols)
	cells := l.cells(objs)
	rh := l.RowHeight
	if n := Rows(cells); n > 0 {
		// rows stretch to fill a taller container (a full-screen wall)
		rh = max(rh, (size.Height-l.Gap*float32(n-1))/float32(n))
	}
	for i, c := range cells {
		o := objs[i]
		o.Move(fyne.NewPos(float32(c.Col)*(cw+l.Gap), float32(c.Row)*(rh+l.Gap)))
		o.Resize(fyne.NewSize(cw*float32(c.Cols)+l.Gap*float32(c.Cols-1), rh*float32(c.Rows)+l.Gap*float32(c.Rows-1)))
	}
}

// MinSize implements fyne.Layout: the rows the tiles take, and a width in
// which every column is at least 200 px.
func (l *GridLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	n := Rows(l.cells(objs))
	cols := max(l.Columns, 1)
	h := float32(n)*l.RowHeight + l.Gap*float32(max(n-1, 0))
	return fyne.NewSize(200*float32(cols)+l.Gap*float32(cols-1), h)
}

// Direction is a move of a tile in the grid.
type Direction int

// The moves of a tile: one place earlier or later in the order (left,
// right), one grid row earlier or later (up, down).
const (
	Left Direction = iota
	Right
	Up
	Down
)

// Move returns the order of n tiles after tile i moves in direction d on
// a grid columns wide: order[k] is the old index of the tile now at k.
// Left and right swap it with its neighbour; up and down move it columns
// places (clamped to the ends). It reports false when the tile cannot move
// that way (already first or last).
func Move(n, i int, d Direction, columns int) ([]int, bool) {
	if i < 0 || i >= n {
		return nil, false
	}
	to := i
	switch d {
	case Left:
		to = i - 1
	case Right:
		to = i + 1
	case Up:
		to = i - max(columns, 1)
	case Down:
		to = i + max(columns, 1)
	}
	to = min(max(to, 0), n-1)
	if to == i {
		return nil, false
	}
	order := make([]int, 0, n)
	for k := 0; k < n; k++ {
		if k != i {
			order = append(order, k)
		}
	}
	order = append(order[:to], append([]int{i}, order[to:]...)...)
	return order, true
}
