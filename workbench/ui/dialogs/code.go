package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// ShowCode shows code (Go source, say) in a monospaced, unwrapped
// multi-line entry under note, in a dialog titled title with a Close
// button (860×520): the query builder's Copy as Go.
func ShowCode(w fyne.Window, title, note, code string) *dialog.CustomDialog {
	e := widget.NewMultiLineEntry()
	e.SetText(code)
	e.TextStyle = fyne.TextStyle{Monospace: true}
	e.Wrapping = fyne.TextWrapOff
	d := dialog.NewCustom(title, "Close", container.NewBorder(widget.NewLabel(note), nil, nil, nil, e), w)
	d.Resize(fyne.NewSize(860, 520))
	d.Show()
	return d
}
