package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// rowsLayout lays out cells in rows of n: the first column as wide as
// its widest cell, the last as its minimum, the middle ones share the
// rest.
type rowsLayout struct{ n int }

// NewRowsLayout returns a layout of n cells a row (n ≥ 1), as rowsLayout
// describes: the query builder's column, filter and join rows.
func NewRowsLayout(n int) fyne.Layout { return &rowsLayout{n: n} }

func (l *rowsLayout) widths(objects []fyne.CanvasObject) []float32 {
	w := make([]float32, l.n)
	for i, o := range objects {
		w[i%l.n] = max(w[i%l.n], o.MinSize().Width)
	}
	return w
}

func (l *rowsLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	w := l.widths(objects)
	pad := theme.Padding()
	last := w[l.n-1]
	first := min(w[0], size.Width*0.5)
	mid := size.Width - first - last - float32(l.n-1)*pad
	y := float32(0)
	for r := 0; r*l.n < len(objects); r++ {
		h := float32(0)
		for c := 0; c < l.n && r*l.n+c < len(objects); c++ {
			h = max(h, objects[r*l.n+c].MinSize().Height)
		}
		x := float32(0)
		for c := 0; c < l.n && r*l.n+c < len(objects); c++ {
			cw := mid / float32(max(1, l.n-2))
			switch c {
			case 0:
				cw = first
			case l.n - 1:
				cw = last
			}
			o := objects[r*l.n+c]
			if c > 0 && c < l.n-1 {
				// a middle column (the types) gives way when narrow
				if cw < 40 {
					o.Hide()
					continue
				}
				o.Show()
			}
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(max(cw, 0), h))
			x += cw + pad
		}
		y += h + pad
	}
}

func (l *rowsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	w := l.widths(objects)
	pad := theme.Padding()
	var width, height float32
	for _, x := range w {
		width += x
	}
	width = min(width, 200) + float32(l.n-1)*pad
	for r := 0; r*l.n < len(objects); r++ {
		h := float32(0)
		for c := 0; c < l.n && r*l.n+c < len(objects); c++ {
			h = max(h, objects[r*l.n+c].MinSize().Height)
		}
		height += h + pad
	}
	return fyne.NewSize(width, height)
}
