package querybuilder

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
)

// Dragged follows a table dragged out of the catalog tree to at (absolute,
// in the window): a label follows the pointer and the builder lights up
// while under it.
func (b *Panel) Dragged(r catalogbrowser.Ref, at fyne.Position) {
	c := b.host.Window().Canvas()
	if b.dragPop == nil {
		b.dragPop = widget.NewPopUp(b.dragLabel, c)
	}
	over := b.over(at)
	if over || !b.shown {
		b.dragLabel.SetText(r.Object + " → query builder")
	} else {
		b.dragLabel.SetText(r.Object)
	}
	b.dragPop.ShowAtPosition(at.Add(fyne.NewPos(12, 12)))
	if over {
		b.bg.FillColor = theme.Color(theme.ColorNameSelection)
	} else {
		b.bg.FillColor = color.Transparent
	}
	b.bg.Refresh()
}

// Dropped drops a table on the builder (or, while it is hidden, on the
// editor area, which opens it); a drop elsewhere does nothing.
func (b *Panel) Dropped(r catalogbrowser.Ref, at fyne.Position) {
	if b.dragPop != nil {
		b.dragPop.Hide()
	}
	b.bg.FillColor = color.Transparent
	b.bg.Refresh()
	if !b.over(at) {
		return
	}
	b.SetShown(true)
	path := []string{r.Catalog, r.Database, r.Object}
	if cat, db := b.host.Tables().Current(); cat == r.Catalog && db == r.Database {
		path = []string{r.Object}
	}
	b.setTable(path)
}

// over reports whether at lies on the builder (or on the editors
// while the builder is hidden).
func (b *Panel) over(at fyne.Position) bool {
	var o fyne.CanvasObject = b.content
	if !b.shown {
		o = b.host.EditorArea()
	}
	if o == nil {
		return false
	}
	d := fyne.CurrentApp().Driver()
	p := d.AbsolutePositionForObject(o)
	s := o.Size()
	return at.X >= p.X && at.Y >= p.Y && at.X <= p.X+s.Width && at.Y <= p.Y+s.Height
}
