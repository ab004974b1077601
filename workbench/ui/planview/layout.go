package planview

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// MinFitZoom is the smallest zoom Fit goes to: at 70 % a node's text is
// about 10 px and still readable; a plan that does not fit at this zoom is
// scrolled. The − button still zooms further out (to MinZoom).
const MinFitZoom = 0.7

// newPlanText shows the EXPLAIN text in a monospace, selectable label
// that wraps long lines at the pane's width (Flink's plan lines are often
// several hundred characters long), so nothing is cut off on the right.
func newPlanText(text string) *widget.Label {
	l := widget.NewLabelWithStyle(strings.TrimRight(text, "\n"), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	return l
}
