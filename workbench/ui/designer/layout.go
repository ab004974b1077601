package designer

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The table designer on a wide table (15 columns and more): its form
// scrolls inside the dialog both ways rather than widening the dialog past
// the window; the rows of column names to tick (primary key, partition
// keys) scroll sideways on their own, so that they do not set the form's
// width; and the column name entries are as wide as the longest name.

// designerNameMin and designerNameMax bound the name entries' width.
const (
	designerNameMin = 150
	designerNameMax = 360
)

// wideChoices puts a horizontal check group in a sideways scroller, so
// that its width does not widen the form.
func wideChoices(g *widget.CheckGroup) fyne.CanvasObject {
	return container.NewHScroll(g)
}

// nameWidth is the width of the column name entries: the longest name's
// text and the entry's padding, between designerNameMin and
// designerNameMax.
func (dd *Dialog) nameWidth() float32 {
	w := float32(0)
	for _, c := range dd.d.Columns {
		w = max(w, fyne.MeasureText(c.Name, theme.TextSize(), fyne.TextStyle{}).Width)
	}
	return min(max(w+4*theme.InnerPadding(), designerNameMin), designerNameMax)
}
