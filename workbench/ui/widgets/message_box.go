package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// MessageBox puts a dialog's status or problem label in a vertical scroll
// area as high as lines lines of text, whatever the label holds: a dialog
// whose content's minimum size changes after Show (a long error, then a
// short status) keeps its content's old height, because Fyne's dialog lays
// its content out from where its bottom edge was before, and its buttons
// hang below its box. After changing the label's text, call ShowMessage.
func MessageBox(label *widget.Label, lines int) *container.Scroll {
	s := container.NewVScroll(label)
	s.SetMinSize(fyne.NewSize(0, widget.NewLabel(strings.Repeat("\n", max(lines, 1)-1)+"x").MinSize().Height))
	return s
}

// ShowMessage shows box's label, just changed, from its top; the refresh
// clamps the scroll's offset to the new text, which Fyne keeps otherwise.
func ShowMessage(box *container.Scroll) {
	box.ScrollToTop()
	box.Refresh()
}
