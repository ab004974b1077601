package resultgrid

import "fyne.io/fyne/v2"

// Fyne's Table (v2.7) draws a separator between every two rows it takes
// for visible, and while its scroller has no size yet it takes every row
// for visible: a grid refreshed before it was laid out (a result tab whose
// rows arrived before its first layout, or one in a hidden tab) made one
// separator widget per row of the page, 200,000 of them for a million-row
// result, about 95 MB of heap (and as many objects walked by every paint)
// that the Table keeps for its whole life. The Table is therefore told of
// no rows until its scroller has a size; the scroller's first layout asks
// again, now with the rows, and draws the visible ones only.

// tableLength is the Table's Length callback: Shape, with no rows while
// the Table's scroller is not laid out.
func (g *Grid) tableLength() (rows, cols int) {
	rows, cols = g.Shape()
	sc, ok := g.scroller.(fyne.CanvasObject)
	if !ok {
		return 0, cols
	}
	if s := sc.Size(); s.Height <= 0 || s.Width <= 0 {
		return 0, cols
	}
	return rows, cols
}
